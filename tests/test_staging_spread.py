"""``NVFP4GemmSmallM.STAGING_SPREAD`` (session 90): the token staging hands each thread as few
blocks as one pass allows instead of four always. Only who stages which block changes: the
staged activations, and so the outputs, are the default launch's, bit for bit (the plain
small-M kernel at one and two staged tokens and on a K split, the balanced launches plain and
fused)."""

import importlib

import pytest
import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.nvfp4_gemm_balanced import (compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced)
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM, compile_nvfp4_gemm_small_m
from cute_kernels.nvfp4_gemm_small_m_split import compile_nvfp4_gemm_small_m_split
from cute_kernels.swiglu_quant_balanced import compile_nvfp4_gemm_swiglu_quant_balanced
from cute_kernels.testing import (compile_only, ctas_per_sm, kernel_frame_bytes,
                                  kernel_registers, switched_compiler)
from tests.conftest import poisoned
from tests.test_nvfp4_gemm import _quantized
from tests.test_nvfp4_gemm_balanced import H200, _case, _fused_one_token_runs

gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
SPREAD = {"STAGING_SPREAD": True}


def spread(fn):
    return switched_compiler(fn, NVFP4GemmSmallM, SPREAD, f"{fn.__name__}_spread_for_tests")


compile_balanced_spread = spread(compile_nvfp4_gemm_one_token_balanced)
compile_fused_spread = spread(compile_nvfp4_gemm_swiglu_quant_balanced)
compile_small_m_spread = spread(compile_nvfp4_gemm_small_m)
compile_split_spread = spread(compile_nvfp4_gemm_small_m_split)


@pytest.mark.parametrize("args,warps,per_sm", [
    ((9216, 7168, "fp4", "torch.bfloat16", 8, 3, H200, True), 8, 3),
    ((5120, 17408, "torch.bfloat16", "torch.bfloat16", 12, 2, H200, True), 12, 2)])
def test_spread_fits_its_ctas_per_sm(args, warps, per_sm):
    compiled = compile_only(compile_balanced_spread, *args)
    regs = kernel_registers(compiled)
    assert regs and ctas_per_sm(max(regs), warps + 1) >= per_sm, regs
    assert kernel_frame_bytes(compiled) == 0


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,fp4_a", [
    (1, (1, 1, 4, 1), True), (1, (1, 1, 8, 1), False), (2, (2, 1, 4, 1), True),
    (1, (2, 1, 4, 1, 3), True), (2, (1, 1, 4, 1, 2), False)])  # K splits
def test_small_m_spread_gives_the_same_bits(m, config, fp4_a, monkeypatch):
    n, k = 1040, 1088  # a row tail on two row tiles; four whole steps and a K tail of 64
    b, b_sf, _ = _quantized(n, k, "cuda")
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4_a else (x, None)
    alpha = torch.full((1,), 0.7, device="cuda")
    words = prepare_nvfp4_weight(b)
    want = poisoned(m, n, dtype=torch.float32)
    gemm_module.launch_small_m(a, a_sf, words, b_sf, alpha, want, config)
    with monkeypatch.context() as patch:
        patch.setattr(gemm_module, "compile_nvfp4_gemm_small_m", compile_small_m_spread)
        patch.setattr(gemm_module, "compile_nvfp4_gemm_small_m_split", compile_split_spread)
        got = poisoned(m, n, dtype=torch.float32)
        gemm_module.launch_small_m(a, a_sf, words, b_sf, alpha, got, config)
    assert not want.isnan().any()
    assert torch.equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("per_sm,extra,k,fp4_a,permuted,warps", [
    (3, 180 / 396, 7168, True, True, 8),    # 9216x7168's (8, 3)
    (2, 56 / 264, 17408, False, True, 12),  # W4A16 5120x17408's (12, 2)
    (1, 50 / 132, 576, False, False, 2),    # W4A16, packed bytes, a K tail
])
def test_balanced_spread_gives_the_same_bits(per_sm, extra, k, fp4_a, permuted, warps):
    n, a, a_sf, words, b, b_sf, alpha = _case(per_sm, extra, k, fp4_a, permuted)
    want = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, want, warps, per_sm)
    got = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, got, warps, per_sm,
                              compile_balanced_spread)
    assert torch.equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("fp4_a", [True, False])
def test_fused_spread_gives_the_same_bytes(fp4_a):
    _, runs = _fused_one_token_runs(2, 24, 7168, fp4_a, True, 8,
                                    [compile_nvfp4_gemm_swiglu_quant_balanced,
                                     compile_fused_spread])
    assert torch.equal(runs[0][0], runs[1][0]) and torch.equal(runs[0][1], runs[1][1])
