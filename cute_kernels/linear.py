"""Public decode-GEMV entry points: ``bf16_gemv``, ``fp8_gemv``, their predicates, and ``linear``.

``linear(x, w, bias)`` has ``torch.nn.functional.linear``'s semantics and takes our GEMV only
where the predicate (built from H200 measurements, see ``use_bf16_gemv``) says it beats cuBLAS.
Eager calls go straight to the compiled kernel (a few microseconds of host time); under
``torch.compile`` the same function routes through a registered custom op with a fake
implementation, so it traces and captures into CUDA graphs.
"""

from __future__ import annotations

import torch

from .constants import constant
from .gemv import STEP, compile_gemv, step_elements
from .validate import as_scale_tensor, check_contiguous, check_dtype


_DTYPES = (torch.bfloat16, torch.float16)
# Tile config (rows per warp, warps per CTA, unroll) per (N, K): the best of
# `python -m cute_kernels.bench gemv --sweep` on the H200 (2026-11-29); others use the default.
_DEFAULT_CONFIG = (2, 4, 4)
_TUNED: dict[tuple[int, int], tuple[int, int, int]] = {
    (5120, 6144): (1, 8, 8), (8192, 5120): (2, 8, 8), (16384, 5120): (1, 4, 8),
    (14336, 5120): (1, 4, 4), (5120, 17408): (1, 4, 16), (34816, 5120): (1, 4, 8),
    (36864, 7168): (1, 8, 16), (7168, 18432): (1, 4, 8), (4096, 7168): (1, 4, 16),
    (7168, 2048): (2, 4, 4), (9216, 7168): (1, 8, 16), (7168, 4608): (2, 4, 8),
}


def gemv_supports(n: int, k: int) -> bool:
    """K must be a whole number of 256-element warp steps; any N >= 1."""
    return n >= 1 and k >= STEP and k % STEP == 0


# H200, 2026-11-29, CUDA-graph timing: with one warp per 1-2 rows, N below ~2048 leaves too
# few warps to fill 132 SMs on long rows (1024x7168: 14.4 us vs cuBLAS 9.0 us), while every
# N >= 4096 shape measured won (1.03-1.24x). Below 2^20 weight elements launch cost dominates.
_MIN_N = 2048
_MIN_WEIGHT_ELEMENTS = 1 << 20


def use_bf16_gemv(m: int, n: int, k: int, dtype: torch.dtype = torch.bfloat16) -> bool:
    """Whether ``linear`` should take our GEMV: one token, supported K, bf16/fp16, and a shape in
    the region where our kernel measured faster than cuBLAS (``python -m cute_kernels.bench gemv``
    prints the table behind this)."""
    return (m == 1 and dtype in _DTYPES and gemv_supports(n, k) and n >= _MIN_N
            and n * k >= _MIN_WEIGHT_ELEMENTS)


def _check_operands(x_name: str, x: torch.Tensor, w_name: str, w: torch.Tensor, step: int,
                    fallback: str) -> tuple[int, int]:
    """The checks every GEMV entry point shares once dtypes are known: W [N, K] with N >= 1 and
    K a positive multiple of the kernel's ``step``, x [K] or [1, K], one CUDA device, both
    contiguous and 16-byte aligned. Returns (N, K)."""
    if w.dim() != 2:
        raise ValueError(f"{w_name}: expected a 2-D [N, K] tensor, got shape {tuple(w.shape)}")
    n, k = w.shape
    if not (x.shape == (k,) or x.shape == (1, k)):
        raise ValueError(f"{x_name}: expected shape [{k}] or [1, {k}] for {w_name} of shape "
                         f"{tuple(w.shape)}, got {tuple(x.shape)}")
    if k == 0 or k % step:
        raise ValueError(f"{w_name}: K = {k} is not supported by the GEMV (K must be a positive "
                         f"multiple of {step}); use {fallback}")
    if n == 0:
        raise ValueError(f"{w_name}: N = 0 rows; the GEMV needs at least one")
    if w.device.type != "cuda":
        raise ValueError(f"{w_name}: expected a CUDA tensor, got one on {w.device}")
    if x.device != w.device:
        raise ValueError(f"{x_name}: on {x.device}, but {w_name} is on {w.device}")
    check_contiguous(w_name, w)
    check_contiguous(x_name, x)
    return n, k


def _check(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor | None) -> tuple[int, int]:
    if not isinstance(x, torch.Tensor) or not isinstance(w, torch.Tensor):
        raise TypeError("x and w must be torch.Tensors")
    if w.dtype not in _DTYPES:
        raise TypeError(f"w: expected torch.bfloat16 or torch.float16, got {w.dtype}")
    if x.dtype != w.dtype:
        raise TypeError(f"x: expected {w.dtype} like w, got {x.dtype}")
    n, k = _check_operands("x", x, "w", w, STEP, "torch.nn.functional.linear")
    if bias is not None:
        if bias.shape != (n,) or bias.dtype != w.dtype or bias.device != w.device:
            raise ValueError(f"bias: expected a [{n}] {w.dtype} tensor on {w.device}, got "
                             f"{tuple(bias.shape)} {bias.dtype} on {bias.device}")
        check_contiguous("bias", bias, align=2)
    return n, k


def _as_row(t: torch.Tensor, k: int) -> torch.Tensor:
    return t if t.dim() == 2 else t.view(1, k)


def _launch(x, w, bias, out):
    n, k = w.shape
    rows, warps, unroll = _TUNED.get((n, k), _DEFAULT_CONFIG)
    fn = compile_gemv(n, k, str(w.dtype), bias is not None, rows, warps, unroll)
    # Without bias or alpha the kernel never reads those slots; cached constants fill them.
    one = constant(1, torch.float32, w.device, 1.0)
    fn(_as_row(x, k), w, bias if bias is not None else constant(n, out.dtype, out.device),
       one, one, _as_row(out, n))


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


# ---- fp8 (e4m3) ------------------------------------------------------------------------------
FP8_STEP = step_elements(1)
_FP8_OUT = (torch.bfloat16, torch.float16, torch.float32)


def _check_fp8_operands(x_name: str, x: torch.Tensor, w_fp8: torch.Tensor) -> tuple[int, int]:
    """Shared checks of the fp8 entry points (x's dtype is checked by the caller); (N, K)."""
    check_dtype("w_fp8", w_fp8, torch.float8_e4m3fn)
    return _check_operands(x_name, x, "w_fp8", w_fp8, FP8_STEP, "torch._scaled_mm")


def use_fp8_gemv(m: int, n: int, k: int) -> bool:
    """One token, K a multiple of the fp8 step, weight large enough to beat ``_scaled_mm``."""
    return m == 1 and n >= _MIN_N and k % FP8_STEP == 0 and k > 0 and n * k >= _MIN_WEIGHT_ELEMENTS


def fp8_gemv(x_fp8: torch.Tensor, w_fp8: torch.Tensor, alpha,
             out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
    """``y = (W @ x) * alpha`` for one token: x [K] or [1, K] and W [N, K] in e4m3, alpha an
    fp32 device scalar (``input_scale * weight_scale``) or a float; fp32 accumulation."""
    if torch.compiler.is_compiling() and isinstance(alpha, torch.Tensor):
        return torch.ops.cute_kernels.fp8_gemv(x_fp8, w_fp8, alpha, out_dtype)
    check_dtype("x_fp8", x_fp8, torch.float8_e4m3fn)
    if out_dtype not in _FP8_OUT:
        raise TypeError(f"out_dtype: expected one of {_FP8_OUT}, got {out_dtype}")
    n, k = _check_fp8_operands("x_fp8", x_fp8, w_fp8)
    a = as_scale_tensor("alpha", alpha, w_fp8.device)
    dev = w_fp8.device
    out = torch.empty((1, n), dtype=out_dtype, device=dev)
    rows, warps, unroll = _TUNED_FP8.get((n, k), _DEFAULT_CONFIG)
    fn = compile_gemv(n, k, "torch.float8_e4m3fn", False, rows, warps, unroll, str(out_dtype),
                      True)
    unit = constant(1, torch.float32, dev, 1.0)  # x is already e4m3: no input scale
    fn(_as_row(x_fp8, k), w_fp8, constant(n, out_dtype, dev), a, unit, out)
    return out if x_fp8.dim() == 2 else out.view(n)


def fp8_linear(x: torch.Tensor, w_fp8: torch.Tensor, input_scale: torch.Tensor,
               weight_scale: torch.Tensor, out_dtype: torch.dtype | None = None) -> torch.Tensor:
    """One-token FP8 linear with the activation's static quantization fused in (one launch):
    ``y = (W @ e4m3(x / input_scale)) * (input_scale * weight_scale)``, x bf16/fp16 [K] or
    [1, K], W e4m3 [N, K], both scales fp32 device scalars (or floats). Output in
    ``out_dtype`` (bf16, fp16 or fp32; default x's dtype)."""
    if (torch.compiler.is_compiling() and isinstance(input_scale, torch.Tensor)
            and isinstance(weight_scale, torch.Tensor)):
        return torch.ops.cute_kernels.fp8_linear(x, w_fp8, input_scale, weight_scale, out_dtype)
    check_dtype("x", x, *_DTYPES)
    if out_dtype is not None and out_dtype not in _FP8_OUT:
        raise TypeError(f"out_dtype: expected None (x's dtype) or one of {_FP8_OUT}, "
                        f"got {out_dtype}")
    n, k = _check_fp8_operands("x", x, w_fp8)
    s_in = as_scale_tensor("input_scale", input_scale, w_fp8.device)
    s_w = as_scale_tensor("weight_scale", weight_scale, w_fp8.device)
    out_dtype = out_dtype or x.dtype
    out = torch.empty((1, n), dtype=out_dtype, device=x.device)
    # 16 rows per CTA: x is quantized once per CTA, so more rows per CTA means fewer divisions.
    rows, warps, unroll = _FP8_LINEAR_CONFIG
    fn = compile_gemv(n, k, "torch.float8_e4m3fn", False, rows, warps, unroll, str(out_dtype),
                      True, str(x.dtype))
    fn(_as_row(x, k), w_fp8, constant(n, out_dtype, x.device), s_w, s_in, out)
    return out if x.dim() == 2 else out.view(n)


_FP8_LINEAR_CONFIG = (2, 8, 4)
_TUNED_FP8: dict[tuple[int, int], tuple[int, int, int]] = {
    (5120, 6144): (1, 8, 8), (8192, 5120): (2, 8, 8), (16384, 5120): (1, 4, 16),
    (14336, 5120): (4, 4, 2), (5120, 17408): (1, 4, 8), (34816, 5120): (1, 4, 8),
    (36864, 7168): (1, 4, 8), (7168, 18432): (2, 8, 8), (4096, 7168): (1, 8, 8),
    (7168, 2048): (2, 4, 2), (9216, 7168): (2, 4, 4), (7168, 4608): (2, 4, 8),
}


# ---- torch.compile: the fp8 entry points as custom ops (eager calls skip the dispatcher) -------
def _gemv_out_shape(x: torch.Tensor, w: torch.Tensor) -> tuple[int, ...]:
    return (w.shape[0],) if x.dim() == 1 else (1, w.shape[0])


@torch.library.custom_op("cute_kernels::fp8_gemv", mutates_args=())
def _fp8_gemv_op(x_fp8: torch.Tensor, w_fp8: torch.Tensor, alpha: torch.Tensor,
                 out_dtype: torch.dtype) -> torch.Tensor:
    return fp8_gemv(x_fp8, w_fp8, alpha, out_dtype)


@_fp8_gemv_op.register_fake
def _(x_fp8, w_fp8, alpha, out_dtype):
    return x_fp8.new_empty(_gemv_out_shape(x_fp8, w_fp8), dtype=out_dtype)


@torch.library.custom_op("cute_kernels::fp8_linear", mutates_args=())
def _fp8_linear_op(x: torch.Tensor, w_fp8: torch.Tensor, input_scale: torch.Tensor,
                   weight_scale: torch.Tensor, out_dtype: torch.dtype | None) -> torch.Tensor:
    return fp8_linear(x, w_fp8, input_scale, weight_scale, out_dtype)


@_fp8_linear_op.register_fake
def _(x, w_fp8, input_scale, weight_scale, out_dtype):
    return x.new_empty(_gemv_out_shape(x, w_fp8), dtype=out_dtype or x.dtype)
