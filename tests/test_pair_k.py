"""Stream-K ranges on clusters of two CTAs (``NVFP4GemmLargeM.PAIR_K``): which launches take
it (CPU), that it compiles for sm_90a, and on a GPU the fp64 reference's product with either
fix-up behind the pair's sum, launch after launch (the pair's barriers and the tiles'
counters are reused), bit-identical from one launch to the next."""

import cutlass
import pytest
import torch

from cute_kernels import reference
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)
from cute_kernels.swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM
from cute_kernels.testing import compile_only
from tests.conftest import poisoned


def _plain(monkeypatch, n=9216, k=7168, tile_m=16, **options):
    monkeypatch.setattr(NVFP4GemmLargeM, "PAIR_K", True)
    options = {"stream_k": True} | options
    return NVFP4GemmLargeM(n, k, cutlass.BFloat16, tile_m, 0, 132, **options)


def test_which_launches_take_it(monkeypatch):
    """Stream-K at one CTA an SM on an even number of k-tiles; not split-K, hybrid, two CTAs
    an SM, 64-row tiles, whole tiles or the fused kernel. The asynchronous fix-up's slots
    count the pieces of 66 ranges (9216x7168: 2 pieces a tile at most, 3 on 132 CTAs)."""
    kernel = _plain(monkeypatch)
    assert kernel.pair_k and kernel.per_range == 2 and kernel.tile_units == 56
    assert kernel.fixup_slots == 1
    assert _plain(monkeypatch, 5120, 17408, k_groups=2).tile_units == 68
    assert not _plain(monkeypatch, k=7104).pair_k  # 111 k-tiles
    assert not _plain(monkeypatch, stream_k=False).pair_k
    assert not _plain(monkeypatch, splits=4).pair_k
    assert not _plain(monkeypatch, tile_m=128, hybrid=True).pair_k
    assert not _plain(monkeypatch, ctas_per_sm=2).pair_k
    assert not _plain(monkeypatch, k_groups=2, wg_k_split=True).pair_k
    monkeypatch.setattr(NVFP4GemmLargeM, "PAIR_K", False)
    assert not NVFP4GemmLargeM(9216, 7168, cutlass.BFloat16, 16, 0, 132, stream_k=True).pair_k
    monkeypatch.setattr(NVFP4GemmLargeM, "PAIR_K", True)
    assert not NVFP4GemmSwigluQuantLargeM(4608, 7168, 16, 0, 132, stream_k=True).pair_k


@pytest.mark.parametrize("n,k,tile_m,k_groups", [(9216, 7168, 16, 1), (7168, 18432, 64, 1),
                                                 (5120, 17408, 32, 2)])
def test_compiles_for_sm90a(monkeypatch, n, k, tile_m, k_groups):
    monkeypatch.setattr(NVFP4GemmLargeM, "PAIR_K", True)
    assert compile_only(compile_nvfp4_gemm_large_m, n, k, "torch.bfloat16", tile_m, 0, 132, 1,
                        True, False, 1, 1, k_groups)


@pytest.mark.gpu
@pytest.mark.parametrize("async_fixup", [True, False])
@pytest.mark.parametrize("m,n,k,config,options", [
    (13, 1160, 1664, (16, 0, 12), {}),               # 10 tiles of 13 units on 6 ranges
    (29, 1160, 4096, (32, 0, 30), {"k_groups": 2}),  # two K groups a stage, 15 ranges
    (13, 256, 4096, (16, 0, 40), {}),                # 10 pieces a tile, most whole ranges
    (129, 1160, 896, (64, 0, 22), {}),               # pieces cross tiles, M tail
    (45, 200, 1024, (16, 0, 7), {}),                 # N tail, an odd CTA count (3 ranges)
])
def test_matches_the_reference(monkeypatch, async_fixup, m, n, k, config, options):
    """Against the fp64 reference, three launches in a row, the same bits each time."""
    from tests.test_nvfp4_gemm_large_m import _inputs, _rel_err

    monkeypatch.setattr(NVFP4GemmLargeM, "PAIR_K", True)
    monkeypatch.setattr(NVFP4GemmLargeM, "ASYNC_FIXUP", async_fixup)
    kernel = NVFP4GemmLargeM(n, k, cutlass.Float32, config[0], config[1], config[2],
                             stream_k=True, **options)
    assert kernel.pair_k and kernel.async_fixup == async_fixup
    a, b, b_sf, alpha = _inputs(m, n, k)
    alpha_t = torch.full((1,), alpha, device="cuda")
    outs = []
    for _ in range(3):
        out = poisoned(m, n, dtype=torch.float32)
        launch_large_m(a, b, b_sf, alpha_t, out, config, stream_k=True,
                       compile_fn=compile_nvfp4_gemm_large_m.uncached, **options)
        torch.cuda.synchronize()
        assert not out.isnan().any()
        outs.append(out)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    assert _rel_err(outs[0], want) <= 1e-3
    for out in outs[1:]:
        torch.testing.assert_close(out, outs[0], rtol=0, atol=0)
