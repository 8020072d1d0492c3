"""Quantized lm_head whose logits come out in the dtype the caller asks for.

``QuantizedLMHead(x, out_dtype=torch.float32)``: logits [..., vocab] in ``out_dtype`` (default
float32), NOT the weight's / activation's dtype, and rounded once from the fp32/fp64 accumulator
(no intermediate bf16 rounding; the SGLang speculative-decoding fix: draft/target logits
compared in fp32).

Formats (``from_checkpoint`` detects them from ``<prefix>.weight``):
* fp8: ``weight`` float8_e4m3fn [V, H], ``weight_scale`` fp32 scalar, optional ``input_scale``
  fp32 scalar (static; without it x is quantized per call with ``s = max|x| / 448``).
  ``x_q = fp8_quantize(x, s)``, ``logits = (x_q @ W^T) * (s * weight_scale)``.
  CPU: ``reference.fp8_gemv`` (fp64; it also takes [M, K] and then computes ``x @ W^T`` in
  fp64 -- the same formula for any M). CUDA: ``cute_kernels.fp8_gemv`` at M = 1,
  ``torch._scaled_mm`` (M padded to 16) otherwise.
* NVFP4 (ModelOpt): W4A16 ``nvfp4_gemm(x, W, alpha = weight_scale_2, out_dtype)`` via
  ``models.ops`` (kernel on CUDA, reference on CPU).
"""

from __future__ import annotations

from typing import Optional, Union

import torch

from cute_kernels import reference

from . import ops
from .checkpoint import CheckpointError, NVFP4Linear, _get, _scalar, load_projection, read_tensors

__all__ = ["FP8LMHeadWeight", "QuantizedLMHead"]

OUT_DTYPES = (torch.float32, torch.bfloat16, torch.float16)
X_DTYPES = (torch.bfloat16, torch.float16, torch.float32)


class FP8LMHeadWeight:
    def __init__(self, weight: torch.Tensor, weight_scale: torch.Tensor,
                 input_scale: Optional[torch.Tensor] = None):
        self.weight, self.weight_scale, self.input_scale = weight, weight_scale, input_scale

    @property
    def n(self) -> int:
        return self.weight.shape[0]

    @property
    def k(self) -> int:
        return self.weight.shape[1]

    def to(self, device) -> "FP8LMHeadWeight":
        return FP8LMHeadWeight(self.weight.to(device), self.weight_scale.to(device),
                               None if self.input_scale is None else self.input_scale.to(device))

    def dequantized_fp64(self) -> torch.Tensor:
        return self.weight.float().double() * self.weight_scale.double()


class QuantizedLMHead:
    def __init__(self, weight: Union[FP8LMHeadWeight, NVFP4Linear]):
        if not isinstance(weight, (FP8LMHeadWeight, NVFP4Linear)):
            raise TypeError(f"weight: expected FP8LMHeadWeight or NVFP4Linear, "
                            f"got {type(weight).__name__}")
        self.weight = weight

    @property
    def format(self) -> str:
        return "fp8" if isinstance(self.weight, FP8LMHeadWeight) else "nvfp4"

    @property
    def vocab_size(self) -> int:
        return self.weight.n

    @property
    def hidden_size(self) -> int:
        return self.weight.k

    @classmethod
    def from_checkpoint(cls, source, prefix: str = "lm_head", vocab_size: Optional[int] = None,
                        hidden_size: Optional[int] = None, device=None) -> "QuantizedLMHead":
        tensors = read_tensors(source)
        wname = f"{prefix}.weight"
        w = _get(tensors, wname)
        if w.dtype == torch.float8_e4m3fn:
            if w.dim() != 2:
                raise CheckpointError(f"{wname}: expected a 2-D [V, H] tensor, got "
                                      f"{list(w.shape)}")
            for name, want, got in (("vocab", vocab_size, w.shape[0]),
                                    ("hidden", hidden_size, w.shape[1])):
                if want is not None and want != got:
                    raise CheckpointError(f"{wname}: expected {name} size {want}, got shape "
                                          f"{list(w.shape)}")
            ws = _scalar(tensors, f"{prefix}.weight_scale")
            s_in = (_scalar(tensors, f"{prefix}.input_scale")
                    if f"{prefix}.input_scale" in tensors else None)
            weight = FP8LMHeadWeight(w.contiguous(), ws, s_in)
            return cls(weight.to(device) if device is not None else weight)
        if w.dtype == torch.uint8:
            proj = load_projection(tensors, prefix, hidden_size, vocab_size, device)
            return cls(proj)
        raise CheckpointError(f"{wname}: expected float8_e4m3fn (fp8) or uint8 (NVFP4), "
                              f"got {w.dtype}")

    def to(self, device) -> "QuantizedLMHead":
        return QuantizedLMHead(self.weight.to(device))

    def __call__(self, x: torch.Tensor, out_dtype: torch.dtype = torch.float32) -> torch.Tensor:
        """x [..., hidden] (bf16/fp16/fp32) -> logits [..., vocab] in ``out_dtype``."""
        if not isinstance(x, torch.Tensor):
            raise TypeError(f"x: expected a tensor, got {type(x).__name__}")
        if x.dtype not in X_DTYPES:
            raise TypeError(f"x: expected one of {X_DTYPES}, got {x.dtype}")
        if out_dtype not in OUT_DTYPES:
            raise TypeError(f"out_dtype: expected one of {OUT_DTYPES}, got {out_dtype}")
        if x.dim() < 1 or x.shape[-1] != self.hidden_size:
            raise ValueError(f"x: expected [..., {self.hidden_size}], got {tuple(x.shape)}")
        lead = x.shape[:-1]
        x2 = x.reshape(-1, self.hidden_size).contiguous()
        if self.format == "nvfp4":
            w = self.weight
            a = x2 if x2.dtype != torch.float32 or not ops.on_gpu(x2) else x2.bfloat16()
            y = ops.nvfp4_gemm(a, None, w.weight, w.weight_scale, w.weight_scale_2,
                               out_dtype=out_dtype)
        else:
            y = self._fp8(x2, out_dtype)
        return y.reshape(*lead, self.vocab_size)

    def input_scale_for(self, x2: torch.Tensor) -> torch.Tensor:
        """Static input_scale if the checkpoint has one, else ``max|x| / 448`` (fp32, >0)."""
        w = self.weight
        if w.input_scale is not None:
            return w.input_scale.to(x2.device)
        amax = x2.float().abs().amax().reshape(1)
        tiny = torch.full_like(amax, torch.finfo(torch.float32).tiny)
        return torch.maximum(amax / torch.full_like(amax, reference.E4M3_MAX), tiny)

    def _fp8(self, x2: torch.Tensor, out_dtype: torch.dtype) -> torch.Tensor:
        w = self.weight
        s = self.input_scale_for(x2)
        xq = reference.fp8_quantize(x2, s)
        alpha = s * w.weight_scale.to(s.device)
        m = x2.shape[0]
        if not ops.on_gpu(x2):
            return reference.fp8_gemv(xq, w.weight, alpha, out_dtype=out_dtype)
        if m == 1:
            from cute_kernels import fp8_gemv
            return fp8_gemv(xq, w.weight, alpha, out_dtype=out_dtype)
        mp = (m + 15) // 16 * 16
        if mp != m:
            xq = torch.cat([xq, xq.new_zeros(mp - m, xq.shape[1])])
        y = torch._scaled_mm(xq, w.weight.t(), scale_a=s.reshape(()).float(),
                             scale_b=w.weight_scale.reshape(()).float().to(s.device),
                             out_dtype=out_dtype)
        return y[:m]
