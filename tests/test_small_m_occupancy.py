"""CTAs per SM of the small-M kernels' main configs, from their register counts (compile only).

The configs were chosen by timings taken at these occupancies; a loop or compiler change that
moves a config past a step raises no compile error and shows only as time: session 12's loop
took (2, 2, 4, 1) from 168 to 179 registers, two CTAs per SM instead of three, and the fused
9216x7168 M = 16 from 24.1 to 32.8 us until ``NVFP4GemmSmallM.min_ctas`` held it to three.
"""

import pytest

from cute_kernels.nvfp4_gemm_small_m import compile_nvfp4_gemm_small_m
from cute_kernels.nvfp4_gemm_small_m_split import compile_nvfp4_gemm_small_m_split
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_small_m
from cute_kernels.testing import compile_only, ctas_per_sm, kernel_frame_bytes, kernel_registers


def test_ctas_per_sm_steps():
    assert ctas_per_sm(128, 4) == 4 and ctas_per_sm(129, 4) == 3
    assert ctas_per_sm(168, 4) == 3 and ctas_per_sm(169, 4) == 2


@pytest.mark.parametrize("what,fn,args,warps,ctas", [
    ("plain M = 1, paired steps (7168x18432)", compile_nvfp4_gemm_small_m,
     (7168, 18432, "fp4", "torch.bfloat16", 2, 1, 4, 1, 1, True), 4, 4),
    ("plain M = 3..8, register path (36864x7168)", compile_nvfp4_gemm_small_m,
     (36864, 7168, "fp4", "torch.bfloat16", 2, 1, 4, 1, 0, True), 4, 3),
    ("plain M = 1, K split in three (5120x17408)", compile_nvfp4_gemm_small_m_split,
     (5120, 17408, "fp4", "torch.bfloat16", 2, 1, 4, 1, 1, 3, True), 4, 4),
    ("plain M = 3..8, one row tile in two splits: one wave of 640 (5120x17408)",
     compile_nvfp4_gemm_small_m_split,
     (5120, 17408, "fp4", "torch.bfloat16", 1, 1, 4, 1, 0, 2, True), 4, 5),
    ("plain M = 1, one row tile, one wave of 576 (9216x7168)", compile_nvfp4_gemm_small_m,
     (9216, 7168, "fp4", "torch.bfloat16", 1, 1, 4, 1, 1, True), 4, 5),
    ("fused M = 1 (36864x7168)", compile_nvfp4_gemm_swiglu_quant_small_m,
     (18432, 7168, "fp4", 2, 1, 4, 1, 1, 1, True), 4, 4),
    ("fused M = 9..16, two token tiles (9216x7168)", compile_nvfp4_gemm_swiglu_quant_small_m,
     (4608, 7168, "fp4", 2, 2, 4, 1, 0, 1, True), 4, 3),
    ("fused M = 1 on row groups: 288 CTAs of 8 warps in one wave (9216x7168)",
     compile_nvfp4_gemm_swiglu_quant_small_m, (4608, 7168, "fp4", 1, 1, 8, 1, 1, 1, True, 2),
     8, 3),
])
def test_configs_keep_their_ctas_per_sm(what, fn, args, warps, ctas):
    """...and do it without spilling (a launch bound can trade registers for local memory)."""
    compiled = compile_only(fn, *args)
    regs = kernel_registers(compiled)
    assert regs, f"{what}: no register count found in the compiled object"
    assert ctas_per_sm(max(regs), warps) >= ctas, (what, regs)
    assert kernel_frame_bytes(compiled) == 0, (what, "spills")
