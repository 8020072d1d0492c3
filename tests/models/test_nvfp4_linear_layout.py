"""``NVFP4Linear`` holds its weight as permuted int32 words on CUDA and as packed uint8
elsewhere (``CUTE_KERNELS_PERMUTED_WEIGHTS=0`` keeps uint8 on CUDA too)."""

import pytest
import torch

from cute_kernels import prepare_nvfp4_weight, reference
from models.checkpoint import PERMUTED_WEIGHTS_ENV, NVFP4Linear


def _linear(device, w=None, sf=None):
    if w is None:
        w, sf = reference.nvfp4_quantize(torch.randn(256, 128, dtype=torch.bfloat16), 50.0)
    one = torch.ones(1)
    return (w, sf), NVFP4Linear(w.to(device), sf.to(device), one.to(device), one.to(device))


def test_cpu_keeps_packed_bytes_and_unpermutes_words():
    (w, _), lin = _linear("cpu")
    assert lin.weight.dtype == torch.uint8 and lin.k == 128 and lin.n == 256
    one = torch.ones(1)
    back = NVFP4Linear(prepare_nvfp4_weight(w), lin.weight_scale, one, one)
    assert torch.equal(back.weight, w) and torch.equal(back.packed, w)


@pytest.mark.gpu
def test_cuda_holds_permuted_words(monkeypatch):
    (w, sf), lin = _linear("cuda")
    assert lin.weight.dtype == torch.int32 and lin.k == 128
    assert torch.equal(lin.packed.cpu(), w)
    assert torch.equal(lin.to("cpu").weight, w)
    x = torch.randn(3, 128, dtype=torch.bfloat16)
    torch.testing.assert_close(lin(x.cuda()).float().cpu(), _linear("cpu", w, sf)[1](x).float(),
                               rtol=2e-2, atol=2e-2)
    monkeypatch.setenv(PERMUTED_WEIGHTS_ENV, "0")
    assert _linear("cuda")[1].weight.dtype == torch.uint8
