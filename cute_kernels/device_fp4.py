"""Device helpers shared by the kernels: FP4 (e2m1) decode to fp32 and encode (rounding to e2m1).
Decoding straight into bf16 MMA operand registers lives in ``device_mma``.

Called from inside ``@cute.jit``/``@cute.kernel`` code only.
"""

import cutlass
import cutlass.cute as cute

# Twice the e2m1 magnitudes {0, .5, 1, 1.5, 2, 3, 4, 6}, one nibble per code: a register LUT
# turns a 3-bit magnitude into an exact integer with one shift and one mask.
E2M1_TWICE_LUT = 0xC8643210


@cute.jit
def e2m1_to_f32(code: cutlass.Uint32) -> cutlass.Float32:
    """Value of one 4-bit e2m1 code (sign in bit 3), exact in fp32."""
    twice = (cutlass.Uint32(E2M1_TWICE_LUT) >> ((code & 7) * 4)) & 0xF
    sign = cutlass.Float32(1.0) - cutlass.Float32(2.0) * cutlass.Float32(code >> 3)
    return cutlass.Float32(twice) * cutlass.Float32(0.5) * sign


# Twice the power-of-two factor of each magnitude relative to its block base (1 for 0.5/1/2/4,
# 1.5 for 1.5/3/6): {0, .5, 1, 1, 2, 2, 4, 4} x 2, one nibble per code.
E2M1_POW2_TWICE_LUT = 0x88442210


@cute.jit
def e2m1_scaled(code: cutlass.Uint32, base1: cutlass.Float32,
                base3: cutlass.Float32) -> cutlass.Float32:
    """``e2m1(code) * s`` given ``base1 = s`` and ``base3 = 1.5 * s`` already rounded.

    Every e2m1 magnitude is 1 or 1.5 times a power of two, so with the two per-block bases
    computed once (one rounding each) the element is an exact power-of-two scaling of one of
    them: the same bits as rounding ``e2m1 * s`` directly, as long as the result stays an fp32
    normal (true for any real scale; only |result| < 2^-126 could differ by one subnormal ulp).
    """
    mag = code & 7
    twice = (cutlass.Uint32(E2M1_POW2_TWICE_LUT) >> (mag * 4)) & 0xF
    base = base1
    if (mag & 1) == 1 and mag > 1:
        base = base3
    sign = cutlass.Float32(1.0) - cutlass.Float32(2.0) * cutlass.Float32(code >> 3)
    return base * (cutlass.Float32(twice) * cutlass.Float32(0.5) * sign)


# ---- encode (quantization) -------------------------------------------------------------------
# sm_90 has no e2m1 conversion instruction (cvt.rn.satfinite.e2m1x2 is sm_100+), so the kernels
# round in software, exactly as ``reference.e2m1_codes``, by letting the FPU round: with
# ``a = min(|v|, 6)`` (|v| > 5 saturates anyway) and ``e = max(floor(log2 a), 0)`` (0, 1 or 2),
# the e2m1 grid step is ``2^(e-1)`` (0.5 below 2, 1 in [2, 4), 2 in [4, 6]), so one fma
# ``t = 2^e * 2^22 + a`` (the product is exact) rounds ``a`` to that grid, round-to-nearest-even
# on the grid index ``k``: ``2^(e+22)`` is 2^23 grid steps (an even number) and ``t`` stays in
# its binade, so ``bits(t) - bits(2^(e+22)) = k`` and the magnitude index is ``k + 2e``. The
# sign is ``v < 0`` as in the reference (-0.0 -> 0). About 11 SASS instructions per element
# where the seven literal comparisons take 25. ``tests/test_nvfp4_quant.py`` checks it against
# ``reference.e2m1_codes`` on every fp32 near each threshold and binade edge, NaN included.
E2M1_MAGIC_SHIFT = 22  # 2^(e + 22) has 2^23 steps of 2^(e - 1): its ulp is the e2m1 step
# bits(2^(e+22)) = bits(2^e) + (22 << 23) and 2e = 2 * (bits(2^e) >> 23) - 254, so
# code = bits(t) - bits(2^e) + (bits(2^e) >> 22) - E2M1_CODE_BIAS.
E2M1_CODE_BIAS = (E2M1_MAGIC_SHIFT << 23) + 254
F32_EXPONENT_MASK = 0x7F800000
E2M1_MAX = 6.0


@cute.jit
def e2m1_magnitude_fast(v: cutlass.Float32) -> cutlass.Uint32:
    """The e2m1 magnitude index (0..7) of any non-NaN ``v`` (see the section comment)."""
    # Saturate first (|v| > 5 rounds to 6 either way), so the result needs no clamp.
    a = cute.arch.fmin(cute.math.abs(v), cutlass.Float32(E2M1_MAX))
    # 2^e with e = max(floor(log2 a), 0): the exponent field of max(a, 1).
    pow2 = cute.arch.fmax(a, cutlass.Float32(1.0)).bitcast(cutlass.Uint32) & F32_EXPONENT_MASK
    t = cute.math.fma(pow2.bitcast(cutlass.Float32), cutlass.Float32(2.0 ** E2M1_MAGIC_SHIFT), a)
    # k + 2e
    return t.bitcast(cutlass.Uint32) - pow2 + (pow2 >> 22) - cutlass.Uint32(E2M1_CODE_BIAS)


@cute.jit
def e2m1_encode_total(v: cutlass.Float32) -> cutlass.Uint32:
    """The e2m1 code of every fp32 ``v``, NaN included (code 0, as the reference's comparisons
    give): ``max(|v|, 0)`` first (PTX ``max`` returns the non-NaN operand, so NaN becomes
    magnitude 0), then the fma rounding; no branch. (A kernel that instead branches per block
    between this rounding and the literal comparisons gets both paths if-converted into
    predicated code by the compiler, which then issues both.)"""
    return e2m1_magnitude_fast(cute.arch.fmax(cute.math.abs(v), cutlass.Float32(0.0))) + (
        cutlass.Uint32(cutlass.select_(v < cutlass.Float32(0.0), cutlass.Uint32(8),
                                       cutlass.Uint32(0))))


# ---- block scales ------------------------------------------------------------------------------
ONE_SIXTH = 0.16666666666666666  # becomes RN_fp32(1/6) in the kernel
RECIPROCAL_TABLE_SIZE = 256      # one out_scale per e4m3 scale byte


@cute.jit
def div6(a: cutlass.Float32) -> cutlass.Float32:
    """``a / 6`` correctly rounded without a division: one product and one fma correction
    (Markstein), 4 instructions instead of ~10 and a slow-path branch. Checked against the exact
    quotient (tests/test_nvfp4_quant.py) for every finite bf16/fp16 input, subnormals included,
    and for every fp32 whose quotient is a normal number (so also for an fp32 block amax above
    ~2^-123); inf is passed through by a select (its remainder would be NaN), NaN stays NaN."""
    q = a * cutlass.Float32(ONE_SIXTH)
    r = cute.math.fma(-q, cutlass.Float32(E2M1_MAX), a)
    q = cute.math.fma(r, cutlass.Float32(ONE_SIXTH), q)
    return cutlass.Float32(cutlass.select_(a == cutlass.Float32(float("inf")), a, q))


@cute.jit
def fill_reciprocal_table(table: cute.Tensor, g: cutlass.Float32, tidx, threads: int):
    """``table[b] = 0 if sf == 0 else 1 / (float(sf) / G)`` for every e4m3 byte ``b`` (sf its
    value), with the reference's two true divisions, by threads ``0 .. threads - 1``: a block's
    out_scale is then one shared-memory lookup of its scale byte. The caller synchronizes
    before the first lookup."""
    half = RECIPROCAL_TABLE_SIZE // 2
    for base in cutlass.range_constexpr(0, half, threads):
        code = base + tidx
        if code < half:
            # bytes `code` and `code + 128` (the negative twin) in one e4m3x2 conversion
            rB = cute.make_rmem_tensor((2,), cutlass.Uint8)
            rB[0] = cutlass.Uint8(code)
            rB[1] = cutlass.Uint8(code + half)
            sf = cute.recast_tensor(rB, cutlass.Float8E4M3FN).load().to(cutlass.Float32)
            for j in cutlass.range_constexpr(2):
                s = cutlass.Float32(0.0)
                if sf[j] != cutlass.Float32(0.0):
                    s = cutlass.Float32(1.0) / (sf[j] / g)
                table[code + j * half] = s


# ---- block quantization in an mma accumulator fragment -----------------------------------------
def over_quant_block(x, op):
    """``op``-reduce ``x`` over the 8 lanes that share ``lane % 4`` (lane offsets 4, 8, 16)."""
    for offset in (4, 8, 16):
        x = op(x, cute.arch.shuffle_sync_bfly(x, offset=offset))
    return x


@cute.jit
def quantize_block_pair(x0: cutlass.Float32, x1: cutlass.Float32, x2: cutlass.Float32,
                        x3: cutlass.Float32, g, gs: cutlass.Float32, table=None):
    """NVFP4-quantize two 16-element blocks held the way an mma.sync / wgmma accumulator holds
    a 16 (blocks' elements) x 8 (tokens) slice: lane ``4 g + q`` has element ``g`` of both
    blocks in ``x0`` (block 0) and ``x1`` (block 1) and element ``g + 8`` in ``x2`` / ``x3``,
    so a block is spread over the 8 lanes sharing ``q``. ``gs`` is the global scale G.

    DESIGN.md's numerics, bit-exact with ``reference.nvfp4_quantize`` of these fp32 values:
    ``amax`` NaN-propagating (a max butterfly), ``sf = e4m3_satfinite(G * (amax / 6))``
    (``div6``: the true quotient whenever it is an fp32 normal, i.e. amax > ~2^-123),
    ``s = 0 if sf == 0 else 1 / (sf / G)`` (looked up in ``table``, the caller's
    ``fill_reciprocal_table`` of G, when given; else the two divisions), codes by
    ``e2m1_encode_total`` (no branch). The codes are assembled by an OR butterfly, so every
    lane of the group returns ``(word0, word1, byte0, byte1)``: block ``p``'s 8 packed bytes
    as one Uint64 (element 2i in the low nibble of byte i) and its e4m3 scale byte. The caller
    picks one lane per block to store them."""
    vals = ((x0, x2), (x1, x3))
    rPre = cute.make_rmem_tensor((2,), cutlass.Float32)
    for p in cutlass.range_constexpr(2):
        a = cute.arch.fmax(cute.math.abs(vals[p][0]), cute.math.abs(vals[p][1]), nan=True)
        amax = over_quant_block(a, lambda u, v: cute.arch.fmax(u, v, nan=True))
        rPre[p] = gs * div6(amax)
    rSF = cute.make_rmem_tensor((2,), cutlass.Float8E4M3FN)
    rSF.store(rPre.load().to(cutlass.Float8E4M3FN))  # cvt.rn.satfinite: NaN -> 0x7F
    sf_f = rSF.load().to(cutlass.Float32)
    sf_b = rSF.load().bitcast(cutlass.Uint8)
    shift = cutlass.Uint32(4 * g)
    words = []
    for p in cutlass.range_constexpr(2):
        if cutlass.const_expr(table is not None):
            s = table[cutlass.Int32(sf_b[p])]
        else:
            s = cutlass.Float32(0.0)
            if sf_f[p] != cutlass.Float32(0.0):
                s = cutlass.Float32(1.0) / (sf_f[p] / gs)
        lo = over_quant_block(e2m1_encode_total(vals[p][0] * s) << shift, lambda u, v: u | v)
        hi = over_quant_block(e2m1_encode_total(vals[p][1] * s) << shift, lambda u, v: u | v)
        words.append(cutlass.Uint64(lo) | (cutlass.Uint64(hi) << cutlass.Uint64(32)))
    return words[0], words[1], sf_b[0], sf_b[1]
