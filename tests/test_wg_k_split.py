"""The wgmma kernel's ``wg_k_split``: 64-row CTA tiles whose two consumer warpgroups take the two
K groups of every stage and are summed in shared memory. Compile-only on CPU; on a GPU, against
the fp64 reference with every tail: M, N (odd 64-row tiles read the upper half of their 128-row
scale chunk), whole tiles, K pieces in the launch and stream-K, every weight decode."""

import os

import cutlass
import pytest
import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.k_order import DECODE_ORDERS, WORD_ORDERS, KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)
from cute_kernels.testing import compile_only, kernel_registers
from tests.conftest import TOOLS, poisoned
from tests.test_nvfp4_gemm_large_m import _inputs, _rel_err


@pytest.mark.parametrize("tile_m,splits,stream_k,k_order", [
    (64, 1, False, KOrder.PERMUTED), (32, 1, False, KOrder.PAIRS), (128, 1, False, 0),
    (64, 2, True, KOrder.PERMUTED), (16, 1, True, KOrder.PERMUTED)])
def test_wg_k_split_compiles_for_sm90a(tile_m, splits, stream_k, k_order):
    compiled = compile_only(compile_nvfp4_gemm_large_m, 7168, 2048, "torch.bfloat16", tile_m, 0,
                            132, splits, stream_k, False, int(k_order), 1, 2, True)
    assert kernel_registers(compiled) == [168]  # the launch bound of one CTA an SM


def test_wg_k_split_needs_two_k_groups():
    with pytest.raises(AssertionError):
        NVFP4GemmLargeM(7168, 2048, cutlass.BFloat16, 64, wg_k_split=True)
    kernel = NVFP4GemmLargeM(7168, 2048, cutlass.BFloat16, 64, k_groups=2, wg_k_split=True)
    assert (kernel.tile_n, kernel.row_tiles, kernel.stage_k) == (64, 112, 128)


def _launch(a, b, b_sf, alpha, out, k_order, config, **kw):
    if k_order in WORD_ORDERS:
        b = prepare_nvfp4_weight(b)
    launch_large_m(bf16_activations(a, None, k_order), b, b_sf,
                   torch.full((1,), alpha, device="cuda"), out, config, k_groups=2,
                   k_order=k_order, wg_k_split=True, **kw)
    torch.cuda.synchronize()


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config,kw", [
    (64, 7168, 2048, (64, 0), {}),                   # 112 whole tiles, one a CTA
    (29, 1100, 1920, (32, 0), {}),                   # N tail in an odd 64-row tile
    (777, 1088, 896, (64, 2, 5), {}),                # 13 x 17 tiles on 5 CTAs, 2 stages
    (200, 1160, 256, (128, 0, 3), {}),               # two stages of K: warpgroup 1 runs ahead
    (13, 1160, 1024, (16, 0), {}),                   # a 16-token tile of 13 tokens
    (64, 1088, 2048, (64, 0), {"splits": 2}),        # two K pieces a tile, added in the launch
    (45, 1160, 1920, (32, 0, 13), {"stream_k": True}),  # stream-K pieces cross tiles
])
@pytest.mark.parametrize("k_order", DECODE_ORDERS)
def test_wg_k_split_matches_fp64_reference(m, n, k, config, kw, k_order):
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    out = poisoned(m, n, dtype=torch.float32)
    _launch(a, b, b_sf, alpha, out, k_order, config, **kw)
    assert not out.isnan().any()
    assert _rel_err(out, want) <= 1e-3
    # deterministic: the warpgroups' sum and the pieces go in a fixed order
    again = poisoned(m, n, dtype=torch.float32)
    _launch(a, b, b_sf, alpha, again, k_order, config, **kw)
    torch.testing.assert_close(again, out, rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1160, 1100, 1098])  # N % 8 == 0, % 4 == 0 (fp32 staged), neither
@pytest.mark.parametrize("pair_pieces", [False, True])
def test_wg_k_split_16_bit_output_is_the_fp32_result_rounded(n, pair_pieces):
    m, k = 100, 1024
    a, b, b_sf, alpha = _inputs(m, n, k)
    outs = {}
    for dtype in (torch.float32, torch.bfloat16):
        outs[dtype] = poisoned(m, n, dtype=dtype)
        _launch(a, b, b_sf, alpha, outs[dtype], KOrder.PERMUTED, (64, 0),
                pair_pieces=pair_pieces)
    assert not outs[torch.bfloat16].isnan().any()
    torch.testing.assert_close(outs[torch.bfloat16].float(),
                               outs[torch.float32].to(torch.bfloat16).float(),
                               rtol=2**-8, atol=1e-30)


def test_wg_k_split_plan():
    """``nvfp4_gemm`` takes 64-row tiles where its plan is whole 128-row tiles or K pieces at
    most 128 tokens and a wave holds the 64-row tiles (the probe's wins, session 33)."""
    from cute_kernels.large_m_plans import wg_k_split_plan

    assert wg_k_split_plan(64, 7168, 2048) == (64, 1)     # 56 whole tiles -> 112
    assert wg_k_split_plan(32, 7168, 2048) == (32, 1)     # two pieces of 56 -> 112 whole
    assert wg_k_split_plan(96, 7168, 2048) == (128, 1)
    assert wg_k_split_plan(17, 4096, 7168) == (32, 2)     # four pieces of 32 -> two of 64
    assert wg_k_split_plan(96, 4096, 2048) == (128, 2)
    # 129..256 tokens: whole 128-token tiles filling a wave (session 33 calls 6, 7)
    assert wg_k_split_plan(129, 4096, 4096) == wg_k_split_plan(256, 4096, 2048) == (128, 1)
    assert wg_k_split_plan(257, 4096, 2048) is None
    # past 64 tokens, not where the plan has 128-token tiles in two or four K pieces: the
    # scattered pieces and the cluster pairs beat the 64-row tiles there (session 56)
    assert wg_k_split_plan(64, 4096, 7168) == (64, 2)
    for m in (65, 128, 129, 256):
        assert wg_k_split_plan(m, 4096, 7168) is None, m
    assert wg_k_split_plan(256, 7168, 2048) is None       # two waves
    assert wg_k_split_plan(200, 1024, 7168) is None       # 32 tiles
    assert wg_k_split_plan(64, 9216, 7168) is None        # stream-K plan (lost there)
    assert wg_k_split_plan(64, 7168, 18432) is None
    assert wg_k_split_plan(64, 1160, 1024) == (64, 1)     # 8 stages: no pieces
    assert wg_k_split_plan(64, 256, 576) is None          # K / 64 odd


def test_wg_k_pairs():
    """Two K pieces of tiles of up to 64 tokens are summed in a cluster of two CTAs (session
    34's probe: 4096x7168 M = 17..64 won, M = 128 and whole tiles lost)."""
    from cute_kernels.large_m_plans import wg_k_pairs

    assert wg_k_pairs(17, 4096, 7168) and wg_k_pairs(64, 4096, 7168)
    assert not wg_k_pairs(96, 4096, 2048)                 # 128-token tiles
    assert not wg_k_pairs(200, 4096, 2048)                # whole tiles
    assert not wg_k_pairs(64, 7168, 2048) and not wg_k_pairs(32, 7168, 2048)
    assert not wg_k_pairs(64, 9216, 7168)                 # no 64-row tiles


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,fp4_a", [
    (40, 7168, 2048, True), (40, 7168, 2048, False), (100, 7168, 2048, True),
    (20, 7168, 2048, True),     # past the small kernel from 17 fp4 tokens (session 33)
    (12, 7168, 2048, False),    # from 9 bf16 tokens
    (17, 4096, 7168, True), (17, 4096, 7168, False),
    (64, 4096, 7168, True),     # two K pieces in clusters of two CTAs (``wg_k_pairs``)
    (12, 4096, 7168, True),     # pairs of 16-token tiles (permuted words, session 36)
    (200, 4096, 2048, True)])   # 128-token tiles at 129..256 tokens
@pytest.mark.parametrize("permuted", [True, False])
def test_public_route_in_64_row_tiles(m, n, k, fp4_a, permuted):
    from cute_kernels import nvfp4_gemm
    from cute_kernels.large_m_plans import wg_k_split_plan
    from cute_kernels.nvfp4_gemm import small_m_regime
    from tests.test_nvfp4_gemm import _inputs as gemm_inputs

    if small_m_regime(m, n, k, fp4_a, permuted):  # packed bytes keep it at 9..16
        assert not permuted and m <= 16
    else:
        assert wg_k_split_plan(m, n, k) is not None
    a, a_sf, b, b_sf, alpha = gemm_inputs(m, n, k, fp4_a)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    got = nvfp4_gemm(a, a_sf, prepare_nvfp4_weight(b) if permuted else b, b_sf, alpha,
                     out_dtype=torch.float32, out=poisoned(m, n, dtype=torch.float32))
    assert not got.isnan().any()
    assert _rel_err(got, want) <= 1e-3


def test_pair_pieces_compile_for_sm90a():
    """``pair_pieces``: two CTAs a tile in a cluster, summed through distributed shared
    memory (``st.async``)."""
    for tile_m in (32, 64):
        compiled = compile_only(compile_nvfp4_gemm_large_m, 4096, 7168, "torch.bfloat16", tile_m,
                                0, 132, 1, False, False, int(KOrder.PERMUTED), 1, 2, True, True)
        assert kernel_registers(compiled) == [168]
    with pytest.raises(AssertionError):  # whole tiles only
        NVFP4GemmLargeM(4096, 7168, cutlass.BFloat16, 64, stream_k=True, k_groups=2,
                        wg_k_split=True, pair_pieces=True)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config", [
    (64, 4096, 7168, (64, 0)),      # 64 tiles in 64 pairs
    (29, 1100, 1792, (32, 0)),      # N tail in an odd 64-row tile, M tail
    (777, 1088, 1024, (64, 2)),     # 13 x 17 tiles, two stages, K halves of 4 stages
    (13, 1160, 512, (16, 0)),       # two stages a K half
])
@pytest.mark.parametrize("k_order", DECODE_ORDERS)
def test_pair_pieces_match_fp64_reference(m, n, k, config, k_order):
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    outs = []
    for _ in range(2):
        outs.append(poisoned(m, n, dtype=torch.float32))
        _launch(a, b, b_sf, alpha, outs[-1], k_order, config, pair_pieces=True)
    assert not outs[0].isnan().any()
    assert _rel_err(outs[0], want) <= 1e-3
    torch.testing.assert_close(outs[1], outs[0], rtol=0, atol=0)  # K half 0 + K half 1


# ``NVFP4GemmLargeM.UNIFORM_K_GROUP`` (on since session 103): the K group made warp-uniform, so
# the main loop's wgmmas take no R2UR. Only where the group index lives moves: the same bits.
# The compile test keeps the form without it (the probe's "thread_group") building. The same
# switch makes the K-piece holders' test warp-uniform (``_holds_piece``), which keeps the
# fix-up's spin loops from taking the stage counters out of uniform registers (four pieces:
# 11 of 20 HGMMAs R2UR-fed -> 0).
@pytest.mark.parametrize("tile_m,stream_k", [(64, False), (16, True)])
def test_thread_k_group_compiles_for_sm90a(monkeypatch, tile_m, stream_k):
    monkeypatch.setattr(NVFP4GemmLargeM, "UNIFORM_K_GROUP", False)
    compiled = compile_only(compile_nvfp4_gemm_large_m, 7168, 2048, "torch.bfloat16",
                            tile_m, 0, 132, 1, stream_k, False, int(KOrder.PERMUTED), 1, 2, True)
    assert kernel_registers(compiled) == [168]


@pytest.mark.parametrize("form", ["wg_k_split", "wg_k_split_s4", "fused_wgk_s4"])
def test_wg_k_split_wgmmas_take_no_r2ur(monkeypatch, form):
    """Where nvdisasm is at hand (``tools/quant_sass_count.py``): the public wg_k_split forms'
    wgmmas read their descriptors from uniform registers (``tools/wgmma_uniform_check.py``);
    a per-thread branch around a spin loop had cost the four-piece form 11 of 20."""
    monkeypatch.syspath_prepend(str(TOOLS))
    from quant_sass_count import NVDISASM, disassemble
    from wgmma_uniform_check import FORMS, r2ur_fed

    if not os.path.exists(NVDISASM):
        pytest.skip(f"needs nvdisasm ({NVDISASM}; the NVDISASM variable names another)")
    fn, args = FORMS[form]
    _, fed, _ = r2ur_fed(disassemble(compile_only(fn, *args))[0])
    assert fed == 0


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,kw", [
    (29, (32, 0), {}), (64, (64, 0), {"splits": 2}), (21, (16, 0), {"splits": 4}),
    (45, (32, 0, 13), {"stream_k": True})])
def test_uniform_k_group_gives_the_same_bits(monkeypatch, m, config, kw):
    from tests.test_nvfp4_gemm_large_m import switch_keeps_bits

    switch_keeps_bits(monkeypatch, "UNIFORM_K_GROUP", (False, True), m, config,
                      dict(kw, k_groups=2, wg_k_split=True), KOrder.PERMUTED)
