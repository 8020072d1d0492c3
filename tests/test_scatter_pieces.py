"""The scattered K pieces (``NVFP4GemmLargeM.SCATTER_PIECES``, ``stream_k.scatter_fixup``):
which split-K launches take it (CPU), that it compiles for sm_90a, and on a GPU the same bits
as ``stream_k_fixup`` (the same sum in the same order) for the plain and the fused kernel,
launch after launch (the counters reset), and where the grid is shorter than tiles x splits
(the launch then falls back to ``stream_k_fixup``). Then the same shares between the two K
halves of a cluster pair on 128-row tiles (``pair_pieces`` without ``wg_k_split``)."""

import functools

import cutlass
import pytest
import torch

from cute_kernels import reference
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)
from cute_kernels.swiglu_quant_large_m import (NVFP4GemmSwigluQuantLargeM,
                                               compile_nvfp4_gemm_swiglu_quant_large_m)
from cute_kernels.swiglu_quant_swapped import NVFP4GemmSwigluQuantSwapped
from cute_kernels.testing import compile_only
from tests.conftest import poisoned


@functools.lru_cache(maxsize=None)
def _compiled(compile_fn, scatter: bool, *args):
    """``compile_fn``'s kernel with ``SCATTER_PIECES`` as given, compiled once per test run
    (the default cache keys by the arguments alone, not by the switch)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(NVFP4GemmLargeM, "SCATTER_PIECES", scatter)
        return compile_fn.uncached(*args)


def _plain(monkeypatch, on=True, n=1024, k=7168, tile_m=128, splits=4,
           out_dtype=cutlass.BFloat16, **options):
    monkeypatch.setattr(NVFP4GemmLargeM, "SCATTER_PIECES", on)
    return NVFP4GemmLargeM(n, k, out_dtype, tile_m, 0, 132, splits, stream_k=True, **options)


def test_which_launches_take_it(monkeypatch):
    """K splits into 2 or 4 token shares of whole 8-token column groups (and whole staged
    buffers of the plain epilogue: 32 tokens of bf16, 16 of fp32) at one CTA an SM; not on
    64-row tiles, not with the fused kernel's quantizer warps, not on the swapped kernel."""
    assert _plain(monkeypatch).scatter and _plain(monkeypatch, splits=2).scatter
    assert not _plain(monkeypatch, False).scatter
    assert not _plain(monkeypatch, splits=1).scatter
    assert not _plain(monkeypatch, splits=3).scatter  # 16 column groups
    assert not _plain(monkeypatch, tile_m=64).scatter  # 16-token shares of 32-token buffers
    assert _plain(monkeypatch, tile_m=64, out_dtype=cutlass.Float32).scatter
    assert not _plain(monkeypatch, k_groups=2, wg_k_split=True).scatter
    fused = [NVFP4GemmSwigluQuantLargeM(512, 7168, 128, 0, 132, stream_k=True, quantizers=q,
                                        splits=4).scatter for q in (0, 3)]
    assert fused == [True, False]
    assert not NVFP4GemmSwigluQuantSwapped(512, 7168, splits=2).scatter


def test_compiles_for_sm90a():
    assert compile_only(compile_nvfp4_gemm_large_m, 1160, 1024, "torch.float32", 64, 0, 132,
                        4, True)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 320, 1024, 128, 0, 132, True,
                        False, 1, 1, 1, 0, 2)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config,splits,out_dtype", [
    (500, 1024, 7168, (128, 0), 4, torch.bfloat16),  # 1024x7168 at ~512 tokens, M tail
    (1000, 1024, 7168, (128, 0), 2, torch.float32),  # ~1024 tokens in two pieces
    (7, 1160, 1024, (64, 0), 4, torch.float32),      # N tail, 16-token shares
    (129, 1000, 1024, (128, 0), 2, torch.bfloat16),  # M and N tails
    (500, 1000, 2048, (128, 0, 20), 4, torch.bfloat16),  # 128 pieces on 20 CTAs: fallback
    (1000, 1024, 7168, (256, 0), 4, torch.bfloat16),  # 256-token tiles, 64-token shares
])
def test_same_bits_as_the_fixup_it_replaces(monkeypatch, m, n, k, config, splits, out_dtype):
    """Against ``stream_k_fixup`` bit for bit and the fp64 reference, three launches in a row
    (a counter left set would hang or corrupt the next)."""
    assert _plain(monkeypatch, True, n, k, config[0], splits,
                  cutlass.Float32 if out_dtype == torch.float32 else cutlass.BFloat16).scatter

    def launch(operands, out, scatter):
        launch_large_m(*operands, out, config, splits, compile_fn=functools.partial(
            _compiled, compile_nvfp4_gemm_large_m, scatter))
    _plain_launches_agree(m, n, k, out_dtype, launch, (False, True, True, True))


def _plain_launches_agree(m, n, k, out_dtype, launch, forms):
    """``launch((a, b, b_sf, alpha), out, form)`` for each of ``forms`` on the same operands
    (poisoned outputs): no NaN, the second within the fp64 reference's tolerance, and all bit
    for bit as the first."""
    from tests.test_nvfp4_gemm_large_m import _inputs, _rel_err

    a, b, b_sf, alpha = _inputs(m, n, k)
    operands = (a, b, b_sf, torch.full((1,), alpha, device="cuda"))
    outs = []
    for form in forms:
        out = poisoned(m, n, dtype=out_dtype)
        launch(operands, out, form)
        torch.cuda.synchronize()
        assert not out.isnan().any()
        outs.append(out)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    assert _rel_err(outs[1], want) <= (1e-3 if out_dtype == torch.float32 else 4e-3)
    for out in outs[1:]:
        torch.testing.assert_close(out, outs[0], rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,config,splits", [
    (500, 512, 7168, (128, 0), 4),      # 1024x7168 at ~512 tokens: the "pieces" route
    (1000, 512, 7168, (128, 0), 2),     # ~1024 tokens in two pieces
    (45, 192, 1024, (64, 0), 4),        # 16-token shares, the last tile's scale padding
    (300, 320, 1024, (128, 0, 7), 2),   # 30 pieces on 7 CTAs: fallback
    (1000, 512, 7168, (256, 0), 4),     # 256-token tiles in four pieces
])
def test_fused_same_bits(m, i, k, config, splits):
    """The fused kernel's split-K launch: the same codes and scales either way, and against
    the reference quantization."""
    from tests.test_nvfp4_gemm_swiglu_quant import (_check_against_reference, _inputs,
                                                     _run_large_m)

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    outs = []
    for on in (False, True, True):
        compile_fn = functools.partial(_compiled, compile_nvfp4_gemm_swiglu_quant_large_m, on)
        outs.append(_run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, True, splits=splits,
                                 quantizers=0, compile_fn=compile_fn))
    _check_against_reference(*outs[1], a, a_sf, w, w_sf, alpha, g_out)
    for out, out_sf in outs[1:]:
        assert torch.equal(out, outs[0][0])
        assert torch.equal(out_sf.view(torch.uint8), outs[0][1].view(torch.uint8))


def test_pairs_on_128_row_tiles_need_token_shares():
    """``pair_pieces`` on 128-row tiles: where the epilogue takes two token shares (not the
    fused kernel's quantizer warps, not 16-token shares of the plain bf16 buffers)."""
    assert NVFP4GemmLargeM(1024, 7168, cutlass.BFloat16, 128, pair_pieces=True).recv_words
    with pytest.raises(AssertionError):
        NVFP4GemmLargeM(1024, 7168, cutlass.BFloat16, 32, pair_pieces=True)
    with pytest.raises(AssertionError):
        NVFP4GemmSwigluQuantLargeM(512, 7168, 128, quantizers=3, pair_pieces=True)


def test_fused_pairs_receive_in_the_epilogue_scratch():
    """The fused pair's received sums share the silu(gate) buffer (``recv_in_epilogue``): it
    keeps the split-K launch's stages; the plain kernel's staging is too small to hold them."""
    pair = NVFP4GemmSwigluQuantLargeM(512, 7168, 128, k_order=KOrder.PERMUTED, pair_pieces=True)
    pieces = NVFP4GemmSwigluQuantLargeM(512, 7168, 128, k_order=KOrder.PERMUTED, splits=2,
                                        stream_k=True)
    assert pair.recv_in_epilogue and pair.stages == pieces.stages == 8
    assert not NVFP4GemmLargeM(1024, 7168, cutlass.BFloat16, 128,
                               pair_pieces=True).recv_in_epilogue


def test_pairs_on_128_row_tiles_compile_for_sm90a():
    assert compile_only(compile_nvfp4_gemm_large_m, 1160, 1024, "torch.float32", 64, 0, 132,
                        1, False, False, 1, 1, 1, False, True)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 320, 1024, 128, 0, 132, False,
                        False, 1, 1, 1, 0, 1, False, True)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config,out_dtype", [
    (1000, 1024, 7168, (128, 0), torch.bfloat16),  # 1024x7168 at ~1024 tokens: 64 pairs
    (129, 1000, 1024, (128, 0), torch.float32),    # M and N tails
    (7, 1160, 1024, (64, 0), torch.float32),       # 32-token shares
])
def test_pairs_same_bits_as_two_pieces(m, n, k, config, out_dtype):
    """A cluster pair's K halves (``pair_pieces``) against the same halves as two split-K
    pieces: bit for bit, and against the fp64 reference."""
    def launch(operands, out, options):
        launch_large_m(*operands, out, config, **options)
    _plain_launches_agree(m, n, k, out_dtype, launch,
                          ({"splits": 2}, {"pair_pieces": True}, {"pair_pieces": True}))


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,config", [
    (1000, 512, 7168, (128, 0)),  # 1024x7168 at ~1024 tokens
    (45, 192, 1024, (64, 0)),     # 32-token shares, the last tile's scale padding
    (300, 320, 1024, (128, 0)),   # M tail
])
def test_fused_pairs_same_bits_as_two_pieces(m, i, k, config):
    from tests.test_nvfp4_gemm_swiglu_quant import (_check_against_reference, _inputs,
                                                     _run_large_m)

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    want = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, True, splits=2, quantizers=0)
    got = [_run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, pair_pieces=True)
           for _ in range(2)]
    _check_against_reference(*got[0], a, a_sf, w, w_sf, alpha, g_out)
    for out, out_sf in got:
        assert torch.equal(out, want[0])
        assert torch.equal(out_sf.view(torch.uint8), want[1].view(torch.uint8))
