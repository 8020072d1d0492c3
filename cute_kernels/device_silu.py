"""SiLU(gate) * up on the device, fast: the quantizer's fused SiLU*mul and the fused SwiGLU
GEMM epilogues all form h with it, so their numerics agree (DESIGN.md's rule bounds how far it
may move h from ``reference.silu_mul``)."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute

LOG2_E = 1.4426950408889634


@cute.jit
def silu_mul_fast(gate: cutlass.Float32, up: cutlass.Float32) -> cutlass.Float32:
    """``silu(gate) * up`` with ``ex2.approx`` and ``rcp.approx`` (6 instructions instead of
    about 25 for the precise expf and IEEE division). It differs from ``reference.silu_mul`` by
    a few fp32 ulps, which changes h only where that flips its rounding to bf16/fp16 (measured
    by ``test_silu_mul_quant_exp_mismatch_rate``, bounded by the issue's 1e-3 rule)."""
    e = cute.math.exp2(gate * cutlass.Float32(-LOG2_E), fastmath=True)
    return gate * cute.arch.rcp_approx(cutlass.Float32(1.0) + e) * up
