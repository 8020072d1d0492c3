"""The asynchronous stream-K fix-up (``NVFP4GemmLargeM.ASYNC_FIXUP``, ``stream_k``): which
launches take it and how many gathered pieces fit (CPU), that it compiles for sm_90a, and on a
GPU the same bits as ``stream_k_fixup`` (the same sum in the same order), launch after launch
(the counters reset)."""

import cutlass
import pytest
import torch

from cute_kernels import reference
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)
from cute_kernels.stream_k import max_pieces
from cute_kernels.swiglu_quant_large_m import (NVFP4GemmSwigluQuantLargeM,
                                               compile_nvfp4_gemm_swiglu_quant_large_m)
from cute_kernels.testing import compile_only
from tests.conftest import poisoned


def _pieces_by_tile(tiles: int, k_tiles: int, ctas: int) -> list[int]:
    """The pieces of each tile when ``ctas`` CTAs take even ranges of the units, by brute
    force."""
    units = tiles * k_tiles
    starts = [c * units // ctas for c in range(ctas)] + [units]
    counts = [0] * tiles
    for c in range(ctas):
        if starts[c] < starts[c + 1]:
            for t in range(starts[c] // k_tiles, (starts[c + 1] - 1) // k_tiles + 1):
                counts[t] += 1
    return counts


@pytest.mark.parametrize("row_tiles,k_tiles,sms", [
    (72, 112, 132), (40, 136, 132), (56, 144, 132), (56, 288, 132), (2, 64, 20), (10, 13, 6),
    (1, 7, 132), (3, 5, 4)])
def test_max_pieces_bounds_every_token_count(row_tiles, k_tiles, sms):
    """``max_pieces`` bounds the pieces of every tile, for one token tile (the shortest
    ranges) and for more."""
    bound = max_pieces(row_tiles, k_tiles, sms)
    for tok_tiles in (1, 2, 3, 7):
        tiles = row_tiles * tok_tiles
        counts = _pieces_by_tile(tiles, k_tiles, min(tiles * k_tiles, sms))
        assert max(counts) <= bound, tok_tiles


def _plain(monkeypatch, on: bool, n=9216, k=7168, tile_m=16, **options):
    monkeypatch.setattr(NVFP4GemmLargeM, "ASYNC_FIXUP", on)
    options = {"stream_k": True} | options
    return NVFP4GemmLargeM(n, k, cutlass.BFloat16, tile_m, 0, 132, **options)


def test_which_launches_take_it(monkeypatch):
    """Stream-K at one CTA an SM with a free warp (64-row tiles too); not split-K, two CTAs an
    SM, whole tiles or the fused kernel's three quantizer warps. Slots: a tile's other pieces,
    all of them beside the stages or none (issue 5's points: 9216x7168 cuts a tile into 3
    pieces at most, 5120x17408 into 5, 7168x18432 into 4)."""
    assert _plain(monkeypatch, False).fixup_slots == 0
    assert _plain(monkeypatch, True).fixup_slots == 2
    assert _plain(monkeypatch, True, 5120, 17408, k_groups=2).fixup_slots == 4
    assert _plain(monkeypatch, True, 7168, 18432, 64).fixup_slots == 3
    assert _plain(monkeypatch, True, stream_k=False).fixup_slots == 0
    assert _plain(monkeypatch, True, 4096, 7168, 64, splits=4).fixup_slots == 0
    assert _plain(monkeypatch, True, ctas_per_sm=2).fixup_slots == 0
    # 64-row tiles: warpgroup 0's 128 threads hold the pieces
    assert _plain(monkeypatch, True, k_groups=2, wg_k_split=True).fixup_slots > 0
    # 5 pieces of 64 tokens a tile at most, room for 3: none (measured slower)
    assert _plain(monkeypatch, True, 5120, 17408, 64).fixup_slots == 0
    assert _plain(monkeypatch, True, 256, 8192, 64).fixup_slots == 0  # 128 pieces on 132 CTAs
    fused = [NVFP4GemmSwigluQuantLargeM(4608, 7168, 64, 0, 132, stream_k=True,
                                        quantizers=q).fixup_slots for q in (0, 2, 3)]
    assert fused[0] > 0 and fused[1] > 0 and fused[2] == 0


@pytest.mark.parametrize("n,k,tile_m,k_groups", [(9216, 7168, 16, 1), (5120, 17408, 32, 2)])
def test_compiles_for_sm90a(monkeypatch, n, k, tile_m, k_groups):
    monkeypatch.setattr(NVFP4GemmLargeM, "ASYNC_FIXUP", True)
    assert compile_only(compile_nvfp4_gemm_large_m, n, k, "torch.bfloat16", tile_m, 0, 132, 1,
                        True, False, 1, 1, k_groups)


def test_fused_compiles_for_sm90a(monkeypatch):
    monkeypatch.setattr(NVFP4GemmLargeM, "ASYNC_FIXUP", True)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 4608, 7168, 64, 0, 132, True,
                        False, 1, 1, 1, 2)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config,options", [
    (13, 1160, 1664, (16, 0, 6), {}),                # 10 tiles of 26 k-tiles on 6 CTAs
    (29, 1160, 1664, (32, 0, 6), {"k_groups": 2}),   # two K groups a stage
    (13, 256, 4096, (16, 0, 20), {}),                # 10 pieces a tile, most whole ranges
    (29, 1160, 4096, (32, 0, 30), {"k_groups": 2}),  # ranges of 10.7 k-tiles, tiles of 32
    (200, 1160, 832, (16, 0, 9), {"hybrid": True}),  # whole tiles, then 13 stream-K tiles
    (129, 1160, 832, (64, 0, 11), {}),               # pieces cross tiles, M tail
    (13, 1160, 1664, (16, 0, 12), {"k_groups": 2, "wg_k_split": True}),  # 64-row tiles
    (13, 256, 4096, (16, 0, 20), {"k_groups": 2, "wg_k_split": True}),   # 6 pieces a tile
])
def test_same_bits_as_the_fixup_it_replaces(monkeypatch, m, n, k, config, options):
    """Against ``stream_k_fixup`` bit for bit and the fp64 reference, three launches in a row
    (a counter left set would hang or corrupt the next)."""
    from tests.test_nvfp4_gemm_large_m import _inputs, _rel_err

    a, b, b_sf, alpha = _inputs(m, n, k)
    alpha_t = torch.full((1,), alpha, device="cuda")
    outs = []
    kernel = NVFP4GemmLargeM(n, k, cutlass.Float32, config[0], config[1], config[2],
                             stream_k=True, **options)
    assert kernel.async_fixup  # (ASYNC_FIXUP, the default)
    for on in (False, True, True, True):
        monkeypatch.setattr(NVFP4GemmLargeM, "ASYNC_FIXUP", on)
        out = poisoned(m, n, dtype=torch.float32)
        launch_large_m(a, b, b_sf, alpha_t, out, config, stream_k=True,
                       compile_fn=compile_nvfp4_gemm_large_m.uncached, **options)
        torch.cuda.synchronize()
        assert not out.isnan().any()
        outs.append(out)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    assert _rel_err(outs[1], want) <= 1e-3
    for out in outs[1:]:
        torch.testing.assert_close(out, outs[0], rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("config,quantizers", [((16, 0, 5), 0), ((64, 0, 7), 2),
                                               ((16, 0, 40), 0)])
def test_fused_same_bits(monkeypatch, config, quantizers):
    """The fused kernel's stream-K launch: the same codes and scales either way."""
    from tests.test_nvfp4_gemm_swiglu_quant import _inputs, _run_large_m

    a, a_sf, w, w_sf, alpha, g_out = _inputs(45, 320, 832, True)
    outs = []
    for on in (False, True, True):
        monkeypatch.setattr(NVFP4GemmLargeM, "ASYNC_FIXUP", on)
        outs.append(_run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, True,
                                 quantizers=quantizers,
                                 compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m.uncached))
    for out, out_sf in outs[1:]:
        assert torch.equal(out, outs[0][0])
        assert torch.equal(out_sf.view(torch.uint8), outs[0][1].view(torch.uint8))


def test_which_launches_take_late_pieces(monkeypatch):
    """``LATE_PIECES`` rides on the asynchronous fix-up, on tiles of up to 64 tokens, not on
    64-row tiles (``wg_k_split``)."""
    monkeypatch.setattr(NVFP4GemmLargeM, "LATE_PIECES", True)
    assert _plain(monkeypatch, True).late_pieces
    assert _plain(monkeypatch, True, 7168, 18432, 64).late_pieces
    assert not _plain(monkeypatch, False).late_pieces
    assert not _plain(monkeypatch, True, k_groups=2, wg_k_split=True).late_pieces
    assert not _plain(monkeypatch, True, 4096, 7168, 128, splits=2).late_pieces
    monkeypatch.setattr(NVFP4GemmLargeM, "LATE_PIECES", False)
    assert not _plain(monkeypatch, True).late_pieces


def test_late_pieces_compile_for_sm90a(monkeypatch):
    monkeypatch.setattr(NVFP4GemmLargeM, "LATE_PIECES", True)
    assert compile_only(compile_nvfp4_gemm_large_m.uncached, 9216, 7168, "torch.bfloat16", 16,
                        0, 132, 1, True, False, 1, 1, 2)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config,options", [
    (13, 1160, 1664, (16, 0, 6), {}),                # 3 pieces a tile, middle ones whole
    (13, 256, 4096, (16, 0, 20), {}),                # 10 pieces a tile, most whole ranges
    (29, 1160, 4096, (32, 0, 30), {"k_groups": 2}),  # ranges of 10.7 k-tiles, tiles of 32
    (200, 1160, 832, (16, 0, 9), {"hybrid": True}),  # whole tiles, then 13 stream-K tiles
    (129, 1160, 832, (64, 0, 11), {}),               # pieces cross tiles, M tail
])
def test_late_pieces_same_bits(monkeypatch, m, n, k, config, options):
    """``LATE_PIECES`` against the default asynchronous fix-up bit for bit and the fp64
    reference, three launches in a row, the late region left zero after each."""
    import functools

    import cute_kernels.nvfp4_gemm_large_m as large_m
    from tests.test_nvfp4_gemm_large_m import _inputs, _rel_err

    a, b, b_sf, alpha = _inputs(m, n, k)
    alpha_t = torch.full((1,), alpha, device="cuda")
    monkeypatch.setattr(NVFP4GemmLargeM, "LATE_PIECES", True)
    assert NVFP4GemmLargeM(n, k, cutlass.Float32, config[0], config[1], config[2],
                           stream_k=True, **options).late_pieces
    counters = []
    plain = large_m.stream_k_buffers

    def late_buffers(*args):
        work, count = plain(*args, late=True)
        counters.append(count)
        return work, count

    outs = []
    for late in (False, True, True, True):
        monkeypatch.setattr(NVFP4GemmLargeM, "LATE_PIECES", late)
        out = poisoned(m, n, dtype=torch.float32)
        launch = functools.partial(launch_large_m, a, b, b_sf, alpha_t, out, config,
                                   stream_k=True, compile_fn=compile_nvfp4_gemm_large_m.uncached,
                                   **options)
        if late:
            with monkeypatch.context() as patch:
                patch.setattr(large_m, "stream_k_buffers", late_buffers)
                launch()
        else:
            launch()
        torch.cuda.synchronize()
        assert not out.isnan().any()
        outs.append(out)
    assert counters and all((c == 0).all() for c in counters)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    assert _rel_err(outs[1], want) <= 1e-3
    for out in outs[1:]:
        torch.testing.assert_close(out, outs[0], rtol=0, atol=0)
