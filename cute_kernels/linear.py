"""Public decode-GEMV entry points: ``bf16_gemv``, ``use_bf16_gemv`` and ``linear``.

``linear(x, w, bias)`` has ``torch.nn.functional.linear``'s semantics and takes our GEMV only
where the predicate (built from H200 measurements, see ``use_bf16_gemv``) says it beats cuBLAS.
Eager calls go straight to the compiled kernel (a few microseconds of host time); under
``torch.compile`` the same function routes through a registered custom op with a fake
implementation, so it traces and captures into CUDA graphs.
"""

from __future__ import annotations

import torch

from .gemv import STEP, compile_gemv
from .validate import check_contiguous

_DTYPES = (torch.bfloat16, torch.float16)
# Tile config (rows per warp, warps per CTA, unroll) per shape; filled from H200 sweeps.
_DEFAULT_CONFIG = (2, 4, 4)
_TUNED: dict[tuple[int, int], tuple[int, int, int]] = {}


def gemv_supports(n: int, k: int) -> bool:
    """K must be a whole number of 256-element warp steps; any N >= 1."""
    return n >= 1 and k >= STEP and k % STEP == 0


def use_bf16_gemv(m: int, n: int, k: int, dtype: torch.dtype = torch.bfloat16) -> bool:
    """Whether ``linear`` should take our GEMV: one token, supported K, bf16/fp16, and a weight
    big enough that our kernel measured faster than cuBLAS (see the closing table in the notes)."""
    return m == 1 and dtype in _DTYPES and gemv_supports(n, k) and n * k >= _MIN_WEIGHT_ELEMENTS


# Below this many weight elements the measured win over cuBLAS vanished (H200 sweep).
_MIN_WEIGHT_ELEMENTS = 1 << 20


def _check(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor | None) -> tuple[int, int]:
    if not isinstance(x, torch.Tensor) or not isinstance(w, torch.Tensor):
        raise TypeError("x and w must be torch.Tensors")
    if w.dtype not in _DTYPES:
        raise TypeError(f"w: expected torch.bfloat16 or torch.float16, got {w.dtype}")
    if x.dtype != w.dtype:
        raise TypeError(f"x: expected {w.dtype} like w, got {x.dtype}")
    if w.dim() != 2:
        raise ValueError(f"w: expected a 2-D [N, K] tensor, got shape {tuple(w.shape)}")
    n, k = w.shape
    if not (x.shape == (k,) or x.shape == (1, k)):
        raise ValueError(f"x: expected shape [{k}] or [1, {k}] for w of shape {tuple(w.shape)}, "
                         f"got {tuple(x.shape)}")
    if not gemv_supports(n, k):
        raise ValueError(f"w: K = {k} is not supported by the GEMV (K must be a positive multiple "
                         f"of {STEP}); use torch.nn.functional.linear")
    if w.device.type != "cuda":
        raise ValueError(f"w: expected a CUDA tensor, got one on {w.device}")
    if x.device != w.device:
        raise ValueError(f"x: on {x.device}, but w is on {w.device}")
    check_contiguous("w", w)
    check_contiguous("x", x)
    if bias is not None:
        if bias.shape != (n,) or bias.dtype != w.dtype or bias.device != w.device:
            raise ValueError(f"bias: expected a [{n}] {w.dtype} tensor on {w.device}, got "
                             f"{tuple(bias.shape)} {bias.dtype} on {bias.device}")
        check_contiguous("bias", bias, align=2)
    return n, k


def _launch(x, w, bias, out):
    n, k = w.shape
    rows, warps, unroll = _TUNED.get((n, k), _DEFAULT_CONFIG)
    fn = compile_gemv(n, k, str(w.dtype), bias is not None, rows, warps, unroll)
    # Without bias the kernel never reads that argument; out (shape [N]) stands in for it.
    fn(x.view(1, k), w, bias if bias is not None else out.view(n), out.view(1, n))


def bf16_gemv(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor | None = None,
              out: torch.Tensor | None = None) -> torch.Tensor:
    """``x @ w.T (+ bias)`` for one token: x [K] or [1, K], w [N, K] (bf16 or fp16), fp32
    accumulation, result in x's dtype and shape ([N] or [1, N])."""
    if torch.compiler.is_compiling() and out is None:
        return torch.ops.cute_kernels.bf16_gemv(x, w, bias)
    n, _ = _check(x, w, bias)
    shape = (n,) if x.dim() == 1 else (1, n)
    if out is None:
        out = torch.empty(shape, dtype=x.dtype, device=x.device)
    elif out.shape != shape or out.dtype != x.dtype or out.device != x.device:
        raise ValueError(f"out: expected {shape} {x.dtype} on {x.device}, got "
                         f"{tuple(out.shape)} {out.dtype} on {out.device}")
    else:
        check_contiguous("out", out, align=2)
    _launch(x, w, bias, out)
    return out


@torch.library.custom_op("cute_kernels::bf16_gemv", mutates_args=())
def _bf16_gemv_op(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    n, _ = _check(x, w, bias)
    out = torch.empty((n,) if x.dim() == 1 else (1, n), dtype=x.dtype, device=x.device)
    _launch(x, w, bias, out)
    return out


@_bf16_gemv_op.register_fake
def _(x, w, bias):
    n = w.shape[0]
    return x.new_empty((n,) if x.dim() == 1 else (1, n))


def linear(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    """``torch.nn.functional.linear`` that takes the decode GEMV where ``use_bf16_gemv`` says so."""
    m = x.numel() // x.shape[-1] if x.dim() else 0
    if (x.is_cuda and w.dim() == 2 and x.shape[-1] == w.shape[1] and x.dtype == w.dtype
            and use_bf16_gemv(m, w.shape[0], w.shape[1], w.dtype)
            and w.is_contiguous() and x.is_contiguous()
            and w.data_ptr() % 16 == 0 and x.data_ptr() % 16 == 0
            and (bias is None or bias.is_contiguous())):
        y = bf16_gemv(x.reshape(1, -1), w, bias)
        return y.view(*x.shape[:-1], w.shape[0])
    return torch.nn.functional.linear(x, w, bias)
