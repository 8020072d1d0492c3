"""NVFP4 quantization kernels: compile-only and the encode arithmetic on CPU; bit-exact (or
exp-tolerant, for the fused SiLU) against the reference on a GPU."""

import math
from fractions import Fraction

import cutlass
import pytest
import torch

from cute_kernels import nvfp4_quant, reference
from cute_kernels.device_fp4 import (E2M1_CODE_BIAS, E2M1_MAGIC_SHIFT, E2M1_MAX,
                                     F32_EXPONENT_MASK, ONE_SIXTH)
from cute_kernels.nvfp4_quant import (PREFETCH_ELEMENTS, compile_nvfp4_quant,
                                      launch_config, nvfp4_quantize,
                                      silu_mul_nvfp4_quant, silu_mul_nvfp4_quant_experts)
from cute_kernels.testing import compile_only, ctas_per_sm, kernel_frame_bytes, kernel_registers
from layouts import experts_sf_to_dense, sf_padded_shape, unswizzle_sf
from tests.conftest import poisoned

BF16, FP16 = "torch.bfloat16", "torch.float16"


# ---- compile-only (CI) ---------------------------------------------------------------------------
@pytest.mark.parametrize("k,dtype", [(5120, BF16), (48, FP16)])
def test_quantize_compiles_for_sm90a(k, dtype):
    assert compile_only(compile_nvfp4_quant, k, dtype, False, False) is not None


@pytest.mark.parametrize("i,dtype", [(7168, BF16), (80, FP16)])
def test_silu_mul_quant_compiles_for_sm90a(i, dtype):
    assert compile_only(compile_nvfp4_quant, i, dtype, True, False) is not None


@pytest.mark.parametrize("i,dtype", [(2048, BF16), (48, FP16)])
def test_experts_compiles_for_sm90a(i, dtype):
    assert compile_only(compile_nvfp4_quant, i, dtype, True, True) is not None


@pytest.mark.parametrize("k,dtype", [(2048, BF16), (5120, BF16), (7168, BF16), (7168, FP16),
                                     (18432, BF16)])
@pytest.mark.parametrize("silu,experts,rows", [(False, False, 1), (False, False, 16384),
                                               (True, False, 4096), (True, False, 16384),
                                               (True, True, 128)])
def test_public_grids_fill_the_sms_exactly(k, dtype, silu, experts, rows):
    """The public launches' CTAs an SM are exactly as many as their registers let share one:
    the persistent grid's work is split evenly among its CTAs, and with the early PDL trigger
    the next grid's CTAs take the SMs as this one's exit, so an SM with room for one more
    CTA than planned would get it and finish last (session 25, ``launch_config``). The model
    row lengths; a short row (K = 80: 53 registers) may leave room for one more."""
    config = launch_config(k, silu, torch.device("cpu"), rows, experts=experts,
                           dtype=getattr(torch, dtype.split(".")[1]))
    vecs, warps, max_ctas, prefetch = config[:4]
    assert prefetch == (not experts and rows * k <= PREFETCH_ELEMENTS)
    compiled = compile_only(compile_nvfp4_quant, k, dtype, silu, experts, *config)
    assert ctas_per_sm(max(kernel_registers(compiled)), warps) == max_ctas // 132
    # The launch bound holds without spilling (fp16 SiLU*mul spilled at 12 an SM: it takes
    # 10, session 76)
    assert kernel_frame_bytes(compiled) == 0


@pytest.mark.parametrize("silu,experts", [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize("vecs,ring", [(4, 2), (2, 3)])
def test_ring_variant_compiles_for_sm90a(silu, experts, vecs, ring):
    """The cp.async ring (``ring`` items in flight through shared memory), row tails (K = 80)
    included."""
    for k in (7168, 80):
        assert compile_only(compile_nvfp4_quant, k, BF16, silu, experts, vecs, 4, 8 * 132, False,
                            False, "cmp", 0, ring) is not None


def test_frame_bytes_see_a_spill():
    """``kernel_frame_bytes`` reads a spill: fp16 SiLU*mul at 12 CTAs an SM (40 registers)
    spills an 8-byte frame (why ``launch_config`` takes 10 for it), bf16 there none."""
    config = (2, 4, 12 * 132, False, False, "cmp", 12, 0, False, True)
    assert kernel_frame_bytes(compile_only(compile_nvfp4_quant, 5120, BF16, True, False,
                                           *config)) == 0
    assert kernel_frame_bytes(compile_only(compile_nvfp4_quant, 5120, FP16, True, False,
                                           *config)) > 0


@pytest.mark.parametrize("silu,experts", [(False, False), (True, False), (True, True)])
def test_early_loads_and_late_trigger_compile_for_sm90a(silu, experts):
    """The first item's loads before the table fill, and the late PDL trigger (row tails
    included)."""
    for k in (7168, 80):
        for options in ((0, True), (0, False, False)):
            assert compile_only(compile_nvfp4_quant, k, BF16, silu, experts, 4, 4, 8 * 132,
                                False, False, "cmp", 0, *options) is not None


@pytest.mark.parametrize("k,silu,rows", [(5120, False, 4096), (7168, False, 4096),
                                         (5120, False, 16384), (5120, True, 4096)])
def test_stamped_launch_keeps_its_ctas_an_sm(k, silu, rows):
    """The probe's stamps (``tools/quant_timeline.py``) on the public launch: it compiles with
    a stamp buffer of any length, fits as many CTAs an SM as the public launch, no spill."""
    config = launch_config(k, silu, torch.device("cpu"), rows)
    vecs, warps, max_ctas = config[:3]
    compiled = compile_only(compile_nvfp4_quant, k, BF16, silu, False, *config, True)
    assert ctas_per_sm(max(kernel_registers(compiled)), warps) == max_ctas // 132
    assert kernel_frame_bytes(compiled) == 0


def test_stamps_reject_experts_and_ring():
    with pytest.raises(AssertionError):
        compile_only(compile_nvfp4_quant, 2048, BF16, True, True, 2, 4, 132, False, False,
                     "cmp", 0, 0, False, True, True)
    with pytest.raises(AssertionError):
        compile_only(compile_nvfp4_quant, 2048, BF16, False, False, 4, 4, 132, False, False,
                     "cmp", 0, 2, False, True, True)


def test_early_loads_rejects_prefetch_and_ring():
    for prefetch, ring in ((True, 0), (False, 2)):
        with pytest.raises(AssertionError):
            compile_only(compile_nvfp4_quant, 2048, BF16, False, False, 4, 4, 132, prefetch,
                         False, "cmp", 0, ring, True)


def test_ring_variant_rejects_prefetch_and_fp32():
    with pytest.raises(AssertionError):
        compile_only(compile_nvfp4_quant, 2048, BF16, False, False, 4, 4, 132, True, False,
                     "cmp", 0, 2)
    with pytest.raises(AssertionError):
        compile_only(compile_nvfp4_quant, 2048, "torch.float32", True, False, 4, 4, 132, False,
                     True, "cmp", 0, 2)


# ---- the kernels' encode arithmetic, emulated in torch on the CPU ---------------------------------
def _bits(x: torch.Tensor) -> torch.Tensor:
    return x.contiguous().view(torch.int32).long() & 0xFFFFFFFF


def _f32(bits: torch.Tensor) -> torch.Tensor:
    return (bits & 0xFFFFFFFF).to(torch.int64).where(bits < 2**31, bits - 2**32).to(
        torch.int32).view(torch.float32)


def emulate_encode_fast(v: torch.Tensor) -> torch.Tensor:
    """``device_fp4.e2m1_magnitude_fast`` plus the sign, op for op (non-NaN ``v``): fmin, fmax,
    exponent mask, the fma ``2^e * 2^22 + a`` (the product is exact, so one fp32 add rounds the
    same), integer adds."""
    a = torch.minimum(v.abs(), torch.tensor(E2M1_MAX))
    pow2 = _bits(torch.maximum(a, torch.tensor(1.0))) & F32_EXPONENT_MASK
    magic = _f32(pow2) * 2.0 ** E2M1_MAGIC_SHIFT
    assert torch.equal(_bits(magic) - pow2, torch.full_like(pow2, E2M1_MAGIC_SHIFT << 23))
    t = magic + a
    code = (_bits(t) - pow2 + (pow2 >> 22) - E2M1_CODE_BIAS) & 0xFFFFFFFF
    code = code + torch.where(v < 0, 8, 0)
    return code.to(torch.uint8) if code.max() < 16 else code


def emulate_encode_total(v: torch.Tensor) -> torch.Tensor:
    """``device_fp4.e2m1_encode_total``: NaN -> 0 by ``max(|v|, 0)``, then the fma rounding of
    the magnitude, then the sign of ``v < 0``."""
    a = torch.where(v.isnan(), torch.zeros(()), v.abs())
    return emulate_encode_fast(a).to(torch.uint8) | ((v < 0).to(torch.uint8) << 3)


def _near(values, ulps: int) -> torch.Tensor:
    """Every fp32 within ``ulps`` units in the last place of each value."""
    base = _bits(torch.tensor(values, dtype=torch.float32))
    offs = torch.arange(-ulps, ulps + 1)
    return _f32((base[:, None] + offs[None, :]).flatten().clamp(0, 0x7F800000))


@pytest.mark.parametrize("silu,vecs,per_sm", [(False, 4, 6), (True, 2, 8)])
def test_claimed_items_compile_for_sm90a(silu, vecs, per_sm):
    """Claimed items (``claim``) at the prefetch launches' CTAs an SM: no spill, and no more
    registers than the handed-out loop's; row tails (K = 80) included."""
    for k in (5120, 80):
        regs = []
        for claim in (0, 2, -4):
            compiled = compile_only(compile_nvfp4_quant, k, BF16, silu, False, vecs, 4,
                                    per_sm * 132, True, False, "cmp", per_sm if silu else 0, 0,
                                    False, True, claim)
            assert kernel_frame_bytes(compiled) == 0
            regs.append(max(kernel_registers(compiled)))
        assert min(ctas_per_sm(r, 4) for r in regs[1:]) >= per_sm


def test_claimed_items_need_the_prefetch_and_dense_rows():
    with pytest.raises(AssertionError):
        nvfp4_quant.NVFP4Quant(5120, cutlass.BFloat16, False, False, claim=2)
    with pytest.raises(AssertionError):
        nvfp4_quant.NVFP4Quant(5120, cutlass.BFloat16, True, True, prefetch=True, claim=2)


def test_fast_encode_matches_reference_on_cpu():
    """The fma rounding against ``reference.e2m1_codes``: every fp32 within 2^15 ulps of each
    threshold, grid point and binade edge, a stride through all positive fp32 bit patterns
    (both signs), and the specials."""
    edges = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0,
             8.0, 2.0 ** 24, 2.0 ** 106, 2.0 ** 127]
    v = torch.cat([
        _near(edges, 2 ** 15),
        _f32(torch.arange(0, 0x7F800001, 251)),  # every 251st positive pattern, inf included
        torch.tensor([0.0, 2.0 ** -149, 2.0 ** -126, 3.4028234663852886e38, math.inf]),
    ])
    v = torch.cat([v, -v])
    assert not v.isnan().any()
    want = reference.e2m1_codes(v)
    assert torch.equal(emulate_encode_fast(v), want)
    assert torch.equal(emulate_encode_total(v), want)
    # the total encode also covers NaN
    nan = torch.tensor([math.nan, -math.nan])
    assert torch.equal(emulate_encode_total(nan), reference.e2m1_codes(nan))


def _rn32(x: Fraction) -> Fraction:
    """x rounded to the nearest fp32 (ties to even; normal and subnormal; no overflow here)."""
    if x == 0:
        return x
    a = abs(x)
    e = max(math.floor(math.log2(a)), -126)
    while Fraction(2) ** e > a and e > -126:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    q = a / Fraction(2) ** (e - 23)
    n, rem = divmod(q.numerator, q.denominator)
    if 2 * rem > q.denominator or (2 * rem == q.denominator and n % 2):
        n += 1
    return (n * Fraction(2) ** (e - 23)) * (1 if x > 0 else -1)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_div6_is_correctly_rounded_for_every_16bit_value(dtype):
    """``device_fp4.div6`` (q = a * RN(1/6); r = fma(-q, 6, a); q + r * RN(1/6) by fma) equals
    the IEEE quotient a / 6 for every finite non-negative value of the input dtype (a block
    amax), subnormals included: checked with exact rational arithmetic."""
    c = Fraction(float(torch.tensor(ONE_SIXTH, dtype=torch.float32)))
    bits = torch.arange(0, 0x7F80 if dtype == torch.bfloat16 else 0x7C00, dtype=torch.int32)
    values = bits.to(torch.int16).view(dtype).float().tolist()
    for a in map(Fraction, values):
        q = _rn32(a * c)
        r = _rn32(a - q * 6)  # exact: the fma's remainder is representable
        assert r == a - q * 6
        assert _rn32(q + r * c) == _rn32(a / 6), float(a)


def _rne_shift(n: torch.Tensor, s) -> torch.Tensor:
    """n / 2^s rounded to nearest, ties to even (n >= 0, int64)."""
    q = n >> s
    rem = n - (q << s)
    half = torch.ones_like(n) << (s - 1)
    return q + ((rem > half) | ((rem == half) & (q & 1 == 1))).long()


def test_div6_is_correctly_rounded_for_every_fp32_significand():
    """``div6`` for fp32 inputs (the fused epilogues' block amax), in exact integer arithmetic
    over every significand of [1, 2): all steps scale by powers of two, so this covers every
    input whose quotient is a normal fp32. The uncorrected product is checked to fail, so the
    emulation can tell."""
    a = torch.arange(1 << 23, 1 << 24, dtype=torch.int64)      # a = A * 2^-23
    c = round(2**26 / 6)                                         # RN_fp32(1/6) = C * 2^-26
    assert c / 2**26 == float(torch.tensor(ONE_SIXTH, dtype=torch.float32))
    p = a * c                                                    # a * c = P * 2^-49
    q0 = torch.where(p >= 1 << 47, _rne_shift(p, 24) * 2, _rne_shift(p, 23))  # units 2^-26
    r = 8 * a - 6 * q0                                           # fma(-q0, 6, a), exact
    assert r.abs().max() < 1 << 24
    n = q0 * (1 << 26) + r * c                                   # q0 + r * c, units 2^-52
    bits = torch.floor(torch.log2(n.double())).long()
    bits = torch.where((torch.ones_like(n) << (bits + 1)) <= n, bits + 1, bits)
    bits = torch.where((torch.ones_like(n) << bits) > n, bits - 1, bits)
    shift = bits - 23                                            # 24 significant bits
    got = _rne_shift(n, shift) << shift
    hi = 2 * a >= 3 * (1 << 23)                                  # a / 6 >= 1/4: ulp 2^-25
    k = torch.where(hi, 2 * a, 4 * a)                            # the quotient in ulps, * 3
    w = k // 3 + (k % 3 == 2).long()
    want = torch.where(hi, w << 27, w << 26)
    assert torch.equal(got, want)
    assert not torch.equal(q0 << 26, want)


def emulate_quantize(x: torch.Tensor, g: float) -> tuple[torch.Tensor, torch.Tensor]:
    """The kernel's per-block arithmetic and its routing (fast encode only for scales in
    (0, inf)), written out with torch fp32 ops on the CPU; unswizzled scales."""
    m, k = x.shape
    gt = torch.tensor(g, dtype=torch.float32)
    xb = x.float().reshape(m, k // 16, 16)
    amax = xb.abs().amax(-1)  # max.NaN
    # div6 is the IEEE quotient (test_div6_is_correctly_rounded_for_every_16bit_value)
    sf = reference.e4m3_satfinite(gt * (amax / torch.tensor(6.0)))
    sf_f = sf.float()
    # the per-CTA table: true divisions, per scale byte
    s = torch.where(sf_f != 0, torch.tensor(1.0) / (sf_f / gt), torch.zeros(()))
    codes = emulate_encode_total(xb * s[..., None])
    return reference.pack_fp4(codes.reshape(m, k).to(torch.uint8)), sf


def _adversarial(m: int, k: int, dtype=torch.bfloat16) -> torch.Tensor:
    """Random rows with a wide per-row spread plus hand-made blocks: zeros (+0 and -0), NaN,
    +-inf, tiny (bf16 subnormal) values, huge values, negatives that round to zero, exact
    e2m1 ties."""
    x = torch.randn(m, k) * torch.exp(torch.randn(m, 1) * 4)
    x[0, :16] = 0.0
    x[0, 16:32] = -0.0
    x[1, 3] = math.nan
    x[1, 20] = math.inf
    x[1, 37] = -math.inf
    x[2, :16] = torch.randn(16) * 1e-39
    x[2, 16:32] = torch.randn(16) * 1e37
    x[3, :16] = torch.tensor([6.0, -0.1, 0.2, -0.24, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0,
                              -0.25, -0.75, -1.25, -2.5, -5.0])
    x[3, 16:32] = torch.tensor([-6.0] + [-1e-30] * 15)
    return x.to(dtype)


@pytest.mark.parametrize("g", [1.0, 448 * 6 / 7.3, 3.1, 1e-30, 1e38, 0.0, math.inf, -2.0])
def test_block_arithmetic_and_routing_on_cpu(g):
    """The kernel's block arithmetic (table scales, the branch-free total encode): equal to the
    reference for every block, including NaN/inf/zero/tiny blocks and absurd G."""
    x = _adversarial(8, 64)
    packed, sf = emulate_quantize(x, g)
    want_packed, want_sf = reference.nvfp4_quantize(x, g, swizzle=False)
    assert torch.equal(sf.view(torch.uint8), want_sf.view(torch.uint8))
    assert torch.equal(packed, want_packed)


# ---- bad input: checked before any launch (runs on CPU tensors) -----------------------------------
def test_bad_input_raises_before_launch():
    x = torch.randn(4, 64, dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="x"):
        nvfp4_quantize(x.float(), 1.0)
    with pytest.raises(TypeError, match="x"):
        nvfp4_quantize(x.float().numpy(), 1.0)
    with pytest.raises(ValueError, match="x.*multiple of 16"):
        nvfp4_quantize(x[:, :40].contiguous(), 1.0)
    with pytest.raises(ValueError, match="x.*multiple of 16"):
        nvfp4_quantize(torch.randn(4, 33, dtype=torch.bfloat16), 1.0)  # odd K
    with pytest.raises(ValueError, match="x.*2-D"):
        nvfp4_quantize(x.view(2, 2, 64), 1.0)
    with pytest.raises(ValueError, match="x.*contiguous"):
        nvfp4_quantize(torch.randn(64, 32, dtype=torch.bfloat16).t(), 1.0)
    with pytest.raises(ValueError, match="x.*aligned"):
        nvfp4_quantize(torch.randn(2 * 64 + 4, dtype=torch.bfloat16)[4:].view(2, 64), 1.0)
    with pytest.raises(ValueError, match="x.*CUDA"):
        nvfp4_quantize(x, 1.0)

    gu = torch.randn(4, 96, dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="gate_up"):
        silu_mul_nvfp4_quant(gu.to(torch.float8_e4m3fn), 1.0)
    with pytest.raises(ValueError, match="gate_up.*even"):
        silu_mul_nvfp4_quant(torch.randn(4, 33, dtype=torch.bfloat16), 1.0)
    with pytest.raises(ValueError, match="gate_up.*I = 24.*multiple of 16"):
        silu_mul_nvfp4_quant(torch.randn(4, 48, dtype=torch.bfloat16), 1.0)
    with pytest.raises(ValueError, match="gate_up.*CUDA"):
        silu_mul_nvfp4_quant(gu, 1.0)

    e3 = torch.randn(3, 5, 64, dtype=torch.float16)
    mask = torch.tensor([1, 2, 3], dtype=torch.int32)
    gs = torch.ones(3)
    with pytest.raises(ValueError, match="gate_up.*3-D"):
        silu_mul_nvfp4_quant_experts(gu, mask, gs)
    with pytest.raises(TypeError, match="masked_m"):
        silu_mul_nvfp4_quant_experts(e3, mask.long(), gs)
    with pytest.raises(ValueError, match="masked_m.*shape"):
        silu_mul_nvfp4_quant_experts(e3, mask[:2], gs)
    with pytest.raises(TypeError, match="global_scale"):
        silu_mul_nvfp4_quant_experts(e3, mask, 1.0)
    with pytest.raises(TypeError, match="global_scale"):
        silu_mul_nvfp4_quant_experts(e3, mask, gs.double())
    with pytest.raises(ValueError, match="global_scale.*3 values"):
        silu_mul_nvfp4_quant_experts(e3, mask, gs[:1])
    with pytest.raises(ValueError, match="gate_up.*CUDA"):
        silu_mul_nvfp4_quant_experts(e3, mask, gs)


# ---- GPU ------------------------------------------------------------------------------------------
def _u8(t: torch.Tensor) -> torch.Tensor:
    return t.view(torch.uint8)


def _rows(m: int, k: int, dtype, device="cuda", spread: float | None = None) -> torch.Tensor:
    """Fresh random rows with a realistic per-row magnitude spread (outlier tokens); narrower
    for fp16, whose range is small (SiLU*mul squares the magnitudes)."""
    if spread is None:
        spread = 2.0 if dtype == torch.bfloat16 else 0.7
    scale = torch.exp(torch.randn(m, 1, device=device) * spread)
    return (torch.randn(m, k, device=device) * scale).to(dtype)


def _poisoned_out(m: int, k: int):
    mp, kbp = sf_padded_shape(m, k // 16)
    return poisoned(m, k // 2, dtype=torch.uint8), poisoned(mp, kbp, dtype=torch.uint8)


def _assert_quantized_equal(got, want):
    torch.testing.assert_close(_u8(got[1]), _u8(want[1]), rtol=0, atol=0)
    torch.testing.assert_close(got[0], want[0], rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 129, 1000])
@pytest.mark.parametrize("k", [16, 48, 80, 5120, 7168])  # 48, 80: K/16 not a multiple of 4
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_quantize_bit_exact(m, k, dtype):
    x = _rows(m, k, dtype)
    g = reference.nvfp4_global_scale(x).reshape(1)
    out = _poisoned_out(m, k)
    got = nvfp4_quantize(x, g, out=out)
    assert got[0].data_ptr() == out[0].data_ptr() and got[1].data_ptr() == out[1].data_ptr()
    _assert_quantized_equal(got, reference.nvfp4_quantize(x, g))  # padding included
    # and with freshly allocated outputs and a float scale
    _assert_quantized_equal(nvfp4_quantize(x, float(g)), reference.nvfp4_quantize(x, float(g)))


@pytest.mark.gpu
@pytest.mark.parametrize("m,k", [(7, 80), (1000, 5120), (4500, 7168)])
@pytest.mark.parametrize("silu", [False, True])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_quantize_past_the_prefetch_bound_bit_exact(monkeypatch, m, k, silu, dtype):
    """Rows past ``PREFETCH_ELEMENTS`` take the launch without the next item's loads (plain 9
    CTAs an SM, SiLU*mul 12, fp16 SiLU*mul 10; forced here by a zero bound; 4500 rows of 7168
    fill the grid): the same bits as the reference (SiLU*mul: as the default launch's)."""
    x = _rows(m, 2 * k if silu else k, dtype)
    g = reference.nvfp4_global_scale(x).reshape(1)
    run = silu_mul_nvfp4_quant if silu else nvfp4_quantize
    want = run(x, g) if silu else reference.nvfp4_quantize(x, g)
    monkeypatch.setattr(nvfp4_quant, "PREFETCH_ELEMENTS", 0)
    assert not launch_config(k, silu, torch.device("cuda"), m, dtype=dtype)[3]
    _assert_quantized_equal(run(x, g, out=_poisoned_out(m, k)), want)


@pytest.mark.gpu
@pytest.mark.parametrize("silu", [False, True])
def test_public_launch_with_claimed_items(monkeypatch, silu):
    """The public launch with claims (``CLAIM_SHARE``, 6.5 rounds a warp here) takes the
    stream's zeroed counters, eagerly and in a CUDA graph replayed on fresh inputs, with the
    same bits as the handed-out launch."""
    m, k = 4096 + 37, 5120
    run = silu_mul_nvfp4_quant if silu else nvfp4_quantize
    x = _rows(m, 2 * k if silu else k, torch.bfloat16)
    g = torch.full((1,), 30.0, device="cuda")
    monkeypatch.setattr(nvfp4_quant, "CLAIM_SHARE", 0)
    want = run(x, g)
    monkeypatch.setattr(nvfp4_quant, "CLAIM_SHARE", 4)
    assert launch_config(k, silu, x.device, m)[-1] == -4
    _assert_quantized_equal(run(x, g, out=_poisoned_out(m, k)), want)
    out = _poisoned_out(m, k)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        run(x, g, out=out)
    for _ in range(2):
        x.copy_(_rows(m, 2 * k if silu else k, torch.bfloat16))
        graph.replay()
        monkeypatch.setattr(nvfp4_quant, "CLAIM_SHARE", 0)
        _assert_quantized_equal(out, run(x, g))
        monkeypatch.setattr(nvfp4_quant, "CLAIM_SHARE", 4)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(4, 4, 8, True), (4, 4, 8, False), (4, 8, 4, True),
                                    (2, 4, 1, True), (8, 4, 3, False)])
@pytest.mark.parametrize("silu", [False, True])
def test_every_kernel_config_agrees(config, silu):
    """The swept (vecs, warps, max CTAs, prefetch) configs, small grids included (each warp
    then walks many items, so the prefetch carries across them), bit-exact with the default."""
    # three 1024-element items per row: whole rows
    _assert_configs_agree(300, 2048 + 1024, silu, config, (4, 4, 8 * 132, True))


def _assert_configs_agree(m: int, k: int, silu: bool, config: tuple, baseline: tuple) -> None:
    """``compile_nvfp4_quant`` arguments after (K, dtype, silu, experts): ``config`` and
    ``baseline`` give the same bits on fresh bf16 rows, both into poisoned outputs (and the
    reference's, without SiLU)."""
    x = _rows(m, 2 * k if silu else k, torch.bfloat16)
    g = torch.full((1,), 30.0, device="cuda")
    mask = torch.zeros(1, dtype=torch.int32, device="cuda")
    outs = []
    for cfg in (config, baseline):
        q, sf = _poisoned_out(m, k)
        compile_nvfp4_quant(k, str(torch.bfloat16), silu, False, *cfg)(x, g, mask, q, sf.view(-1))
        outs.append((q, sf))
    _assert_quantized_equal(outs[0], outs[1])
    if not silu:
        _assert_quantized_equal(outs[0], reference.nvfp4_quantize(x, g))


@pytest.mark.gpu
@pytest.mark.parametrize("ctas", [8 * 132, 5])
@pytest.mark.parametrize("silu", [False, True])
@pytest.mark.parametrize("m,k", [(300, 3072), (129, 80), (7, 5120)])
def test_early_loads_and_late_trigger_agree(ctas, silu, m, k):
    """The first item's loads before the table fill, and the launch that lets the next kernel
    launch only as it exits (the old PDL behaviour), bit-exact with the default: whole rows,
    row tails, a 5-CTA grid whose warps walk many items."""
    base = (4, 4, 8 * 132, False)
    for options in ((False, False, "cmp", 0, 0, True), (False, False, "cmp", 0, 0, False, False)):
        _assert_configs_agree(m, k, silu, (4, 4, ctas) + options, base)


@pytest.mark.gpu
@pytest.mark.parametrize("vecs,ctas,ring", [(4, 8 * 132, 2), (2, 12 * 132, 3), (4, 5, 3)])
@pytest.mark.parametrize("silu", [False, True])
@pytest.mark.parametrize("m,k", [(300, 3072), (129, 80), (7, 5120)])
def test_ring_variant_agrees(vecs, ctas, ring, silu, m, k):
    """The cp.async ring bit-exact with the register path: whole rows, row tails (K = 80), a
    5-CTA grid whose warps walk many items through the ring."""
    _assert_configs_agree(m, k, silu, (vecs, 4, ctas, False, False, "cmp", 0, ring),
                          (4, 4, 8 * 132, False))


@pytest.mark.gpu
@pytest.mark.parametrize("ctas,claim", [(6 * 132, 2), (6 * 132, 9), (5, 3), (6 * 132, -4)])
@pytest.mark.parametrize("silu", [False, True])
@pytest.mark.parametrize("m,k", [(4096 + 37, 5120), (300, 3072), (129, 80), (7, 5120)])
def test_claimed_items_agree(ctas, claim, silu, m, k):
    """Claimed items, bit-exact with the default over three launches on one counters buffer
    (each must leave it zero for the next): whole rows and row tails, the scale padding rows
    (claimed too), all but the first round claimed (9 rounds asked at 4133 rows: more than
    there are), fewer items than warps (every warp's claim comes back past the end), a 5-CTA
    grid (its last 3 rounds claimed; 20 warps, so 20 shards)."""
    base = (2, 4, 8 * 132, True) if silu else (4, 4, 6 * 132, True)
    config = base[:2] + (ctas, True, False, "cmp", 0, 0, False, True, claim)
    counters = torch.zeros(nvfp4_quant.CLAIM_WORDS, dtype=torch.int32, device="cuda")
    g = torch.full((1,), 30.0, device="cuda")
    mask = torch.zeros(1, dtype=torch.int32, device="cuda")
    for _ in range(3):
        x = _rows(m, 2 * k if silu else k, torch.bfloat16)
        outs = []
        for cfg, count in ((config, counters), (base, mask)):
            q, sf = _poisoned_out(m, k)
            compile_nvfp4_quant(k, str(torch.bfloat16), silu, False, *cfg)(x, g, count, q,
                                                                           sf.view(-1))
            outs.append((q, sf))
        _assert_quantized_equal(outs[0], outs[1])
        assert not counters.any()


@pytest.mark.gpu
def test_ring_variant_experts_agree():
    """The ring on masked experts: rows past masked_m untouched, the rest as the default."""
    e, m, i = 3, 70, 2048
    x = _rows(e * m, 2 * i, torch.bfloat16).view(e, m, 2 * i)
    g = torch.full((e,), 30.0, device="cuda")
    mask = torch.tensor([0, 70, 33], dtype=torch.int32, device="cuda")
    outs = []
    for cfg in ((2, 4, 12 * 132, False, False, "cmp", 0, 3), (4, 4, 8 * 132, False)):
        q = poisoned(e, m, i // 2, dtype=torch.uint8)
        sf = poisoned(e * 128 * (i // 16), dtype=torch.uint8)
        compile_nvfp4_quant(i, str(torch.bfloat16), True, True, *cfg)(x, g, mask, q, sf)
        outs.append((q, sf))
    torch.testing.assert_close(outs[0][0], outs[1][0], rtol=0, atol=0)
    torch.testing.assert_close(outs[0][1], outs[1][1], rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("g", [1.0, 3.1, 1e-30, 1e38, 0.0, math.inf])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_quantize_special_blocks(g, dtype):
    """NaN blocks (scale 0x7F, codes 0), +-inf (saturate), +0/-0 and tiny blocks (scale 0),
    huge values, negatives rounding to zero, exact ties; absurd global scales (0, inf, 1e38:
    out_scale 0 / NaN / inf, the comparison path)."""
    x = _adversarial(200, 80, dtype).cuda()
    got = nvfp4_quantize(x, g, out=_poisoned_out(200, 80))
    _assert_quantized_equal(got, reference.nvfp4_quantize(x, g))


@pytest.mark.gpu
def test_quantize_zero_rows():
    x = torch.empty(0, 64, device="cuda", dtype=torch.bfloat16)
    packed, sf = nvfp4_quantize(x, 1.0)
    assert packed.shape == (0, 32) and sf.shape == (0, 4) and sf.dtype == torch.float8_e4m3fn
    packed, sf = silu_mul_nvfp4_quant(torch.empty(0, 128, device="cuda", dtype=torch.float16), 1.0)
    assert packed.shape == (0, 32) and sf.shape == (0, 4)


def _e2m1_steps(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Distance in e2m1 steps between two code tensors (signed value index -7..7)."""
    def idx(c):
        c = c.long()
        return torch.where(c >= 8, -(c - 8), c)
    return (idx(a) - idx(b)).abs()


MISMATCH_RATE = 1e-3  # the bound on codes and scales that differ (fast exp vs the reference)
RATE_SAMPLE = 1 << 14  # from this many values on, the rate itself is asserted


def _max_count(n: int, rate: float = MISMATCH_RATE, false_alarm: float = 1e-6) -> int:
    """The largest count of differing values out of n that is still consistent with a true
    rate of at most ``rate``: the binomial upper tail P(X > k) stays above ``false_alarm``."""
    log_pmf = n * math.log1p(-rate)  # P(X = 0)
    tail, k = 1.0 - math.exp(log_pmf), 0
    while tail > false_alarm and k < n:
        k += 1
        log_pmf += math.log((n - k + 1) / k) + math.log(rate / (1 - rate))
        tail -= math.exp(log_pmf)
    return k


def _compare_codes(got_packed, got_sf, want_packed, want_sf, tag: str):
    """Fused SiLU*mul + NVFP4 vs the reference (packed bytes, unswizzled [rows, KB] scale
    matrices): equal except where the device exp differs by one rounding of h, which must stay
    under 1e-3 of the codes and of the scales, each differing code at most one e2m1 step.

    A sample of n values tests that rate: from ``RATE_SAMPLE`` values on as the rate itself;
    below, where one differing value out of a few hundred already passes 1e-3 though the
    kernel is right (the H200 showed 1 of 560 codes, and 7 codes of one 2048-wide row whose
    block scale moved with them), as a count that a true rate of 1e-3 exceeds with
    probability below 1e-6 (``_max_count``)."""
    codes_got, codes_want = reference.unpack_fp4(got_packed), reference.unpack_fp4(want_packed)
    code_diff, sf_diff = codes_got != codes_want, _u8(got_sf) != _u8(want_sf)
    code_rate = code_diff.float().mean().item()
    sf_rate = sf_diff.float().mean().item()
    assert _e2m1_steps(codes_got, codes_want).max() <= 1, tag
    for name, diff, rate in (("codes", code_diff, code_rate), ("scales", sf_diff, sf_rate)):
        n, count = diff.numel(), int(diff.sum().item())
        if n >= RATE_SAMPLE:
            assert rate < MISMATCH_RATE, f"{tag}: {rate:.2e} of the {name} differ"
        else:
            assert count <= _max_count(n), f"{tag}: {count} of {n} {name} differ"
    return code_rate, sf_rate


def _compare_silu(got, want, m: int, i: int, tag: str):
    """``_compare_codes`` for (packed [M, I/2], swizzled scales) pairs."""
    kb = i // 16
    return _compare_codes(got[0], unswizzle_sf(_u8(got[1]).reshape(-1), m, kb),
                          want[0], unswizzle_sf(_u8(want[1]).reshape(-1), m, kb), tag)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 129, 1000])
@pytest.mark.parametrize("i", [16, 48, 80, 5120, 7168])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_silu_mul_quant_matches_reference(m, i, dtype):
    gate_up = _rows(m, 2 * i, dtype)
    h = reference.silu_mul(gate_up)
    g = reference.nvfp4_global_scale(h).reshape(1)
    got = silu_mul_nvfp4_quant(gate_up, g, out=_poisoned_out(m, i))
    _compare_silu(got, reference.silu_mul_nvfp4_quant(gate_up, g), m, i, f"m={m} i={i}")
    # the padding of the swizzled scales (rows M.., columns I/16..) is zero, not poison
    mp, kbp = sf_padded_shape(m, i // 16)
    logical = unswizzle_sf(_u8(got[1]), mp, kbp)
    assert (logical[m:] == 0).all() and (logical[:, i // 16:] == 0).all()


@pytest.mark.gpu
def test_silu_mul_quant_exp_mismatch_rate():
    """The measurement the design asks for: over 4M fresh elements (gate spread over the whole
    silu range, incl. |g| > 88 where exp overflows), how often the fused kernel's codes and
    scales differ from the reference's; the rate must stay under 1e-3 and every differing code
    within one e2m1 step."""
    m, i = 512, 4096
    gate = torch.randn(m, i, device="cuda") * torch.exp(torch.randn(m, 1, device="cuda") * 1.5)
    gate[0, :64] = torch.linspace(-100, 100, 64, device="cuda")
    up = torch.randn(m, i, device="cuda") * torch.exp(torch.randn(m, 1, device="cuda"))
    gate_up = torch.cat([gate, up], dim=1).to(torch.bfloat16)
    g = reference.nvfp4_global_scale(reference.silu_mul(gate_up)).reshape(1)
    got = silu_mul_nvfp4_quant(gate_up, g)
    want = reference.silu_mul_nvfp4_quant(gate_up, g)
    code_rate, sf_rate = _compare_silu(got, want, m, i, "exp mismatch")
    print(f"fused SiLU*mul + NVFP4 vs reference: {code_rate:.2e} of {m * i} codes and "
          f"{sf_rate:.2e} of the scales differ")


def _experts_reference_rows(gate_up, masked_m, gs):
    """reference.silu_mul_nvfp4_quant_experts, per expert: packed [E, M, I/2] and the scale
    matrix [E, M, I/16] (unswizzled)."""
    return reference.silu_mul_nvfp4_quant_experts(gate_up, masked_m, gs, swizzle=False)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i", [(200, 48), (130, 2048), (64, 7168)])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_experts_masked(m, i, dtype):
    e = 5
    gate_up = torch.stack([_rows(m, 2 * i, dtype) for _ in range(e)])
    masked_m = torch.tensor([0, m, 57, min(128, m), 1], dtype=torch.int32, device="cuda")
    gs = torch.stack([reference.nvfp4_global_scale(reference.silu_mul(gate_up[x])).reshape(())
                      for x in range(e)]).float()
    mp, kbp = sf_padded_shape(m, i // 16)
    out = (poisoned(e, m, i // 2, dtype=torch.uint8), poisoned(e, mp, kbp, dtype=torch.uint8))
    packed, scales = silu_mul_nvfp4_quant_experts(gate_up, masked_m, gs, out=out)
    # FlashInfer's shapes: [M, I/2, E] over [E, M, I/2] memory; 6-D scales over E buffers
    assert packed.shape == (m, i // 2, e) and packed.data_ptr() == out[0].data_ptr()
    assert torch.equal(packed.permute(2, 0, 1), out[0])
    assert scales.shape == (32, 4, mp // 128, 4, kbp // 4, e)
    assert scales.dtype == torch.float8_e4m3fn
    dense = experts_sf_to_dense(scales)  # [E, Mp, KBp]: a view of out[1]
    assert dense.data_ptr() == out[1].data_ptr() and dense.shape == (e, mp, kbp)

    want_packed, want_sf = _experts_reference_rows(gate_up, masked_m, gs)
    for x, c in enumerate(masked_m.tolist()):
        logical = unswizzle_sf(_u8(dense[x]), mp, kbp)  # [Mp, KBp] of expert x, padding too
        if c:
            _compare_codes(out[0][x, :c], logical[:c, :i // 16], want_packed[x, :c],
                           want_sf[x, :c], f"expert {x}")
        assert (logical[:c, i // 16:] == 0).all(), f"expert {x}: scale column padding"
        # rows >= masked_m[x] (and the row padding): not a byte written
        assert (out[0][x, c:] == 0xFF).all(), f"expert {x}: codes of masked rows written"
        assert (logical[c:] == 0xFF).all(), f"expert {x}: scales of masked rows written"


@pytest.mark.gpu
def test_experts_zero_rows_and_counts_above_m():
    gate_up = torch.randn(3, 0, 64, device="cuda", dtype=torch.bfloat16)
    mask = torch.zeros(3, dtype=torch.int32, device="cuda")
    packed, scales = silu_mul_nvfp4_quant_experts(gate_up, mask, torch.ones(3, device="cuda"))
    assert packed.shape == (0, 16, 3) and scales.shape == (32, 4, 0, 4, 1, 3)
    gate_up = _rows(2 * 40, 64, torch.bfloat16).view(2, 40, 64)
    mask = torch.tensor([40, 1000], dtype=torch.int32, device="cuda")  # 1000 acts as M
    gs = torch.full((2,), 300.0, device="cuda")
    packed, scales = silu_mul_nvfp4_quant_experts(gate_up, mask, gs)
    want_packed, want_sf = _experts_reference_rows(gate_up, torch.tensor([40, 40]), gs)
    dense = experts_sf_to_dense(scales)
    got_sf = torch.stack([unswizzle_sf(_u8(dense[x]), 40, 2) for x in range(2)])
    _compare_codes(packed.permute(2, 0, 1), got_sf, want_packed, want_sf, "counts above M")


@pytest.mark.gpu
def test_non_default_stream():
    x = _rows(300, 5120, torch.bfloat16)
    gate_up = _rows(300, 2 * 2048, torch.bfloat16)
    g = reference.nvfp4_global_scale(x).reshape(1)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        got = nvfp4_quantize(x, g)
        got_silu = silu_mul_nvfp4_quant(gate_up, g)
    s.synchronize()
    _assert_quantized_equal(got, reference.nvfp4_quantize(x, g))
    _compare_silu(got_silu, reference.silu_mul_nvfp4_quant(gate_up, g), 300, 2048, "stream")


@pytest.mark.gpu
def test_cuda_graph_capture():
    x = _rows(129, 7168, torch.bfloat16)
    gate_up = _rows(129, 2 * 2048, torch.bfloat16)
    experts = torch.stack([_rows(100, 2 * 2048, torch.bfloat16) for _ in range(4)])
    mask = torch.tensor([100, 0, 3, 77], dtype=torch.int32, device="cuda")
    g = reference.nvfp4_global_scale(x).reshape(1)
    gs = torch.full((4,), 800.0, device="cuda")

    def step():
        return (nvfp4_quantize(x, g), silu_mul_nvfp4_quant(gate_up, g),
                silu_mul_nvfp4_quant_experts(experts, mask, gs))

    eager = step()  # compiles outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        captured = step()
    x.copy_(_rows(129, 7168, torch.bfloat16))  # new inputs, replayed
    mask.copy_(torch.tensor([5, 100, 0, 1], dtype=torch.int32))
    graph.replay()
    torch.cuda.synchronize()
    _assert_quantized_equal(captured[0], reference.nvfp4_quantize(x, g))
    _assert_quantized_equal(captured[1], eager[1])  # same gate_up: same bits
    want_packed, want_sf = _experts_reference_rows(experts, mask, gs)
    dense = experts_sf_to_dense(captured[2][1])
    for e, c in enumerate(mask.tolist()):
        got_sf = unswizzle_sf(_u8(dense[e]), 100, 2048 // 16)
        if c:
            _compare_codes(captured[2][0][:c, :, e], got_sf[:c], want_packed[e, :c],
                           want_sf[e, :c], f"graph expert {e}")
