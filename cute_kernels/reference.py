"""Reference numerics: the executable form of DESIGN.md "Numerics".

Every GPU kernel is tested against these functions, bit-exactly where the kernel only moves,
scales and quantizes given values, and with tolerances against the fp64 results where a GEMM or
an ``exp`` comes first. So the arithmetic here is written out literally, in the order a kernel
must follow, one IEEE rounding per operation:

* All scalars that the design calls "fp32" (global scales ``G``, ``alpha``, ``input_scale``) are
  rounded to fp32 first, even when given as Python floats.
* Divisions are true divisions by a tensor on the data's device. (PyTorch turns
  ``cuda_tensor / python_scalar`` into a multiply by the reciprocal: not bit-identical.)
* Pure torch; works on CPU and CUDA tensors and computes on the input's device.

NVFP4 conventions (see the individual docstrings for the full statement):

* e2m1 code = ``sign << 3 | magnitude_index``, magnitudes ``E2M1_VALUES``; rounding is
  round-to-nearest-even on the code and saturates at 6. The sign bit is ``x < 0``: ``-0.0`` and
  NaN give code 0, a negative value that rounds to magnitude 0 gives code 8 ("-0").
* Per 16-element block: ``amax = max|x|`` (NaN-propagating),
  ``sf = e4m3_satfinite(G * (amax / 6))``,
  ``out_scale = 0 if sf == 0 else 1 / (float(sf) / G)``, ``q = e2m1(x * out_scale)``.
* Dequantize: ``(e2m1(q) * float(sf)) / G`` in fp32 (exact product, then one rounding).
* GEMMs follow ModelOpt: ``D = alpha * (e2m1(a) * sf_a) @ (e2m1(b) * sf_b)^T`` on the raw
  (not divided by the global scales) values, ``alpha = input_scale * weight_scale_2``.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

import torch

from .permuted_fp4 import packed_form

__all__ = [
    "E2M1_VALUES", "FP4_BLOCK", "E4M3_MAX", "E2M1_MAX",
    "e2m1_codes", "e2m1_values", "e4m3_satfinite", "pack_fp4", "unpack_fp4",
    "nvfp4_global_scale", "nvfp4_quantize", "nvfp4_dequantize", "nvfp4_raw_values",
    "fp8_quantize", "silu_mul", "silu_mul_nvfp4_quant", "silu_mul_nvfp4_quant_experts",
    "gemv", "fp8_gemv", "nvfp4_gemm", "nvfp4_gemm_fp64", "swiglu_fp64", "gemm_swiglu_quant",
    "gdn_qkvzba_split",
]

E2M1_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
FP4_BLOCK = 16
E4M3_MAX = 448.0
E2M1_MAX = 6.0
GATE_UP_GROUP = 64  # rows per gate/up group in the fused gate_up weight

Scalar = Union[float, int, torch.Tensor]


# ----------------------------------------------------------------------------- small helpers

def _pad(n: int, multiple: int) -> int:
    return (n + multiple - 1) // multiple * multiple


def _fp32_scalar(value: Scalar, device: torch.device, name: str) -> torch.Tensor:
    """A 0-d fp32 tensor on ``device``: the value rounded to fp32, as a kernel would hold it."""
    t = torch.as_tensor(value)
    if t.numel() != 1:
        raise ValueError(f"{name}: expected a scalar, got shape {tuple(t.shape)}")
    return t.reshape(()).to(device=device, dtype=torch.float32)


def _fp64_of_fp32(value: Scalar, device: torch.device, name: str) -> torch.Tensor:
    """The fp32 value of a scalar, widened exactly to fp64 (for the fp64 references)."""
    return _fp32_scalar(value, device, name).double()


def _as_u8(t: torch.Tensor, name: str) -> torch.Tensor:
    """View e4m3 (or uint8) scale bytes as uint8, so layout code never depends on fp8 support."""
    if t.dtype == torch.float8_e4m3fn:
        return t.view(torch.uint8)
    if t.dtype == torch.uint8:
        return t
    raise TypeError(f"{name}: expected torch.float8_e4m3fn (or its uint8 bytes), got {t.dtype}")


def _check_float(t: torch.Tensor, name: str) -> None:
    if not t.is_floating_point():
        raise TypeError(f"{name}: expected a floating-point tensor, got {t.dtype}")


def _swizzle(sf: torch.Tensor) -> torch.Tensor:
    """e4m3 [M, KB] -> swizzled e4m3 [pad128(M), pad4(KB)] (layouts does the index math)."""
    from layouts import swizzle_sf

    return swizzle_sf(sf.view(torch.uint8)).contiguous().view(torch.float8_e4m3fn)


def _unswizzle(buf: torch.Tensor, m: int, kb: int, name: str) -> torch.Tensor:
    from layouts import unswizzle_sf

    need = _pad(m, 128) * _pad(kb, 4)
    if buf.numel() != need:
        raise ValueError(f"{name}: expected {need} swizzled scale bytes for {m} rows x {kb} "
                         f"blocks (padded to 128 x 4), got shape {tuple(buf.shape)}")
    # flat, so a [1, Mp, KBp] buffer is not taken for a batch
    sf = unswizzle_sf(_as_u8(buf, name).reshape(-1), m, kb)
    return sf.contiguous().view(torch.float8_e4m3fn)


# ----------------------------------------------------------------------------- element formats

def e2m1_codes(x: torch.Tensor) -> torch.Tensor:
    """Round to e2m1 codes (uint8 0..15): ``sign << 3 | magnitude index``.

    Round-to-nearest-even onto {0, .5, 1, 1.5, 2, 3, 4, 6}: a tie goes to the even magnitude
    index (0.25 -> 0, 0.75 -> 1.0, 1.25 -> 1.0, 1.75 -> 2.0, 2.5 -> 2.0, 3.5 -> 4.0, 5 -> 4.0).
    ``|x| > 5`` (including > 6 and inf) saturates to 6.

    Written as comparisons, exactly as a comparison-based kernel computes it:
    ``index = (a > .25) + (a >= .75) + (a > 1.25) + (a >= 1.75) + (a > 2.5) + (a >= 3.5) + (a > 5)``
    with ``a = |x|``, and ``sign = x < 0``. Consequences (chosen, and tested):
    NaN -> code 0 (every comparison is false); ``-0.0`` -> code 0; a negative value whose
    magnitude rounds to 0 (e.g. -0.1) -> code 8 ("-0", decodes to -0.0).
    """
    _check_float(x, "x")
    x = x.float()
    a = x.abs()
    idx = torch.zeros(x.shape, dtype=torch.uint8, device=x.device)
    for cmp in (a > 0.25, a >= 0.75, a > 1.25, a >= 1.75, a > 2.5, a >= 3.5, a > 5.0):
        idx += cmp.to(torch.uint8)
    return idx | ((x < 0).to(torch.uint8) << 3)


def e2m1_values(codes: torch.Tensor) -> torch.Tensor:
    """Decode e2m1 codes 0..15 to fp32 (exact). Code 8 decodes to -0.0."""
    if codes.dtype.is_floating_point or codes.dtype == torch.bool:
        raise TypeError(f"codes: expected an integer tensor, got {codes.dtype}")
    if codes.numel() and (int(codes.min()) < 0 or int(codes.max()) > 15):
        raise ValueError("codes: e2m1 codes must lie in 0..15")
    table = torch.tensor(E2M1_VALUES + tuple(-v for v in E2M1_VALUES),
                         dtype=torch.float32, device=codes.device)
    return table[codes.long()]


def e4m3_satfinite(x: torch.Tensor) -> torch.Tensor:
    """fp32 -> ``torch.float8_e4m3fn``, round-to-nearest-even, saturating (PTX ``.satfinite``).

    Finite values and infinities beyond +-448 become +-448 (clamped first, then rounded, so
    nothing turns into NaN). Subnormals (multiples of 2^-9) round to nearest even; anything
    at or below 2^-10 in magnitude becomes zero (sign kept: -0.0 stays 0x80).
    NaN, of either sign, becomes the canonical NaN byte 0x7F.
    """
    _check_float(x, "x")
    x = x.float()
    bits = x.clamp(-E4M3_MAX, E4M3_MAX).to(torch.float8_e4m3fn).view(torch.uint8)
    nan = torch.full_like(bits, 0x7F)
    return torch.where(torch.isnan(x), nan, bits).view(torch.float8_e4m3fn)


def pack_fp4(codes: torch.Tensor) -> torch.Tensor:
    """uint8 codes [..., K] -> bytes [..., K/2]: element 2i in the low nibble, 2i+1 in the high."""
    if codes.dtype != torch.uint8:
        raise TypeError(f"codes: expected torch.uint8, got {codes.dtype}")
    if codes.dim() == 0 or codes.shape[-1] % 2:
        raise ValueError(f"codes: the last dimension must be even, got shape {tuple(codes.shape)}")
    if codes.numel() and int(codes.max()) > 15:
        raise ValueError("codes: e2m1 codes must lie in 0..15")
    return (codes[..., 0::2] | (codes[..., 1::2] << 4)).contiguous()


def unpack_fp4(packed: torch.Tensor) -> torch.Tensor:
    """Bytes [..., K/2] -> uint8 codes [..., K] (inverse of ``pack_fp4``)."""
    if packed.dtype != torch.uint8:
        raise TypeError(f"packed: expected torch.uint8, got {packed.dtype}")
    if packed.dim() == 0:
        raise ValueError("packed: expected at least one dimension")
    lo, hi = packed & 0xF, packed >> 4
    return torch.stack((lo, hi), dim=-1).reshape(*packed.shape[:-1], packed.shape[-1] * 2)


# ----------------------------------------------------------------------------- NVFP4

def nvfp4_global_scale(x: torch.Tensor) -> torch.Tensor:
    """The usual global scale ``G = 448 * 6 / max|x|`` (fp32 0-d tensor), as ModelOpt calibrates."""
    _check_float(x, "x")
    amax = x.float().abs().amax()
    return torch.full_like(amax, E4M3_MAX * E2M1_MAX) / amax


def nvfp4_quantize(x: torch.Tensor, global_scale: Scalar, swizzle: bool = True
                   ) -> Tuple[torch.Tensor, torch.Tensor]:
    """NVFP4-quantize ``x`` [M, K] (bf16/fp16/fp32) along K in blocks of 16.

    Returns ``(packed, sf)``: ``packed`` uint8 [M, K/2] (see ``pack_fp4``); ``sf`` e4m3, swizzled
    [pad128(M), pad4(K/16)] (padding zero) if ``swizzle`` else [M, K/16].

    Per block, in fp32, ``G`` = ``global_scale`` rounded to fp32:
      ``amax = max|x|``                 NaN-propagating
      ``sf = e4m3_satfinite(G * (amax / 6))``   fp32 division, then fp32 multiply
      ``out_scale = 0 if sf == 0 else 1 / (float(sf) / G)``   two fp32 divisions, in that order
      ``q = e2m1_codes(x * out_scale)``
    Defined edge cases:
      * all-zero block, or amax so small that sf rounds to 0 (G * amax / 6 <= 2^-10): sf = 0,
        all codes 0 (x * 0 = +-0 -> code 0), dequantizes to zeros, no NaN.
      * a NaN in a block: amax = NaN, sf = NaN (0x7F), out_scale = NaN, so every code in the
        block is 0 (e2m1_codes(NaN) = 0) and the whole block dequantizes to NaN.
      * +-inf in a block: amax = inf, sf saturates to 448; the inf elements get code 7/15 (+-6),
        the finite ones are scaled by G / 448 and usually round to 0 (code 0, or 8 if negative).
    """
    if not isinstance(x, torch.Tensor) or x.dim() != 2:
        raise ValueError(f"x: expected a 2-D [M, K] tensor, got "
                         f"{tuple(x.shape) if isinstance(x, torch.Tensor) else type(x)}")
    _check_float(x, "x")
    m, k = x.shape
    if k % FP4_BLOCK:
        raise ValueError(f"x: K = {k} must be a multiple of {FP4_BLOCK}")
    g = _fp32_scalar(global_scale, x.device, "global_scale")
    xb = x.float().reshape(m, k // FP4_BLOCK, FP4_BLOCK)
    amax = xb.abs().amax(dim=-1)  # torch.amax propagates NaN
    sf = e4m3_satfinite(g * (amax / torch.full_like(amax, E2M1_MAX)))
    sf_f = sf.float()
    out_scale = torch.where(sf_f == 0, torch.zeros_like(sf_f), torch.reciprocal(sf_f / g))
    codes = e2m1_codes(xb * out_scale.unsqueeze(-1)).reshape(m, k)
    packed = pack_fp4(codes)
    return packed, (_swizzle(sf) if swizzle else sf)


def nvfp4_raw_values(packed: torch.Tensor, sf: torch.Tensor, m: Optional[int] = None,
                     k: Optional[int] = None, swizzled: bool = True) -> torch.Tensor:
    """``e2m1(q) * float(sf)`` in fp32 [m, k]: exact (no global scale applied).

    This is the operand a block-scaled GEMM multiplies. ``packed`` is [m, k/2] (or any shape
    with m*k/2 bytes when m and k are given); ``sf`` is swizzled (any shape holding
    pad128(m)*pad4(k/16) bytes) if ``swizzled`` else [m, k/16]; e4m3 or its uint8 bytes.
    Permuted int32 weight words [m, k/8] (``prepare_nvfp4_weight``) are unpermuted first.
    """
    packed = packed_form(packed)
    if packed.dtype != torch.uint8:
        raise TypeError(f"packed: expected torch.uint8, got {packed.dtype}")
    if m is None or k is None:
        if packed.dim() != 2:
            raise ValueError(f"packed: expected a 2-D [M, K/2] tensor when m and k are not given,"
                             f" got shape {tuple(packed.shape)}")
        m = packed.shape[0] if m is None else m
        k = packed.shape[1] * 2 if k is None else k
    if k % FP4_BLOCK:
        raise ValueError(f"k: K = {k} must be a multiple of {FP4_BLOCK}")
    if packed.numel() != m * k // 2:
        raise ValueError(f"packed: expected {m} x {k // 2} bytes, got shape {tuple(packed.shape)}")
    kb = k // FP4_BLOCK
    if swizzled:
        sf = _unswizzle(sf, m, kb, "sf")
    else:
        _as_u8(sf, "sf")
        if tuple(sf.shape) != (m, kb):
            raise ValueError(f"sf: expected shape {(m, kb)}, got {tuple(sf.shape)}")
    vals = e2m1_values(unpack_fp4(packed.reshape(m, k // 2))).reshape(m, kb, FP4_BLOCK)
    sf_f = _as_u8(sf, "sf").view(torch.float8_e4m3fn).float()
    return (vals * sf_f.unsqueeze(-1)).reshape(m, k)


def nvfp4_dequantize(packed: torch.Tensor, sf: torch.Tensor, global_scale: Scalar,
                     m: Optional[int] = None, k: Optional[int] = None, swizzled: bool = True,
                     out_dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Dequantize NVFP4: ``out = (e2m1(q) * float(sf)) / G`` in fp32, then cast to ``out_dtype``.

    Order (kernels must match it bit-exactly): the product e2m1 x e4m3 is exact in fp32; then
    ONE true fp32 division by G (fp32); then one rounding to ``out_dtype``.
    NOT ``e2m1 * (sf / G)``, which rounds twice for the magnitudes 1.5 and 3.
    Shapes and ``swizzled`` as in ``nvfp4_raw_values``.
    """
    raw = nvfp4_raw_values(packed, sf, m, k, swizzled)
    g = _fp32_scalar(global_scale, raw.device, "global_scale")
    return (raw / g).to(out_dtype)


def fp8_quantize(x: torch.Tensor, scale: Scalar) -> torch.Tensor:
    """Static per-tensor FP8: ``e4m3_satfinite(float(x) / scale)`` (fp32 true division).

    ``scale`` is ModelOpt's ``input_scale`` (x ~= q * scale), rounded to fp32; out-of-range
    values saturate to +-448, NaN -> 0x7F.
    """
    _check_float(x, "x")
    s = _fp32_scalar(scale, x.device, "scale")
    return e4m3_satfinite(x.float() / s)


# ----------------------------------------------------------------------------- SiLU * mul + quant

def silu(g: torch.Tensor) -> torch.Tensor:
    """``g / (1 + exp(-g))`` in g's dtype (fp32 for the kernels' contract, fp64 for the fp64
    references), written out rather than ``F.silu`` so the formula is the one kernels use."""
    return g / (1.0 + torch.exp(-g))


def silu_mul(gate_up: torch.Tensor) -> torch.Tensor:
    """``h = silu(gate) * up`` in fp32, rounded once to ``gate_up``'s dtype.

    gate = first half of the last dimension, up = second half; silu(g) = g / (1 + exp(-g)).
    For bf16 input (the designed case) h is bf16, FlashInfer's convention; fp16 input rounds
    to fp16, fp32 input is not rounded.
    """
    _check_float(gate_up, "gate_up")
    if gate_up.dim() == 0 or gate_up.shape[-1] % 2:
        raise ValueError(f"gate_up: the last dimension must be even, got {tuple(gate_up.shape)}")
    i = gate_up.shape[-1] // 2
    gate, up = gate_up[..., :i].float(), gate_up[..., i:].float()
    return (silu(gate) * up).to(gate_up.dtype)


def silu_mul_nvfp4_quant(gate_up: torch.Tensor, global_scale: Scalar, swizzle: bool = True
                         ) -> Tuple[torch.Tensor, torch.Tensor]:
    """``nvfp4_quantize(silu_mul(gate_up), G)``: gate_up [M, 2I] -> (packed [M, I/2], sf)."""
    if gate_up.dim() != 2:
        raise ValueError(f"gate_up: expected a 2-D [M, 2I] tensor, got {tuple(gate_up.shape)}")
    h = silu_mul(gate_up)
    if h.shape[1] % FP4_BLOCK:
        raise ValueError(f"gate_up: I = {h.shape[1]} must be a multiple of {FP4_BLOCK}")
    return nvfp4_quantize(h, global_scale, swizzle=swizzle)


def silu_mul_nvfp4_quant_experts(gate_up: torch.Tensor, masked_m: torch.Tensor,
                                 global_scale: torch.Tensor, swizzle: bool = True
                                 ) -> Tuple[torch.Tensor, torch.Tensor]:
    """Masked MoE variant: gate_up [E, M, 2I], masked_m int [E], global_scale fp32 [E].

    Expert e's first ``masked_m[e]`` rows are quantized as ``silu_mul_nvfp4_quant`` with
    ``global_scale[e]``; rows >= masked_m[e] get zero codes and zero scales whatever their input.
    Returns packed uint8 [E, M, I/2] and sf e4m3 [E, pad128(M), pad4(I/16)], each expert's scales
    a dense swizzled [M, I/16] matrix (the 6-D expert layout is built by ``layouts``), or
    [E, M, I/16] unswizzled if ``swizzle`` is False.
    """
    if gate_up.dim() != 3:
        raise ValueError(f"gate_up: expected a 3-D [E, M, 2I] tensor, got {tuple(gate_up.shape)}")
    e, m, _ = gate_up.shape
    if masked_m.dim() != 1 or masked_m.shape[0] != e or masked_m.is_floating_point():
        raise ValueError(f"masked_m: expected an integer tensor of shape [{e}], "
                         f"got {masked_m.dtype} {tuple(masked_m.shape)}")
    gs = torch.as_tensor(global_scale)
    if gs.numel() != e:
        raise ValueError(f"global_scale: expected {e} values, got shape {tuple(gs.shape)}")
    counts = [int(c) for c in masked_m.tolist()]
    if any(c < 0 or c > m for c in counts):
        raise ValueError(f"masked_m: every count must lie in [0, {m}], got {counts}")
    packed_all, sf_all = [], []
    rows = torch.arange(m, device=gate_up.device)
    for ex in range(e):
        # Rows are independent, so quantizing all and zeroing the masked ones is the same as
        # quantizing only the valid rows.
        packed, sf = silu_mul_nvfp4_quant(gate_up[ex], gs.reshape(-1)[ex], swizzle=False)
        keep = (rows < counts[ex]).unsqueeze(1)
        packed = torch.where(keep, packed, torch.zeros_like(packed))
        sf = torch.where(keep, sf.view(torch.uint8), torch.zeros_like(sf.view(torch.uint8)))
        sf = sf.view(torch.float8_e4m3fn)
        packed_all.append(packed)
        sf_all.append(_swizzle(sf) if swizzle else sf)
    return torch.stack(packed_all), torch.stack(sf_all)


# ----------------------------------------------------------------------------- GEMV / GEMM

def gemv(x: torch.Tensor, w: torch.Tensor, bias: Optional[torch.Tensor] = None) -> torch.Tensor:
    """``y = x @ w^T (+ bias)`` computed in float64, returned in x's dtype.

    x [K], [1, K] or [M, K]; w [N, K]; bias [N]. (Kernels accumulate in fp32 and are compared
    against this with a tolerance.)
    """
    _check_float(x, "x")
    _check_float(w, "w")
    if w.dim() != 2:
        raise ValueError(f"w: expected a 2-D [N, K] tensor, got {tuple(w.shape)}")
    if x.dim() not in (1, 2) or x.shape[-1] != w.shape[1]:
        raise ValueError(f"x: expected [K] or [M, K] with K = {w.shape[1]}, got {tuple(x.shape)}")
    y = x.double() @ w.double().T
    if bias is not None:
        if tuple(bias.shape) != (w.shape[0],):
            raise ValueError(f"bias: expected shape {(w.shape[0],)}, got {tuple(bias.shape)}")
        y = y + bias.double()
    return y.to(x.dtype)


def fp8_gemv(x_fp8: torch.Tensor, w_fp8: torch.Tensor, alpha: Scalar,
             out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
    """``y = (W @ x) * alpha`` in float64 (e4m3 values converted exactly), cast to ``out_dtype``.

    x [K] -> y [N]; x [M, K] -> y [M, N] (= x @ W^T). alpha is an fp32 scalar (rounded to fp32,
    then widened exactly), typically ``input_scale * weight_scale``.
    """
    for name, t in (("x_fp8", x_fp8), ("w_fp8", w_fp8)):
        if t.dtype != torch.float8_e4m3fn:
            raise TypeError(f"{name}: expected torch.float8_e4m3fn, got {t.dtype}")
    if w_fp8.dim() != 2:
        raise ValueError(f"w_fp8: expected a 2-D [N, K] tensor, got {tuple(w_fp8.shape)}")
    if x_fp8.dim() not in (1, 2) or x_fp8.shape[-1] != w_fp8.shape[1]:
        raise ValueError(f"x_fp8: expected [K] or [M, K] with K = {w_fp8.shape[1]}, "
                         f"got {tuple(x_fp8.shape)}")
    w = w_fp8.float().double()
    x = x_fp8.float().double()
    y = w @ x if x.dim() == 1 else x @ w.T
    return (y * _fp64_of_fp32(alpha, y.device, "alpha")).to(out_dtype)


def nvfp4_gemm_fp64(a: torch.Tensor, a_sf: Optional[torch.Tensor], b: torch.Tensor,
                    b_sf: torch.Tensor, alpha: Scalar, a_global_scale: Scalar = 1.0,
                    b_global_scale: Scalar = 1.0, swizzled: bool = True) -> torch.Tensor:
    """fp64 [M, N] result of ``nvfp4_gemm`` (for tolerance checks).

    ``D = (alpha / (G_a * G_b)) * (e2m1(a) * sf_a) @ (e2m1(b) * sf_b)^T`` in float64.
    ModelOpt convention: pass ``alpha = input_scale * weight_scale_2`` and leave the global
    scales at 1.0, so the raw e2m1*sf products are multiplied by alpha only. (Passing
    G_a = 1/input_scale, G_b = 1/weight_scale_2 with alpha = 1 means the same thing.)
    a: packed uint8 [M, K/2] with a_sf, or, when a_sf is None, a floating [M, K] activation
    used as is (W4A16; a_global_scale is then ignored). b: packed uint8 [N, K/2] with b_sf.
    Scales are swizzled (padded) buffers if ``swizzled`` else [rows, K/16]. alpha and the
    global scales are fp32 values (rounded to fp32, widened exactly).
    The weights may also be ``prepare_nvfp4_weight``'s permuted int32 words [N, K/8] (the same
    values; unpermuted here).
    """
    b = packed_form(b)
    if b.dtype != torch.uint8 or b.dim() != 2:
        raise ValueError(f"b: expected packed uint8 [N, K/2], got {b.dtype} {tuple(b.shape)}")
    n, k = b.shape[0], b.shape[1] * 2
    b_raw = nvfp4_raw_values(b, b_sf, n, k, swizzled).double()
    dev = b_raw.device
    if a_sf is None:
        _check_float(a, "a")
        if a.dim() != 2 or a.shape[1] != k:
            raise ValueError(f"a: expected [M, {k}] (W4A16), got {tuple(a.shape)}")
        a_op = a.double()
        g_a = torch.ones((), dtype=torch.float64, device=dev)
    else:
        if a.dtype != torch.uint8 or a.dim() != 2 or a.shape[1] * 2 != k:
            raise ValueError(f"a: expected packed uint8 [M, {k // 2}], got {a.dtype} "
                             f"{tuple(a.shape)}")
        a_op = nvfp4_raw_values(a, a_sf, a.shape[0], k, swizzled).double()
        g_a = _fp64_of_fp32(a_global_scale, dev, "a_global_scale")
    acc = a_op @ b_raw.T
    g_b = _fp64_of_fp32(b_global_scale, dev, "b_global_scale")
    return acc * (_fp64_of_fp32(alpha, dev, "alpha") / (g_a * g_b))


def nvfp4_gemm(a: torch.Tensor, a_sf: Optional[torch.Tensor], b: torch.Tensor,
               b_sf: torch.Tensor, alpha: Scalar, out_dtype: torch.dtype = torch.bfloat16,
               a_global_scale: Scalar = 1.0, b_global_scale: Scalar = 1.0,
               swizzled: bool = True) -> torch.Tensor:
    """``nvfp4_gemm_fp64(...)`` rounded once to ``out_dtype``: D [M, N] = A @ B^T, see there."""
    return nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha, a_global_scale, b_global_scale,
                           swizzled).to(out_dtype)


def swiglu_fp64(a: torch.Tensor, a_sf: Optional[torch.Tensor], w: torch.Tensor,
                w_sf: torch.Tensor, alpha: Scalar, swizzled: bool = True) -> torch.Tensor:
    """The fp64 SwiGLU activation [M, I] of the fused gate_up GEMM (before quantization).

    ``w`` rows are ``interleave_gate_up([gate; up], 64)``: 64 up rows, 64 gate rows, ...
    (2I rows, 2I % 128 == 0); ``w_sf`` holds the scales of those interleaved rows.
    ``acc = (e2m1(a) * sf_a) @ (e2m1(w) * sf_w)^T`` in fp64 (alpha not yet applied), its
    columns de-interleaved into gate and up, then ``h = (alpha * up) * silu(alpha * gate)`` in
    fp64 with silu(g) = g / (1 + exp(-g)). a_sf None means a bf16/fp16 activation (W4A16).
    """
    from layouts import deinterleave_gate_up

    if w.dim() != 2 or w.shape[0] % (2 * GATE_UP_GROUP):
        raise ValueError(f"w: expected [2I, K/2] with 2I a multiple of {2 * GATE_UP_GROUP}, "
                         f"got {tuple(w.shape)}")
    acc = nvfp4_gemm_fp64(a, a_sf, w, w_sf, 1.0, swizzled=swizzled)  # [M, 2I], interleaved cols
    gate_up = deinterleave_gate_up(acc.T.contiguous(), GATE_UP_GROUP)  # rows [gate; up]
    i = w.shape[0] // 2
    al = _fp64_of_fp32(alpha, acc.device, "alpha")
    # contiguous [M, I] operands: the same elementwise code path as a plain [M, I] computation
    g = al * gate_up[:i].T.contiguous()
    u = al * gate_up[i:].T.contiguous()
    return (u * silu(g)).contiguous()


def gemm_swiglu_quant(a: torch.Tensor, a_sf: Optional[torch.Tensor], w: torch.Tensor,
                      w_sf: torch.Tensor, alpha: Scalar, out_global_scale: Scalar,
                      swizzled: bool = True, swizzle: bool = True
                      ) -> Tuple[torch.Tensor, torch.Tensor]:
    """Fused gate_up GEMM + SwiGLU + NVFP4 quantization: ``nvfp4_quantize(float32(h), G_out)``.

    ``h = swiglu_fp64(a, a_sf, w, w_sf, alpha)`` rounded once to fp32 (no bf16 rounding), then
    quantized with ``G_out = out_global_scale`` (the down projection's input_scale_inv).
    Returns (packed [M, I/2], sf swizzled [pad128(M), pad4(I/16)], or [M, I/16] if not
    ``swizzle``). ``swizzled`` says how the input scales a_sf/w_sf are laid out.
    """
    h = swiglu_fp64(a, a_sf, w, w_sf, alpha, swizzled=swizzled)
    return nvfp4_quantize(h.float(), out_global_scale, swizzle=swizzle)


# ----------------------------------------------------------------------------- Gated DeltaNet

def gdn_qkvzba_split(mixed_qkvz: torch.Tensor, mixed_ba: torch.Tensor, num_k_heads: int,
                     num_v_heads: int, head_k_dim: int, head_v_dim: int,
                     layout: str = "contiguous"
                     ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Split the Gated-DeltaNet input projections into (mixed_qkv, z, b, a).

    mixed_qkvz [T, 2*Hk*Dk + 2*Hv*Dv], mixed_ba [T, 2*Hv], r = Hv / Hk.
    layout "contiguous": mixed_qkvz = [q (Hk*Dk) | k (Hk*Dk) | v (Hv*Dv) | z (Hv*Dv)],
      mixed_ba = [b (Hv) | a (Hv)].
    layout "interleaved" (Qwen3-Next checkpoints): per k-head group g = 0..Hk-1,
      mixed_qkvz holds [q_g (Dk) | k_g (Dk) | v (r*Dv) | z (r*Dv)] and mixed_ba [b (r) | a (r)];
      the value heads of group g are g*r + j, j = 0..r-1.
    Returns, for both layouts: mixed_qkv [T, 2*Hk*Dk + Hv*Dv] = [q heads | k heads | v heads]
    in head order, z [T, Hv, Dv], b [T, Hv], a [T, Hv]; all contiguous, input dtype.
    """
    hk, hv, dk, dv = num_k_heads, num_v_heads, head_k_dim, head_v_dim
    for name, val in (("num_k_heads", hk), ("num_v_heads", hv), ("head_k_dim", dk),
                      ("head_v_dim", dv)):
        if int(val) != val or val <= 0:
            raise ValueError(f"{name}: expected a positive integer, got {val!r}")
    if hv % hk:
        raise ValueError(f"num_v_heads: {hv} must be a multiple of num_k_heads = {hk}")
    if layout not in ("contiguous", "interleaved"):
        raise ValueError(f"layout: expected 'contiguous' or 'interleaved', got {layout!r}")
    r = hv // hk
    if mixed_qkvz.dim() != 2 or mixed_qkvz.shape[1] != 2 * hk * dk + 2 * hv * dv:
        raise ValueError(f"mixed_qkvz: expected [T, {2 * hk * dk + 2 * hv * dv}], "
                         f"got {tuple(mixed_qkvz.shape)}")
    t = mixed_qkvz.shape[0]
    if mixed_ba.dim() != 2 or tuple(mixed_ba.shape) != (t, 2 * hv):
        raise ValueError(f"mixed_ba: expected [{t}, {2 * hv}], got {tuple(mixed_ba.shape)}")
    if layout == "contiguous":
        q, k, v, z = torch.split(mixed_qkvz, [hk * dk, hk * dk, hv * dv, hv * dv], dim=1)
        b, a = torch.split(mixed_ba, [hv, hv], dim=1)
    else:
        grp = mixed_qkvz.reshape(t, hk, 2 * dk + 2 * r * dv)
        q, k, v, z = torch.split(grp, [dk, dk, r * dv, r * dv], dim=2)
        b, a = torch.split(mixed_ba.reshape(t, hk, 2 * r), [r, r], dim=2)
    mixed_qkv = torch.cat([q.reshape(t, hk * dk), k.reshape(t, hk * dk), v.reshape(t, hv * dv)],
                          dim=1)
    return (mixed_qkv, z.reshape(t, hv, dv).contiguous(), b.reshape(t, hv).contiguous(),
            a.reshape(t, hv).contiguous())
