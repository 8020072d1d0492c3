"""The threshold encode of the 16-bit quantization kernels (``device_fp4.encode8`` and
``thresholds_of_scale``), run on the CPU through numpy stand-ins of the PTX operations: the
same Python functions the kernel traces, so the bit assembly and the threshold arithmetic are
what these tests check.

* every input pattern (bf16 and fp16, NaN and inf included) against ``reference.e2m1_codes``
  of the fp32 product, for out_scales covering every binade, the subnormals, 0, inf and NaN,
  and the table scales of many global scales;
* the whole block arithmetic (packed |max|, scale bytes, the |G| table row, codes) against
  ``reference.nvfp4_quantize`` on the adversarial blocks and absurd global scales.
"""

import math

import numpy as np
import pytest
import torch

from cute_kernels import reference
from cute_kernels.device_fp4 import (THRESHOLD_ENTRIES, abs_max_pair, encode8,
                                     thresholds_of_scale)
from cute_kernels.nvfp4_quant import compile_nvfp4_quant
from cute_kernels.testing import compile_only

U32 = np.uint32


def _halves(a, is_bf16):
    a = np.asarray(a, dtype=U32)
    lo, hi = a & U32(0xFFFF), a >> U32(16)
    return _value16(lo, is_bf16), _value16(hi, is_bf16)


def _value16(p, is_bf16):
    p = np.asarray(p, dtype=U32)
    if is_bf16:
        return (p << U32(16)).view(np.float32)
    return (p & U32(0xFFFF)).astype(np.uint16).view(np.float16).astype(np.float32)


class NumpyOps:
    """The DeviceOps operations on numpy uint32/float32 arrays, as PTX defines them."""

    def __init__(self, is_bf16: bool):
        self.is_bf16 = is_bf16

    @staticmethod
    def u32(v):
        return U32(v)

    @staticmethod
    def f32(v):
        return np.float32(v)

    def _set(self, a, b, op):
        (al, ah), (bl, bh) = _halves(a, self.is_bf16), _halves(b, self.is_bf16)
        return (np.where(op(al, bl), U32(0xFFFF), U32(0))
                | np.where(op(ah, bh), U32(0xFFFF0000), U32(0)))

    def hgt(self, a, b):
        return self._set(a, b, np.greater)

    def hlt(self, a, b):
        return self._set(a, b, np.less)

    def hmax(self, a, b):
        """max.NaN.xorsign.abs: max(|a|, |b|), canonical NaN 0x7FFF if either is NaN, sign the
        xor of the signs."""
        out = U32(0)
        a, b = np.asarray(a, dtype=U32), np.asarray(b, dtype=U32)
        for shift in (0, 16):
            pa, pb = (a >> U32(shift)) & U32(0xFFFF), (b >> U32(shift)) & U32(0xFFFF)
            va, vb = np.abs(_value16(pa, self.is_bf16)), np.abs(_value16(pb, self.is_bf16))
            ma, mb = pa & U32(0x7FFF), pb & U32(0x7FFF)
            m = np.where(va >= vb, ma, mb)
            m = np.where(np.isnan(va) | np.isnan(vb), U32(0x7FFF), m)
            m = m | ((pa ^ pb) & U32(0x8000))
            out = out | (m << U32(shift))
        return out

    @staticmethod
    def prmt(a, b, sel: int):
        a, b = np.asarray(a, dtype=U32), np.asarray(b, dtype=U32)
        src = [(a >> U32(8 * k)) & U32(0xFF) for k in range(4)]
        src += [(b >> U32(8 * k)) & U32(0xFF) for k in range(4)]
        out = U32(0)
        for k in range(4):
            out = out | (src[(sel >> (4 * k)) & 7] << U32(8 * k))
        return out

    @staticmethod
    def select(c, a, b):
        return np.where(c, a, b).astype(np.float32)

    @staticmethod
    def umin(a, b):
        return np.minimum(np.asarray(a, dtype=U32), b)

    @staticmethod
    def not_cmp(p, t, ge: bool):
        return np.where(p >= t if ge else p > t, U32(0), U32(1))

    @staticmethod
    def rz16(q, is_bf16: bool):
        q = np.asarray(q, dtype=np.float32)
        if is_bf16:
            c = q.view(U32) >> U32(16)
        else:
            with np.errstate(over="ignore"):
                r = q.astype(np.float16)
            c = r.view(np.uint16).astype(U32)
            c = np.where(np.abs(r.astype(np.float32)) > np.abs(q), c - U32(1), c)
        return np.where(np.isnan(q), U32(0x7FFF), c).astype(U32)

    @staticmethod
    def widen16(c, is_bf16: bool):
        return _value16(c, is_bf16)


def thresholds(s: np.ndarray, is_bf16: bool) -> list[np.ndarray]:
    with np.errstate(divide="ignore", over="ignore", invalid="ignore", under="ignore"):
        xs = thresholds_of_scale(np.asarray(s, dtype=np.float32), NumpyOps(is_bf16), is_bf16)
    return [np.broadcast_to(np.asarray(x, dtype=U32), np.shape(s)) for x in xs]


def encode_all(words, thr, is_bf16):
    dup = [t | (t << U32(16)) for t in thr]
    return encode8(words, dup, NumpyOps(is_bf16))


def _unpack(words: np.ndarray) -> np.ndarray:
    """[..., n] packed words -> [..., 8 n] codes."""
    return np.stack([(words >> U32(4 * e)) & U32(0xF) for e in range(8)], -1).reshape(
        *words.shape[:-1], -1)


def _table_scales(g: float) -> np.ndarray:
    """The kernel's row scales: s = 0 if sf == 0 else 1 / (sf / |G|), bytes 0..127."""
    sf = torch.arange(THRESHOLD_ENTRIES, dtype=torch.uint8).view(torch.float8_e4m3fn).float()
    ag = torch.tensor(g, dtype=torch.float32).abs()
    s = torch.where(sf == 0, torch.zeros(()), torch.tensor(1.0) / (sf / ag))
    return s.numpy()


def _scales() -> np.ndarray:
    """Out-scales to test: the table rows of many global scales, a sweep of fp32 patterns over
    every binade and around the ranges where the estimate is scaled, and the specials."""
    rng = np.random.default_rng(7)
    gs = [1.0, 448 * 6 / 7.3, 3.1, 1e-30, 1e38, 0.0, math.inf, -2.0, 2.0 ** -149, 3.4e38,
          1e-45, 7e-39, 2.0 ** 100, 12345.678]
    gs += list(np.exp(rng.uniform(-80, 80, 24)))
    table = np.concatenate([_table_scales(g) for g in gs])
    sweep = rng.integers(0, 0x7F800000, 1500, dtype=np.int64).astype(U32).view(np.float32)
    edges = np.array([2.0 ** e * f for e in range(-149, 128, 1) for f in (1.0, 1.37)],
                     dtype=np.float32)
    special = np.array([0.0, math.inf, math.nan, 1.0, 2.0 ** -149, 2.0 ** -126, 3.4028235e38],
                       dtype=np.float32)
    return np.concatenate([table, sweep, edges, special]).astype(np.float32)


@pytest.mark.parametrize("is_bf16", [True, False])
def test_threshold_encode_matches_reference_for_every_input(is_bf16):
    """Every 16-bit input pattern x every test scale: encode8 on the thresholds ==
    reference.e2m1_codes(fp32(x) * s)."""
    patterns = np.arange(1 << 16, dtype=U32)
    xf = _value16(patterns, is_bf16)
    words = [(patterns[2 * j::8] | (patterns[2 * j + 1::8] << U32(16))) for j in range(4)]
    x_t = torch.from_numpy(xf.copy())
    scales = _scales()
    for start in range(0, len(scales), 64):
        s = scales[start:start + 64]
        thr = thresholds(s[:, None], is_bf16)
        got = _unpack(encode_all(words, thr, is_bf16))  # word w: patterns 8w .. 8w + 7
        want = reference.e2m1_codes(x_t[None, :] * torch.from_numpy(s)[:, None]).numpy()
        bad = np.nonzero(got != want)
        assert bad[0].size == 0, (
            f"s={s[bad[0][0]]!r} ({s[bad[0][0]].view(U32):#x}) x={xf[bad[1][0]]!r} "
            f"({patterns[bad[1][0]]:#06x}): got {got[bad][0]}, want {want[bad][0]}")


def emulate_quantize_cmp(x: torch.Tensor, g: float) -> tuple[torch.Tensor, torch.Tensor]:
    """The 16-bit kernel's block arithmetic, op for op on the CPU: packed |max| per lane half
    (four words, 3 max), the lane pair's fold, div6 = the IEEE quotient (proved in
    test_nvfp4_quant.py), the satfinite e4m3 byte, the table row of byte & 0x7F for |G|, encode8.
    Returns (packed [M, K/2], unswizzled scale bytes [M, K/16])."""
    is_bf16 = x.dtype == torch.bfloat16
    ops = NumpyOps(is_bf16)
    m, k = x.shape
    p = x.contiguous().view(torch.int16).numpy().astype(np.uint16).astype(U32)
    p = p.reshape(m, k // 16, 2, 4, 2)  # rows, blocks, lane half, word, element of the word
    words = p[..., 0] | (p[..., 1] << U32(16))  # [m, kb, 2, 4]
    mx = ops.hmax(ops.hmax(words[..., 0], words[..., 1]), ops.hmax(words[..., 2], words[..., 3]))
    # the kernel folds two blocks' lane maxima at once: (block 2j, 2j+1) pairs
    kb = k // 16
    mx2 = np.concatenate([mx, mx[:, -1:]], 1) if kb % 2 else mx
    pair = abs_max_pair(mx2[:, 0::2], mx2[:, 1::2], ops)  # [m, kb/2, 2 halves]
    am = ops.hmax(pair[..., 0], pair[..., 1]) & U32(0x7FFF7FFF)
    amax = np.stack([_value16(am & U32(0xFFFF), is_bf16), _value16(am >> U32(16), is_bf16)],
                    -1).reshape(m, -1)[:, :kb]
    gt = torch.tensor(g, dtype=torch.float32)
    sf = reference.e4m3_satfinite(gt * (torch.from_numpy(amax.copy()) / torch.tensor(6.0)))
    idx = sf.view(torch.uint8).numpy().astype(np.int64) & 0x7F
    rows = thresholds(_table_scales(g), is_bf16)  # 8 x [128]
    thr = [r[idx][..., None] for r in rows]  # [m, kb, 1]
    codes = _unpack(encode_all([words[..., j] for j in range(4)], thr, is_bf16))
    # codes: [m, kb, 2 * 8] -> half h's 8 codes are elements 8 h .. 8 h + 7 of the block
    codes = torch.from_numpy(codes.reshape(m, k).astype(np.uint8))
    return reference.pack_fp4(codes), sf


@pytest.mark.parametrize("g", [1.0, 448 * 6 / 7.3, 3.1, 1e-30, 1e38, 0.0, math.inf, -2.0, -0.0,
                               math.nan])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_block_arithmetic_matches_reference(g, dtype):
    from tests.test_nvfp4_quant import _adversarial

    x = _adversarial(16, 16 * 18, dtype)  # 18 blocks a row: an odd pair count is not needed
    x[5, 100] = math.nan
    x[6, :16] = torch.tensor([-0.0] * 16)
    packed, sf = emulate_quantize_cmp(x, g)
    want_packed, want_sf = reference.nvfp4_quantize(x, g, swizzle=False)
    assert torch.equal(sf.view(torch.uint8), want_sf.view(torch.uint8))
    assert torch.equal(packed, want_packed)


@pytest.mark.parametrize("silu", [False, True])
@pytest.mark.parametrize("encode,vecs,min_ctas", [("cmp", 4, 12), ("cmp", 2, 0), ("fma", 4, 0),
                                                  ("cmp", 8, 0)])
def test_encode_variants_compile(silu, encode, vecs, min_ctas):
    assert compile_only(compile_nvfp4_quant, 5120, "torch.bfloat16", silu, False, vecs, 4,
                        8 * 132, False, False, encode, min_ctas) is not None


def test_fp16_and_tail_compile():
    assert compile_only(compile_nvfp4_quant, 80, "torch.float16", False, False, 2, 4, 132,
                        False, False, "cmp", 0) is not None
