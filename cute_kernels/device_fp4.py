"""Device helpers shared by the kernels: FP4 (e2m1) decode to fp32 and encode (rounding to e2m1).
Decoding straight into bf16 MMA operand registers lives in ``device_mma``.

Called from inside ``@cute.jit``/``@cute.kernel`` code only.
"""

import cutlass
import cutlass.cute as cute
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op

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


def e4m3x2_to_f32(lo, hi):
    """The fp32 values (a TensorSSA of 2) of two e4m3 bit patterns, dynamic integers < 256, in
    one e4m3x2 conversion: the conversion the kernels apply to loaded scales, so a table built
    from it holds exactly their values (0x7F / 0xFF: NaN)."""
    rB = cute.make_rmem_tensor((2,), cutlass.Uint8)
    rB[0] = cutlass.Uint8(lo)
    rB[1] = cutlass.Uint8(hi)
    return cute.recast_tensor(rB, cutlass.Float8E4M3FN).load().to(cutlass.Float32)


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
            sf = e4m3x2_to_f32(code, code + half)  # byte `code` and its negative twin
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


@cute.jit
def quantize_block16(h: cute.Tensor, gs: cutlass.Float32, table: cute.Tensor):
    """NVFP4-quantize one 16-element block held by one thread (``h``: 16 fp32 in registers):
    ``quantize_block_pair``'s arithmetic without the lane butterflies (NaN-propagating amax,
    ``e4m3_satfinite(G * div6(amax))``, the out_scale from ``fill_reciprocal_table``'s
    ``table``, ``e2m1_encode_total``), so the same bits. Returns the 8 packed bytes as one
    Uint64 (element 2i in the low nibble of byte i) and the e4m3 scale byte."""
    a = cute.math.abs(h[0])
    for i in cutlass.range_constexpr(1, 16):
        a = cute.arch.fmax(a, cute.math.abs(h[i]), nan=True)
    rPre = cute.make_rmem_tensor((1,), cutlass.Float32)
    rPre[0] = gs * div6(a)
    rSF = cute.make_rmem_tensor((1,), cutlass.Float8E4M3FN)
    rSF.store(rPre.load().to(cutlass.Float8E4M3FN))  # cvt.rn.satfinite: NaN -> 0x7F
    byte = rSF.load().bitcast(cutlass.Uint8)[0]
    s = table[cutlass.Int32(byte)]
    words = []
    for half in cutlass.range_constexpr(2):
        word = cutlass.Uint32(0)
        for i in cutlass.range_constexpr(8):
            word = word | (e2m1_encode_total(h[8 * half + i] * s) << (4 * i))
        words.append(word)
    return cutlass.Uint64(words[0]) | (cutlass.Uint64(words[1]) << cutlass.Uint64(32)), byte


# ---- threshold encode (16-bit inputs) -----------------------------------------------------------
# For bf16/fp16 inputs the product x * s need not be formed at all. With the block's out_scale s
# fixed, every comparison of the reference's ``e2m1_codes(RN32(x * s))`` is a comparison of |x|
# with a threshold in the input format: RN32(y * s) is non-decreasing in y >= 0, so
# ``RN32(|x| * s) > T`` (or ``>= T``) holds exactly for |x| > X, X = the largest y of the input
# format with ``not (RN32(y * s) > T)`` (the set of such y is a prefix of the non-negative
# values, inf included, also where y * s is NaN). The sign (``RN32(x * s) < 0``) is
# ``x < -Z``, Z the same bound for ``> 0``. A per-CTA table holds the eight thresholds of each
# scale byte (``fill_threshold_table``), each as a duplicated pair, so that a packed 16x2
# comparison (``set.gt.u32.bf16x2``: 0xFFFF per true half) tests two elements at once; a
# binary search (three comparisons, thresholds picked by LOP3 muxes) gives the magnitude and a
# fourth comparison the sign: 8 instructions per element pair where the fp32 product and the
# fma rounding took ~24. A NaN x only occurs in a NaN block (amax NaN -> scale byte 0x7F ->
# s NaN), whose thresholds are all +inf: no comparison holds, every code is 0.
# The same Python functions run on numpy arrays (``NumpyOps``) in the CPU tests, so the tests
# check the arithmetic and the bit assembly that the kernel traces.
THRESHOLDS = ((0.25, False), (0.75, True), (1.25, False), (1.75, True), (2.5, False),
              (3.5, True), (5.0, False))  # (T, the reference compares with >=)
# table row order: X4 first (the search's first step), then X2, X6, X1, X3, X5, X7, -Z
THRESHOLD_ROW = (3, 1, 5, 0, 2, 4, 6)
THRESHOLD_ENTRIES = 128  # indexed by scale byte & 0x7F (see fill_threshold_table)
THRESHOLD_WORDS = 8


def _f32_bits(v: float) -> int:
    import struct
    return struct.unpack("<I", struct.pack("<f", v))[0]


def format_limits(is_bf16: bool) -> tuple[int, int]:
    """(largest finite pattern, sign bit) of the 16-bit input format."""
    return (0x7F7F, 0x8000) if is_bf16 else (0x7BFF, 0x8000)


def thresholds_of_scale(s, ops, is_bf16: bool):
    """The 8 thresholds (input-format bit patterns, as 32-bit values < 2^16, in
    ``THRESHOLD_ROW`` order then -Z) of out_scale ``s`` (fp32; 0, NaN and inf included).

    X = the largest pattern c with ``not (RN32(value(c) * s) op T)``: an estimate
    c = RZ(T / s) (T / s formed as ``(T * inv) * kk`` with ``inv = 1 / (s * kk)``, kk = 2^32
    or 2^-32 so that nothing overflows or loses precision where it matters), clamped to the
    largest finite pattern, is within one pattern of X (its relative error is ~2^-22, a format
    step is >= 2^-11 relative; a subnormal estimate is off by at most 2^-150, far below a
    step), so X = c - 1 + [c qualifies] + [c + 1 qualifies], each test the reference's own
    fp32 product. Z (``> 0``) uses 2^-150 / s as the estimate (products at most 2^-150 round
    to zero)."""
    maxfin, sign = format_limits(is_bf16)
    small = s < ops.f32(1.0)
    kk = ops.select(small, ops.f32(2.0 ** 32), ops.f32(2.0 ** -32))
    kz = ops.select(small, ops.f32(2.0 ** -58), ops.f32(2.0 ** -122))
    inv = ops.f32(1.0) / (s * kk)
    out = []
    specs = [(THRESHOLDS[i][0], THRESHOLDS[i][1]) for i in THRESHOLD_ROW] + [(0.0, False)]
    for t, ge in specs:
        if t == 0.0:
            q = (inv * ops.f32(2.0 ** -60)) * kz
        else:
            q = (inv * ops.f32(t)) * kk
        c = ops.umin(ops.rz16(q, is_bf16), ops.u32(maxfin))
        x = c - ops.u32(1)
        for d in (0, 1):
            y = ops.widen16(c + ops.u32(d), is_bf16)
            x = x + ops.not_cmp(y * s, ops.f32(t), ge)
        if t == 0.0:
            x = x | ops.u32(sign)  # -Z: the sign test is x < -Z
        out.append(x)
    return out


def encode8(words, thr, ops):
    """Packed e2m1 codes (element e in bits 4e..4e+3) of 8 consecutive 16-bit elements, given as
    4 words (element 2j in the low half of word j), with the thresholds of their block
    (``thresholds_of_scale`` order, each duplicated into both halves).

    Per word: |x| (one LOP3), the binary search b2 = |x| > X4, b1 = |x| > (b2 ? X6 : X2),
    b0 = |x| > (b2 ? (b1 ? X7 : X5) : (b1 ? X3 : X1)), the sign x < -Z, and four LOP3s that
    move the half-word masks into the code's bits. Words 0, 1 collect into G, words 2, 3 into
    H, with the low element's nibble in the low half at its final place and the high element's
    in the high half 16 bits above its final place; G + (G >> 16) and one PRMT finish."""
    x4, x2, x6, x1, x3, x5, x7, nz = thr
    acc = [None, None]
    for j in range(4):
        w = words[j]
        a = w & ops.u32(0x7FFF7FFF)  # (abs.bf16x2 becomes an HFMA2, not an operand modifier)
        b2 = ops.hgt(a, x4)
        xm = (b2 & x6) | (~b2 & x2)
        b1 = ops.hgt(a, xm)
        u = (b1 & x7) | (~b1 & x5)
        v = (b1 & x3) | (~b1 & x1)
        xl = (b2 & u) | (~b2 & v)
        b0 = ops.hgt(a, xl)
        sg = ops.hlt(w, nz)
        p = (1 << (8 * (j % 2))) | (1 << (20 + 8 * (j % 2)))
        n = b0 & ops.u32(p)
        if acc[j // 2] is not None:
            n = acc[j // 2] | n
        n = n | (b1 & ops.u32(p << 1))
        n = n | (b2 & ops.u32(p << 2))
        acc[j // 2] = n | (sg & ops.u32(p << 3))
    lo = acc[0] + (acc[0] >> ops.u32(16))
    hi = acc[1] + (acc[1] >> ops.u32(16))
    return ops.prmt(lo, hi, 0x5410)


def abs_max_pair(m0, m1, ops):
    """Per-block partial maxima of two loads: ``m0``, ``m1`` each hold the running packed
    |max| of one load (two halves); returns (block of m0, block of m1) in (low, high) half."""
    return ops.hmax(ops.prmt(m0, m1, 0x5410), ops.prmt(m0, m1, 0x7632))


# inline-asm register classes: (constraint letter, MLIR type) per DSL type
_ASM_REGS = {cutlass.Uint32: ("r", T.i32), cutlass.Float32: ("f", T.f32)}


@dsl_user_op
def _asm(ptx: str, out_type, in_type, *args, loc=None, ip=None):
    """One side-effect-free PTX instruction ``ptx`` ($0 the result, $1.. the ``args``, all of
    ``in_type``) returning ``out_type``."""
    vals = [in_type(a).ir_value(loc=loc, ip=ip) for a in args]
    out_code, out_ir = _ASM_REGS[out_type]
    constraints = ",".join(["=" + out_code] + [_ASM_REGS[in_type][0]] * len(args))
    return out_type(llvm.inline_asm(out_ir(), vals, ptx, constraints, has_side_effects=False,
                                    is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT))


def _asm_u32(ptx: str, *args) -> cutlass.Uint32:
    return _asm(ptx, cutlass.Uint32, cutlass.Uint32, *args)


def _asm_f32_to_u32(ptx: str, a) -> cutlass.Uint32:
    return _asm(ptx, cutlass.Uint32, cutlass.Float32, a)


def _asm_u32_to_f32(ptx: str, a) -> cutlass.Float32:
    return _asm(ptx, cutlass.Float32, cutlass.Uint32, a)


class DeviceOps:
    """The operations of ``encode8``/``thresholds_of_scale`` inside a kernel (bf16 or fp16
    pairs): PTX packed comparisons and max, PRMT, conversions."""

    def __init__(self, is_bf16: bool):
        self.t = "bf16x2" if is_bf16 else "f16x2"

    @staticmethod
    def u32(v):
        return cutlass.Uint32(v)

    @staticmethod
    def f32(v):
        return cutlass.Float32(v)

    def hgt(self, a, b):
        return _asm_u32(f"set.gt.u32.{self.t} $0, $1, $2;", a, b)

    def hlt(self, a, b):
        return _asm_u32(f"set.lt.u32.{self.t} $0, $1, $2;", a, b)

    def hmax(self, a, b):
        """max(|a|, |b|) per half, NaN-propagating (the sign bits are left undefined)."""
        return _asm_u32(f"max.NaN.xorsign.abs.{self.t} $0, $1, $2;", a, b)

    @staticmethod
    def prmt(a, b, sel: int):
        return _asm_u32(f"prmt.b32 $0, $1, $2, {sel:#x};", a, b)

    @staticmethod
    def prmt_dyn(a, b, sel):
        return _asm_u32("prmt.b32 $0, $1, $2, $3;", a, b, sel)

    @staticmethod
    def select(c, a, b):
        return cutlass.Float32(cutlass.select_(c, a, b))

    @staticmethod
    def umin(a, b):
        return cutlass.Uint32(cutlass.min(a, b))

    @staticmethod
    def not_cmp(p, t, ge: bool):
        hit = p >= t if ge else p > t
        return cutlass.Uint32(cutlass.select_(hit, cutlass.Uint32(0), cutlass.Uint32(1)))

    @staticmethod
    def rz16(q, is_bf16: bool):
        """RZ(q) in the 16-bit format, as its pattern (low half; NaN -> a NaN pattern)."""
        t = "bf16x2" if is_bf16 else "f16x2"
        return _asm_f32_to_u32(
            f"{{ .reg .b32 z; mov.b32 z, 0; cvt.rz.{t}.f32 $0, z, $1; }}", q)

    @staticmethod
    def widen16(c, is_bf16: bool):
        """The fp32 value of pattern ``c`` (< 2^16) of the 16-bit format."""
        if is_bf16:
            return (c << cutlass.Uint32(16)).bitcast(cutlass.Float32)
        return _asm_u32_to_f32(
            "{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $1; cvt.f32.f16 $0, lo; }", c)


@cute.jit
def fill_threshold_table(table: cute.Tensor, g: cutlass.Float32, tidx, threads: int,
                         is_bf16: bool):
    """Row ``b`` of ``table`` ([THRESHOLD_ENTRIES, 8] Uint32): the thresholds of scale byte
    ``b`` (and of ``b | 0x80``) for global scale G, each duplicated into both halves.

    s = 0 if sf == 0 else 1 / (sf / |G|), the reference's two divisions: a block's byte has
    the sign of G (or is 0x7F, NaN), and (-sf) / G = sf / |G| exactly, so bytes b and b | 0x80
    share one row. The caller synchronizes before the first lookup."""
    ops = DeviceOps(is_bf16)
    ag = cute.math.abs(g)
    for base in cutlass.range_constexpr(0, THRESHOLD_ENTRIES, threads):
        code = base + tidx
        if code < THRESHOLD_ENTRIES:
            sf = e4m3x2_to_f32(code, 0)
            s = cutlass.Float32(0.0)
            if sf[0] != cutlass.Float32(0.0):
                s = cutlass.Float32(1.0) / (sf[0] / ag)
            xs = thresholds_of_scale(s, ops, is_bf16)
            row = cute.make_rmem_tensor((THRESHOLD_WORDS,), cutlass.Uint32)
            for k in cutlass.range_constexpr(THRESHOLD_WORDS):
                row[k] = xs[k] | (xs[k] << cutlass.Uint32(16))
            cute.autovec_copy(row, table[code, None])
