"""``NVFP4GemmSmallM``'s second step under the staging (``small_m_under_staging``: forced by
``UNDER_STAGING``, the rule on two row groups since session 91): with staged activations each
warp issues its second step's loads between the token staging's loads and their decode. Only
the time of one load moves: the same bits as the launch without it ("over", the rule off),
plain and fused, and the public one-token configs keep their registers' worth of CTAs, with no
local memory."""

import importlib

import cutlass
import pytest
import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.nvfp4_gemm import small_m_config
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM, compile_nvfp4_gemm_small_m
from cute_kernels.nvfp4_gemm_small_m_split import compile_nvfp4_gemm_small_m_split
from cute_kernels.nvfp4_gemm_swiglu_quant import (compile_nvfp4_gemm_swiglu_quant_small_m,
                                                  swiglu_small_m_config)
from cute_kernels.testing import (compile_only, kernel_frame_bytes, kernel_registers,
                                  switched_compiler)
from tests.conftest import poisoned
from tests.test_nvfp4_gemm import _quantized
from tests.test_nvfp4_gemm_swiglu_quant import _assert_same_bytes, _inputs, _run_small_m

gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
UNDER = {"UNDER_STAGING": True}
OVER = {"UNDER_STAGING_MIN_ROW_GROUPS": 1 << 30}  # the rule off: every step after the staging


def under(fn):
    return switched_compiler(fn, NVFP4GemmSmallM, UNDER, f"{fn.__name__}_under_for_tests")


def over(fn):
    return switched_compiler(fn, NVFP4GemmSmallM, OVER, f"{fn.__name__}_over_for_tests")


compile_plain_under = under(compile_nvfp4_gemm_small_m)
compile_split_under = under(compile_nvfp4_gemm_small_m_split)
compile_fused_under = under(compile_nvfp4_gemm_swiglu_quant_small_m)
compile_plain_over = over(compile_nvfp4_gemm_small_m)
compile_split_over = over(compile_nvfp4_gemm_small_m_split)
compile_fused_over = over(compile_nvfp4_gemm_swiglu_quant_small_m)


def _tail(config):
    groups = config[5] if len(config) > 5 else 1
    return (True,) if groups == 1 else (True, groups)


@pytest.mark.parametrize("n,k", [(36864, 7168), (34816, 5120), (4096, 7168), (7168, 2048)])
def test_plain_one_token_configs_keep_their_registers(n, k):
    config = small_m_config(1, n, k, True, True)
    assert len(config) == 4 or config[4] == 1  # (no K split at these points)
    args = (n, k, "fp4", "torch.bfloat16", *config[:4], 1, *_tail(config))
    on, off = compile_only(compile_plain_under, *args), compile_only(compile_plain_over, *args)
    assert kernel_frame_bytes(on) == 0
    assert max(kernel_registers(on)) <= max(kernel_registers(off)) + 8


@pytest.mark.parametrize("two_i,k", [(36864, 7168), (34816, 5120), (4096, 7168), (1024, 7168)])
def test_fused_one_token_configs_keep_their_registers(two_i, k):
    config = swiglu_small_m_config(1, two_i // 2, k, permuted=True)
    rt, jt, warps, prefetch, *rest = config
    splits, groups = (*rest, 1, 1)[:2]
    args = (two_i // 2, k, "fp4", rt, jt, warps, prefetch, 1, splits, True,
            *((groups,) if groups > 1 else ()))
    on, off = compile_only(compile_fused_under, *args), compile_only(compile_fused_over, *args)
    assert kernel_frame_bytes(on) == 0
    assert max(kernel_registers(on)) <= max(kernel_registers(off)) + 8


def test_the_switch_takes_only_one_pass_stagings_on_the_plain_loop():
    kernel = NVFP4GemmSmallM(1040, 1088, True, cutlass.BFloat16, 1, 1, 4, 1, 1)
    assert not kernel.small_m_under_staging()
    NVFP4GemmSmallM.UNDER_STAGING = True
    try:
        assert kernel.small_m_under_staging()
        unstaged = NVFP4GemmSmallM(1040, 1088, True, cutlass.BFloat16, 1, 1, 4, 1)
        assert not unstaged.small_m_under_staging()
    finally:
        NVFP4GemmSmallM.UNDER_STAGING = False


def test_the_rule_takes_two_row_groups_only():
    """The fused 36864x7168 one-token config takes it; one row group does not."""
    two = NVFP4GemmSmallM(36864, 7168, True, cutlass.BFloat16, 1, 1, 8, 1, 1, permuted=True,
                          row_groups=2)
    one = NVFP4GemmSmallM(36864, 7168, True, cutlass.BFloat16, 1, 1, 4, 1, 1, permuted=True)
    assert two.small_m_under_staging() and not one.small_m_under_staging()
    assert swiglu_small_m_config(1, 18432, 7168, permuted=True) == (1, 1, 8, 1, 1, 2)


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,fp4_a", [
    (1, (1, 1, 4, 1), True), (1, (1, 1, 8, 1), False), (2, (1, 1, 4, 1), True),
    (1, (2, 1, 4, 1, 3), True), (2, (1, 1, 4, 1, 2), False),  # K splits
    (1, (1, 1, 8, 1, 1, 2), True)])                          # row groups
def test_plain_under_staging_gives_the_same_bits(m, config, fp4_a, monkeypatch):
    n, k = 1040, 1088  # a row tail; four whole steps and a K tail of 64
    b, b_sf, _ = _quantized(n, k, "cuda")
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4_a else (x, None)
    alpha = torch.full((1,), 0.7, device="cuda")
    words = prepare_nvfp4_weight(b)
    want = poisoned(m, n, dtype=torch.float32)
    with monkeypatch.context() as patch:
        patch.setattr(gemm_module, "compile_nvfp4_gemm_small_m", compile_plain_over)
        patch.setattr(gemm_module, "compile_nvfp4_gemm_small_m_split", compile_split_over)
        gemm_module.launch_small_m(a, a_sf, words, b_sf, alpha, want, config)
    with monkeypatch.context() as patch:
        patch.setattr(gemm_module, "compile_nvfp4_gemm_small_m", compile_plain_under)
        patch.setattr(gemm_module, "compile_nvfp4_gemm_small_m_split", compile_split_under)
        got = poisoned(m, n, dtype=torch.float32)
        gemm_module.launch_small_m(a, a_sf, words, b_sf, alpha, got, config)
    assert not want.isnan().any()
    assert torch.equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(1, 1, 8, 1, 1, 2), (2, 1, 8, 1, 4), (2, 1, 3, 1)])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_fused_under_staging_gives_the_same_bytes(config, fp4_a):
    inputs = _inputs(1, 320, 1088, fp4_a)
    _assert_same_bytes(_run_small_m(*inputs, config, compile_fused_under),
                       _run_small_m(*inputs, config, compile_fused_over))


@pytest.mark.gpu
def test_plain_36864x7168_one_token_route_on_two_row_groups():
    """The public one-token route at 36864x7168 on permuted words (session 91: two row groups,
    the second step under the staging) against the fp64 reference, and in agreement with the
    route it replaced, (1, 1, 4, 1): only the fp32 summation order differs."""
    from cute_kernels import nvfp4_gemm

    n, k = 36864, 7168
    assert small_m_config(1, n, k, True, True) == (1, 1, 8, 1, 1, 2)
    b, b_sf, _ = _quantized(n, k, "cuda")
    a, a_sf, _ = _quantized(1, k, "cuda")
    alpha = torch.full((1,), 0.7, device="cuda")
    words = prepare_nvfp4_weight(b)
    got = poisoned(1, n, dtype=torch.float32)
    nvfp4_gemm(a, a_sf, words, b_sf, alpha, out_dtype=torch.float32, out=got)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    assert not got.isnan().any()
    assert ((got.double() - want).norm() / want.norm()).item() <= 1e-3
    old = poisoned(1, n, dtype=torch.float32)
    gemm_module.launch_small_m(a, a_sf, words, b_sf, alpha, old, (1, 1, 4, 1))
    assert ((got - old).norm() / old.norm()).item() <= 1e-4
