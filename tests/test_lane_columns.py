"""Lane columns (``nvfp4_gemm_small_m``'s module docstring): one or two staged NVFP4 tokens with
the weights' block scales on the sums. Compile-only, occupancy and the route on CPU; on a GPU
every kernel that takes them (plain, K split, ring, fused, balanced) against the fp64
reference, with ``LANE_COLUMNS`` switched on."""

import cutlass
import pytest
import torch

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_small_m, nvfp4_gemm_swiglu_quant,
                          prepare_gate_up_weight, prepare_nvfp4_weight, reference,
                          restore_gate_up_weight)
from cute_kernels.nvfp4_gemm import launch_small_m
from cute_kernels.nvfp4_gemm_balanced import (balanced_lane_tail,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced)
from cute_kernels.nvfp4_gemm_small_m import (NVFP4GemmSmallM, compile_nvfp4_gemm_small_m,
                                             lane_columns_route)
from cute_kernels.nvfp4_gemm_small_m_split import (compile_nvfp4_gemm_small_m_split,
                                                   config_compile_tail)
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_small_m
from cute_kernels.swiglu_quant_balanced import compile_nvfp4_gemm_swiglu_quant_balanced
from cute_kernels.testing import compile_only, ctas_per_sm, kernel_registers
from tests.conftest import poisoned
from tests.test_nvfp4_gemm import _quantized, _rel_err
from tests.test_nvfp4_gemm_balanced import \
    test_fused_balanced_matches_reference as fused_balanced_case
from tests.test_nvfp4_gemm_swiglu_quant import _check_against_reference
from tests.test_nvfp4_gemm_swiglu_quant import _inputs as _fused_inputs

H200 = 132
BF16 = "torch.bfloat16"


@pytest.mark.parametrize("n,k,config,x_tokens,permuted", [
    ((9216, 7168, (1, 1, 4, 1), 1, True)),    # the one-token wave: lean loads
    ((7168, 18432, (2, 1, 4, 1), 2, True)),   # two tokens, the paired-step loop
    ((200, 576, (1, 1, 4, 0), 1, False)),     # no prefetch (staged, not lean), K and N tails
    ((36864, 7168, (2, 1, 4, 3), 1, True)),   # the cp.async ring
])
def test_plain_compiles_for_sm90a(n, k, config, x_tokens, permuted):
    assert compile_only(compile_nvfp4_gemm_small_m, n, k, "fp4", BF16, *config, x_tokens,
                        permuted, 1, True)


def test_split_fused_and_balanced_compile_for_sm90a():
    assert compile_only(compile_nvfp4_gemm_small_m_split, 5120, 17408, "fp4", BF16,
                        2, 1, 4, 1, 1, 3, True, 1, True)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_small_m, 4608, 7168, "fp4",
                        1, 1, 8, 1, 1, 1, True, 2, True)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_small_m, 512, 7168, "fp4",
                        2, 1, 8, 1, 2, 4, True, 1, True)       # K split, two tokens
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_balanced, 4608, 7168, "fp4", 8, 2,
                        H200, True, True)


@pytest.mark.parametrize("n,k,config,splits", [
    (9216, 7168, (1, 1, 4, 1), 1),    # the public one-token configs
    (36864, 7168, (1, 1, 4, 1), 1),
    (34816, 5120, (1, 1, 4, 1), 1),
    (7168, 18432, (2, 1, 4, 1), 1),
    (5120, 17408, (2, 1, 4, 1), 3),
    (4096, 7168, (1, 1, 8, 1), 1),
    (7168, 2048, (1, 1, 8, 1), 1),
])
def test_public_one_token_configs_keep_their_ctas_per_sm(n, k, config, splits):
    """Lane columns must not cost a CTA an SM (registers, nvdisasm) that the launch uses: the
    grid's CTAs over the H200's SMs where it is one wave (9216x7168: 72 -> 78 registers, 7 ->
    6 CTAs by registers, the wave holds 5; 7168x2048: 45 -> 50, 5 -> 4 of 8 warps for 3.4 an
    SM), else every CTA the registers allowed (36864x7168: 6)."""
    def ctas(lane_columns):
        if splits > 1:
            compiled = compile_only(compile_nvfp4_gemm_small_m_split, n, k, "fp4", BF16,
                                    *config, 1, splits, True, 1, lane_columns)
        else:
            compiled = compile_only(compile_nvfp4_gemm_small_m, n, k, "fp4", BF16, *config, 1,
                                    True, 1, lane_columns)
        return ctas_per_sm(max(kernel_registers(compiled)), config[2])
    wave = -(-(-(-n // (16 * config[0])) * splits) // H200)
    assert ctas(True) >= min(ctas(False), wave)


@pytest.mark.parametrize("n,k,warps,per_sm", [(9216, 7168, 4, 4), (5120, 17408, 8, 2),
                                              (7168, 18432, 4, 3)])
def test_balanced_forms_fit_their_ctas_per_sm(n, k, warps, per_sm):
    regs = kernel_registers(compile_only(compile_nvfp4_gemm_one_token_balanced, n, k, "fp4",
                                         BF16, warps, per_sm, H200, True, True))
    assert regs and ctas_per_sm(max(regs), warps + 1) >= per_sm, regs


@pytest.mark.parametrize("lane_columns", [False, True])
def test_paired_one_row_tile_switch_compiles_and_keeps_the_launch(monkeypatch, lane_columns):
    """``PAIRED_ONE_ROW_TILE`` (a probe switch): the paired-step loop on the one-token wave's
    one row tile, its launch (PDL, CTAs an SM) unchanged, at most 80 registers (six CTAs of
    4 warps fit an SM; the wave holds five)."""
    plain = NVFP4GemmSmallM(9216, 7168, True, cutlass.BFloat16, 1, 1, 4, 1, 1, permuted=True)
    monkeypatch.setattr(NVFP4GemmSmallM, "PAIRED_ONE_ROW_TILE", True)
    paired = NVFP4GemmSmallM(9216, 7168, True, cutlass.BFloat16, 1, 1, 4, 1, 1, permuted=True)
    assert paired.paired_steps and paired.scale_table and not plain.paired_steps
    assert (paired.pdl, paired.pdl_trigger, paired.ctas_cap) == (plain.pdl, plain.pdl_trigger,
                                                                  plain.ctas_cap)
    regs = kernel_registers(compile_only(compile_nvfp4_gemm_small_m, 9216, 7168, "fp4", BF16,
                                         1, 1, 4, 1, 1, True, 1, lane_columns))
    assert max(regs) <= 80, regs


def test_only_one_or_two_staged_fp4_tokens_of_one_tile_take_them():
    for a_fp4, jt, x_tokens in ((False, 1, 1), (True, 2, 2), (True, 1, 0), (True, 1, 3)):
        with pytest.raises(ValueError, match="lane columns take"):
            NVFP4GemmSmallM(9216, 7168, a_fp4, cutlass.BFloat16, 1, jt, 4, 1, x_tokens,
                            lane_columns=True)
    lanes = NVFP4GemmSmallM(9216, 7168, True, cutlass.BFloat16, 1, 1, 4, 1, 2,
                            lane_columns=True)
    assert lanes.sum_scale == 2.0 ** 62 and not lanes.scale_table  # scales in registers


def test_route_is_off_until_measured(monkeypatch):
    assert not nvfp4_gemm_small_m.LANE_COLUMNS
    assert not lane_columns_route(True, 1, 1) and balanced_lane_tail(True) == ()
    monkeypatch.setattr(nvfp4_gemm_small_m, "LANE_COLUMNS", True)
    assert lane_columns_route(True, 1, 1) and lane_columns_route(True, 2, 1)
    assert not any(lane_columns_route(*terms) for terms in
                   ((False, 1, 1), (True, 0, 1), (True, 3, 1), (True, 8, 1), (True, 16, 2)))
    assert balanced_lane_tail(True) == (True,) and balanced_lane_tail(False) == ()
    # the cache keys keep their short form without lane columns
    assert config_compile_tail((1, 1, 4, 1), True) == (True,)
    assert config_compile_tail((1, 1, 4, 1), False, True) == (False, 1, True)
    assert config_compile_tail((1, 1, 8, 1, 1, 2), True, True) == (True, 2, True)


# ---------------------------------------------------------------------------------- GPU


def _weights(n, k, permuted):
    """(packed, scales, the weights as the kernel takes them: packed or permuted words)."""
    b, b_sf, _ = _quantized(n, k, "cuda")
    return b, b_sf, (prepare_nvfp4_weight(b) if permuted else b)


def _tokens(m, k):
    return _quantized(m, k, "cuda", spread=False)[:2]


@pytest.fixture
def lane_columns_on(monkeypatch):
    monkeypatch.setattr(nvfp4_gemm_small_m, "LANE_COLUMNS", True)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 2])
@pytest.mark.parametrize("n,k,permuted", [
    (9216, 7168, True),     # one-token wave (M = 2: the register path, not lane columns)
    (5120, 17408, True),    # K split in three, staged
    (7168, 18432, True),    # paired-step loop, two row tiles
    (7168, 2048, True),     # short K, 8 warps
    (200, 576, False),      # packed bytes, K and N tails
    (1000, 4096, True),
])
def test_public_gemm_matches_fp64_reference(lane_columns_on, m, n, k, permuted):
    b, b_sf, words = _weights(n, k, permuted)
    a, a_sf = _tokens(m, k)
    alpha = float(torch.rand(()) * 2 + 0.1)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    got = nvfp4_gemm(a, a_sf, words, b_sf, alpha, out_dtype=torch.float32,
                     out=poisoned(m, n, dtype=torch.float32))
    assert not got.isnan().any() and _rel_err(got, want) <= 1e-3
    again = nvfp4_gemm(a, a_sf, words, b_sf, alpha, out_dtype=torch.float32)
    assert torch.equal(got, again)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config", [
    (1, 200, 576, (1, 1, 4, 0)),       # staged without the prefetch: the zero-filled operands
    (1, 36864, 7168, (2, 1, 4, 3)),    # the cp.async ring (two tokens: the register path)
    (1, 4096, 7168, (1, 1, 8, 1, 2)),  # K split in two, one and two staged tokens
    (2, 4096, 7168, (1, 1, 8, 1, 2)),
])
def test_forced_configs_match_fp64_reference(lane_columns_on, m, n, k, config):
    b, b_sf, words = _weights(n, k, True)
    a, a_sf = _tokens(m, k)
    alpha = torch.full((1,), 0.75, device="cuda")
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    got = poisoned(m, n, dtype=torch.float32)
    launch_small_m(a, a_sf, words, b_sf, alpha, got, config)
    assert not got.isnan().any() and _rel_err(got, want) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("lanes", [False, True])
def test_paired_one_row_tile_matches_fp64_reference(monkeypatch, lanes):
    """The probe switch ``PAIRED_ONE_ROW_TILE`` on the one-token wave (an odd number of K
    steps a warp: 7), with and without lane columns (compiled ``.uncached``: the switch is
    not in the cache key)."""
    monkeypatch.setattr(NVFP4GemmSmallM, "PAIRED_ONE_ROW_TILE", True)
    n, k = 9216, 7168
    b, b_sf, words = _weights(n, k, True)
    a, a_sf = _tokens(1, k)
    alpha = torch.full((1,), 0.75, device="cuda")
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    got = poisoned(1, n, dtype=torch.float32)
    compile_nvfp4_gemm_small_m.uncached(n, k, "fp4", "torch.float32", 1, 1, 4, 1, 1, True, 1,
                                        lanes)(a.view(torch.int32), a_sf.view(-1),
                                               words.view(torch.int32), b_sf.view(-1), alpha,
                                               got)
    assert not got.isnan().any() and _rel_err(got, want) <= 1e-3


@pytest.mark.gpu
def test_half_codes_survive_the_raw_decode(lane_columns_on):
    """Codes +-0.5 decode to bf16 subnormals (``e2m1 * 2^-126``) and enter the MMA as they
    are: weights of nothing but 0 and +-0.5 (codes 0, 1, 9) at block scale 1 give the fp64
    sums."""
    n, k = 1024, 4096
    nibbles = torch.tensor([0, 1, 9], dtype=torch.uint8, device="cuda")[
        torch.randint(0, 3, (n, k), device="cuda")]
    b = nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)   # element 2i in the low nibble
    _, b_sf, _ = _weights(n, k, False)
    b_sf = torch.full_like(b_sf.view(torch.uint8), 0x38).view(torch.float8_e4m3fn)  # 1.0
    a, a_sf = _tokens(1, k)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 1.0)
    assert want.abs().amax() > 0
    got = nvfp4_gemm(a, a_sf, prepare_nvfp4_weight(b), b_sf, 1.0, out_dtype=torch.float32)
    assert _rel_err(got, want) <= 1e-5


@pytest.mark.gpu
@pytest.mark.parametrize("permuted", [True, False])
@pytest.mark.parametrize("m", [1, 2])
@pytest.mark.parametrize("i,k", [(4608, 7168), (512, 7168), (18432, 7168), (192, 576)])
def test_fused_op_matches_reference(lane_columns_on, m, i, k, permuted):
    """The fused op's small-M routes at one and two tokens (permuted words at one token on
    4608x7168: the one-token row groups, issue 6's point) against DESIGN.md's rule."""
    a, a_sf, w, w_sf, alpha, g_out = _fused_inputs(m, i, k, True)
    if permuted:
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
def test_fused_balanced_launch_matches_reference(lane_columns_on):
    """The fused balanced launch (9216x7168's on the H200) with lane columns, as
    ``test_nvfp4_gemm_balanced`` checks it without."""
    fused_balanced_case(2, 24, 7168, True, True, 8)


@pytest.mark.gpu
@pytest.mark.parametrize("per_sm,extra,k,warps", [
    (4, 1 / 11, 7168, 4),     # 9216x7168 on the H200
    (2, 56 / 264, 17408, 8),  # 5120x17408 on the H200
    (1, 1 / 132, 1088, 4),    # a remainder block in more pieces than steps, a K tail
])
def test_balanced_launch_matches_fp64_reference(lane_columns_on, per_sm, extra, k, warps):
    ctas = per_sm * torch.cuda.get_device_properties(0).multi_processor_count
    n = 16 * (ctas + round(extra * ctas))
    b, b_sf, words = _weights(n, k, True)
    a, a_sf = _tokens(1, k)
    alpha = torch.full((1,), 1.25, device="cuda")
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    got = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, got, warps, per_sm)
    assert not got.isnan().any() and _rel_err(got, want) <= 1e-3
