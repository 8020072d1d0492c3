"""``NVFP4GemmOneTokenBalanced.NEXT_STEP_UNDER_STAGING`` (session 90: the rule on walks of five
steps or more, since session 91 on two row groups too; a probe switch elsewhere): each K warp
loads its walk's second step between the token staging's loads and their decode. Only the time
of one load moves: the same steps in the same order, so the same bits as the launch without it,
plain and fused."""

import cutlass
import pytest
import torch

from cute_kernels import reference
from cute_kernels.nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced)
from cute_kernels.swiglu_quant_balanced import compile_nvfp4_gemm_swiglu_quant_balanced
from cute_kernels.testing import (compile_only, ctas_per_sm, kernel_frame_bytes,
                                  kernel_registers, switched_compiler)
from tests.conftest import poisoned
from tests.test_nvfp4_gemm_balanced import H200, _case, _fused_one_token_runs

SWITCHES = ("NEXT_STEP_UNDER_STAGING",)
OFF = {"UNDER_STAGING_MIN_WALK": 1 << 30}  # the rule off: no step moved
PLAIN = {name: switched_compiler(compile_nvfp4_gemm_one_token_balanced,
                                 NVFP4GemmOneTokenBalanced, attrs,
                                 f"compile_balanced_{name.lower()}_for_tests")
         for name, attrs in [(switch, {switch: True}) for switch in SWITCHES] + [("off", OFF)]}
FUSED = {name: switched_compiler(compile_nvfp4_gemm_swiglu_quant_balanced,
                                 NVFP4GemmOneTokenBalanced, attrs,
                                 f"compile_fused_balanced_{name.lower()}_for_tests")
         for name, attrs in [(switch, {switch: True}) for switch in SWITCHES] + [("off", OFF)]}


@pytest.mark.parametrize("n,k,a_fp4,warps,per_sm,row_groups,under", [
    (5120, 17408, False, 12, 2, 1, True),   # walks of 5.7 steps
    (7168, 18432, False, 8, 3, 1, True),    # 9
    (9216, 7168, False, 8, 3, 1, False),    # 3.5: lost from L2
    (5120, 17408, True, 12, 2, 1, True),    # NVFP4 tokens alike
    (9216, 7168, True, 8, 3, 1, False),     # 3.5: lost from L2
    (9216, 7168, False, 8, 2, 2, True),     # the fused launch: two groups of 7 steps
    (9216, 7168, True, 8, 2, 2, True)])
def test_under_staging_rule(n, k, a_fp4, warps, per_sm, row_groups, under):
    kernel = NVFP4GemmOneTokenBalanced(n, k, a_fp4, cutlass.BFloat16, warps, per_sm, H200,
                                       True, row_groups=row_groups)
    assert kernel.under_staging() == under


@pytest.mark.parametrize("switch", SWITCHES)
@pytest.mark.parametrize("args,warps,per_sm", [
    ((9216, 7168, "fp4", "torch.bfloat16", 8, 3, H200, True), 8, 3),
    ((9216, 7168, "torch.bfloat16", "torch.bfloat16", 8, 3, H200, True), 8, 3),
    ((5120, 17408, "fp4", "torch.bfloat16", 12, 2, H200, True), 12, 2),
    ((5120, 17408, "torch.bfloat16", "torch.bfloat16", 12, 2, H200, True), 12, 2),
    ((2912, 576, "torch.bfloat16", "torch.bfloat16", 2, 1, H200, False), 2, 1),  # K tail
    ((16 * 132, 1024, "fp4", "torch.bfloat16", 4, 1, H200, True), 4, 1)])  # no remainder
def test_early_step_fits_its_ctas_per_sm(args, warps, per_sm, switch):
    """The double buffer's other half held over the staging: the launch bound still fits
    ``per_sm`` CTAs (K warps and the fix-up warp), with no local memory."""
    compiled = compile_only(PLAIN[switch], *args)
    regs = kernel_registers(compiled)
    assert regs and ctas_per_sm(max(regs), warps + 1) >= per_sm, regs
    assert kernel_frame_bytes(compiled) == 0


@pytest.mark.parametrize("switch", SWITCHES)
@pytest.mark.parametrize("a_dtype", ["fp4", "torch.bfloat16"])
def test_fused_early_step_fits_two_ctas_an_sm(a_dtype, switch):
    compiled = compile_only(FUSED[switch], 4608, 7168, a_dtype, 8, 2, H200, True)
    regs = kernel_registers(compiled)
    assert regs and ctas_per_sm(max(regs), 9) >= 2, regs
    assert kernel_frame_bytes(compiled) == 0


@pytest.mark.gpu
@pytest.mark.parametrize("switch", SWITCHES)
@pytest.mark.parametrize("per_sm,extra,k,fp4_a,permuted,warps", [
    (3, 180 / 396, 7168, True, True, 8),    # 9216x7168's (8, 3): walks of 3-5 steps
    (3, 180 / 396, 7168, False, True, 8),   # its W4A16
    (2, 56 / 264, 17408, False, True, 12),  # W4A16 5120x17408's (12, 2)
    (1, 50 / 132, 576, False, False, 2),    # W4A16, packed bytes, a K tail: walks of 1-2
    (1, 1 / 132, 1088, True, True, 4),      # pieces of no step or one
    (1, 0.0, 1024, True, False, 4),         # no remainder blocks
])
def test_early_step_gives_the_same_bits(per_sm, extra, k, fp4_a, permuted, warps, switch):
    n, a, a_sf, words, b, b_sf, alpha = _case(per_sm, extra, k, fp4_a, permuted)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    plain = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, plain, warps, per_sm, PLAIN["off"])
    public = poisoned(1, n, dtype=torch.float32)  # (the rule's: on for the (12, 2))
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, public, warps, per_sm)
    assert torch.equal(public, plain)
    for _ in range(2):  # the counters are left zero
        got = poisoned(1, n, dtype=torch.float32)
        launch_one_token_balanced(a, a_sf, words, b_sf, alpha, got, warps, per_sm,
                                  PLAIN[switch])
        assert ((got.double() - want).norm() / want.norm()).item() <= 1e-3
        assert torch.equal(got, plain)


@pytest.mark.gpu
@pytest.mark.parametrize("switch", SWITCHES)
@pytest.mark.parametrize("per_sm,extra,k,fp4_a,permuted,warps", [
    (2, 24, 7168, True, True, 8),    # the fused 9216x7168's (8, 2)
    (2, 24, 7168, False, True, 8),   # its W4A16
    (1, 32, 1088, False, False, 4),  # W4A16, packed bytes, a K tail
])
def test_fused_early_step_gives_the_same_bytes(per_sm, extra, k, fp4_a, permuted, warps,
                                              switch):
    _, runs = _fused_one_token_runs(per_sm, extra, k, fp4_a, permuted, warps,
                                    [FUSED["off"], FUSED[switch]])
    assert torch.equal(runs[0][0], runs[1][0]) and torch.equal(runs[0][1], runs[1][1])
