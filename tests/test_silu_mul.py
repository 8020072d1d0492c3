"""``silu_mul``: compile-only on CPU; bit-exact with the reference on a GPU."""

import pytest
import torch

from cute_kernels import reference
from cute_kernels.silu_mul import compile_silu_mul, silu_mul
from cute_kernels.testing import compile_only
from tests.conftest import poisoned


@pytest.mark.parametrize("i,dtype", [(17408, "torch.bfloat16"), (24, "torch.float16")])
def test_compiles_for_sm90a(i, dtype):
    assert compile_only(compile_silu_mul, i, dtype) is not None


def test_bad_input_raises_before_launch():
    x = torch.randn(4, 64, dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="gate_up: expected dtype"):
        silu_mul(x.float())
    with pytest.raises(ValueError, match="2-D"):
        silu_mul(x.view(-1))
    with pytest.raises(ValueError, match="multiple of 16"):
        silu_mul(x[:, :40].contiguous())
    with pytest.raises(ValueError, match="contiguous"):
        silu_mul(x.t().contiguous().t())
    with pytest.raises(ValueError, match="CUDA"):
        silu_mul(x)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 129])
@pytest.mark.parametrize("i", [8, 2048, 17408])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_bit_exact(m, i, dtype):
    scale = 4.0 if dtype == torch.bfloat16 else 2.0
    x = (torch.randn(m, 2 * i, device="cuda") * scale).to(dtype)
    out = poisoned(m, i, dtype=dtype)
    got = silu_mul(x, out=out)
    assert got.data_ptr() == out.data_ptr()
    assert torch.equal(got, reference.silu_mul(x))


@pytest.mark.gpu
def test_zero_rows_and_special_values():
    assert silu_mul(torch.empty(0, 32, device="cuda", dtype=torch.bfloat16)).shape == (0, 16)
    x = torch.tensor([[0.0, -0.0, 100.0, -100.0, float("inf"), float("-inf"), float("nan"), 1.0]
                      + [2.0] * 8], device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(silu_mul(x), reference.silu_mul(x), rtol=0, atol=0,
                               equal_nan=True)
