"""NVFP4 GEMM: compile-only on CPU; on a GPU, every regime against the fp64 reference."""

import importlib

import pytest
import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.nvfp4_gemm import (SMALL_M_MAX, launch_small_m, nvfp4_gemm, small_m_config,
                                     small_m_regime, staged_tokens)
from cute_kernels.large_m_plans import large_m_plan, plain_plan, stream_k_plan, wide_pieces
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM, compile_nvfp4_gemm_small_m
from cute_kernels.nvfp4_gemm_small_m_split import compile_nvfp4_gemm_small_m_split, config_splits
from cute_kernels.testing import compile_only
from layouts import swizzle_sf
from tests.conftest import check_graph_replays_chain, poisoned, w4a16_chain


@pytest.mark.parametrize("n,k,a_dtype,config", [
    (256, 512, "fp4", (1, 1, 4, 1)),
    (200, 576, "torch.bfloat16", (2, 1, 4, 1)),       # K tail of 64, N tail
    (7168, 2048, "fp4", (2, 4, 8, 0)),
    (4096, 7168, "torch.bfloat16", (1, 2, 8, 1)),
    (200, 576, "fp4", (1, 1, 4, 1, 2)),               # activations staged in shared memory
    (36864, 7168, "torch.bfloat16", (2, 1, 4, 1, 1)),
    (7168, 18432, "torch.bfloat16", (2, 1, 4, 1, 1)),  # the paired-step loop
    (36864, 7168, "fp4", (2, 1, 4, 3, 1)),            # cp.async ring, 3 steps in flight
    (200, 576, "fp4", (2, 2, 4, 2)),                  # ring with activations, K tail
    (200, 576, "torch.bfloat16", (1, 2, 4, 2)),       # ring with bf16 activations
    (9216, 7168, "torch.bfloat16", (1, 1, 4, 0)),     # W4A16 at 3..8 tokens, one row tile
    (9216, 7168, "fp4", (1, 1, 8, 1, 1, True, 2)),    # two row groups, staged, row offsets
    # 3..8 tokens staged (``tools/staged_tokens_probe.py``; the routes stage at most two)
    (9216, 7168, "torch.bfloat16", (2, 1, 4, 1, 4, True)),
    (9216, 7168, "fp4", (1, 1, 4, 1, 8, True)),
])
def test_small_m_compiles_for_sm90a(n, k, a_dtype, config):
    assert compile_only(compile_nvfp4_gemm_small_m, n, k, a_dtype, "torch.bfloat16", *config)


def test_tiled_codes_probe_switch_compiles_for_sm90a(monkeypatch):
    """The probe switch ``PROBE_TILED_CODES`` (tile-major code addresses on the lean
    one-token loads; ``tools/tiled_codes_probe.py``) compiles."""
    monkeypatch.setattr(NVFP4GemmSmallM, "PROBE_TILED_CODES", True)
    assert compile_only(compile_nvfp4_gemm_small_m, 9216, 7168, "fp4", "torch.bfloat16",
                        1, 1, 4, 1, 1, True)


@pytest.mark.parametrize("n,k,a_dtype,config", [
    (7168, 18432, "fp4", (2, 1, 4, 1, 1, 4)),        # staged activations, 18 steps per split
    (200, 576, "torch.bfloat16", (1, 2, 4, 0, 0, 3)),  # one step per split, K tail, N tail
    (5120, 17408, "fp4", (2, 2, 4, 3, 0, 2)),         # cp.async ring
    (5120, 17408, "torch.bfloat16", (2, 1, 4, 0, 0, 3)),  # W4A16 at 3..8 tokens, split
    (5120, 17408, "torch.bfloat16", (2, 1, 4, 1, 8, 3, True)),  # 8 tokens staged, split
])
def test_small_m_split_compiles_for_sm90a(n, k, a_dtype, config):
    assert compile_only(compile_nvfp4_gemm_small_m_split, n, k, a_dtype, "torch.bfloat16",
                        *config)


def _quantized(rows, k, device, spread=True):
    """Realistic NVFP4 data: per-row magnitudes over three decades, ModelOpt-style global scale."""
    x = torch.randn(rows, k, device=device)
    if spread:
        x = x * torch.pow(10.0, torch.rand(rows, 1, device=device) * 3 - 2)
    g = 448 * 6 / x.abs().amax().clamp_min(1e-12)
    packed, sf = reference.nvfp4_quantize(x.to(torch.bfloat16), g)
    return packed, sf, x


def _inputs(m, n, k, fp4_a, device="cuda"):
    b, b_sf, _ = _quantized(n, k, device)
    if fp4_a:
        a, a_sf, _ = _quantized(m, k, device)
    else:
        a, a_sf = (torch.randn(m, k, device=device) * 3).to(torch.bfloat16), None
    alpha = float(torch.rand(()) * 2 + 0.1)
    return a, a_sf, b, b_sf, alpha


def _rel_err(got, want):
    return ((got.double() - want).norm() / want.norm().clamp_min(1e-300)).item()


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 2, 7, 8, 16, 33, SMALL_M_MAX, SMALL_M_MAX + 1, 1000])
@pytest.mark.parametrize("n,k", [(256, 512), (200, 576), (1000, 4096), (7168, 2048)])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_matches_fp64_reference(m, n, k, fp4_a):
    a, a_sf, b, b_sf, alpha = _inputs(m, n, k, fp4_a)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    out = poisoned(m, n, dtype=torch.float32)
    got = nvfp4_gemm(a, a_sf, b, b_sf, alpha, out_dtype=torch.float32, out=out)
    assert got.data_ptr() == out.data_ptr()
    assert not got.isnan().any()
    assert _rel_err(got, want) <= 1e-3
    # bf16 output: one rounding of the same fp32 result.
    got16 = nvfp4_gemm(a, a_sf, b, b_sf, alpha)
    assert got16.dtype == torch.bfloat16 and got16.shape == (m, n)
    torch.testing.assert_close(got16.float(), got, rtol=2**-8, atol=1e-30)


@pytest.mark.parametrize("n,k", [(7168, 18432), (5120, 17408), (36864, 7168), (4096, 7168),
                                 (7168, 2048), (200, 576)])
def test_default_configs_fit_shared_memory(n, k):
    """Every config ``small_m_config`` picks builds (the ring's shared memory included) for
    both activation kinds wherever the small kernel runs."""
    for m in range(1, SMALL_M_MAX + 1):
        if small_m_regime(m, n, k):
            for fp4_a, permuted in [(True, False), (False, False), (True, True)]:
                config = small_m_config(m, n, k, fp4_a, permuted)
                NVFP4GemmSmallM(n, k, fp4_a, None, *config[:4], staged_tokens(m, config, k),
                                config_splits(config), permuted)


def test_staged_tokens_rule():
    """M <= 2 with one token tile: the real tokens (two only where the register path measured
    slower); with a K split all the CTA's token tiles where their K slice fits
    STAGED_TILE_BYTES."""
    assert staged_tokens(1, (2, 1, 4, 1)) == 1 and staged_tokens(2, (2, 1, 4, 1)) == 2
    assert staged_tokens(3, (2, 1, 4, 1)) == 0 and staged_tokens(1, (2, 2, 4, 0)) == 0
    # two tokens: staged for a K split, 8 warps or the paired-step loop, else the register path
    assert staged_tokens(1, (1, 1, 4, 1), 7168) == 1 and staged_tokens(2, (2, 1, 4, 1), 7168) == 0
    assert staged_tokens(2, (1, 1, 4, 1), 7168) == 0
    assert staged_tokens(2, (2, 1, 4, 1), 18432) == 2             # 18 steps a warp: paired
    assert staged_tokens(2, (2, 1, 4, 1, 3), 17408) == 2          # split in three
    assert staged_tokens(2, (1, 1, 8, 1), 2048) == 2              # 8 warps
    assert staged_tokens(2, (1, 1, 4, 1), 7168, a_fp4=False) == 2  # W4A16: always staged
    assert staged_tokens(29, (2, 1, 4, 1, 4), 7168) == 8      # 7 steps per split: 28.8 KB
    assert staged_tokens(29, (2, 1, 4, 1, 2), 7168) == 0      # 14 steps: 57 KB
    assert staged_tokens(29, (2, 1, 4, 1, 4), 18432) == 0
    assert staged_tokens(29, (1, 2, 4, 0, 7), 7168) == 16     # 4 steps, two tiles: 33 KB
    assert staged_tokens(29, (1, 2, 4, 0, 4), 7168) == 0
    # 3..8 tokens only with the plain limits widened (``tools/staged_tokens_probe.py``)
    assert staged_tokens(5, (2, 1, 4, 1), 7168) == 0
    assert staged_tokens(5, (2, 1, 4, 1), 7168, 8, 1 << 20) == 5
    assert staged_tokens(8, (2, 1, 4, 1, 3), 17408, 8, 1 << 20) == 8
    assert staged_tokens(5, (2, 1, 4, 1, 4)) == 0             # K unknown: no tile staging


def test_w4a4_takes_the_wgmma_kernel_from_9_tokens_on_many_units():
    """9..16 fp4 tokens: the wgmma kernel's 16-token stream-K tiles where a row of them has
    >= 80 units an SM, permuted words and packed bytes (in ``KOrder.PAIRS``) alike; bf16
    activations and the smaller weights keep the small kernel, packed weights of 64 Mi values
    or more with the register prefetch (``tools/plain_packed_narrow_probe.py``)."""
    for n, k in [(7168, 18432), (36864, 7168), (34816, 5120), (5120, 17408)]:
        assert small_m_regime(8, n, k)
        assert not any(small_m_regime(m, n, k) for m in (9, 12, 16)), (n, k)
    for n, k in [(9216, 7168), (4096, 7168), (7168, 2048)]:
        assert small_m_regime(16, n, k), (n, k)
    # permuted words, with the PDL trigger and the spread pass: 4096x7168 in cluster pairs,
    # 9216x7168 in stream-K (plain_wgmma_from_9_tokens); 7168x2048 and small weights stay
    for n, k in [(9216, 7168), (4096, 7168), (7168, 18432)]:
        assert small_m_regime(8, n, k, permuted=True), (n, k)
        assert not any(small_m_regime(m, n, k, permuted=True) for m in (9, 12, 16)), (n, k)
    for n, k in [(7168, 2048), (2048, 2048), (1024, 7168)]:
        assert small_m_regime(16, n, k, permuted=True), (n, k)
    for m in (8, 12, 16):  # W4A16 as before
        assert (small_m_regime(m, 4096, 7168, a_fp4=False)
                == small_m_regime(m, 4096, 7168, a_fp4=False, permuted=True))
    for m in (9, 16):
        for n, k in [(7168, 18432), (36864, 7168), (34816, 5120)]:
            assert small_m_config(m, n, k) == (2, 2, 4, 1), (m, n, k)
        assert small_m_config(m, 36864, 7168, a_fp4=False) == (2, 2, 4, 0)


def test_long_k_weights_take_the_stream_k_wgmma_path_from_17_tokens():
    """7168x18432 and 5120x17408 (down projections) fill 56 and 40 SMs with whole wgmma tiles;
    from 17 tokens they take the wgmma kernel in stream-K (split-K would be the fallback).
    Weights of at most 32 Mi elements keep the small kernel to 32 tokens only with short K
    where the wgmma kernel has no 64-row tiles (7168x2048 has them since session 33: from 17
    tokens), to 64 at most 8 Mi elements; 4096x7168 takes the wgmma kernel from 17 (split
    K 4 with 64-token tiles: H200 2026-11-30, 20.0-20.8 us against the small kernel's
    23.6-28.7 at M = 32..64)."""
    assert small_m_regime(8, 5120, 17408)
    for n, k in [(7168, 18432), (5120, 17408)]:
        for m in (17, 32, 64):
            assert not small_m_regime(m, n, k)
            assert large_m_plan(m, n, k)[1] > 1, (m, n, k)
            assert stream_k_plan(m, n, k) == (32 if m <= 32 else 64, False), (m, n, k)
    assert small_m_regime(16, 4096, 7168) and not small_m_regime(17, 4096, 7168)
    assert large_m_plan(32, 4096, 7168) == (32, 4) and large_m_plan(64, 4096, 7168) == (64, 4)
    assert small_m_regime(16, 7168, 2048) and not small_m_regime(17, 7168, 2048)
    assert small_m_regime(32, 9216, 1536) and not small_m_regime(33, 9216, 1536)  # 144 tiles
    assert small_m_regime(64, 1024, 7168) and not small_m_regime(65, 1024, 7168)


def test_w4a16_takes_the_wgmma_kernel_from_9_tokens_with_long_k():
    """bf16 activations at 9..16 tokens: the wgmma kernel with K > 2048 on every weight, from
    4 tokens on weights over 32 Mi values or over 8 Mi with long K (4096x7168, session 38), 5
    on packed bytes where the small kernel splits K (session 74: not on permuted words;
    ``tools/w4a16_regime_probe.py``,
    ``tools/w4a16_order_probe.py``, ``tools/w4a16_spread_probe.py``), past 16 tokens always;
    fp4 activations keep the small kernel there but on the weights of
    ``wgmma_from_9_tokens``."""
    assert small_m_regime(8, 1024, 7168, a_fp4=False)  # 7 Mi values: the small kernel to 8
    assert not small_m_regime(9, 1024, 7168, a_fp4=False)
    for n, k in [(7168, 18432), (5120, 17408), (9216, 7168), (4096, 7168), (36864, 7168),
                 (34816, 5120)]:
        big = n * k > 8 * 2**20  # from 4 tokens, from 5 where the small kernel splits K
        assert small_m_regime(3, n, k, a_fp4=False)
        assert small_m_regime(4, n, k, a_fp4=False) == (not big or (n, k) == (5120, 17408))
        assert small_m_regime(4, n, k, a_fp4=False, permuted=True) == (not big)
        assert small_m_regime(5, n, k, a_fp4=False) == small_m_regime(8, n, k, a_fp4=False) == (
            not big), (n, k)
        assert not small_m_regime(9, n, k, a_fp4=False)
        assert not small_m_regime(16, n, k, a_fp4=False)
        assert small_m_regime(16, n, k) == ((n, k) in ((9216, 7168), (4096, 7168)))
    # short K: the small kernel to 16 tokens but where the wgmma kernel has 64-row tiles on
    # weights over 8 Mi values (7168x2048: from 9 tokens, session 33)
    assert small_m_regime(16, 2048, 2048, a_fp4=False)
    assert small_m_regime(8, 7168, 2048, a_fp4=False)
    assert not small_m_regime(9, 7168, 2048, a_fp4=False)
    # past 16 tokens always (small weights keep the small kernel for fp4 only)
    assert small_m_regime(32, 2048, 2048) and not small_m_regime(17, 2048, 2048, a_fp4=False)
    assert small_m_regime(64, 1024, 7168) and not small_m_regime(17, 1024, 7168, a_fp4=False)


def test_w4a16_register_path_keeps_the_prefetch_with_two_row_tiles_only():
    """bf16 activations at 3..8 tokens: the register prefetch with two row tiles on whole K
    (36864x7168 M = 8: 62.1 us with it, 75.1 without), not with one row tile of 4 warps
    (9216x7168 M = 8: 36.2 against 27.4) or a K split (5120x17408: 31.3 against 26.1); one or
    two (staged) tokens and fp4 activations keep their configs. Short K (7168x2048) takes two
    row tiles of 8 warps there."""
    for permuted in (False, True):
        for m in (3, 4, 8):
            for n, k in [(36864, 7168), (34816, 5120), (7168, 18432)]:
                assert small_m_config(m, n, k, False, permuted) == (2, 1, 4, 1)
            assert small_m_config(m, 9216, 7168, False, permuted) == (1, 1, 4, 0)
            assert small_m_config(m, 4096, 7168, False, permuted) == (1, 1, 4, 0)
            assert small_m_config(m, 5120, 17408, False, permuted) == (2, 1, 4, 0, 3)
            # short K: two row tiles of 8 warps (session 38, ``tools/w4a16_config_probe.py``)
            assert small_m_config(m, 7168, 2048, False, permuted) == (2, 1, 8, 1)
        for m in (1, 2):
            assert small_m_config(m, 7168, 2048, False, permuted) == (1, 1, 8, 1)
            assert small_m_config(m, 9216, 7168, False, permuted) == (1, 1, 4, 1)
            assert small_m_config(m, 5120, 17408, False, permuted) == (2, 1, 4, 1, 3)
    assert small_m_config(8, 9216, 7168) == (1, 1, 4, 1)
    assert small_m_config(8, 5120, 17408) == (2, 1, 4, 1, 3)


def test_long_k_small_m_splits_where_ctas_barely_pass_one_per_sm():
    """5120x17408 (160 small-M CTAs) splits K in three at M <= 16; 7168x18432 (224) and the
    K = 7168 shapes do not (``tools/small_split_probe.py``)."""
    for m in (1, 8, 16):
        assert config_splits(small_m_config(m, 5120, 17408)) == 3
        for n, k in [(7168, 18432), (36864, 7168), (9216, 7168), (7168, 2048)]:
            assert config_splits(small_m_config(m, n, k)) == 1, (m, n, k)
    assert small_m_config(1, 5120, 17408) == (2, 1, 4, 1, 3)
    assert small_m_config(16, 5120, 17408) == (2, 2, 4, 0, 3)


def test_permuted_words_move_three_small_m_choices():
    """``tools/permuted_config_probe.py`` (H200 2026-11-30): on permuted words one token takes
    one row tile for big K < 16384 weights (on two row groups where a warp walks six steps or
    more: session 91, H100) and 8 warps for small ones; 3..8 tokens on long K
    split in two where that fits one wave of 3 CTAs per SM, with one row tile where its two
    splits fit one wave of 5 (session 15), else one row tile of 8 warps on whole K (session
    19). Elsewhere, and for packed weights, the configs stay."""
    def permuted(m, n, k):
        return small_m_config(m, n, k, True, True)
    assert permuted(1, 34816, 5120) == (1, 1, 4, 1)
    assert permuted(1, 36864, 7168) == (1, 1, 8, 1, 1, 2)
    assert permuted(1, 4096, 7168) == (1, 1, 8, 1)
    assert permuted(1, 9216, 7168) == small_m_config(1, 9216, 7168)
    for m in (4, 8):
        assert permuted(m, 5120, 17408) == (1, 1, 4, 1, 2)
        assert permuted(m, 7168, 18432) == (1, 1, 8, 1)
    for m in (1, 2, 16):
        for n, k in [(5120, 17408), (7168, 18432)]:
            assert permuted(m, n, k) == small_m_config(m, n, k), (m, n, k)
    for m in (2, 4, 8, 16):
        for n, k in [(36864, 7168), (34816, 5120), (4096, 7168), (7168, 2048)]:
            if m < 16 or n * k < 32 * 2**20:
                assert permuted(m, n, k) == small_m_config(m, n, k), (m, n, k)
    for m in (9, 12, 16):  # session 14: the register prefetch at three CTAs per SM
        for n, k in [(36864, 7168), (34816, 5120), (9216, 7168)]:
            assert permuted(m, n, k) == (2, 2, 4, 1), (m, n, k)
    assert small_m_config(1, 36864, 7168, False, True) == small_m_config(1, 36864, 7168, False)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 5, 16])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_public_small_m_split_matches_fp64_reference(m, fp4_a):
    n, k = 1040, 16384  # 65 CTAs of 16 rows: small_m_config splits K in three, N tail
    assert config_splits(small_m_config(m, n, k, fp4_a)) == 3
    _check_public_route(m, n, k, fp4_a)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [4, 7])
def test_w4a16_at_4_tokens_on_4096x7168_matches_fp64_reference(m):
    """bf16 activations at 4..8 tokens on 4096x7168: the wgmma kernel since session 38."""
    assert not small_m_regime(m, 4096, 7168, a_fp4=False)
    _check_public_route(m, 4096, 7168, False)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [17, 40, 129])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_split_k_route_matches_fp64_reference(m, fp4_a):
    n, k = 1024, 36864  # 8 row tiles over 576 k-tiles: the plan splits K
    assert not small_m_regime(m, n, k) and large_m_plan(m, n, k)[1] > 1
    _check_public_route(m, n, k, fp4_a)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k", [(200, 4096, 5120), (129, 4096, 6144)])  # M tails
@pytest.mark.parametrize("fp4_a", [True, False])
def test_wide_pieces_route_matches_fp64_reference(m, n, k, fp4_a):
    # one wave of whole 64-token tiles taken as 128-token tiles in two K pieces
    assert not small_m_regime(m, n, k) and wide_pieces(m, n, k)
    assert plain_plan(m, n, k) == (128, 2, False, False)
    _check_public_route(m, n, k, fp4_a)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [300, 512])
def test_stream_k_hybrid_route_matches_fp64_reference(m):
    n, k = 17024, 2560  # 266 tiles of 256 tokens (two waves, 67% full), 40 k-tiles each
    assert stream_k_plan(m, n, k) == (256, True)
    _check_public_route(m, n, k, True)


def _check_public_route(m, n, k, fp4_a):
    """``nvfp4_gemm`` into a poisoned fp32 output against the fp64 product."""
    a, a_sf, b, b_sf, alpha = _inputs(m, n, k, fp4_a)
    got = nvfp4_gemm(a, a_sf, b, b_sf, alpha, out_dtype=torch.float32,
                     out=poisoned(m, n, dtype=torch.float32))
    assert not got.isnan().any()
    assert _rel_err(got, reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("n,k", [(7168, 18432), (5120, 17408)])
def test_packed_weights_at_9_to_16_tokens(n, k):
    """Packed bytes of a long-K weight at 13 fp4 tokens, against the fp64 product: the wgmma
    kernel's 16-token stream-K tiles in ``KOrder.PAIRS``."""
    m = 13
    assert not small_m_regime(m, n, k)
    _check_public_route(m, n, k, True)


def test_packed_bytes_take_wide_stream_k_tiles_at_129_to_256_tokens():
    """``packed_plan``: one stream-K tile holding M (the narrowest multiple of 16) where
    ``plain_plan`` has 128-token tiles without a K split at 129..256 tokens and K >= 5120;
    elsewhere the plan as it is (the fitted tiles included)."""
    from cute_kernels.large_m_plans import packed_plan, plain_plan

    for m, n, k, tile_m in [(256, 7168, 18432, 256), (245, 7168, 18432, 256),
                            (256, 5120, 17408, 256), (240, 5120, 17408, 240),
                            (230, 9216, 7168, 240), (256, 9216, 7168, 256)]:
        assert plain_plan(m, n, k)[:2] == (128, 1), (m, n, k)
        assert packed_plan(m, n, k) == (tile_m, 1, True, False), (m, n, k)
    for m, n, k in [(129, 5120, 17408), (256, 4096, 7168), (256, 7168, 2048), (128, 7168, 18432),
                    (1024, 7168, 18432), (512, 9216, 7168), (256, 36864, 7168),
                    (129, 7168, 18432), (200, 7168, 18432), (129, 9216, 7168)]:
        assert packed_plan(m, n, k) == plain_plan(m, n, k), (m, n, k)
    # 8-token stream-K tiles (TILE_8_MAX_M) for packed bytes too (PACKED_TILE_8)
    for m, n, k in [(4, 9216, 7168), (8, 5120, 17408), (5, 7168, 18432)]:
        assert plain_plan(m, n, k) == (8, 1, True, False), (m, n, k)
        assert packed_plan(m, n, k) == (8, 1, True, False), (m, n, k)


@pytest.mark.gpu
@pytest.mark.parametrize("fp4_a", [True, False])
def test_packed_weights_on_wide_stream_k_tiles(fp4_a):
    """Packed bytes of 5120x17408 at 230 tokens (``packed_plan``: stream-K, one 240-token tile
    partly filled), W4A4 and W4A16, against the fp64 product."""
    _check_public_route(230, 5120, 17408, fp4_a)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(1, 1, 1, 1), (2, 1, 4, 0), (1, 2, 8, 1), (2, 4, 4, 0),
                                    (2, 1, 4, 1), (2, 2, 3, 1), (2, 2, 4, 1),  # min_ctas
                                    (1, 4, 8, 1), (4, 1, 2, 1), (2, 1, 4, 2), (1, 2, 3, 2),
                                    (2, 1, 4, 3), (1, 2, 3, 4), (2, 2, 4, 2),  # >= 2: ring
                                    # K split over grid z (5 steps at K = 1088)
                                    (2, 1, 4, 1, 4), (1, 2, 3, 0, 3), (1, 1, 4, 2, 2),
                                    (2, 1, 4, 1, 5),
                                    (1, 1, 4, 0), (2, 1, 4, 0, 3),  # W4A16 at 3..8 tokens
                                    # row groups (warps on their own row tiles)
                                    (1, 1, 8, 1, 1, 2), (2, 1, 4, 0, 1, 2), (1, 2, 6, 1, 2, 3),
                                    (1, 1, 2, 1, 1, 2)])
@pytest.mark.parametrize("m", [1, 2, 29])  # 1, 2: activations staged in shared memory
def test_every_tile_config_agrees(config, m):
    n, k = 336, 1088  # N: fixed row offsets only with one row tile; K: a tail step
    _every_config_case(config, m, n, k)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(1, 1, 4, 1), (2, 1, 4, 1), (2, 1, 4, 1, 3)])
@pytest.mark.parametrize("m", [3, 8])
def test_three_to_eight_tokens_staged(monkeypatch, config, m):
    """The staging limits widened (``tools/staged_tokens_probe.py``'s forms): 3..8 tokens of
    either activation kind staged in shared memory, on packed bytes and permuted words, with
    N and K tails, against the fp64 reference."""
    gemm = importlib.import_module("cute_kernels.nvfp4_gemm")  # the module, not the function
    monkeypatch.setattr(gemm, "PLAIN_X_SMEM_TOKENS", 8)
    monkeypatch.setattr(gemm, "PLAIN_STAGE_BYTES", 1 << 20)
    n, k = 336, 1088
    assert staged_tokens(m, config, k, 8, 1 << 20) == m
    _every_config_case(config, m, n, k, permuted_too=True)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(1, 1, 1, 1), (2, 1, 4, 0), (1, 2, 8, 1), (4, 1, 2, 1),
                                    (2, 1, 4, 1, 4), (2, 1, 4, 2), (2, 1, 4, 1), (2, 2, 3, 1),
                                    (1, 1, 8, 1, 1, 2)])
@pytest.mark.parametrize("m", [1, 2, 29])
def test_tile_configs_with_fixed_row_offsets(config, m):
    """N a multiple of every row block and no K tail: the loads from per-thread bases
    (``row_offsets``) everywhere, without the column clamp."""
    _every_config_case(config, m, 384, 1024)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(2, 1, 1, 1), (1, 1, 4, 1), (2, 1, 4, 0), (2, 1, 4, 1, 2)])
@pytest.mark.parametrize("m", [1, 5])
def test_small_m_every_scale_byte(config, m):
    """Weight scales taking all 254 finite e4m3 values, subnormals included: the scale
    conversions (the paired-step loop's shared-memory table among them: config (2, 1, 1, 1)
    at M = 1, 16 steps per warp) against the fp64 reference."""
    n, k = 256, 4096
    a, a_sf, b, _, alpha = _inputs(m, n, k, True)
    codes = torch.tensor([c for c in range(256) if c & 0x7F != 0x7F], dtype=torch.uint8)
    raw = codes[torch.randperm(codes.numel())].repeat(-(-n * k // 16 // codes.numel()))
    b_sf = swizzle_sf(raw[:n * k // 16].view(n, k // 16).view(torch.float8_e4m3fn).cuda())
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    for weights in (b, prepare_nvfp4_weight(b)):
        out = poisoned(m, n, dtype=torch.float32)
        launch_small_m(a, a_sf, weights, b_sf, torch.full((1,), alpha, device="cuda"), out,
                       config)
        assert _rel_err(out, want) <= 1e-3, (config, weights.dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("n,k", [(384, 4096), (336, 4160)])  # whole row blocks; N and K tails
@pytest.mark.parametrize("m", [1, 2])
def test_paired_steps_agree(m, n, k):
    """The paired-step loop (one warp: 16 or 17 steps, the last iteration half past the end)."""
    _every_config_case((2, 1, 1, 1), m, n, k)


def test_paired_steps_only_where_measured_faster():
    """Two row tiles, staged activations, register prefetch, no K split, >= 16 steps a warp."""
    import cutlass

    from cute_kernels.swiglu_quant_small_m import NVFP4GemmSwigluQuantSmallM

    def paired(rt, prefetch=1, x_tokens=1, splits=1, n=7168, k=18432, warps=4):
        return NVFP4GemmSmallM(n, k, True, cutlass.BFloat16, rt, 1, warps, prefetch,
                               x_tokens, splits).paired_steps

    assert paired(2) and paired(2, n=384, k=4096, warps=1)
    assert not paired(1) and not paired(4) and not paired(2, prefetch=0)
    assert not paired(2, x_tokens=0) and not paired(2, splits=3)
    assert not paired(2, n=36864, k=7168) and not paired(2, n=34816, k=5120)  # 7, 5 a warp
    assert not NVFP4GemmSwigluQuantSmallM(18432, 7168, True, 2, 1, 4, 1, 1).paired_steps


def test_paired_steps_take_pdl_at_two_ctas_per_sm(monkeypatch):
    """The paired-step loop launches with PDL (first weights before the wait, trigger after the
    loop), its shared memory leaving room for two CTAs per SM and not three; the plain GEMM's
    other long-K configs keep launching without PDL."""
    import cutlass

    from cute_kernels.nvfp4_gemm_small_m import SMEM_PER_SM

    monkeypatch.delenv("CUTE_KERNELS_DISABLE_PDL", raising=False)
    paired = NVFP4GemmSmallM(7168, 18432, True, cutlass.BFloat16, 2, 1, 4, 1, 1)
    assert paired.paired_steps and paired.pdl and paired.pdl_load_early
    assert paired.pdl_trigger == "loop"
    assert paired.ctas_cap == 2
    per_cta = paired.smem_bytes + 1024  # 1 KB of each CTA's shared memory is reserved
    assert 2 * per_cta <= SMEM_PER_SM < 3 * per_cta
    assert 2 * per_cta <= paired._carveout() * SMEM_PER_SM // 100
    one_tile = NVFP4GemmSmallM(36864, 7168, True, cutlass.BFloat16, 1, 1, 4, 1, 1)
    assert not one_tile.pdl and one_tile._carveout() is None
    assert not NVFP4GemmSmallM(36864, 7168, True, cutlass.BFloat16, 2, 1, 4, 1).pdl


def test_one_wave_register_path_takes_pdl(monkeypatch):
    """Register-path grids of one wave (9216x7168: 576 CTAs, five per SM) launch with PDL,
    their shared memory leaving room for the wave's CTAs per SM and not one more, K splits
    too (5120x17408 in two: 640 CTAs), triggered at the CTA start with one row tile a warp and
    after the main loop with two (16384x5120); staged tokens on packed words, more than one
    wave, configs without the register prefetch (they serve up to 64 tokens) or bf16
    activations do not."""
    import cutlass

    from cute_kernels.nvfp4_gemm_small_m import SMEM_PER_SM

    monkeypatch.delenv("CUTE_KERNELS_DISABLE_PDL", raising=False)
    wave = NVFP4GemmSmallM(9216, 7168, True, cutlass.BFloat16, 1, 1, 4, 1, 0)
    assert wave.pdl and wave.pdl_load_early and wave.ctas_cap == 5
    assert wave.pdl_trigger == "start"
    two_tiles = NVFP4GemmSmallM(16384, 5120, True, cutlass.BFloat16, 2, 1, 4, 1, 0)
    assert two_tiles.pdl and two_tiles.ctas_cap == 4 and two_tiles.pdl_trigger == "loop"
    per_cta = wave.smem_bytes + 1024
    assert 5 * per_cta <= SMEM_PER_SM < 6 * per_cta
    assert 5 * per_cta <= wave._carveout() * SMEM_PER_SM // 100
    assert not NVFP4GemmSmallM(9216, 7168, True, cutlass.BFloat16, 1, 1, 4, 1, 1).pdl  # packed
    assert not NVFP4GemmSmallM(36864, 7168, True, cutlass.BFloat16, 2, 1, 4, 1, 0).pdl  # 9 per SM
    split = NVFP4GemmSmallM(5120, 17408, True, cutlass.BFloat16, 1, 1, 4, 1, 0, 2)
    assert split.pdl and split.ctas_cap == 5
    assert not NVFP4GemmSmallM(5120, 17408, True, cutlass.BFloat16, 1, 1, 4, 1, 0, 4).pdl
    # without the register prefetch a config also serves 17..64 tokens on several token CTAs
    assert not NVFP4GemmSmallM(7168, 2048, True, cutlass.BFloat16, 2, 2, 4, 0, 0).pdl
    assert not NVFP4GemmSmallM(9216, 7168, False, cutlass.BFloat16, 1, 1, 4, 1, 0).pdl  # W4A16


def test_fused_register_path_triggers_at_the_start(monkeypatch):
    """The fused kernel (PDL always on) triggers the next kernel at the CTA start on the
    register path without a K split, on permuted words of NVFP4 activations; after the main
    loop with staged tokens, a K split, packed words or bf16 activations."""
    from cute_kernels.swiglu_quant_small_m import (NVFP4GemmSwigluQuantSmallM,
                                                   NVFP4GemmSwigluQuantSmallMSplitK)

    monkeypatch.delenv("CUTE_KERNELS_DISABLE_PDL", raising=False)

    def trigger(splits=1, x_tokens=0, a_fp4=True, permuted=True):
        cls = NVFP4GemmSwigluQuantSmallMSplitK if splits > 1 else NVFP4GemmSwigluQuantSmallM
        kernel = cls(4608, 7168, a_fp4, 2, 1, 4, 1, x_tokens, splits, permuted)
        assert kernel.pdl and kernel.ctas_cap == 0
        return kernel.pdl_trigger

    assert trigger() == "start"
    assert trigger(x_tokens=1) == trigger(permuted=False) == trigger(a_fp4=False) == "loop"
    assert trigger(splits=2) == "loop"


def test_one_staged_token_takes_pdl(monkeypatch):
    """One staged token of NVFP4 activations on permuted words launches with PDL, first weights
    before the wait: on a K split triggered at the start (5120x17408 (2, 1, 4, 1, 3)), at the
    start where a warp has at most three steps (5120x6144), else over one wave held to the
    wave's CTAs per SM, triggered at the start (9216x7168 (1, 1, 4, 1), 4096x7168 (1, 1, 8,
    1); without that rule, 8 warps after the main loop and four not at all). More than one
    wave of four warps on whole K (36864x7168), packed words, bf16 activations on the register
    path, two staged tokens and row groups do not (one staged bf16 token: ``ONE_TOKEN_W4A16``)."""
    import cutlass

    monkeypatch.delenv("CUTE_KERNELS_DISABLE_PDL", raising=False)

    def kernel(n, k, rt, warps, splits=1, x_tokens=1, a_fp4=True, permuted=True, groups=1):
        return NVFP4GemmSmallM(n, k, a_fp4, cutlass.BFloat16, rt, 1, warps, 1, x_tokens,
                               splits, permuted, groups)

    split = kernel(5120, 17408, 2, 4, splits=3)
    assert split.pdl and split.pdl_load_early and split.pdl_trigger == "start"
    assert split.ctas_cap == 0
    assert kernel(7168, 2048, 1, 8).pdl_trigger == "start"  # one step a warp (short K)
    three = kernel(5120, 6144, 1, 8)  # three steps a warp: not held to its wave either
    assert three.pdl_trigger == "start" and three.ctas_cap == 0
    assert not kernel(36864, 7168, 1, 4).pdl  # 18 CTAs an SM
    # one wave (``ONE_WAVE_STAGED``): held to the wave's CTAs per SM, trigger at the start
    for n, warps, cap in ((4096, 8, 2), (9216, 4, 5)):
        wave = kernel(n, 7168, 1, warps)
        assert wave.pdl and wave.pdl_load_early and wave.pdl_trigger == "start"
        assert wave.ctas_cap == cap
    monkeypatch.setattr(NVFP4GemmSmallM, "ONE_WAVE_STAGED", False)
    eight = kernel(4096, 7168, 1, 8)
    assert eight.pdl and eight.pdl_load_early and eight.pdl_trigger == "loop"
    assert eight.ctas_cap == 0 and not kernel(9216, 7168, 1, 4).pdl
    assert not kernel(5120, 17408, 2, 4, splits=3, permuted=False).pdl
    assert not kernel(4096, 7168, 1, 8, a_fp4=False, x_tokens=0).pdl
    assert not kernel(5120, 17408, 2, 4, splits=3, x_tokens=2).pdl
    assert not kernel(9216, 7168, 1, 8, groups=2).pdl


def test_one_token_w4a16_switch(monkeypatch):
    """``ONE_TOKEN_W4A16`` (on since session 73): one staged bf16 token takes the launches one
    staged NVFP4 token takes (the K split, 8 warps, the one wave); two tokens and the register
    path of bf16 activations keep theirs; off, none of them is a PDL launch."""
    import cutlass

    monkeypatch.delenv("CUTE_KERNELS_DISABLE_PDL", raising=False)

    def launch(n, k, rt, warps, splits=1, x_tokens=1, a_fp4=False):
        kernel = NVFP4GemmSmallM(n, k, a_fp4, cutlass.BFloat16, rt, 1, warps, 1, x_tokens,
                                 splits, True)
        return kernel.pdl, kernel.pdl_load_early, kernel.pdl_trigger, kernel.ctas_cap

    shapes = ((5120, 17408, 2, 4, 3), (4096, 7168, 1, 8), (9216, 7168, 1, 4))
    assert NVFP4GemmSmallM.ONE_TOKEN_W4A16
    monkeypatch.setattr(NVFP4GemmSmallM, "ONE_TOKEN_W4A16", False)
    assert not any(launch(*s)[0] for s in shapes)
    monkeypatch.setattr(NVFP4GemmSmallM, "ONE_TOKEN_W4A16", True)
    assert all(launch(*s) == launch(*s, a_fp4=True) for s in shapes)
    assert launch(9216, 7168, 1, 4) == (True, True, "start", 5)
    assert not launch(5120, 17408, 2, 4, 3, x_tokens=2)[0]
    assert not launch(9216, 7168, 1, 4, x_tokens=0)[0]


@pytest.mark.gpu
@pytest.mark.parametrize("n,k,config", [(9216, 7168, (1, 1, 4, 1)), (4096, 7168, (1, 1, 8, 1))])
def test_one_token_w4a16_switch_matches_fp64_reference(n, k, config):
    """The launches ``ONE_TOKEN_W4A16`` (on) gives one bf16 token (PDL, first weights before
    the wait, the wave's CTAs an SM) against the fp64 reference."""
    assert NVFP4GemmSmallM.ONE_TOKEN_W4A16
    a, _, b, b_sf, alpha = _inputs(1, n, k, False)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    got = poisoned(1, n, dtype=torch.float32)
    alpha_t = torch.full((1,), alpha, device="cuda")
    compile_nvfp4_gemm_small_m(n, k, "torch.bfloat16", "torch.float32", *config, 1,
                               True)(a.view(torch.int32), b_sf.view(-1),
                                     prepare_nvfp4_weight(b).view(torch.int32), b_sf.view(-1),
                                     alpha_t, got)
    assert not got.isnan().any() and _rel_err(got, want) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("n,k", [(9216, 7168), (5120, 17408)])  # one wave; a K split
def test_one_token_w4a16_switch_chain_in_a_graph(monkeypatch, n, k):
    """With ``ONE_TOKEN_W4A16`` (on), one-token W4A16 GEMMs chained through the public route
    ([N, K] then [K, N], each output the next one's input), replayed from a graph with no gaps
    between kernels: bit for bit the eager run (a launch that read its activations before the
    PDL wait would not be), and the [N, K] GEMM against the fp64 reference. (5120x17408's [N,
    K] GEMM takes the balanced launch on 132 SMs, ``PUBLIC_W4A16_BALANCED_CTAS_PER_SM``.)"""
    monkeypatch.delenv("CUTE_KERNELS_DISABLE_PDL", raising=False)
    assert NVFP4GemmSmallM.ONE_TOKEN_W4A16
    config = small_m_config(1, n, k, False, True)
    kernel = NVFP4GemmSmallM(n, k, False, None, *config[:4], 1, config_splits(config), True)
    assert kernel.pdl and kernel.pdl_load_early
    there, back = _permuted_one(n, k), _permuted_one(k, n)
    x = torch.randn(1, k, device="cuda").to(torch.bfloat16)
    y = nvfp4_gemm(x, None, *there, 1 / (100 * k**0.5), out_dtype=torch.float32)
    want = reference.nvfp4_gemm_fp64(x, None, *there, 1 / (100 * k**0.5))
    assert _rel_err(y, want) <= 1e-3

    def chain(outs):
        y = x
        for out in outs:
            z = nvfp4_gemm(y, None, *there, 1 / (100 * k**0.5), out=out)
            y = nvfp4_gemm(z, None, *back, 1 / (100 * n**0.5))

    check_graph_replays_chain(chain, 3, (1, n))


@pytest.mark.gpu
@pytest.mark.parametrize("n,k,m", [(5120, 17408, 1), (4096, 7168, 1), (9216, 7168, 1),
                                   (9216, 7168, 4), (5120, 17408, 4)])
def test_small_m_pdl_chain_in_a_graph_matches_eager(n, k, m, monkeypatch):
    """W4A4 chains through launches the small-M rules give PDL, one token (5120x17408: K
    split, triggered at the start; 4096x7168 and its transpose: 8 warps; 9216x7168: one wave
    held to its CTAs per SM, triggered at the start) and four (one wave of register-path CTAs,
    triggered at the start; 5120x17408 split in two), each GEMM's output quantized for the next
    ([N, K] then [K, N]), replayed from a graph with no gaps between kernels: bit for bit the
    eager run, and the [N, K] GEMM against the fp64 reference."""
    from cute_kernels import nvfp4_quantize

    monkeypatch.delenv("CUTE_KERNELS_DISABLE_PDL", raising=False)
    there, back = (_permuted_one(n, k), _permuted_one(k, n))
    config = small_m_config(m, n, k, True, True)
    kernel = NVFP4GemmSmallM(n, k, True, None, *config[:4], int(m == 1), config_splits(config),
                             True)
    assert kernel.pdl and kernel.pdl_load_early
    g = 448 * 6 / 16  # activations of unit spread; the alphas keep them there
    x = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    q, q_sf = nvfp4_quantize(x, g)
    y = nvfp4_gemm(q, q_sf, *there, 1 / (g * 100 * k**0.5))
    want = reference.nvfp4_gemm_fp64(q, q_sf, *there, 1 / (g * 100 * k**0.5))
    assert _rel_err(y, want) <= 1e-2

    def chain(outs):
        y = x
        for out in outs:
            q, q_sf = nvfp4_quantize(y, g)
            z = nvfp4_gemm(q, q_sf, *there, 1 / (g * 100 * k**0.5), out=out)
            q, q_sf = nvfp4_quantize(z, g)
            y = nvfp4_gemm(q, q_sf, *back, 1 / (g * 100 * n**0.5))

    check_graph_replays_chain(chain, 3, (m, n))


def _permuted_one(n, k):
    """A random [N, K] NVFP4 weight (global scale 100) as (permuted words, scales)."""
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    return prepare_nvfp4_weight(b), b_sf


def test_config_compile_tail():
    """The compile functions' trailing arguments: none for standard weights without row
    groups, so their cache keys keep the short form."""
    from cute_kernels.nvfp4_gemm_small_m_split import config_compile_tail

    assert config_compile_tail((2, 1, 4, 1), False) == ()
    assert config_compile_tail((2, 1, 4, 1, 3), True) == (True,)
    assert config_compile_tail((1, 1, 8, 1, 1, 2), True) == (True, 2)
    assert config_compile_tail((1, 1, 8, 1, 1, 2), False) == (False, 2)


def test_staged_scale_table_rule():
    """Staged configs take the scale table with two row tiles, or one row tile over one wave
    with at least four steps a warp; not one row tile over many waves or one step a warp."""
    import cutlass

    def table(n, k, rt, warps=4, splits=1):
        return NVFP4GemmSmallM(n, k, True, cutlass.BFloat16, rt, 1, warps, 1, 1,
                               splits).scale_table

    assert table(9216, 7168, 1) and table(36864, 7168, 2) and table(5120, 17408, 2, splits=3)
    assert not table(36864, 7168, 1) and not table(34816, 5120, 1)  # 17 / 16 CTAs per SM
    assert not table(7168, 2048, 1, warps=8)  # one step a warp


def _every_config_case(config, m, n, k, permuted_too=False):
    """``launch_small_m`` with ``config`` against the fp64 reference, NVFP4 and bf16
    activations, on packed bytes (and, ``permuted_too``, the same weights as permuted words)."""
    for fp4_a in (True, False):
        a, a_sf, b, b_sf, alpha = _inputs(m, n, k, fp4_a)
        want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
        for weights in (b, prepare_nvfp4_weight(b)) if permuted_too else (b,):
            out = poisoned(m, n, dtype=torch.float32)
            launch_small_m(a, a_sf, weights, b_sf, torch.full((1,), alpha, device="cuda"), out,
                           config)
            assert _rel_err(out, want) <= 1e-3, (config, fp4_a, weights.dtype)


def test_row_offsets_fold_only_where_every_row_block_is_whole():
    import cutlass

    from cute_kernels.swiglu_quant_small_m import NVFP4GemmSwigluQuantSmallM

    def offsets(cls, n, k, rt):
        return cls(n, k, True, cutlass.BFloat16, row_tiles=rt).row_offsets()

    half_k = 1024 // 2
    assert offsets(NVFP4GemmSmallM, 384, 1024, 2) == (
        (0, 0), (8 * half_k, 128), (16 * half_k, 256), (24 * half_k, 384))
    assert offsets(NVFP4GemmSmallM, 336, 1088, 1) == ((0, 0), (8 * 544, 128))
    assert offsets(NVFP4GemmSmallM, 336, 1088, 2) is None  # a last row block past N
    # rows 32 apart sit 4 bytes apart in the 128x4 scale atom
    assert offsets(NVFP4GemmSmallM, 7168, 2048, 4)[4:6] == ((32 * 1024, 4), (40 * 1024, 132))
    # the fused kernel's up and gate tiles are 64 rows apart
    fused = NVFP4GemmSwigluQuantSmallM(192, 576, True, 2).row_offsets()  # 2I = 384
    assert fused == ((0, 0), (8 * 288, 128), (64 * 288, 8), (72 * 288, 136))
    # row groups: a warp's offsets from its own first row, the same in every group
    grouped = lambda cls, n, k: cls(n, k, True, cutlass.BFloat16, row_tiles=1, warps=8,
                                    row_groups=2).row_offsets()
    assert grouped(NVFP4GemmSmallM, 384, 1024) == ((0, 0), (8 * half_k, 128))
    assert grouped(NVFP4GemmSmallM, 336, 1088) is None  # the last block's second group
    fused = NVFP4GemmSwigluQuantSmallM(192, 576, True, 1, warps=8, row_groups=2)
    assert fused.row_offsets() == ((0, 0), (8 * 288, 128))
    assert [fused.warp_tile_row(b, r, 0) for b in range(5) for r in range(2)] == [
        0, 64, 16, 80, 32, 96, 48, 112, 128, 192]  # up tile, its gate tile 64 rows on


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 13])
def test_split_k_small_m_is_deterministic_and_replays(m):
    """The in-launch split-K reduction: repeated launches and CUDA-graph replays give the
    same bits (the partials are added in split order, the arrival counters reset)."""
    n, k = 336, 2048
    a, a_sf, b, b_sf, alpha = _inputs(m, n, k, True)
    alpha_t = torch.full((1,), alpha, device="cuda")
    config = (1, 2, 4, 1, 4) if m > 8 else (2, 1, 4, 1, 4)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    outs = []
    for _ in range(3):
        out = poisoned(m, n, dtype=torch.float32)
        launch_small_m(a, a_sf, b, b_sf, alpha_t, out, config)
        outs.append(out)
    assert _rel_err(outs[0], want) <= 1e-3
    assert all(torch.equal(o, outs[0]) for o in outs[1:])
    graph_out = poisoned(m, n, dtype=torch.float32)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        launch_small_m(a, a_sf, b, b_sf, alpha_t, graph_out, config)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        launch_small_m(a, a_sf, b, b_sf, alpha_t, graph_out, config)
    for _ in range(2):
        graph_out.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        assert torch.equal(graph_out, outs[0])


@pytest.mark.gpu
def test_alpha_tensor_equals_float_and_zero_rows():
    a, a_sf, b, b_sf, alpha = _inputs(5, 512, 1024, True)
    t = torch.full((1,), alpha, device="cuda")
    torch.testing.assert_close(nvfp4_gemm(a, a_sf, b, b_sf, t), nvfp4_gemm(a, a_sf, b, b_sf, alpha),
                               rtol=0, atol=0)
    a0 = torch.empty(0, 512, dtype=torch.uint8, device="cuda")
    a0_sf = torch.empty(0, 64, dtype=torch.float8_e4m3fn, device="cuda")
    assert nvfp4_gemm(a0, a0_sf, b, b_sf, alpha).shape == (0, 512)


@pytest.mark.gpu
def test_non_default_stream_and_graph_capture():
    a, a_sf, b, b_sf, alpha = _inputs(3, 640, 2048, True)
    want = nvfp4_gemm(a, a_sf, b, b_sf, alpha, out_dtype=torch.float32)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        got = nvfp4_gemm(a, a_sf, b, b_sf, alpha, out_dtype=torch.float32)
    s.synchronize()
    torch.testing.assert_close(got, want, rtol=0, atol=0)
    out = poisoned(3, 640, dtype=torch.float32)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        nvfp4_gemm(a, a_sf, b, b_sf, alpha, out_dtype=torch.float32, out=out)
    graph.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(out, want, rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 5])
def test_dependent_chain_in_a_graph_matches_eager(m):
    """Each GEMM of a chain reads the one before it (W4A16, its bf16 output as the next input),
    replayed from a graph with no gaps between kernels. A kernel that read its activations
    before the previous one finished would differ: at K = 2048 and these M every warp has one
    K step, so with ``NVFP4GemmSmallM.PDL_SHORT_K_STEPS`` >= 1 the plain GEMM launches with
    PDL, triggered at the CTA start, its weights loaded before the wait."""
    k = 2048
    weights = [_quantized(k, k, "cuda")[:2] for _ in range(4)]
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    check_graph_replays_chain(w4a16_chain(weights, x, 1e-3), len(weights), (m, k))


# ------------------------------------------------------------------------- bad input (CPU)

def _cpu_inputs(m=4, n=64, k=128):
    a, a_sf, b, b_sf, _ = _inputs(m, n, k, True, device="cpu")
    return a, a_sf, b, b_sf


def test_rejects_cpu_tensors():
    a, a_sf, b, b_sf = _cpu_inputs()
    with pytest.raises(ValueError, match="b: expected a CUDA tensor"):
        nvfp4_gemm(a, a_sf, b, b_sf, 1.0)


@pytest.mark.parametrize("case,exc,match", [
    ("b_dtype", TypeError, "b: expected dtype torch.uint8"),
    ("k_tail", ValueError, "b: K = 80 must be a positive multiple of 64"),
    ("k_mismatch", ValueError, "a: expected packed"),
    ("b_sf_small", ValueError, "b_sf: expected the swizzled scale buffer"),
    ("a_sf_dtype", TypeError, "a_sf: expected dtype torch.float8_e4m3fn"),
    ("a_fp16", TypeError, "a: expected dtype torch.bfloat16"),
    ("out_dtype", TypeError, "out_dtype"),
])
def test_bad_input_raises_before_launch(case, exc, match):
    a, a_sf, b, b_sf = _cpu_inputs()
    kwargs = {}
    if case == "b_dtype":
        b = b.view(torch.int8)
    elif case == "k_tail":
        b = b[:, :40].contiguous()
    elif case == "k_mismatch":
        a = a[:, :32].contiguous()
    elif case == "b_sf_small":
        b_sf = b_sf.reshape(-1)[:-4]
    elif case == "a_sf_dtype":
        a_sf = a_sf.view(torch.uint8)
    elif case == "a_fp16":
        a, a_sf = torch.zeros(4, 128, dtype=torch.float16), None
    elif case == "out_dtype":
        kwargs["out_dtype"] = torch.int32
    with pytest.raises(exc, match=match):
        nvfp4_gemm(a, a_sf, b, b_sf, 1.0, **kwargs)
