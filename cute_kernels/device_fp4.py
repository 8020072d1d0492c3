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
