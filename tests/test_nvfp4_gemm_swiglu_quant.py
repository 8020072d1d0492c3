"""Fused gate_up GEMM + SwiGLU + NVFP4 quantization: compile-only, the row mapping, the CPU
reference route and input errors on CPU; on a GPU, every route against the reference
quantization of the fp64 SwiGLU (DESIGN.md's rule for results after a GEMM)."""

import importlib

import pytest
import torch

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_gate_up_weight, reference,
                          restore_gate_up_weight)
from cute_kernels.nvfp4_gemm import SMALL_M_MAX
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.large_m_plans import TILE_8_MAX_M, plain_launch_options, stream_k_plan
from cute_kernels.nvfp4_gemm_large_m import SMEM_BYTES
from cute_kernels.nvfp4_gemm_small_m_split import config_row_groups, config_splits
from cute_kernels.nvfp4_gemm_swiglu_quant import (compile_nvfp4_gemm_swiglu_quant_small_m,
                                                  half_group_route, launch_small_m, large_m_launch,
                                                  large_m_route, packed_route, route_launch,
                                                  swapped_pairs, swapped_route,
                                                  swiglu_small_m_config, swiglu_small_m_regime)
from cute_kernels.nvfp4_quant import compile_nvfp4_quant
from cute_kernels.k_order import wgmma_k_order
from cute_kernels.swiglu_quant_large_m import (NVFP4GemmSwigluQuantLargeM,
                                               compile_nvfp4_gemm_swiglu_quant_large_m,
                                               launch_large_m)
from cute_kernels.swiglu_quant_small_m import NVFP4GemmSwigluQuantSmallM
from cute_kernels.swiglu_split_route import (fp32_route_plan, launch_split_route,
                                             split_route_plan)
from cute_kernels.testing import compile_only, replaced
from layouts import interleave_gate_up, sf_padded_shape, unswizzle_sf
from tests.conftest import check_graph_replays_chain, poisoned


@pytest.mark.parametrize("i,k,a_dtype,config", [
    (512, 1024, "fp4", (2, 1, 4, 1)),
    (192, 576, "torch.bfloat16", (4, 2, 4, 0)),       # K tail of 64; I not a multiple of 128
    (512, 1024, "fp4", (2, 1, 4, 3)),                 # cp.async ring, 3 steps in flight
    (4608, 7168, "fp4", (2, 2, 4, 1, 0, 1, True)),    # three CTAs per SM (min_ctas)
    (4608, 7168, "fp4", (1, 1, 8, 1, 1, 1, True, 2)),  # up and gate tiles on row groups
])
def test_small_m_compiles_for_sm90a(i, k, a_dtype, config):
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_small_m, i, k, a_dtype, *config)


@pytest.mark.parametrize("i,k,a_dtype,config", [
    (512, 7168, "fp4", (2, 1, 8, 1, 1, 4)),            # 1024x7168 at M = 1: 32 CTAs -> 128
    (192, 576, "torch.bfloat16", (4, 2, 4, 0, 0, 3)),  # one step per split, tails
])
def test_small_m_split_compiles_for_sm90a(i, k, a_dtype, config):
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_small_m, i, k, a_dtype, *config)


@pytest.mark.parametrize("i,k,tile_m", [
    (2048, 7168, 256),  # DeepSeek expert gate_up (2I = 4096)
    (192, 576, 64),     # 3 row tiles, odd number of k-tiles
])
def test_large_m_compiles_for_sm90a(i, k, tile_m):
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, i, k, tile_m)


def test_large_m_pieces_compile_for_sm90a():
    """The fused kernel on the split-K launch (stream-K on tiles x splits CTAs, "pieces")."""
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 2048, 7168, 64, 0, 132, True,
                        False, 1, 1, 1, 0, 4)


@pytest.mark.parametrize("tile_m,stream_k,splits,pairs", [
    (64, False, 1, True), (16, False, 1, True), (128, False, 1, False), (128, True, 2, False)])
def test_large_m_half_groups_compile_for_sm90a(tile_m, stream_k, splits, pairs):
    """``wg_k_split``: 64-row tiles of half an interleave group (32 up + 32 gate rows), the
    warpgroups on the K groups; whole tiles, K pieces, or two in a cluster (``pair_pieces``)."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.testing import kernel_registers

    compiled = compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 2048, 7168, tile_m, 0,
                            132, stream_k, False, int(KOrder.PERMUTED), 1, 2, 0, splits, True,
                            pairs)
    assert kernel_registers(compiled) == [168]
    with pytest.raises(AssertionError):  # the quantizer warps are not for these tiles
        NVFP4GemmSwigluQuantLargeM(2048, 7168, 64, k_groups=2, quantizers=3, wg_k_split=True)


def test_large_m_stream_k_compiles_for_sm90a():
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 4608, 7168, 256, 0, 132, True)


@pytest.mark.parametrize("args", [
    (2048, 7168, 256),                                   # whole 256-token tiles
    (4608, 7168, 256, 0, 132, True),                     # stream-K
    (18432, 7168, 16, 0, 264, True, False, True, 2, 2),  # 16-token tiles, two CTAs an SM
    (192, 576, 64),                                      # 3 row tiles, odd k-tiles
])
@pytest.mark.parametrize("quantizers", [0, 3, 1])
def test_quantization_variants_compile_for_sm90a(args, quantizers):
    """The fused kernel's quantization by the consumers or by the producer warpgroup's idle
    warps (``quantizers``, one CTA an SM only)."""
    if quantizers and len(args) > 8 and args[8] == 2:
        pytest.skip("two CTAs an SM leave the producer warps 24 registers: no quantizers")
    if quantizers:  # (the defaults of the arguments after tile_m, then quantizers)
        args = args + (0, 132, False, False, False, 1, 1)[len(args) - 3:] + (quantizers,)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, *args)


@pytest.mark.parametrize("args", [(2048, 7168, 256, 0, 132, False, False, True, 1, 1, 3),
                                  (4608, 7168, 256, 0, 132, True, False, True, 1, 1, 3),
                                  (192, 576, 128, 0, 132, False, False, False, 1, 1, 1)])
def test_gate_behind_compiles_for_sm90a(args, monkeypatch):
    """``GATE_AHEAD`` off (session 23's form, kept for A/Bs): the gate warpgroup forms silu
    itself, no gate mbarrier. Uncached compiles (the compile cache does not key on the class
    attribute)."""
    monkeypatch.setattr(NVFP4GemmSwigluQuantLargeM, "GATE_AHEAD", False)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, *args)


def test_quantizer_warps_rule():
    """Permuted words or packed bytes in PAIRS on 128- and 256-token tiles at one CTA an SM:
    the quantizer warps; else (packed bytes decoded in place too) the consumers."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.swiglu_quant_large_m import QUANTIZER_WARPS, quantizer_warps

    for order in (KOrder.PERMUTED, KOrder.PAIRS):
        assert quantizer_warps(256, 1, order) == quantizer_warps(128, 1, order) == QUANTIZER_WARPS
        assert quantizer_warps(64, 1, order) == quantizer_warps(32, 2, order) == 0
    assert quantizer_warps(256, 1, KOrder.IDENTITY) == 0
    # nothing to hide behind where every CTA has one tile or one K piece
    assert quantizer_warps(128, 1, KOrder.PAIRS, one_tile_a_cta=True) == 0
    from cute_kernels.swiglu_quant_large_m import one_tile_a_cta
    assert one_tile_a_cta(256, 4096, 128, 132, True, 2)           # the wide pieces
    assert one_tile_a_cta(1024, 4096, 256, 132, False, 1)         # 128 whole tiles
    assert not one_tile_a_cta(1024, 36864, 256, 132, False, 1)    # 1152 whole tiles
    assert not one_tile_a_cta(256, 9216, 128, 132, True, 1)       # stream-K on 144 tiles
    with pytest.raises(AssertionError):
        NVFP4GemmSwigluQuantLargeM(2048, 7168, 32, ctas_per_sm=2, quantizers=3)


@pytest.mark.parametrize("tile_m", [16, 32, 64])
def test_large_m_two_ctas_fit_80_registers(tile_m):
    """The fused kernel on the plain GEMM's narrow stream-K launch and on
    ``fused_stream_k_options``' 64-token one (two CTAs per SM, two K groups a stage, permuted
    words): 384 threads at <= 80 registers at launch."""
    from cute_kernels.testing import kernel_registers

    compiled = compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 18432, 7168, tile_m, 0,
                            264, True, False, True, 2, 2)
    assert max(kernel_registers(compiled)) <= 80


@pytest.mark.parametrize("tile_m,stages", [(64, 7), (128, 8), (256, 4)])
def test_large_m_shared_memory_budget(tile_m, stages):
    """The pipeline stages leave room for the epilogue's 64 x tile_m fp32 silu(gate) buffer and
    its 256-entry reciprocal table."""
    kernel = NVFP4GemmSwigluQuantLargeM(2048, 7168, tile_m)
    assert kernel.epilogue_bytes == (64 * tile_m + 256) * 4
    assert kernel.stages == stages
    assert kernel.stages * kernel.tx_bytes + kernel.epilogue_bytes + 4096 <= SMEM_BYTES


@pytest.mark.parametrize("rt", [2, 4, 8])
def test_tiles_hold_up_and_gate_of_the_same_columns(rt):
    """Up tile t of a row block and tile t + rt/2 are the up and gate weight rows of the same
    16 output columns, which is what the epilogue assumes."""
    i = 192
    kernel = NVFP4GemmSwigluQuantSmallM(i, 64, True, row_tiles=rt)
    # row r of the prepared weight is row origin[r] of the checkpoint's [gate; up]
    origin = interleave_gate_up(torch.arange(2 * i).unsqueeze(1), 64)[:, 0]
    half = rt // 2
    covered = []
    for block in range(2 * i // (16 * rt)):
        for t in range(half):
            c = (block * half + t) * 16
            up, gate = kernel.tile_row(block, t), kernel.tile_row(block, t + half)
            assert origin[up:up + 16].tolist() == list(range(i + c, i + c + 16))
            assert origin[gate:gate + 16].tolist() == list(range(c, c + 16))
            covered.append(c)
    assert sorted(covered) == list(range(0, i, 16))


def test_fused_small_m_splits_k_where_ctas_fill_half_the_gpu():
    """1024x7168 (32 fused CTAs) splits K in four at M = 1, in two at M = 16; 4096x7168 (128
    CTAs) does not (``tools/small_split_probe.py``)."""
    assert swiglu_small_m_config(1, 512, 7168) == (2, 1, 8, 1, 4)
    assert config_splits(swiglu_small_m_config(16, 512, 7168)) == 2
    for m in (1, 8, 16):
        assert config_splits(swiglu_small_m_config(m, 2048, 7168)) == 1
        assert config_splits(swiglu_small_m_config(m, 32, 64)) == 1  # too few K steps


def test_small_m_regime_hands_over_to_stream_k_wgmma():
    """Past 16 tokens big weights take the wgmma kernel (stream-K), 4096x7168 from 33 tokens,
    1024x7168 from 65 (``tools/fused_regime_probe.py``); fp4 activations on 36864x7168 and
    34816x5120 from 9 (``wgmma_from_9_tokens``)."""
    for i, k in ((18432, 7168), (17408, 5120), (4608, 7168)):
        assert swiglu_small_m_regime(16, i, k) == (i == 4608)
        assert swiglu_small_m_regime(8, i, k) and not swiglu_small_m_regime(17, i, k)
        assert stream_k_plan(17, 2 * i, k, fused=True) == (64, False)
    assert swiglu_small_m_regime(32, 2048, 7168) and not swiglu_small_m_regime(33, 2048, 7168)
    assert swiglu_small_m_regime(64, 512, 7168) and not swiglu_small_m_regime(65, 512, 7168)


def test_w4a16_leaves_the_small_kernel_on_big_weights():
    """bf16 activations: the wgmma kernel from 9 tokens on weights over 32 Mi values
    (9216x7168), from 4 over 64 Mi (36864x7168, 7168x18432; 34816x5120 from 6 on permuted
    words); 4096x7168 and 1024x7168 keep the small kernel to 16 tokens (H200, session 30)."""
    def first_wgmma(i, k, permuted=False):
        return next((m for m in range(1, 17)
                     if not swiglu_small_m_regime(m, i, k, False, permuted)), None)
    assert first_wgmma(4608, 7168) == first_wgmma(4608, 7168, True) == 9
    for i, k in ((18432, 7168), (3584, 18432), (17408, 5120)):
        assert first_wgmma(i, k) == 4
    assert first_wgmma(18432, 7168, True) == 4 and first_wgmma(17408, 5120, True) == 6
    assert first_wgmma(2048, 7168) is None and first_wgmma(512, 7168, True) is None
    assert swiglu_small_m_regime(9, 4608, 7168, True)  # fp4 keeps it (wgmma_from_9_tokens)
    assert swiglu_small_m_regime(17, 2048, 7168, False)


def test_one_token_on_short_k_takes_three_warps():
    """M = 1 on permuted words: 34816x5120 (20 K steps, 1088 row blocks) with 3 warps (H200,
    session 21: 32.1 -> 30.7 us); packed words and M = 2 keep 4."""
    assert swiglu_small_m_config(1, 17408, 5120, True) == (2, 1, 3, 1)
    assert swiglu_small_m_config(1, 17408, 5120) == swiglu_small_m_config(2, 17408, 5120,
                                                                          True) == (2, 1, 4, 1)


def test_one_token_takes_row_groups_where_the_rule_keeps_two_tiles_of_four_warps():
    """M = 1, permuted words, NVFP4 activations: where the rule is (2, 1, 4, 1) (36864x7168,
    9216x7168), the up and gate tiles go to two row groups of four warps (H200, session 42:
    9216x7168 14.54 -> 13.92 us, 36864x7168 44.40 -> 43.62). The 3-warp (34816x5120), 8-warp
    (4096x7168) and split (1024x7168) rules, packed words, bf16 activations and M = 2 keep
    theirs."""
    for i in (18432, 4608):
        assert swiglu_small_m_config(1, i, 7168, True) == (1, 1, 8, 1, 1, 2)
        assert swiglu_small_m_config(1, i, 7168) == (2, 1, 4, 1)
        assert swiglu_small_m_config(1, i, 7168, True, a_fp4=False) == (2, 1, 4, 1)
        assert swiglu_small_m_config(2, i, 7168, True) == (2, 1, 4, 1)
    assert swiglu_small_m_config(1, 17408, 5120, True) == (2, 1, 3, 1)
    assert swiglu_small_m_config(1, 2048, 7168, True) == (2, 1, 8, 1)
    assert swiglu_small_m_config(1, 512, 7168, True) == (2, 1, 8, 1, 4)


@pytest.mark.gpu
@pytest.mark.parametrize("i", [4608, 2112])
def test_one_token_row_groups_match_reference(i):
    """The public function on the row-group launch (9216x7168, and I = 2112: an odd number of
    64-row groups, 132 row blocks) against the fp64 reference, and bit for bit against (2, 1,
    4, 1), whose warps walk the same K steps."""
    a, a_sf, w, w_sf, alpha, g_out = _inputs(1, i, 7168, True)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    assert swiglu_small_m_config(1, i, 7168, True) == (1, 1, 8, 1, 1, 2)
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    two_tiles, two_tiles_sf = _run_small_m(a, a_sf, w, w_sf, alpha, g_out, (2, 1, 4, 1))
    assert torch.equal(out, two_tiles)
    assert torch.equal(out_sf.view(torch.uint8), two_tiles_sf.view(torch.uint8))


def test_small_m_keeps_the_prefetch():
    """At 2..16 tokens the register prefetch stays on, on both word layouts: permuted
    (``tools/fused_prefetch_probe.py``: 36864x7168 M = 2 64.1 -> 49.3 us;
    ``tools/swiglu_permuted_probe.py``: 4096x7168 M = 16 15.66 -> 12.96 us;
    ``tools/m16_config_probe.py``: 36864x7168 M = 16 62.00 -> 60.78) and packed (session 27,
    ``tools/packed_prefetch_probe.py``: 4096x7168 M = 16 15.0 -> 12.0, 36864x7168 M = 8
    51.3 -> 48.7). Past 16 tokens packed words keep it only on weights under 8 Mi elements
    with one token tile."""
    assert swiglu_small_m_config(16, 2048, 7168, True) == (2, 2, 8, 1)
    assert swiglu_small_m_config(16, 4608, 7168, True) == (2, 2, 4, 1)
    for permuted in (False, True):
        for m in (2, 4, 8):
            for i, k in ((18432, 7168), (17408, 5120)):
                assert swiglu_small_m_config(m, i, k, permuted) == (2, 1, 4, 1)
        for i, k in ((18432, 7168), (17408, 5120)):
            assert swiglu_small_m_config(16, i, k, permuted) == (2, 2, 4, 1)
        assert swiglu_small_m_config(12, 2048, 7168, permuted) == (2, 2, 8, 1)
    # (one token on permuted words takes row groups: test_one_token_takes_row_groups_...)
    for m, i, k in [(8, 2048, 7168), (2, 4608, 7168), (16, 4608, 7168)]:
        assert swiglu_small_m_config(m, i, k, True) == swiglu_small_m_config(m, i, k)
    # and at every M on weights under 8 Mi elements on permuted words (session 19:
    # 1024x7168 M = 64 11.94 -> 10.24 us), two token tiles included
    for m in (33, 64):
        assert swiglu_small_m_config(m, 512, 7168) == (2, 2, 8, 0)
        assert swiglu_small_m_config(m, 512, 7168, True) == (2, 2, 8, 1)
    assert swiglu_small_m_config(32, 2048, 7168) == (2, 2, 8, 0)  # packed, past 16 tokens
    # bf16 activations keep it with one token tile only (packed 36864x7168 M = 16: 97.5 us
    # without, 144.4 with), and on permuted words over 64 Mi elements only for the two staged
    # tokens (36864x7168 M = 2 / 8: 67.9 -> 53.1, 61.0 -> 62.5)
    for permuted in (False, True):
        assert swiglu_small_m_config(2, 18432, 7168, permuted, a_fp4=False) == (2, 1, 4, 1)
        assert swiglu_small_m_config(8, 4608, 7168, permuted, a_fp4=False) == (2, 1, 4, 1)
        assert swiglu_small_m_config(16, 18432, 7168, permuted, a_fp4=False) == (2, 2, 4, 0)
        assert swiglu_small_m_config(16, 2048, 7168, permuted, a_fp4=False) == (2, 2, 8, 0)
    for m in (3, 4, 8):
        assert swiglu_small_m_config(m, 18432, 7168, False, a_fp4=False) == (2, 1, 4, 1)
        assert swiglu_small_m_config(m, 18432, 7168, True, a_fp4=False) == (2, 1, 4, 0)
        assert swiglu_small_m_config(m, 17408, 5120, True, a_fp4=False) == (2, 1, 4, 0)
    assert swiglu_small_m_config(16, 512, 7168, True, a_fp4=False)[3] == 1  # one token tile


def test_large_m_route():
    """Small weights take the fused kernel on the plain GEMM's split-K launch ("pieces")
    where that GEMM splits K (``tools/fused_split_pdl_probe.py``); bigger weights keep
    stream-K."""
    assert large_m_route(256, 512, 7168) == ("pieces", split_route_plan(256, 512, 7168)[:2])
    assert large_m_route(128, 2048, 7168) == ("pieces", (128, 4))
    assert large_m_route(64, 2048, 7168) == ("pieces", (64, 4))
    assert large_m_route(512, 512, 7168) == ("pieces", (128, 4))
    # mid_m_launch's one wave of whole 64-token tiles in 128-token pieces (wide_pieces)
    assert large_m_route(256, 2048, 7168) == ("pieces", (128, 2))
    assert large_m_route(256, 1024, 2048) == ("whole", (64, 0))  # K 2048: short pieces
    assert large_m_route(1100, 512, 7168) == ("stream_k", 128)   # mid_m_launch, not split
    assert large_m_route(768, 512, 7168) == ("pieces", (128, 2))  # its pieces in one wave
    assert large_m_route(64, 4608, 7168) == ("stream_k", 64)     # over 32 Mi values
    assert large_m_route(256, 18432, 7168) == ("stream_k", 256)
    assert large_m_route(4096, 18432, 7168)[0] == "whole"
    # the fused kernel on nvfp4_gemm's 16- / 32-token stream-K launch (FUSED_NARROW_TILES)
    assert large_m_route(16, 18432, 7168) == ("narrow", 16)
    assert large_m_route(32, 17408, 5120) == ("narrow", 32)
    assert large_m_route(20, 4608, 7168) == ("narrow", 32)
    assert large_m_route(32, 2048, 7168)[0] == "pieces"         # split-K there
    # at 4..8 tokens the plain GEMM takes 8-token tiles (TILE_8_MAX_M), and so does the fused
    # kernel (its TILE_8)
    for m, i, k in ((4, 18432, 7168), (8, 17408, 5120)):
        assert fp32_route_plan(m, i, k, 64)[0] == 8
        assert large_m_route(m, i, k) == ("narrow", 8)


def test_packed_route_widens_128_token_stream_k_tiles():
    """Packed bytes at 129..256 tokens: 256-token stream-K tiles where the route has 128
    (9216x7168); other routes and token counts as ``large_m_route``."""
    assert large_m_route(129, 4608, 7168) == ("stream_k", 128)
    for m in (129, 256):
        assert packed_route(m, 4608, 7168) == ("stream_k", 256)
    for m, i in ((128, 4608), (257, 4608), (256, 2048), (256, 18432), (256, 512)):
        assert packed_route(m, i, 7168) == large_m_route(m, i, 7168)


def test_large_m_route_takes_the_plain_gemms_narrower_tiles():
    """Where ``nvfp4_gemm``'s launch has narrower token tiles than the fused kernel, the fp32
    route runs that launch (H200 2026-11-30, ``tools/fused_route_overhead_probe.py``), except
    that the fused kernel itself takes that launch's 16- and 32-token stream-K tiles
    (``FUSED_NARROW_TILES``)."""
    assert fp32_route_plan(32, 18432, 7168, 64) == (32, 1, True, False)  # fused: 64
    assert large_m_route(32, 18432, 7168) == ("narrow", 32)
    assert large_m_route(17, 17408, 5120) == ("narrow", 32)
    assert large_m_route(64, 18432, 7168) == ("stream_k", 64)     # the same tile: fused
    assert fp32_route_plan(256, 4608, 7168, 128) is None


# (2I, K, M) -> the fused kernel's fastest launch, or one within 1% of it (H200 2026-12-01,
# ``tools/fused_route_probe.py``, public function us with padded activations; the numbers in
# ``large_m_plans``' comment); M <= 128 and launches past MID_M_MAX_WAVES: None
FASTEST_FUSED_LAUNCH = {
    (9216, 7168, 129): [("stream_k", 128)], (9216, 7168, 192): [("stream_k", 128)],
    (9216, 7168, 256): [("stream_k", 128)],
    (9216, 7168, 320): [("stream_k", 128), ("whole", 128)],
    (9216, 7168, 512): [("stream_k", 128), ("stream_k", 256)],
    (4096, 7168, 129): [("whole", 64)], (4096, 7168, 256): [("whole", 64)],
    (4096, 7168, 384): [("whole", 128), ("stream_k", 128)], (4096, 7168, 512): [("whole", 128)],
    (1024, 7168, 768): [("stream_k", 128)], (1024, 7168, 1024): [("whole", 64)],
    # session 31, ``tools/split_fixup_probe.py`` (``MID_M_STREAM_K_MIN_K_TILES``)
    (1024, 7168, 520): [("stream_k", 128)], (1024, 7168, 576): [("stream_k", 128)],
    (1024, 7168, 640): [("stream_k", 128)],
    (1024, 7168, 2048): [("whole", 128)],
}


def test_mid_m_launch_is_the_fastest_fused_launch_measured():
    from cute_kernels.large_m_plans import mid_m_launch

    for (two_i, k, m), fastest in FASTEST_FUSED_LAUNCH.items():
        assert mid_m_launch(m, two_i, k) in fastest, (two_i, k, m)
    assert mid_m_launch(128, 9216, 7168) is None
    # more than 4 waves of 128-token tiles: session 23's rule, stream-K with 256 tokens there
    # the fastest measured, or within 1% (9216x7168 M = 1024, 36864x7168 and 34816x5120
    # M = 129 / 256)
    for two_i, k, m in ((9216, 7168, 1024), (36864, 7168, 129), (36864, 7168, 256),
                        (34816, 5120, 129), (34816, 5120, 256)):
        assert mid_m_launch(m, two_i, k) is None
        assert large_m_route(m, two_i // 2, k) == ("stream_k", 256)
    # small weights: the split-K pieces where the launch is whole tiles under half the SMs
    assert large_m_route(256, 512, 7168)[0] == "pieces"       # 1024x7168: 32 64-token tiles
    assert large_m_route(512, 512, 7168)[0] == "pieces"       # 64
    # its 128-token stream-K as K pieces where two or more fit one wave (stream_k_pieces)
    assert large_m_route(768, 512, 7168) == ("pieces", (128, 2))
    assert large_m_route(1100, 512, 7168) == ("stream_k", 128)
    # one wave of whole 64-token tiles (mid_m_launch's) in 128-token pieces (wide_pieces)
    assert mid_m_launch(1024, 1024, 7168) == ("whole", 64)
    assert large_m_route(1024, 512, 7168) == ("pieces", (128, 2))  # 128 tiles
    assert large_m_route(129, 2048, 7168) == ("pieces", (128, 2))  # 4096x7168: 96


def test_config_is_valid_for_the_fused_kernel():
    for m in (1, 4, 8, 9, 16, 17, 33, 64):
        for i, k in ((64, 64), (1024, 7168), (2048, 7168), (18432, 7168), (512, 18432)):
            for permuted in (False, True):
                config = swiglu_small_m_config(m, i, k, permuted)
                tiles = config[0] * config_row_groups(config)  # a CTA's
                assert tiles % 2 == 0 and 64 % (8 * tiles) == 0, (m, i, k, config)
                assert config[2] % config_row_groups(config) == 0, (m, i, k, config)


def _captured_replay(call, out, out_sf):
    """Warm ``call`` up (compile) on a side stream, poison its outputs, capture it in a CUDA
    graph and replay it."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        call()
    torch.cuda.current_stream().wait_stream(s)
    out.fill_(0xFF)
    out_sf.view(torch.uint8).fill_(0xFF)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        call()
    graph.replay()
    torch.cuda.synchronize()


# ------------------------------------------------------------------------- inputs
def _weights(i, k, device):
    """A ModelOpt [gate; up] checkpoint with rows over two decades, prepared for the kernel."""
    w = torch.randn(2 * i, k, device=device)
    w = w * torch.pow(10.0, torch.rand(2 * i, 1, device=device) * 2 - 1)
    g_w = 448 * 6 / w.abs().amax()
    packed, sf = reference.nvfp4_quantize(w.to(torch.bfloat16), g_w, swizzle=False)
    w_i, w_sf_i = prepare_gate_up_weight(packed, sf)
    return w_i, w_sf_i, g_w


def _inputs(m, i, k, fp4_a, device="cuda"):
    """Operands, alpha = input_scale * weight_scale_2 and G calibrated on the fp64 h."""
    w, w_sf, g_w = _weights(i, k, device)
    x = torch.randn(m, k, device=device) * 3
    if fp4_a:
        g_a = 448 * 6 / x.abs().amax().clamp_min(1e-12) if m else torch.tensor(1.0)
        a, a_sf = reference.nvfp4_quantize(x.to(torch.bfloat16), g_a)
        alpha = float(1 / (g_a * g_w))
    else:
        a, a_sf = x.to(torch.bfloat16), None
        alpha = float(1 / g_w)
    h = reference.swiglu_fp64(a, a_sf, w, w_sf, alpha)
    g_out = float(448 * 6 / h.abs().amax().clamp_min(1e-30)) if m else 1.0
    return a, a_sf, w, w_sf, alpha, g_out


def _signed_index(packed):
    codes = reference.unpack_fp4(packed).to(torch.int16)
    mag = codes & 7
    return torch.where(codes >= 8, -mag, mag)


def _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out):
    """DESIGN.md: scales equal on >= 99% of blocks; where the scales agree, codes equal except
    at rounding boundaries (at most one e2m1 step, on < 1% of elements). The scale buffer's
    padding (rows past M) is zero."""
    m, i = a.shape[0], w.shape[0] // 2
    kb = i // 16
    mp, kbp = sf_padded_shape(m, kb)
    want, want_sf = reference.gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    assert out.shape == (m, i // 2) and out.dtype == torch.uint8
    assert out_sf.shape == (mp, kbp) and out_sf.dtype == torch.float8_e4m3fn
    full = unswizzle_sf(out_sf.view(torch.uint8), mp, kbp)  # padding included
    assert not full[m:].any() and not full[:, kb:].any()
    sf_same = full[:m, :kb] == unswizzle_sf(want_sf.view(torch.uint8), m, kb)
    assert sf_same.float().mean() >= 0.99
    steps = (_signed_index(out) - _signed_index(want)).abs()[sf_same.repeat_interleave(16, 1)]
    if steps.numel():
        assert steps.max() <= 1
        assert (steps != 0).float().mean() < 0.01
    # and the dequantized result is as close to the fp64 h as the reference's
    h = reference.swiglu_fp64(a, a_sf, w, w_sf, alpha)

    def err(q, sf):
        return ((reference.nvfp4_dequantize(q, sf, g_out).double() - h).norm() / h.norm()).item()

    assert err(out, out_sf) <= err(want, want_sf) * 1.05 + 1e-9


# ------------------------------------------------------------------------- CPU: reference route
@pytest.mark.parametrize("fp4_a", [True, False])
@pytest.mark.parametrize("m", [0, 1, 5, 130])
def test_cpu_route_is_the_reference(m, fp4_a):
    i, k = 128, 128
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a, device="cpu")
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8, device="cpu")
    out_sf = poisoned(mp * kbp, dtype=torch.uint8, device="cpu")  # flat uint8 is accepted
    got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out, out=out, out_sf=out_sf)
    assert got.data_ptr() == out.data_ptr() and got_sf.data_ptr() == out_sf.data_ptr()
    assert got_sf.shape == (mp, kbp) and got_sf.dtype == torch.float8_e4m3fn
    want, want_sf = reference.gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    assert torch.equal(got, want)
    assert torch.equal(got_sf.view(torch.uint8), want_sf.view(torch.uint8))
    if m:
        _check_against_reference(got, got_sf, a, a_sf, w, w_sf, alpha, g_out)
    # freshly allocated outputs and tensor scalars: the same bits
    t = lambda v: torch.tensor([v], dtype=torch.float32)
    got2, got2_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, t(alpha), t(g_out))
    assert torch.equal(got2, want) and torch.equal(got2_sf.view(torch.uint8),
                                                   want_sf.view(torch.uint8))


# ------------------------------------------------------------------------- bad input (CPU)
@pytest.mark.parametrize("case,exc,match", [
    ("w_dtype", TypeError, "w: expected dtype torch.uint8"),
    ("w_rows", ValueError, "w: 2I = 192 rows must be a multiple of 128"),
    ("k_tail", ValueError, "w: K = 80 must be a positive multiple of 64"),
    ("w_sf_small", ValueError, "w_sf: expected the swizzled scale buffer"),
    ("a_k", ValueError, "a: expected packed"),
    ("a_fp16", TypeError, "a: expected dtype torch.bfloat16"),
    ("out_dtype", TypeError, "out: expected dtype torch.uint8"),
    ("out_shape", ValueError, r"out: expected packed uint8 of shape \(4, 64\)"),
    ("out_sf_size", ValueError, "out_sf: expected the swizzled scale buffer of 128x8"),
    ("alpha_shape", ValueError, "alpha: expected a scalar"),
    ("g_type", TypeError, "out_global_scale: expected a float"),
    ("g_dtype", TypeError, "out_global_scale: expected a float32 tensor"),
    ("a_device", ValueError, "a: on meta, but w is on cpu"),
])
def test_bad_input_raises(case, exc, match):
    a, a_sf, w, w_sf, alpha, g = _inputs(4, 128, 128, True, device="cpu")
    kwargs = {}
    if case == "w_dtype":
        w = w.view(torch.int8)
    elif case == "w_rows":
        w, w_sf = reference.nvfp4_quantize(torch.randn(192, 128), 1.0)
    elif case == "k_tail":
        w = w[:, :40].contiguous()
    elif case == "w_sf_small":
        w_sf = w_sf.reshape(-1)[:-4]
    elif case == "a_k":
        a = a[:, :32].contiguous()
    elif case == "a_fp16":
        a, a_sf = torch.zeros(4, 128, dtype=torch.float16), None
    elif case == "out_dtype":
        kwargs["out"] = torch.empty(4, 64, dtype=torch.int8)
    elif case == "out_shape":
        kwargs["out"] = torch.empty(4, 32, dtype=torch.uint8)
    elif case == "out_sf_size":
        kwargs["out_sf"] = torch.empty(128, 4, dtype=torch.float8_e4m3fn)
    elif case == "alpha_shape":
        alpha = torch.ones(2)
    elif case == "g_type":
        g = "1.0"
    elif case == "g_dtype":
        g = torch.ones(1, dtype=torch.float64)
    elif case == "a_device":
        a = torch.empty(a.shape, dtype=a.dtype, device="meta")
    with pytest.raises(exc, match=match):
        nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g, **kwargs)


def test_custom_op_has_a_fake_implementation():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        a = torch.empty(3, 256, dtype=torch.uint8)
        a_sf = torch.empty(128, 32, dtype=torch.float8_e4m3fn)
        w = torch.empty(384, 256, dtype=torch.uint8)
        w_sf = torch.empty(384, 32, dtype=torch.float8_e4m3fn)
        s = torch.empty(1)
        q, sf = torch.ops.cute_kernels.nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, s, s)
        assert q.shape == (3, 96) and q.dtype == torch.uint8
        assert sf.shape == (128, 12) and sf.dtype == torch.float8_e4m3fn


# ------------------------------------------------------------------------- GPU
@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 2, 7, 8, 33, SMALL_M_MAX, SMALL_M_MAX + 1, 129, 1000])
@pytest.mark.parametrize("i,k", [(256, 512), (192, 576), (1024, 2048), (512, 7168)])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_matches_reference(m, i, k, fp4_a):
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
    got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out, out=out, out_sf=out_sf)
    assert got.data_ptr() == out.data_ptr() and got_sf.data_ptr() == out_sf.data_ptr()
    _check_against_reference(got, got_sf, a, a_sf, w, w_sf, alpha, g_out)
    fresh, fresh_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    assert torch.equal(fresh, got) and torch.equal(fresh_sf.view(torch.uint8),
                                                   got_sf.view(torch.uint8))


def _run_small_m(a, a_sf, w, w_sf, alpha, g_out, config, compile_fn=None):
    """The fused small-M kernel with an explicit config into NaN-poisoned outputs
    (``compile_fn``: a probe variant of ``compile_nvfp4_gemm_swiglu_quant_small_m``)."""
    m, i = a.shape[0], w.shape[0] // 2
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
    module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
    variant = {"compile_nvfp4_gemm_swiglu_quant_small_m": compile_fn} if compile_fn else {}
    with replaced(module, variant):
        launch_small_m(a, a_sf, w, w_sf, torch.full((1,), alpha, device="cuda"),
                       torch.full((1,), g_out, device="cuda"), out, out_sf, config)
    return out, out_sf


def _assert_same_bytes(got, want):
    """Two fused launches' (codes, scales) equal byte for byte, the scale padding included."""
    assert torch.equal(got[0], want[0])
    assert torch.equal(got[1].view(torch.uint8), want[1].view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(2, 1, 4, 1), (2, 2, 4, 0), (4, 1, 8, 1), (4, 4, 4, 0),
                                    (8, 1, 2, 1), (2, 4, 1, 0), (8, 2, 4, 1), (2, 1, 4, 2),
                                    (2, 2, 4, 1),  # three CTAs per SM (min_ctas)
                                    (2, 1, 3, 1), (2, 1, 6, 1),  # K steps over 3 / 6 warps
                                    (2, 2, 2, 3),  # prefetch >= 2: the cp.async ring
                                    # K split over grid z (5 steps at K = 1088)
                                    (2, 1, 4, 1, 4), (4, 2, 4, 0, 3), (2, 1, 8, 1, 5),
                                    # row groups: up and gate tiles on warps of their own
                                    (1, 1, 8, 1, 1, 2), (1, 2, 6, 0, 1, 2), (2, 1, 4, 1, 1, 2),
                                    (1, 1, 8, 1, 3, 2)])
# 1: activations staged in shared memory; past SMALL_M_MAX too: row padding
@pytest.mark.parametrize("m", [1, 29, 129, 200])
def test_every_tile_config_agrees(config, m):
    i, k = 320, 1088
    for fp4_a in (True, False):
        a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
        out, out_sf = _run_small_m(a, a_sf, w, w_sf, alpha, g_out, config)
        _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
def test_one_token_three_warps_matches_reference():
    """The public function on ``swiglu_small_m_config``'s 3-warp launch (one token, permuted
    words, 34816x5120) against the reference."""
    a, a_sf, w, w_sf, alpha, g_out = _inputs(1, 17408, 5120, True)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    assert swiglu_small_m_config(1, 17408, 5120, True)[2] == 3
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
def test_tensor_scalars_equal_floats_and_zero_rows():
    a, a_sf, w, w_sf, alpha, g_out = _inputs(5, 256, 1024, True)
    t = lambda v: torch.full((1,), v, device="cuda")
    q1, s1 = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, t(alpha), t(g_out))
    q2, s2 = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    assert torch.equal(q1, q2) and torch.equal(s1.view(torch.uint8), s2.view(torch.uint8))
    a0 = torch.empty(0, 512, dtype=torch.uint8, device="cuda")
    a0_sf = torch.empty(0, 64, dtype=torch.float8_e4m3fn, device="cuda")
    q0, s0 = nvfp4_gemm_swiglu_quant(a0, a0_sf, w, w_sf, alpha, g_out)
    assert q0.shape == (0, 128) and s0.shape == (0, 16)


@pytest.mark.gpu
def test_non_default_stream_and_graph_capture():
    a, a_sf, w, w_sf, alpha, g_out = _inputs(3, 640, 2048, True)
    want, want_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    s.synchronize()
    assert torch.equal(got, want) and torch.equal(got_sf.view(torch.uint8),
                                                  want_sf.view(torch.uint8))
    alpha_t, g_t = torch.full((1,), alpha, device="cuda"), torch.full((1,), g_out, device="cuda")
    out = poisoned(3, 320, dtype=torch.uint8)
    out_sf = poisoned(128, 40, dtype=torch.float8_e4m3fn)
    _captured_replay(lambda: nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha_t, g_t, out=out,
                                                     out_sf=out_sf), out, out_sf)
    assert torch.equal(out, want) and torch.equal(out_sf.view(torch.uint8),
                                                  want_sf.view(torch.uint8))


@pytest.mark.gpu
def test_torch_compile():
    a, a_sf, w, w_sf, alpha, g_out = _inputs(2, 256, 512, True)
    alpha_t, g_t = torch.full((1,), alpha, device="cuda"), torch.full((1,), g_out, device="cuda")
    want, want_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha_t, g_t)
    f = torch.compile(lambda a: nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha_t, g_t),
                      fullgraph=True)
    got, got_sf = f(a)
    assert torch.equal(got, want) and torch.equal(got_sf.view(torch.uint8),
                                                  want_sf.view(torch.uint8))


# ------------------------------------------------------------------------- GPU: large-M kernel
def _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k=False, hybrid=False,
                 **options):
    """The fused large-M kernel itself (whatever the routing), on poisoned outputs;
    ``options``: ``launch_large_m``'s ctas_per_sm, k_groups and compile_fn. The activations
    come in the K order the public function feeds (``wgmma_k_order``)."""
    m, i = a.shape[0], w.shape[0] // 2
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
    k_order = wgmma_k_order(w)
    launch_large_m(bf16_activations(a, a_sf, k_order), w, w_sf,
                   torch.full((1,), alpha, device="cuda"), torch.full((1,), g_out, device="cuda"),
                   out, out_sf, config, stream_k, hybrid, k_order=k_order, **options)
    torch.cuda.synchronize()
    return out, out_sf


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k,quantizers", [((128, 0), False, 3),
                                                        ((64, 0, 5), True, 0),
                                                        ((256, 0), True, 3)])
def test_large_m_activation_rows_past_m_are_not_used(config, stream_k, quantizers):
    """As the plain kernel's: activation rows past M (``bf16_activations(rows=)``'s zero
    padding) are never used; NaN there writes the same codes and scales, padding included."""
    m, i, k = 129, 320, 832
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    want = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k,
                        quantizers=quantizers)
    k_order = wgmma_k_order(w)
    padded = torch.full((m + 200, k), float("nan"), device="cuda", dtype=torch.bfloat16)
    padded[:m] = bf16_activations(a, a_sf, k_order)
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
    launch_large_m(padded, w, w_sf, torch.full((1,), alpha, device="cuda"),
                   torch.full((1,), g_out, device="cuda"), out, out_sf, config, stream_k,
                   k_order=k_order, quantizers=quantizers)
    torch.cuda.synchronize()
    assert torch.equal(out, want[0])
    assert torch.equal(out_sf.view(torch.uint8), want[1].view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m", [40, 65, 129, 1000, 4096])
@pytest.mark.parametrize("i,k", [(2048, 7168), (192, 576)])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_large_m_matches_reference(m, i, k, fp4_a):
    _check_large_m_routes(m, i, k, fp4_a)


@pytest.mark.gpu
@pytest.mark.parametrize("m,route", [(520, ("pieces", (128, 3))), (700, ("pieces", (128, 2))),
                                     (1000, ("pieces", (128, 2))), (1100, ("stream_k", 128))])
def test_small_weight_mid_m_routes_match_reference(m, route):
    """1024x7168: ``mid_m_launch``'s 128-token stream-K as K pieces at 513..896 tokens
    (``stream_k_pieces``), the pieces at 897..1024 (split_route_plan), stream-K past them."""
    assert large_m_route(m, 512, 7168) == route
    _check_large_m_routes(m, 512, 7168, True)


def test_stream_k_pieces_rule():
    """Two to four K pieces of whole 128-token tiles where they fit one wave."""
    from cute_kernels.nvfp4_gemm_swiglu_quant import stream_k_pieces

    assert [stream_k_pieces(m, 1024, 7168) for m in (513, 640, 641, 896, 1024, 1100)] == [
        3, 3, 2, 2, 2, 0]
    assert stream_k_pieces(128, 1024, 7168) == 4  # (the most kept to four)
    assert stream_k_pieces(640, 36864, 7168) == 0  # weights over PIECES_MAX_WEIGHTS
    assert stream_k_pieces(640, 1024, 7168, sms=78) == 0


def _check_large_m_routes(m, i, k, fp4_a):
    """The fused kernel on ``large_m_config``'s whole tiles and the public function against
    the reference; the public function's bits equal its route's launch."""
    from cute_kernels.large_m_plans import large_m_config

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, large_m_config(m, 2 * i, k))
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    # past the small-M regime the public function runs this kernel, whole tiles, stream-K or
    # split-K pieces (then the same bits as that launch), or the split route (same rule, other
    # bits); where it takes the half interleave groups instead (``half_group_route``: K summed
    # in another order, so other bits at rounding boundaries), ``large_m_route``'s launch is
    # checked against the reference alone; so is the swapped kernel's launch where it sums K
    # in pieces (cluster pairs, stream-K)
    got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    _check_against_reference(got, got_sf, a, a_sf, w, w_sf, alpha, g_out)
    if swapped_pairs(m, 2 * i, k, fp4_a) or swapped_route(m, 2 * i, k, fp4_a) == "stream_k":
        return
    half_groups = half_group_route(m, i, k, fp4_a, w.dtype == torch.int32)
    # (``_inputs``' packed bytes: ``_run_large_m``'s K order, PAIRS, is the public one)
    launch = large_m_launch(m, 2 * i, k, fp4_a, w.dtype)
    if launch.route == "split":
        return
    if launch.route != "whole":  # (whole tiles: the launch above, ``large_m_config``'s)
        out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, launch.config,
                                   launch.stream_k, **launch.options)
    if half_groups:
        _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
        return
    assert torch.equal(got, out) and torch.equal(got_sf.view(torch.uint8),
                                                 out_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k,ctas", [
    ((256, 0), False, 1), ((128, 0, 3), False, 1),  # whole tiles; 3 CTAs walk many tiles
    ((64, 0, 7), True, 1), ((256, 0), True, 1),     # stream-K pieces
    ((16, 0), True, 2), ((32, 0, 5), False, 1),     # narrow tiles (few items a thread)
])
def test_quantization_variants_write_the_same_bits(config, stream_k, ctas, monkeypatch):
    """The consumers quantizing, 3 or 1 quantizer warps (``quantizers``, the gate warpgroup
    ahead: ``GATE_AHEAD``) and 3 with the gate warpgroup behind (``GATE_AHEAD`` off; an
    uncached compile) write the same
    codes and scales, padding included: 5 row tiles, a token tail, tiles walked in turn
    (the quantizers then take many tiles over; in stream-K some CTAs none), and within
    DESIGN.md's rule of the reference."""
    m, i, k = 777, 320, 832
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    outs = [_run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k, ctas_per_sm=ctas,
                         quantizers=quantizers)
            for quantizers in ((0, 3, 1) if ctas == 1 else (0,))]
    if ctas == 1:
        monkeypatch.setattr(NVFP4GemmSwigluQuantLargeM, "GATE_AHEAD", False)
        outs.append(_run_large_m(
            a, a_sf, w, w_sf, alpha, g_out, config, stream_k, quantizers=3,
            compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m.uncached))
    _check_against_reference(*outs[0], a, a_sf, w, w_sf, alpha, g_out)
    for got in outs[1:]:
        assert torch.equal(outs[0][0], got[0]), config
        assert torch.equal(outs[0][1].view(torch.uint8), got[1].view(torch.uint8)), config


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(64, 0), (128, 0), (256, 0), (128, 2, 7), (256, 3, 5),
                                    (64, 2, 1), (32, 0), (16, 0), (32, 3, 6), (16, 2, 5)])
def test_large_m_every_tile_config_agrees(config):
    # 5 row tiles, 13 k-tiles (odd, more than the stages), a token tail; with a shrunk grid each
    # CTA walks many tiles, so the pipeline phases and the epilogue's barriers carry across.
    m, i, k = 777, 320, 832
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, False)
    out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    want, want_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, (128, 0))
    assert torch.equal(out, want) and torch.equal(out_sf.view(torch.uint8),
                                                  want_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,tile_m,splits", [
    (64, 2048, 7168, 64, 4),   # 4096x7168 at 64 tokens: 32 tiles in four pieces of 28 k-tiles
    (129, 192, 576, 64, 3),    # 9 k-tiles in three pieces, M and I tails
    (45, 320, 832, 32, 13),    # one k-tile a piece
])
def test_large_m_pieces_match_reference(m, i, k, tile_m, splits):
    """The fused kernel on the split-K launch ("pieces": stream-K on tiles x splits CTAs);
    deterministic (the pieces added in order)."""
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    config, stream_k, options = route_launch("pieces", (tile_m, splits), m, 2 * i, k)
    options.pop("spread_pass", None)  # (the public op's pass; the trigger stays)
    assert stream_k and options["splits"] == splits
    out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k, **options)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    again, again_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k, **options)
    assert torch.equal(again, out) and torch.equal(again_sf.view(torch.uint8),
                                                   out_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,config,kw", [
    (64, 2048, 7168, (64, 0), {"pair_pieces": True}),  # 4096x7168 at 64 tokens: 64 pairs
    (29, 192, 1024, (32, 0), {"pair_pieces": True}),   # 6 half groups, an M tail
    (100, 192, 1024, (32, 0), {"pair_pieces": True}),  # 4 token tiles: the last's padding
    (13, 128, 512, (16, 0), {"pair_pieces": True}),    # two k-tiles a K half
    (200, 320, 896, (128, 0), {}),                     # whole tiles, 7 k-tiles, M tail
    (777, 320, 896, (64, 0, 7), {}),                   # 130 tiles on 7 CTAs
    (45, 192, 1024, (32, 0), {"splits": 2}),           # K pieces, the global fix-up
    (45, 320, 896, (16, 0, 13), {"stream_k": True}),   # stream-K pieces cross tiles
])
@pytest.mark.parametrize("fp4_a", [True, False])
@pytest.mark.parametrize("permute", [False, True])
def test_large_m_half_groups_match_reference(m, i, k, config, kw, fp4_a, permute):
    """The fused kernel on 64-row tiles of half an interleave group (``wg_k_split``);
    deterministic (the warpgroups', pieces' and pair's sums in a fixed order)."""
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    if permute:
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    kw = dict(kw, k_groups=2, wg_k_split=True)
    out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, **kw)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    again, again_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, **kw)
    assert torch.equal(again, out) and torch.equal(again_sf.view(torch.uint8),
                                                   out_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,config", [
    (777, 320, 832, (64, 0, 7)),     # 65 tiles x 13 k-tiles on 7 CTAs: pieces cross tiles
    (129, 192, 576, (64, 0)),        # 27 units on 27 CTAs: one-k-tile pieces, M and I tails
    (256, 512, 7168, (256, 0)),      # 1024x7168 at M = 256: 8 tiles of 112 k-tiles
    (13, 320, 832, (16, 0, 7)),      # one 16-token tile, 13 tokens
    (45, 320, 832, (16, 0, 5)),      # three 16-token tiles, a tail of 13
    (29, 192, 576, (32, 0)),         # one 32-token tile, 29 tokens, an I tail
])
def test_large_m_stream_k_matches_reference(m, i, k, config):
    """Stream-K in the fused kernel: the tile's last CTA sums its pieces, then quantizes."""
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, False)
    out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k=True)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    again, again_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k=True)
    assert torch.equal(again, out) and torch.equal(again_sf.view(torch.uint8),
                                                   out_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,stream_k", [
    (13, (16, 0, 11), True),     # stream-K pieces of one 16-token tile
    (45, (32, 0), True),
    (777, (32, 0, 9), False),    # whole tiles on 9 CTAs: phases and barriers carry across
    (777, (16, 0), False),
    (45, (64, 0), True),         # fused_stream_k_options' launch: 64-token tiles, 3 stages
    (129, (64, 0, 11), True),    # pieces cross tiles
    (777, (64, 0, 9), False),
])
def test_large_m_two_ctas_and_k_groups(m, config, stream_k):
    """The fused kernel on ``plain_launch_options``' launches (``FUSED_NARROW_TILES``) and on
    ``fused_stream_k_options``' 64-token one: two CTAs per SM and two K groups a stage (K / 64
    = 16) match the reference, and whole tiles the bits of one CTA and one group."""
    i, k = 320, 1024
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, False)
    out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k,
                               ctas_per_sm=2, k_groups=2)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    if not stream_k:  # stream-K cuts depend on the grid size
        want, want_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k)
        assert torch.equal(out, want) and torch.equal(out_sf.view(torch.uint8),
                                                      want_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m", [13, 29])
@pytest.mark.parametrize("permute", [False, True])
def test_public_narrow_route_matches_its_launch(m, permute):
    """9216x7168 at 17..32 tokens and 36864x7168 at 9..16 (fp4, permuted words) take the
    fused kernel on ``nvfp4_gemm``'s 32- / 16-token stream-K launch: the reference rule, and
    the same bits as that launch run directly. On packed words 36864x7168 at 9..16 tokens
    stays on the small-M kernel (its config's bits)."""
    i, k = (18432, 7168) if m <= 16 else (4608, 7168)
    route, plan = large_m_route(m, i, k)
    assert route == "narrow" and plan == (16 if m <= 16 else 32)
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    if permute:  # the models' layout
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    _check_against_reference(got, got_sf, a, a_sf, w, w_sf, alpha, g_out)
    if m <= 16 and not permute:
        out, out_sf = _run_small_m(a, a_sf, w, w_sf, alpha, g_out,
                                   swiglu_small_m_config(m, i, k))
    else:
        out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, (plan, 0), True,
                                   **plain_launch_options(m, 2 * i, k, plan, True))
    assert torch.equal(got, out) and torch.equal(got_sf.view(torch.uint8),
                                                 out_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m,i", [(4, 18432), (8, 17408), (9, 4608)])
@pytest.mark.parametrize("permute", [False, True])
def test_public_w4a16_on_the_narrow_route_matches_reference(m, i, permute):
    """bf16 activations past ``swiglu_small_m_regime``'s W4A16 bar (36864x7168 from 4 tokens,
    34816x5120 from 6 on permuted words, 9216x7168 from 9): the fused kernel on the narrow
    launch (8-token tiles to ``TILE_8_MAX_M`` tokens, then 16), packed bytes (PAIRS) and
    permuted words, against the reference rule."""
    k = 5120 if i == 17408 else 7168
    assert large_m_route(m, i, k) == ("narrow", 8 if m <= TILE_8_MAX_M else 16)
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, False)
    if permute:
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    assert not swiglu_small_m_regime(m, i, k, False, permute)
    got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    _check_against_reference(got, got_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("fp4_a", [True, False])
def test_public_packed_route_matches_reference(fp4_a):
    """Packed bytes of 9216x7168 at 129 tokens: ``packed_route``'s 256-token stream-K tiles."""
    m, i, k = 129, 4608, 7168
    assert packed_route(m, i, k) == ("stream_k", 256)
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    _check_against_reference(got, got_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
def test_large_m_stream_k_hybrid_matches_reference():
    """The hybrid (session 6, not yet run on a GPU): 65 tiles on 7 CTAs, 56 whole, 9 in
    stream-K."""
    m, i, k = 777, 320, 832
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, False)
    out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, (64, 0, 7), True, True)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("fp4_a", [True, False])
def test_large_m_graph_capture(fp4_a):
    """The large-M route has no host sync: captured in a CUDA graph on poisoned buffers, the
    replay writes the eager result, scale padding rows included."""
    m, i, k = 1000, 256, 1024
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    want, want_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    alpha_t, g_t = torch.full((1,), alpha, device="cuda"), torch.full((1,), g_out, device="cuda")
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
    _captured_replay(lambda: nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha_t, g_t, out=out,
                                                     out_sf=out_sf), out, out_sf)
    assert torch.equal(out, want) and torch.equal(out_sf.view(torch.uint8),
                                                  want_sf.view(torch.uint8))
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


# ------------------------------------------------------------------------- the fp32 split route
@pytest.mark.parametrize("i", [512, 192])
def test_split_route_quantizer_compiles_for_sm90a(i):
    """NVFP4Quant's fp32, interleaved-columns variant (the second kernel of the route)."""
    assert compile_only(compile_nvfp4_quant, i, "torch.float32", True, False, 4, 4, 1056,
                        False, True)


def test_split_route_plan_covers_the_starved_shapes():
    assert split_route_plan(256, 512, 7168) is not None      # 1024x7168: 8 wgmma CTAs
    assert split_route_plan(64, 2048, 7168) is not None      # 4096x7168 at M = 64
    assert split_route_plan(4096, 18432, 7168) is None        # 36864x7168 fills the GPU


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,plan", [
    (256, 512, 7168, None),      # split_route_plan's choice
    (129, 192, 576, (64, 3, False, False)),    # 9 k-tiles in 3 splits, M and I tails
    (1000, 192, 576, (128, 3, False, False)),
    (200, 192, 576, (32, 1, True, False)),     # plain_plan's stream-K, 32-token tiles
    (129, 192, 576, (64, 1, False, False)),    # whole tiles, no split
])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_split_route_matches_reference(m, i, k, plan, fp4_a):
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
    launch_split_route(a, a_sf, w, w_sf, torch.full((1,), alpha, device="cuda"),
                       torch.full((1,), g_out, device="cuda"), out, out_sf,
                       plan or split_route_plan(m, i, k))
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 5])
def test_dependent_chain_in_a_graph_matches_eager(m):
    """Programmatic dependent launch (the fused small-M kernel): three MLP steps, fused gate_up
    then the down ``nvfp4_gemm`` whose bf16 output feeds the next step, replayed from a graph
    with no gaps between kernels, equal the eager run bit for bit. A kernel that read its
    input before the previous one finished would differ."""
    i, k = 512, 1024
    x, _, w, w_sf, alpha, g_out = _inputs(m, i, k, False)
    down = [reference.nvfp4_quantize(torch.randn(k, i, device="cuda", dtype=torch.bfloat16),
                                     100.0) for _ in range(3)]

    def chain(outs):
        y = x
        for (d, d_sf), out in zip(down, outs):
            q, sf = nvfp4_gemm_swiglu_quant(y, None, w, w_sf, alpha, g_out)
            y = nvfp4_gemm(q, sf, d, d_sf, 1e-3, out=out)

    check_graph_replays_chain(chain, len(down), (m, k))


def _fused_trigger(m: int, i: int, k: int, x_tokens: int) -> str:
    """The PDL trigger of the fused op's small-M launch at M NVFP4 tokens (``x_tokens`` of them
    staged) on a [2I, K] permuted weight."""
    config = swiglu_small_m_config(m, i, k, True)
    return NVFP4GemmSwigluQuantSmallM(i, k, True, *config[:4], x_tokens, config_splits(config),
                                      permuted=True,
                                      row_groups=config_row_groups(config)).pdl_trigger


def test_one_token_row_groups_trigger_at_the_start_up_to_three_ctas_an_sm():
    """``STAGED_GROUPS_START_CTAS``: the fused one-token row groups trigger at the CTA start
    where the grid is at most three CTAs an SM (measured wins at 1.5 / 2.2 / 2.9, losses at
    3.9 and 8.7); other one-token configs keep the trigger after the main loop."""
    for two_i, k in ((6144, 7168), (9216, 7168), (12288, 7168), (9216, 5120)):
        assert _fused_trigger(1, two_i // 2, k, 1) == "start", (two_i, k)
    for two_i, k in ((16384, 7168), (36864, 7168), (34816, 5120), (4096, 7168)):
        assert _fused_trigger(1, two_i // 2, k, 1) == "loop", (two_i, k)


@pytest.mark.gpu
@pytest.mark.parametrize("m, i, k, x_tokens", [(4, 512, 1024, 0), (1, 3072, 5120, 1)])
def test_register_start_chain_in_a_graph_matches_eager(monkeypatch, m, i, k, x_tokens):
    """The fused kernel's trigger at the CTA start: on the register path
    (``REGISTER_PDL_START``, four tokens) and on the one-token row groups
    (``STAGED_GROUPS_START_CTAS``). Three W4A4 MLP steps on permuted words (quantize, fused
    gate_up, down ``nvfp4_gemm`` whose output feeds the next step), replayed from a graph
    with no gaps between kernels, equal the eager run bit for bit."""
    from cute_kernels import nvfp4_quantize, prepare_nvfp4_weight

    monkeypatch.delenv("CUTE_KERNELS_DISABLE_PDL", raising=False)
    assert _fused_trigger(m, i, k, x_tokens) == "start"
    w, w_sf, g_w = _weights(i, k, "cuda")
    w, w_sf, g_w = (*prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True),
                    float(g_w))
    down = []
    for _ in range(3):
        d, d_sf = reference.nvfp4_quantize(torch.randn(k, i, device="cuda").to(torch.bfloat16),
                                           100.0)
        down.append((prepare_nvfp4_weight(d), d_sf))
    g, g_out = 448 * 6 / 16, 448 * 6 / 8  # unit spread in and out; the alphas keep it
    x = torch.randn(m, k, device="cuda").to(torch.bfloat16)

    def chain(outs):
        y = x
        for (d, d_sf), out in zip(down, outs):
            q, q_sf = nvfp4_quantize(y, g)
            h, h_sf = nvfp4_gemm_swiglu_quant(q, q_sf, w, w_sf, 1 / (g * g_w * k**0.5), g_out)
            y = nvfp4_gemm(h, h_sf, d, d_sf, 1 / (g_out * 100 * i**0.5), out=out)

    check_graph_replays_chain(chain, len(down), (m, k))


def test_half_group_route():
    """The fused op launches as ``nvfp4_gemm`` does where that takes 64-row tiles on the
    [2I, K] weight (session 34): 4096x7168 from 17 tokens to 64 (to 256 before the scattered
    pieces, session 56), and from 9 on permuted words (NVFP4 activations since session 37, as
    ``nvfp4_gemm``; bf16 since session 38); not 1024x7168 (8 Mi values or fewer), not the
    stream-K weights, not at 16 tokens or fewer otherwise."""
    for m in (17, 32, 64):
        assert half_group_route(m, 2048, 7168), m
        assert half_group_route(m, 2048, 7168, a_fp4=False), m
    for m in (65, 128, 200, 256):
        assert not half_group_route(m, 2048, 7168), m
    for m in (9, 12, 16):
        assert half_group_route(m, 2048, 7168, permuted=True), m
        assert not half_group_route(m, 2048, 7168), m
        assert half_group_route(m, 2048, 7168, a_fp4=False, permuted=True), m
        assert not half_group_route(m, 2048, 7168, a_fp4=False), m
        assert not half_group_route(m, 512, 7168, permuted=True), m
        assert not half_group_route(m, 4608, 7168, permuted=True), m
    assert not half_group_route(8, 2048, 7168, permuted=True)
    assert not half_group_route(8, 2048, 7168, a_fp4=False, permuted=True)
    assert not half_group_route(16, 2048, 7168, a_fp4=False)
    assert not half_group_route(257, 2048, 7168)
    assert not half_group_route(128, 512, 7168)
    assert not half_group_route(64, 4608, 7168)


def _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out):
    """The public function into NaN-poisoned outputs, against the reference."""
    m, i = a.shape[0], w.shape[0] // 2
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
    nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out, out=out, out_sf=out_sf)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [17, 64])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_half_group_route_matches_reference(m, fp4_a):
    """The public function on that route: 4096x7168 (2I x K), the fused kernel on half
    interleave groups (two K pieces in clusters of two CTAs up to 64 tokens)."""
    i, k = 2048, 7168
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m,fp4_a", [(9, True), (13, True), (16, True), (12, False),
                                     (16, False)])
def test_half_group_route_at_9_tokens_matches_reference(m, fp4_a):
    """Activations on permuted words at 9..16 tokens (4096x7168), NVFP4 and bf16: the
    half-group cluster pairs of 16-token tiles with the PDL trigger and the spread pass (of the
    activations' decode, or of ``reorder_k``'s copy), against the reference."""
    i, k = 2048, 7168
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    assert half_group_route(m, i, k, fp4_a, True)
    _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [9, 16])
def test_narrow_route_at_9_tokens_matches_reference(m):
    """NVFP4 activations on permuted words at 9..16 tokens on 9216x7168: the fused kernel on
    ``nvfp4_gemm``'s 16-token stream-K launch with the PDL trigger and the spread pass
    (session 38; the small kernel before), against the reference."""
    from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route, swiglu_small_m_regime

    i, k = 4608, 7168
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    assert not swiglu_small_m_regime(m, i, k, True, True)
    assert large_m_route(m, i, k) == ("narrow", 16)
    _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)
