"""Quantized lm_head: logits in the requested dtype (default fp32), CPU reference path."""

from __future__ import annotations

import pytest
import torch

from ckpt_helpers import fp32, nvfp4_entry, nvfp4_weight_fp64, rel_err
from cute_kernels import reference
from models.checkpoint import CheckpointError
from models.lm_head import QuantizedLMHead

V, H = 512, 256


def _w(seed=0):
    return torch.randn(V, H, generator=torch.Generator().manual_seed(seed)) / H ** 0.5


def _fp8_ckpt(static: bool):
    w = _w()
    ws = fp32(w.abs().max() / 448.0)
    t = {"lm_head.weight": reference.fp8_quantize(w, ws), "lm_head.weight_scale": ws}
    if static:
        t["lm_head.input_scale"] = fp32(4.0 / 448.0)
    return t


def _x(m, seed=3):
    return torch.randn(m, H, generator=torch.Generator().manual_seed(seed)).bfloat16()


@pytest.mark.parametrize("out_dtype", [None, torch.float32, torch.bfloat16, torch.float16])
@pytest.mark.parametrize("static", [True, False])
@pytest.mark.parametrize("m", [1, 4])
def test_fp8_lm_head(m, static, out_dtype):
    t = _fp8_ckpt(static)
    head = QuantizedLMHead.from_checkpoint(t, "lm_head", V, H)
    assert head.format == "fp8"
    x = _x(m)
    y = head(x) if out_dtype is None else head(x, out_dtype=out_dtype)
    assert y.dtype == (out_dtype or torch.float32) and y.shape == (m, V)
    # exact spec: e4m3(x / s) @ W^T * (s * ws) in fp64, rounded once
    s = head.input_scale_for(x)
    xq = reference.fp8_quantize(x, s).float().double()
    want = (xq @ t["lm_head.weight"].float().double().T) * float(s * t["lm_head.weight_scale"])
    torch.testing.assert_close(y.double(), want.to(y.dtype).double(), rtol=0, atol=0)
    # vs fp64 on the dequantized weight with the unquantized x: fp8 activation noise only
    w64 = t["lm_head.weight"].float().double() * t["lm_head.weight_scale"].double()
    assert rel_err(y, x.double() @ w64.T) < 5e-2


def test_fp32_logits_keep_bits_bf16_would_lose():
    head = QuantizedLMHead.from_checkpoint(_fp8_ckpt(True), "lm_head")
    x = _x(4)
    y32, y16 = head(x), head(x, out_dtype=torch.bfloat16)
    assert torch.equal(y32.bfloat16(), y16)
    assert not torch.equal(y32, y16.float())  # fp32 logits are not upcast bf16 ones


@pytest.mark.parametrize("m", [1, 4])
def test_nvfp4_lm_head(m):
    w = _w(1)
    t = nvfp4_entry("lm_head", w, 0.01)
    head = QuantizedLMHead.from_checkpoint(t, "lm_head", V, H)
    assert head.format == "nvfp4"
    x = _x(m)
    y = head(x)
    assert y.dtype == torch.float32 and y.shape == (m, V)
    want = x.double() @ nvfp4_weight_fp64(t, "lm_head").T
    assert rel_err(y, want) < 1e-6  # W4A16: exact products, fp64 accumulation, one fp32 rounding
    assert head(x, out_dtype=torch.bfloat16).dtype == torch.bfloat16
    assert head(x.reshape(m, 1, H)).shape == (m, 1, V)


def test_bad_input_and_checkpoint():
    head = QuantizedLMHead.from_checkpoint(_fp8_ckpt(True), "lm_head")
    with pytest.raises(ValueError, match="x"):
        head(_x(2)[:, :128])
    with pytest.raises(TypeError, match="x"):
        head(_x(2).to(torch.int32))
    with pytest.raises(TypeError, match="out_dtype"):
        head(_x(2), out_dtype=torch.float64)
    t = _fp8_ckpt(True)
    with pytest.raises(CheckpointError, match="lm_head.weight_scale"):
        QuantizedLMHead.from_checkpoint({"lm_head.weight": t["lm_head.weight"]}, "lm_head")
    with pytest.raises(CheckpointError, match="lm_head.weight"):
        QuantizedLMHead.from_checkpoint({**t, "lm_head.weight": _w().bfloat16()}, "lm_head")
    with pytest.raises(CheckpointError, match="vocab"):
        QuantizedLMHead.from_checkpoint(t, "lm_head", vocab_size=V + 1)
    with pytest.raises(CheckpointError, match="lm_head.input_scale"):
        QuantizedLMHead.from_checkpoint({**t, "lm_head.input_scale": fp32(-1.0)}, "lm_head")
