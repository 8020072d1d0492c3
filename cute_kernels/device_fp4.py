"""Device helpers shared by the kernels: FP4 (e2m1) decode and scale-factor conversion.

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
