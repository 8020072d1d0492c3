"""Decode GEMV: compile-only at the model shapes; on a GPU, accuracy vs fp64, tails, bias,
streams, graphs, torch.compile and the dispatch predicate; bad input raises before launch."""

import pytest
import torch

from cute_kernels import reference
from cute_kernels.gemv import compile_gemv
from cute_kernels.linear import bf16_gemv, linear, use_bf16_gemv
from cute_kernels.testing import compile_only
from tests.conftest import poisoned

MODEL_SHAPES = [(5120, 6144), (8192, 5120), (16384, 5120), (14336, 5120), (5120, 17408),
                (34816, 5120), (36864, 7168), (7168, 18432), (4096, 7168), (7168, 2048)]


@pytest.mark.parametrize("n,k", MODEL_SHAPES)
def test_compiles_for_sm90a(n, k):
    compile_only(compile_gemv, n, k, "torch.bfloat16", False)


def test_compiles_with_bias_fp16_and_tail_n():
    compile_only(compile_gemv, 5128, 512, "torch.float16", True, 4, 4, 2)


def _check_close(got, x, w, bias=None):
    want = reference.gemv(x, w, bias).double()
    exact = (x.double().reshape(1, -1) @ w.double().T).reshape(want.shape)
    if bias is not None:
        exact = exact + bias.double()
    cublas = torch.nn.functional.linear(x, w, bias).double()
    err = (got.double() - exact).norm() / exact.norm()
    cublas_err = (cublas - exact).norm() / exact.norm()
    assert torch.isfinite(got).all()
    assert err <= max(2 * cublas_err, 1e-2), (err, cublas_err)
    assert (want - exact).norm() / exact.norm() < 1e-2


@pytest.mark.gpu
@pytest.mark.parametrize("n,k", [(96, 5120), (104, 256), (5128, 2048), (8200, 4608),
                                 (5120, 6144), (7168, 18432)])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_matches_fp64(n, k, dtype):
    x = torch.randn(k, device="cuda", dtype=dtype)
    w = torch.randn(n, k, device="cuda", dtype=dtype) * 0.05
    out = poisoned(n, dtype=dtype)
    got = bf16_gemv(x, w, out=out)
    assert got.data_ptr() == out.data_ptr() and got.shape == (n,)
    _check_close(got, x, w)


@pytest.mark.gpu
def test_bias_and_2d_x():
    x = torch.randn(1, 2048, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(1000, 2048, device="cuda", dtype=torch.bfloat16) * 0.05
    b = torch.randn(1000, device="cuda", dtype=torch.bfloat16)
    got = bf16_gemv(x, w, b)
    assert got.shape == (1, 1000)
    _check_close(got, x, w, b)


@pytest.mark.gpu
def test_non_default_stream_and_graph_capture():
    x = torch.randn(1, 4096, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16) * 0.05
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        y = bf16_gemv(x, w)
    s.synchronize()
    _check_close(y, x, w)
    out = poisoned(1, 4096, dtype=torch.bfloat16)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        bf16_gemv(x, w, out=out)
    x.copy_(torch.randn_like(x))
    g.replay()
    torch.cuda.synchronize()
    _check_close(out, x, w)


@pytest.mark.gpu
def test_torch_compile():
    x = torch.randn(1, 2048, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(512, 2048, device="cuda", dtype=torch.bfloat16) * 0.05
    f = torch.compile(lambda x, w: bf16_gemv(x, w) * 2, fullgraph=True)
    _check_close(f(x, w) / 2, x, w)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(4, 5120), (1, 5000), (1, 96)])
def test_linear_falls_back_where_predicate_says_no(shape):
    m, k = shape
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(256, k, device="cuda", dtype=torch.bfloat16)
    assert not use_bf16_gemv(m, 256, k)
    torch.testing.assert_close(linear(x, w), torch.nn.functional.linear(x, w), rtol=0, atol=0)


@pytest.mark.gpu
def test_linear_takes_gemv_on_decode_shape():
    x = torch.randn(1, 1, 5120, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(6144, 5120, device="cuda", dtype=torch.bfloat16) * 0.05
    assert use_bf16_gemv(1, 6144, 5120)
    y = linear(x, w)
    assert y.shape == (1, 1, 6144)
    _check_close(y.view(-1), x.view(-1), w)


def test_predicate():
    assert use_bf16_gemv(1, 36864, 7168)
    assert not use_bf16_gemv(2, 36864, 7168)
    assert not use_bf16_gemv(1, 36864, 7000)
    assert not use_bf16_gemv(1, 36864, 7168, torch.float32)


def test_bad_input_raises_before_launch():
    w = torch.randn(64, 512, dtype=torch.bfloat16)
    x = torch.randn(512, dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="x"):
        bf16_gemv(x.float(), w)
    with pytest.raises(TypeError, match="w"):
        bf16_gemv(x.float(), w.float())
    with pytest.raises(ValueError, match="x"):
        bf16_gemv(x[:256], w)
    with pytest.raises(ValueError, match="x"):
        bf16_gemv(torch.randn(2, 512, dtype=torch.bfloat16), w)
    with pytest.raises(ValueError, match="K = 500"):
        bf16_gemv(x[:500], w[:, :500])
    with pytest.raises(ValueError, match="CUDA"):
        bf16_gemv(x, w)
    if torch.cuda.is_available():
        wc, xc = w.cuda(), x.cuda()
        with pytest.raises(ValueError, match="contiguous"):
            bf16_gemv(xc, torch.randn(512, 64, device="cuda", dtype=torch.bfloat16).T)
        with pytest.raises(ValueError, match="aligned"):
            bf16_gemv(xc, torch.randn(64 * 512 + 1, device="cuda", dtype=torch.bfloat16)[1:].view(64, 512))
        with pytest.raises(ValueError, match="x"):
            bf16_gemv(x, wc)


# ---- fp8 -------------------------------------------------------------------------------------
from cute_kernels.linear import fp8_gemv, use_fp8_gemv  # noqa: E402


def test_fp8_compiles_for_sm90a():
    for n, k in [(5120, 6144), (36864, 7168), (7168, 2048)]:
        compile_only(compile_gemv, n, k, "torch.float8_e4m3fn", False, 2, 4, 4, "torch.bfloat16",
                     True)


@pytest.mark.gpu
@pytest.mark.parametrize("n,k", [(96, 5120), (5128, 2048), (8200, 4608), (36864, 7168)])
@pytest.mark.parametrize("alpha_as_tensor", [True, False])
def test_fp8_matches_fp64(n, k, alpha_as_tensor):
    x = (torch.randn(k, device="cuda") * 8).to(torch.float8_e4m3fn)
    w = (torch.randn(n, k, device="cuda") * 8).to(torch.float8_e4m3fn)
    alpha = torch.rand((), device="cuda") * 1e-2 + 1e-3
    got = fp8_gemv(x, w, alpha if alpha_as_tensor else float(alpha), torch.bfloat16)
    exact = (w.double() @ x.double()) * alpha.double()
    assert got.shape == (n,) and torch.isfinite(got).all()
    err = (got.double() - exact).norm() / exact.norm()
    assert err < 1e-2
    want = reference.fp8_gemv(x, w, alpha, torch.bfloat16)
    assert ((want.double() - exact).norm() / exact.norm()) < 1e-2


def test_fp8_predicate_and_bad_input():
    assert use_fp8_gemv(1, 36864, 7168) and not use_fp8_gemv(1, 36864, 7000)
    w = torch.zeros(64, 512, dtype=torch.float8_e4m3fn)
    x = torch.zeros(512, dtype=torch.float8_e4m3fn)
    with pytest.raises(TypeError, match="x_fp8"):
        fp8_gemv(x.float(), w, 1.0)
    with pytest.raises(ValueError, match="K = 256"):
        fp8_gemv(x[:256], w[:, :256], 1.0)
    with pytest.raises(TypeError, match="out_dtype"):
        fp8_gemv(x, w, 1.0, torch.int8)
    with pytest.raises(ValueError, match="CUDA"):
        fp8_gemv(x, w, 1.0)


from cute_kernels.linear import fp8_linear  # noqa: E402


def test_fp8_linear_compiles_for_sm90a():
    compile_only(compile_gemv, 5120, 6144, "torch.float8_e4m3fn", False, 2, 4, 4,
                 "torch.bfloat16", True, "torch.bfloat16")


@pytest.mark.gpu
@pytest.mark.parametrize("n,k", [(96, 5120), (8200, 4608), (7168, 18432)])
def test_fp8_linear_matches_quantize_then_gemv(n, k):
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16) * 3
    w = (torch.randn(n, k, device="cuda") * 8).to(torch.float8_e4m3fn)
    s_in = torch.tensor(0.02, device="cuda")
    s_w = torch.tensor(0.003, device="cuda")
    got = fp8_linear(x, w, s_in, s_w)
    assert got.shape == (1, n) and got.dtype == torch.bfloat16
    xq = reference.fp8_quantize(x, s_in)
    exact = (w.double() @ xq.double().view(-1)) * (s_in.float() * s_w.float()).double()
    err = (got.double().view(-1) - exact).norm() / exact.norm()
    assert err < 1e-2, err


def test_fp8_linear_bad_input():
    w = torch.zeros(64, 512, dtype=torch.float8_e4m3fn)
    with pytest.raises(TypeError, match="x"):
        fp8_linear(torch.zeros(512), w, 1.0, 1.0)
    with pytest.raises(ValueError, match="x"):
        fp8_linear(torch.zeros(256, dtype=torch.bfloat16), w, 1.0, 1.0)
    with pytest.raises(TypeError, match="out_dtype"):
        fp8_linear(torch.zeros(512, dtype=torch.bfloat16), w, 1.0, 1.0, torch.float8_e4m3fn)
    with pytest.raises(ValueError, match="CUDA"):
        fp8_linear(torch.zeros(512, dtype=torch.bfloat16), w, 1.0, 1.0)


def test_fp8_custom_ops_have_fake_implementations():
    """torch.compile traces the fp8 entry points through registered ops; their fake
    implementations give the right shape and dtype without a GPU."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(1, 512, dtype=torch.float8_e4m3fn)
        w = torch.empty(64, 512, dtype=torch.float8_e4m3fn)
        a = torch.empty(1)
        y = torch.ops.cute_kernels.fp8_gemv(x, w, a, torch.float16)
        assert y.shape == (1, 64) and y.dtype == torch.float16
        xb = torch.empty(512, dtype=torch.bfloat16)
        y = torch.ops.cute_kernels.fp8_linear(xb, w, a, a, None)
        assert y.shape == (64,) and y.dtype == torch.bfloat16


@pytest.mark.gpu
def test_fp8_torch_compile():
    x = torch.randn(1, 2048, device="cuda", dtype=torch.bfloat16)
    w = (torch.randn(4096, 2048, device="cuda") * 4).to(torch.float8_e4m3fn)
    s_in, s_w = torch.tensor(0.05, device="cuda"), torch.tensor(0.01, device="cuda")
    f = torch.compile(lambda x: fp8_linear(x, w, s_in, s_w) * 2, fullgraph=True)
    torch.testing.assert_close(f(x) / 2, fp8_linear(x, w, s_in, s_w), rtol=0, atol=0)
