"""Tests of cute_kernels.reference against hand-computed vectors and independent computations.

CPU only. Tests that need the ``layouts`` package (scale swizzle, gate/up interleave) skip
until it is importable.
"""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from cute_kernels import reference as ref

NAN, INF = float("nan"), float("inf")
E4M3 = torch.float8_e4m3fn


def _layouts():
    try:
        import layouts
        return (layouts.swizzle_sf, layouts.unswizzle_sf, layouts.interleave_gate_up,
                layouts.deinterleave_gate_up)
    except (ImportError, AttributeError):
        pytest.skip("layouts (swizzle_sf, unswizzle_sf, interleave_gate_up) not available yet")


def _bytes(sf):
    return sf.view(torch.uint8)


def _swizzle_by_formula(sf):
    """DESIGN.md's byte-offset formula, written independently of layouts."""
    m, kb = sf.shape
    mp, kbp = -(-m // 128) * 128, -(-kb // 4) * 4
    out = torch.zeros(mp * kbp, dtype=torch.uint8)
    for r in range(m):
        for c in range(kb):
            off = ((r // 128) * (kbp // 4) * 512 + (c // 4) * 512 + (r % 32) * 16
                   + ((r % 128) // 32) * 4 + (c % 4))
            out[off] = sf.view(torch.uint8)[r, c]
    return out


def _codes(x):
    return ref.e2m1_codes(torch.tensor(x, dtype=torch.float32)).tolist()


# ----------------------------------------------------------------------------- e2m1

def test_constants():
    assert ref.E2M1_VALUES == (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
    assert (ref.FP4_BLOCK, ref.E4M3_MAX, ref.E2M1_MAX) == (16, 448.0, 6.0)


def test_e2m1_exact_values():
    assert _codes(list(ref.E2M1_VALUES)) == list(range(8))
    assert _codes([-v for v in ref.E2M1_VALUES[1:]]) == list(range(9, 16))


def test_e2m1_ties_round_to_even_code():
    ties = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0]
    want = [0, 2, 2, 4, 4, 6, 6]  # 0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0: the even magnitude index
    assert _codes(ties) == want
    assert _codes([-t for t in ties]) == [c | 8 for c in want]  # -0.25 -> "-0" (code 8)


def test_e2m1_just_above_and_below_ties():
    ties = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0])
    up = torch.nextafter(ties, torch.full_like(ties, INF))
    down = torch.nextafter(ties, torch.zeros_like(ties))
    assert ref.e2m1_codes(up).tolist() == [1, 2, 3, 4, 5, 6, 7]
    assert ref.e2m1_codes(down).tolist() == [0, 1, 2, 3, 4, 5, 6]
    assert ref.e2m1_codes(-up).tolist() == [9, 10, 11, 12, 13, 14, 15]


def test_e2m1_saturation_and_specials():
    assert _codes([6.0, 6.5, 7.0, 100.0, 3e38, INF]) == [7] * 6
    assert _codes([-7.0, -100.0, -INF]) == [15] * 3
    # Chosen conventions: NaN -> 0 and -0.0 -> 0 (comparisons), small negatives -> 8 ("-0").
    assert _codes([NAN, -NAN, 0.0, -0.0, 0.1, -0.1, -1e-30]) == [0, 0, 0, 0, 0, 8, 8]


def _nearest_even(v):
    """Brute force: nearest e2m1 magnitude, ties to the even index, saturating."""
    a = abs(v)
    best = min(range(8), key=lambda i: (abs(a - ref.E2M1_VALUES[i]), i % 2))
    return best | (8 if v < 0 else 0)


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=-8.0, max_value=8.0, width=32, allow_nan=False))
def test_e2m1_matches_brute_force(v):
    assert _codes([v]) == [_nearest_even(v)]


def test_e2m1_values_decode_and_roundtrip():
    codes = torch.arange(16, dtype=torch.uint8)
    vals = ref.e2m1_values(codes)
    assert vals.dtype == torch.float32
    assert vals.tolist() == list(ref.E2M1_VALUES) + [-v for v in ref.E2M1_VALUES]
    assert math.copysign(1.0, vals[8].item()) == -1.0  # code 8 is -0.0
    back = ref.e2m1_codes(vals)
    assert back.tolist() == [0] + list(range(1, 8)) + [0] + list(range(9, 16))  # -0.0 -> 0
    with pytest.raises(ValueError, match="codes"):
        ref.e2m1_values(torch.tensor([16], dtype=torch.uint8))


# ----------------------------------------------------------------------------- packing

def test_pack_order():
    codes = torch.tensor([[1, 2, 3, 4, 15, 0]], dtype=torch.uint8)
    packed = ref.pack_fp4(codes)
    assert packed.tolist() == [[0x21, 0x43, 0x0F]]  # element 2i low nibble, 2i+1 high
    assert torch.equal(ref.unpack_fp4(packed), codes)


def test_pack_roundtrip_random_and_errors():
    codes = torch.randint(0, 16, (3, 5, 64), dtype=torch.uint8)
    packed = ref.pack_fp4(codes)
    assert packed.shape == (3, 5, 32)
    assert torch.equal(ref.unpack_fp4(packed), codes)
    with pytest.raises(ValueError, match="codes"):
        ref.pack_fp4(torch.zeros(3, dtype=torch.uint8))
    with pytest.raises(ValueError, match="codes"):
        ref.pack_fp4(torch.tensor([16, 0], dtype=torch.uint8))


# ----------------------------------------------------------------------------- e4m3

def _e4m3_bytes(vals):
    return _bytes(ref.e4m3_satfinite(torch.tensor(vals, dtype=torch.float32))).tolist()


def test_e4m3_hand_values():
    assert _e4m3_bytes([1.0, 448.0, 6.0, -2.0, 0.0, -0.0]) == [0x38, 0x7E, 0x4C, 0xC0, 0x00, 0x80]
    # subnormals are k * 2^-9: 2^-9 -> 1, 2^-10 ties to 0 (even), 1.5 * 2^-9 ties to 2
    assert _e4m3_bytes([2.0 ** -9, 2.0 ** -10, 1.5 * 2.0 ** -9, 2.0 ** -10 * 1.0001,
                        2.0 ** -11, 7 * 2.0 ** -9]) == [0x01, 0x00, 0x02, 0x01, 0x00, 0x07]
    # normal ties: 1.0625 is between 1.0 (mantissa 0) and 1.125 (1) -> 1.0; 1.1875 -> 1.25
    assert _e4m3_bytes([1.0625, 1.1875]) == [0x38, 0x3A]


def test_e4m3_saturation_and_nan():
    assert _e4m3_bytes([449.0, 464.0, 480.0, 1e6, 3e38, INF]) == [0x7E] * 6
    assert _e4m3_bytes([-464.0, -1e6, -INF]) == [0xFE] * 3
    assert _e4m3_bytes([NAN, -NAN]) == [0x7F, 0x7F]


def test_e4m3_exhaustive_rne():
    codes = torch.arange(0x7F, dtype=torch.uint8)  # all positive finite codes 0x00..0x7E
    vals = codes.view(E4M3).float()
    assert torch.equal(_bytes(ref.e4m3_satfinite(vals)), codes)
    assert torch.equal(_bytes(ref.e4m3_satfinite(-vals)), codes | 0x80)
    mid = (vals[:-1] + vals[1:]) / 2  # exact in fp32
    even = torch.where(codes[:-1] % 2 == 0, codes[:-1], codes[1:])
    assert torch.equal(_bytes(ref.e4m3_satfinite(mid)), even)
    above = torch.nextafter(mid, torch.full_like(mid, INF))
    below = torch.nextafter(mid, torch.zeros_like(mid))
    assert torch.equal(_bytes(ref.e4m3_satfinite(above)), codes[1:])
    assert torch.equal(_bytes(ref.e4m3_satfinite(below)), codes[:-1])


def test_fp8_quantize():
    x = torch.tensor([1.0, 3.0, -0.75, 1000.0, -1e9, NAN], dtype=torch.bfloat16)
    q = ref.fp8_quantize(x, 0.5)  # x / 0.5
    assert q.dtype == E4M3
    assert _bytes(q).tolist() == [0x40, 0x4C, 0xBC, 0x7E, 0xFE, 0x7F]


# ----------------------------------------------------------------------------- NVFP4 quantize

# Block A: G = 3, amax = 12: sf = e4m3(3 * (12/6)) = 6 exactly, out_scale = 1/(6/3) = 0.5,
# so the scaled values below are exact and hit the e2m1 ties.
BLOCK_A = [0.0, 0.1, -0.3, 0.5, 0.74, 0.76, -1.25, 1.3, 1.75, -2.4, 2.6, 3.5, -4.9, 5.1, 6.0, -12.0]
#   scaled  0   .05  -.15  .25  .37   .38   -.625  .65  .875  -1.2  1.3  1.75 -2.45 2.55 3.0 -6.0
CODES_A = [0, 0, 8, 0, 1, 1, 9, 1, 2, 10, 3, 4, 12, 5, 5, 15]
PACKED_A = [0x00, 0x08, 0x11, 0x19, 0xA2, 0x43, 0x5C, 0xF5]

# Block B: G = 3.1 (fp32), amax = 12: G * 2 = 6.2 rounds to sf = 6.0 (0x4C), out_scale =
# 1/(6/3.1) ~= 0.516667, so 12 scales to 6.2 and saturates.
BLOCK_B = [12.0, 1.0, 2.0, -3.0, 4.0, 5.0, 7.0, 9.0, 10.0, 0.4, 0.5, -0.45, 1.5, 2.5, 3.3, -3.5]
#   scaled 6.2  .517 1.03 -1.55 2.07 2.58 3.62 4.65 5.17 .207 .258 -.232 .775 1.29 1.71 -1.81
CODES_B = [7, 1, 2, 11, 4, 5, 6, 6, 7, 0, 1, 8, 2, 3, 3, 12]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_quantize_hand_block_a(dtype):
    x = torch.tensor([BLOCK_A], dtype=torch.float32)
    if dtype == torch.bfloat16:  # bf16 inputs: pick values bf16 represents, same codes
        x = x.to(dtype).float()
        assert ref.e2m1_codes(x * 0.5).tolist() == [CODES_A]
    packed, sf = ref.nvfp4_quantize(x.to(dtype), 3.0, swizzle=False)
    assert packed.dtype == torch.uint8 and sf.dtype == E4M3
    assert packed.tolist() == [PACKED_A]
    assert ref.unpack_fp4(packed).tolist() == [CODES_A]
    assert _bytes(sf).tolist() == [[0x4C]]  # 6.0
    deq = ref.nvfp4_dequantize(packed, sf, 3.0, swizzled=False)
    want = [ref.E2M1_VALUES[c & 7] * (-1 if c & 8 else 1) * 6.0 / 3.0 for c in CODES_A]
    assert deq.tolist() == [want]


def test_quantize_hand_block_b():
    x = torch.tensor([BLOCK_B])
    packed, sf = ref.nvfp4_quantize(x, 3.1, swizzle=False)
    assert _bytes(sf).tolist() == [[0x4C]]
    assert ref.unpack_fp4(packed).tolist() == [CODES_B]
    # dequant order: (e2m1 * sf) / G, one fp32 rounding
    g = torch.tensor(3.1, dtype=torch.float32)
    want = (ref.e2m1_values(torch.tensor(CODES_B, dtype=torch.uint8)) * 6.0) / g
    assert torch.equal(ref.nvfp4_dequantize(packed, sf, 3.1, swizzled=False), want.view(1, 16))


def test_quantize_literal_formula_random():
    """Per-block formula written out element by element against the vectorised reference."""
    x = torch.randn(4, 64) * 3
    g = ref.nvfp4_global_scale(x)
    packed, sf = ref.nvfp4_quantize(x, g, swizzle=False)
    codes = ref.unpack_fp4(packed)
    for r in range(4):
        for b in range(4):
            blk = x[r, 16 * b:16 * b + 16]
            amax = blk.abs().max()
            s = ref.e4m3_satfinite(g * (amax / torch.tensor(6.0)))
            assert _bytes(s) == _bytes(sf[r, b])
            out_scale = torch.tensor(1.0) / (s.float() / g)
            assert torch.equal(codes[r, 16 * b:16 * b + 16], ref.e2m1_codes(blk * out_scale))


def test_quantize_zero_blocks():
    x = torch.randn(3, 48)
    x[0, 16:32] = 0.0
    x[1, 0:16] = -0.0
    x[2, :] = 0.0
    packed, sf = ref.nvfp4_quantize(x, 100.0, swizzle=False)
    sfb, codes = _bytes(sf), ref.unpack_fp4(packed)
    for r, b in [(0, 1), (1, 0), (2, 0), (2, 1), (2, 2)]:
        assert sfb[r, b] == 0
        assert (codes[r, 16 * b:16 * b + 16] == 0).all()
    deq = ref.nvfp4_dequantize(packed, sf, 100.0, swizzled=False)
    assert not deq.isnan().any()
    assert (deq[2] == 0).all() and (deq[0, 16:32] == 0).all()


def test_quantize_negation_flips_sign_bit_only():
    x = torch.randn(8, 64)
    x = torch.where(x == 0, torch.ones_like(x), x)
    p1, s1 = ref.nvfp4_quantize(x, 50.0, swizzle=False)
    p2, s2 = ref.nvfp4_quantize(-x, 50.0, swizzle=False)
    assert torch.equal(_bytes(s1), _bytes(s2))
    assert torch.equal(ref.unpack_fp4(p2), ref.unpack_fp4(p1) ^ 8)


def test_quantize_tiny_scales():
    a = torch.tensor(BLOCK_A)  # amax 12; power-of-two factors keep everything exact
    rows = torch.stack([
        a * 2.0 ** -9,          # amax/6 = 2^-8: sf is the subnormal 2^-8 (0x02)
        a * 2.0 ** -11,         # amax/6 = 2^-10: a tie, rounds to 0 -> sf 0, codes 0
        a * 2.0 ** -13,         # far below the smallest subnormal -> sf 0
        a * 2.0 ** -11 * 1.01,  # just above the tie -> sf 2^-9 (0x01)
    ])
    packed, sf = ref.nvfp4_quantize(rows, 1.0, swizzle=False)
    assert _bytes(sf).flatten().tolist() == [0x02, 0x00, 0x00, 0x01]
    codes = ref.unpack_fp4(packed)
    # sf = 2^-8 exactly: out_scale 256, scaled = 0.5 * block A's values -> block A's codes
    assert codes[0].tolist() == CODES_A
    assert (codes[1:3] == 0).all()
    # sf 2^-9, out_scale 512: -12 * 1.01 * 2^-11 * 512 = -3.03 -> code 13 (-3.0)
    assert codes[3, 15] == 13
    deq = ref.nvfp4_dequantize(packed, sf, 1.0, swizzled=False)
    assert not deq.isnan().any() and (deq[1:3] == 0).all()


def test_quantize_nan_block():
    x = torch.randn(2, 32)
    x[0, 5] = NAN
    packed, sf = ref.nvfp4_quantize(x, 10.0, swizzle=False)
    ref_packed, ref_sf = ref.nvfp4_quantize(x[1:], 10.0, swizzle=False)
    assert _bytes(sf)[0, 0] == 0x7F  # NaN scale for the block with the NaN
    assert (ref.unpack_fp4(packed)[0, :16] == 0).all()  # every code in it is 0
    x2 = x.clone()
    x2[0, :16] = 1.0
    p2, s2 = ref.nvfp4_quantize(x2, 10.0, swizzle=False)
    assert _bytes(sf)[0, 1] == _bytes(s2)[0, 1]  # the other blocks are untouched
    assert torch.equal(packed[0, 8:], p2[0, 8:]) and torch.equal(packed[1], ref_packed[0])
    deq = ref.nvfp4_dequantize(packed, sf, 10.0, swizzled=False)
    assert deq[0, :16].isnan().all() and not deq[0, 16:].isnan().any()
    assert not deq[1].isnan().any()


def test_quantize_inf_block():
    x = torch.tensor([[INF, 1.0, -2.0, -INF] + [0.5] * 12])
    packed, sf = ref.nvfp4_quantize(x, 1.0, swizzle=False)
    assert _bytes(sf).tolist() == [[0x7E]]  # saturates to 448
    # out_scale = 1/448: finite elements -> magnitude 0 (code 8 for negatives), inf -> +-6
    assert ref.unpack_fp4(packed).tolist() == [[7, 0, 8, 15] + [0] * 12]


def test_quantize_scale_saturation():
    x = torch.tensor([BLOCK_A])  # amax 12: G * 2 = 1000 > 448
    packed, sf = ref.nvfp4_quantize(x, 500.0, swizzle=False)
    assert _bytes(sf).tolist() == [[0x7E]]
    codes = ref.unpack_fp4(packed)[0]
    # out_scale = 1/(448/500) ~ 1.116: -12 -> -13.4 saturates to -6, 6 -> 6.7 -> 6
    assert codes[15] == 15 and codes[14] == 7


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_dequant_quant_error_bound(dtype):
    x = (torch.randn(32, 256) * (torch.rand(32, 1) * 10 + 0.1)).to(dtype)  # sf stays normal
    g = ref.nvfp4_global_scale(x)
    packed, sf = ref.nvfp4_quantize(x, g, swizzle=False)
    deq = ref.nvfp4_dequantize(packed, sf, g, swizzled=False)
    xb = x.float().view(32, 16, 16)
    amax = xb.abs().amax(-1, keepdim=True)
    err = (deq.view(32, 16, 16) - xb).abs()
    # scaled values within 6 * (1 + 2^-4) (sf rounding); e2m1 steps are at most 2, so the
    # error is at most one step's half (1) in scaled units = sf / G <= amax / 6 * (1 + 2^-4)
    assert (err <= amax / 6 * (1 + 2.0 ** -4) * (1 + 1e-5)).all()
    # and relative to each element: 1/3 at worst (0.75 -> 0.5 or 1.0) outside the zero bin
    big = xb.abs() > amax / 6 * 0.5 * (1 + 2.0 ** -4)
    assert (err[big] <= xb.abs()[big] / 3 * (1 + 2.0 ** -3)).all()
    assert deq.dtype == torch.float32
    assert ref.nvfp4_dequantize(packed, sf, g, swizzled=False, out_dtype=dtype).dtype == dtype


def test_quantize_value_errors():
    with pytest.raises(ValueError, match="x"):
        ref.nvfp4_quantize(torch.randn(4, 24), 1.0)
    with pytest.raises(ValueError, match="x"):
        ref.nvfp4_quantize(torch.randn(64), 1.0)
    with pytest.raises(ValueError, match="global_scale"):
        ref.nvfp4_quantize(torch.randn(2, 16), torch.ones(2), swizzle=False)


# ----------------------------------------------------------------------------- swizzled scales

@pytest.mark.parametrize("m,k", [(1, 64), (130, 16 * 6), (256, 128)])
def test_swizzled_vs_unswizzled(m, k):
    _layouts()
    x = torch.randn(m, k, dtype=torch.bfloat16)
    g = ref.nvfp4_global_scale(x)
    p_s, sf_s = ref.nvfp4_quantize(x, g)
    p_u, sf_u = ref.nvfp4_quantize(x, g, swizzle=False)
    assert torch.equal(p_s, p_u)
    mp, kbp = -(-m // 128) * 128, -(-(k // 16) // 4) * 4
    assert sf_s.dtype == E4M3 and sf_s.shape == (mp, kbp)
    assert torch.equal(_bytes(sf_s).reshape(-1), _swizzle_by_formula(sf_u))
    assert torch.equal(ref.nvfp4_dequantize(p_s, sf_s, g),
                       ref.nvfp4_dequantize(p_u, sf_u, g, swizzled=False))


# ----------------------------------------------------------------------------- SiLU * mul

def test_silu_mul_nvfp4_quant():
    m, i = 5, 64
    gate_up = (torch.randn(m, 2 * i) * 3).to(torch.bfloat16)
    g32, u32 = gate_up[:, :i].float(), gate_up[:, i:].float()
    h = (g32 / (1 + torch.exp(-g32)) * u32).to(torch.bfloat16)
    assert torch.equal(ref.silu_mul(gate_up), h)
    torch.testing.assert_close(h.float(), torch.nn.functional.silu(g32) * u32,
                               rtol=2 ** -8, atol=1e-6)
    p, s = ref.silu_mul_nvfp4_quant(gate_up, 7.5, swizzle=False)
    p2, s2 = ref.nvfp4_quantize(h, 7.5, swizzle=False)
    assert torch.equal(p, p2) and torch.equal(_bytes(s), _bytes(s2))
    with pytest.raises(ValueError, match="gate_up"):
        ref.silu_mul_nvfp4_quant(torch.randn(2, 40), 1.0)  # I = 20


@pytest.mark.parametrize("swizzle", [False, True])
def test_silu_mul_nvfp4_quant_experts(swizzle):
    if swizzle:
        _layouts()
    e, m, i = 4, 40, 32
    gate_up = torch.randn(e, m, 2 * i, dtype=torch.bfloat16)
    gate_up[:, 30:] = NAN  # garbage in rows past every count must not leak
    masked_m = torch.tensor([0, 7, 30, 13], dtype=torch.int32)
    gs = torch.rand(e) * 100 + 1
    p, s = ref.silu_mul_nvfp4_quant_experts(gate_up, masked_m, gs, swizzle=swizzle)
    assert p.shape == (e, m, i // 2)
    assert s.shape == ((e, 128, 4) if swizzle else (e, m, 2))
    for ex, c in enumerate(masked_m.tolist()):
        want_p, want_s = ref.silu_mul_nvfp4_quant(gate_up[ex, :c], gs[ex], swizzle=False)
        sf_e = _layouts()[1](_bytes(s[ex]), m, 2) if swizzle else s[ex]
        assert torch.equal(p[ex, :c], want_p) and (p[ex, c:] == 0).all()
        assert torch.equal(_bytes(sf_e)[:c], _bytes(want_s)) and (_bytes(sf_e)[c:] == 0).all()
        if swizzle:  # padding rows/cols of the swizzled buffer are zero too
            assert int(_bytes(s[ex]).sum()) == int(_bytes(want_s).sum())
    with pytest.raises(ValueError, match="masked_m"):
        ref.silu_mul_nvfp4_quant_experts(gate_up, torch.tensor([0, 1, 41, 0]), gs)


# ----------------------------------------------------------------------------- GEMV

def test_gemv_hand_and_shapes():
    x = torch.tensor([1.0, 2.0], dtype=torch.bfloat16)
    w = torch.tensor([[3.0, 4.0], [5.0, 6.0], [-1.0, 0.5]], dtype=torch.bfloat16)
    assert ref.gemv(x, w).tolist() == [11.0, 17.0, 0.0]
    assert ref.gemv(x, w, torch.tensor([1.0, 0.0, 2.0])).tolist() == [12.0, 17.0, 2.0]
    assert ref.gemv(x.view(1, 2), w).shape == (1, 3)
    xs = torch.randn(3, 64, dtype=torch.bfloat16)
    ws = torch.randn(16, 64, dtype=torch.bfloat16)
    y = ref.gemv(xs, ws)
    assert y.dtype == torch.bfloat16
    assert torch.equal(y, (xs.double() @ ws.double().T).to(torch.bfloat16))
    with pytest.raises(ValueError, match="x"):
        ref.gemv(torch.randn(63), ws)


def test_fp8_gemv():
    w = torch.tensor([[1.0, 2.0], [0.5, -448.0]]).to(E4M3)
    x = torch.tensor([3.0, 0.25]).to(E4M3)
    y = ref.fp8_gemv(x, w, 0.5, out_dtype=torch.float32)
    assert y.tolist() == [(3.0 + 0.5) * 0.5, (1.5 - 112.0) * 0.5]
    xs = torch.randn(2, 128).to(E4M3)
    ws = torch.randn(32, 128).to(E4M3)
    alpha = torch.tensor(0.037)
    want = (xs.double() @ ws.double().T) * alpha.double()
    assert torch.equal(ref.fp8_gemv(xs, ws, alpha), want.to(torch.bfloat16))
    assert torch.equal(ref.fp8_gemv(xs[0], ws, alpha), want[0].to(torch.bfloat16))
    with pytest.raises(TypeError, match="x_fp8"):
        ref.fp8_gemv(xs.float(), ws, alpha)


# ----------------------------------------------------------------------------- NVFP4 GEMM

def _quant(x, g):
    p, s = ref.nvfp4_quantize(x, g, swizzle=False)
    return p, s


def test_nvfp4_gemm_vs_explicit_dequant():
    m, n, k = 3, 24, 128
    x = torch.randn(m, k, dtype=torch.bfloat16)
    w = torch.randn(n, k, dtype=torch.bfloat16) * 0.05
    g_a, g_b = ref.nvfp4_global_scale(x), ref.nvfp4_global_scale(w)
    a, a_sf = _quant(x, g_a)
    b, b_sf = _quant(w, g_b)
    alpha = (1 / g_a) * (1 / g_b)  # input_scale * weight_scale_2, fp32
    raw_a = ref.nvfp4_dequantize(a, a_sf, 1.0, swizzled=False).double()
    raw_b = ref.nvfp4_dequantize(b, b_sf, 1.0, swizzled=False).double()
    want = alpha.double() * (raw_a @ raw_b.T)
    d64 = ref.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha, swizzled=False)
    torch.testing.assert_close(d64, want, rtol=1e-14, atol=0)
    d = ref.nvfp4_gemm(a, a_sf, b, b_sf, alpha, swizzled=False)
    assert d.dtype == torch.bfloat16 and torch.equal(d, d64.to(torch.bfloat16))
    # Same thing expressed with global scales instead of alpha.
    d_g = ref.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 1.0, a_global_scale=g_a, b_global_scale=g_b,
                              swizzled=False)
    torch.testing.assert_close(d_g, d64, rtol=1e-6, atol=1e-9)
    # And it approximates the unquantized product: NVFP4 on both operands leaves ~13.5% of the
    # product's norm (median of 1500 draws; the largest 19.6%). A bound on the largest element
    # against the largest output failed ~0.5% of fresh draws (0.23 at p99, 0.28 at worst).
    exact = x.double() @ w.double().T
    assert (d64 - exact).norm() < 0.25 * exact.norm()
    # W4A16: bf16 activation used directly.
    d16 = ref.nvfp4_gemm_fp64(x, None, b, b_sf, 1 / g_b, swizzled=False)
    torch.testing.assert_close(d16, (1 / g_b).double() * (x.double() @ raw_b.T),
                               rtol=1e-14, atol=0)


def test_nvfp4_gemm_swizzled_scales():
    _layouts()
    x = torch.randn(5, 64, dtype=torch.bfloat16)
    w = torch.randn(8, 64, dtype=torch.bfloat16)
    a, a_sf = ref.nvfp4_quantize(x, 20.0)
    b, b_sf = ref.nvfp4_quantize(w, 30.0)
    _, a_sfu = _quant(x, 20.0)
    _, b_sfu = _quant(w, 30.0)
    assert torch.equal(ref.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 0.01),
                       ref.nvfp4_gemm_fp64(a, a_sfu, b, b_sfu, 0.01, swizzled=False))


def _manual_interleave(t, group=64):
    """[gate; up] rows -> 64 up rows, 64 gate rows, ... (written without layouts)."""
    i = t.shape[0] // 2
    order = []
    for g0 in range(0, i, group):
        order += list(range(i + g0, i + g0 + group)) + list(range(g0, g0 + group))
    return t[order]


def test_gemm_swiglu_quant_vs_deinterleaved():
    swizzle_sf, _, interleave_gate_up, _ = _layouts()
    m, i, k = 4, 128, 64
    x = torch.randn(m, k, dtype=torch.bfloat16)
    w_gate = torch.randn(i, k, dtype=torch.bfloat16) * 0.2
    w_up = torch.randn(i, k, dtype=torch.bfloat16) * 0.2
    g_a = ref.nvfp4_global_scale(x)
    g_w = ref.nvfp4_global_scale(torch.cat([w_gate, w_up]))
    a, a_sf = _quant(x, g_a)
    wg, wg_sf = _quant(w_gate, g_w)
    wu, wu_sf = _quant(w_up, g_w)
    # The fused weight: rows interleaved (checked against a hand-written interleave).
    w_cat, sf_cat = torch.cat([wg, wu]), _bytes(torch.cat([_bytes(wg_sf), _bytes(wu_sf)]))
    w_int = interleave_gate_up(w_cat, 64)
    assert torch.equal(w_int, _manual_interleave(w_cat))
    sf_int = interleave_gate_up(sf_cat, 64)
    assert torch.equal(sf_int, _manual_interleave(sf_cat))
    alpha = (1 / g_a) * (1 / g_w)
    g_out = torch.tensor(37.0)

    # Straightforward computation on the separate gate and up weights.
    raw = lambda p, s: ref.nvfp4_dequantize(p, s, 1.0, swizzled=False).double()
    gate = raw(a, a_sf) @ raw(wg, wg_sf).T
    up = raw(a, a_sf) @ raw(wu, wu_sf).T
    al = alpha.double()
    h_want = (al * up) * ((al * gate) / (1 + torch.exp(-(al * gate))))

    # Products e2m1*e4m3 and their sums over K=64 are exact in fp64, so this is bit-exact.
    h = ref.swiglu_fp64(a, a_sf, w_int, sf_int.view(E4M3), alpha, swizzled=False)
    assert torch.equal(h, h_want)
    sf_sw = swizzle_sf(sf_int).view(E4M3)
    a_sf_sw = swizzle_sf(_bytes(a_sf)).view(E4M3)
    assert torch.equal(ref.swiglu_fp64(a, a_sf_sw, w_int, sf_sw, alpha), h_want)

    p, s = ref.gemm_swiglu_quant(a, a_sf_sw, w_int, sf_sw, alpha, g_out)
    p_want, s_want = ref.nvfp4_quantize(h_want.float(), g_out)
    assert torch.equal(p, p_want) and torch.equal(_bytes(s), _bytes(s_want))
    assert s.shape == (128, 8)  # pad128(4) x pad4(128 / 16)
    with pytest.raises(ValueError, match="w"):
        ref.swiglu_fp64(a, a_sf, w_int[:64], sf_int[:64].view(E4M3), alpha, swizzled=False)


# ----------------------------------------------------------------------------- GDN split

@pytest.mark.parametrize("r", [1, 2, 3, 4, 8])
def test_gdn_split_both_layouts(r):
    t, hk, dk, dv = 3, 2, 8, 4
    hv = hk * r
    q = torch.randn(t, hk, dk)
    k = torch.randn(t, hk, dk)
    v = torch.randn(t, hv, dv)
    z = torch.randn(t, hv, dv)
    b = torch.randn(t, hv)
    a = torch.randn(t, hv)
    want_qkv = torch.cat([q.reshape(t, -1), k.reshape(t, -1), v.reshape(t, -1)], dim=1)

    contiguous = torch.cat([q.reshape(t, -1), k.reshape(t, -1), v.reshape(t, -1),
                            z.reshape(t, -1)], dim=1)
    ba_contig = torch.cat([b, a], dim=1)
    # Qwen3-Next: per k-head group g, [q_g, k_g, v heads g*r..g*r+r-1, z heads ...], [b.., a..]
    inter, ba_inter = [], []
    for g in range(hk):
        heads = range(g * r, g * r + r)
        inter += [q[:, g], k[:, g]] + [v[:, j] for j in heads] + [z[:, j] for j in heads]
        ba_inter += [b[:, j:j + 1] for j in heads] + [a[:, j:j + 1] for j in heads]
    inter, ba_inter = torch.cat(inter, dim=1), torch.cat(ba_inter, dim=1)

    for layout, qkvz, ba in (("contiguous", contiguous, ba_contig),
                             ("interleaved", inter, ba_inter)):
        out = ref.gdn_qkvzba_split(qkvz, ba, hk, hv, dk, dv, layout=layout)
        for got, want in zip(out, (want_qkv, z, b, a)):
            assert got.is_contiguous() and torch.equal(got, want), layout


def test_gdn_split_value_errors():
    qkvz, ba = torch.randn(2, 2 * 2 * 8 + 2 * 6 * 4), torch.randn(2, 12)
    ref.gdn_qkvzba_split(qkvz, ba, 2, 6, 8, 4)
    with pytest.raises(ValueError, match="num_v_heads"):
        ref.gdn_qkvzba_split(qkvz, ba, 4, 6, 8, 4)
    with pytest.raises(ValueError, match="mixed_qkvz"):
        ref.gdn_qkvzba_split(qkvz[:, 1:], ba, 2, 6, 8, 4)
    with pytest.raises(ValueError, match="mixed_ba"):
        ref.gdn_qkvzba_split(qkvz, ba[:, 1:], 2, 6, 8, 4)
    with pytest.raises(ValueError, match="layout"):
        ref.gdn_qkvzba_split(qkvz, ba, 2, 6, 8, 4, layout="qwen")
