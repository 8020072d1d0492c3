"""The public routes onto 128-token tiles in K pieces (session 56): ``nvfp4_gemm`` and the fused
op take the scattered pieces past 64 tokens where ``plain_plan`` has two or four of them (not
the 64-row tiles), and two pieces run as cluster pairs (``pieces_pair``). The plans on CPU,
compile-only, and on a GPU the public functions against the fp64 reference at every tail."""

import importlib

import pytest
import torch

from cute_kernels import (nvfp4_gemm, prepare_gate_up_weight, prepare_nvfp4_weight, reference,
                          restore_gate_up_weight)
from cute_kernels.large_m_plans import pieces_pair, plain_plan, scattered_pieces
from cute_kernels.nvfp4_gemm import planned_launch
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route, route_launch
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import compile_only
from tests.conftest import poisoned

fused_module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")


def test_two_pieces_pair_up():
    """128-token tiles in two K pieces of whole k-tiles: pairs; not four pieces, not narrower
    tiles, not K halves of an odd k-tile count."""
    assert pieces_pair(128, 2, 7168)
    assert not pieces_pair(128, 4, 7168) and not pieces_pair(64, 2, 7168)
    assert not pieces_pair(128, 2, 7168 - 192)
    assert scattered_pieces(128, 4) and scattered_pieces(128, 2)
    assert not scattered_pieces(128, 3) and not scattered_pieces(64, 4)


@pytest.mark.parametrize("m,n,k,want", [
    (100, 4096, 7168, (128, 4, False)),   # four scattered pieces, not 64-row tiles
    (200, 4096, 7168, (128, 1, True)),    # two pieces: a cluster pair
    (1000, 1024, 7168, (128, 1, True)),
    (64, 4096, 7168, (64, 1, True)),      # the 64-row tiles' pairs (``wg_k_pairs``) stay
])
def test_nvfp4_gemm_plans(m, n, k, want):
    tile_m, splits, options = planned_launch(m, n, k, plain_plan(m, n, k), wg_k_split=True)
    assert (tile_m, splits, options.get("pair_pieces", False)) == want
    assert options.get("wg_k_split", False) == (m <= 64)


def test_fused_pieces_of_two_pair_up(monkeypatch):
    monkeypatch.setattr(fused_module, "PIECES_PDL", False)
    assert large_m_route(200, 2048, 7168) == ("pieces", (128, 2))
    assert route_launch("pieces", (128, 2), 200, 4096, 7168) == ((128, 0), False,
                                                                  {"pair_pieces": True})
    assert large_m_route(100, 2048, 7168) == ("pieces", (128, 4))
    assert route_launch("pieces", (128, 4), 100, 4096, 7168) == ((128, 0), True,
                                                                  {"splits": 4})


def test_pair_with_the_pdl_trigger_compiles_for_sm90a():
    """``nvfp4_gemm``'s pairs of 128-row tiles trigger the next launch (``pdl_trigger_plan``),
    as may the fused op's (``PIECES_PDL``)."""
    assert compile_only(compile_nvfp4_gemm_large_m, 4096, 7168, "torch.bfloat16", 128, 0, 132,
                        1, False, False, 2, 1, 1, False, True, True)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 2048, 7168, 128, 0, 132,
                        False, False, 2, 1, 1, 0, 1, False, True, True)


def test_pieces_pdl_options():
    """The fused "pieces" launches of 128-token tiles take ``pdl_trigger_plan``'s trigger and
    spread pass (``PIECES_PDL``), as ``nvfp4_gemm``'s: K pieces up to 512 tokens, pairs up to
    1024."""
    assert route_launch("pieces", (128, 2), 200, 4096, 7168)[2] == {
        "pair_pieces": True, "pdl_trigger": True, "spread_pass": True}
    assert route_launch("pieces", (128, 4), 500, 1024, 7168)[2] == {
        "splits": 4, "pdl_trigger": True, "spread_pass": True}
    assert route_launch("pieces", (128, 2), 1000, 1024, 7168)[2] == {
        "pair_pieces": True, "pdl_trigger": True, "spread_pass": True}
    assert route_launch("pieces", (128, 2), 1000, 4096, 7168)[2]["pdl_trigger"] is False
    options = route_launch("pieces", (64, 4), 200, 1024, 7168)[2]
    assert options["splits"] == 4 and options["pdl_trigger"]  # 64-token pieces: PDL too
    tile_m, splits, options = planned_launch(1000, 1024, 7168, plain_plan(1000, 1024, 7168))
    assert options["pair_pieces"] and options["pdl_trigger"] and options["spread_pass"]


@pytest.mark.gpu
@pytest.mark.parametrize("m", [100, 256])
def test_fused_pdl_on_64_token_pieces_matches_reference(m):
    """The fused pieces' PDL on 64-token tiles (1024x7168 at 65..256 tokens)."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    assert route_launch("pieces", (64, 4), m, 1024, 7168)[2]["pdl_trigger"]
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 512, 7168, True)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    for _ in range(3):
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k", [(65, 4096, 7168), (128, 4096, 7168), (200, 4096, 7168),
                                   (1000, 1024, 7168), (900, 1024, 7168)])
@pytest.mark.parametrize("fp4_a", [True, False])
@pytest.mark.parametrize("permuted", [True, False])
def test_nvfp4_gemm_matches_reference(m, n, k, fp4_a, permuted):
    from tests.test_nvfp4_gemm import _inputs, _rel_err

    a, a_sf, b, b_sf, alpha = _inputs(m, n, k, fp4_a)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    for _ in range(2):  # a pair or a piece counter left set would corrupt the next call
        got = nvfp4_gemm(a, a_sf, prepare_nvfp4_weight(b) if permuted else b, b_sf, alpha,
                         out_dtype=torch.float32, out=poisoned(m, n, dtype=torch.float32))
        torch.cuda.synchronize()
        assert not got.isnan().any()
        assert _rel_err(got, want) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k", [(65, 2048, 7168), (200, 2048, 7168), (1000, 512, 7168),
                                   (960, 512, 7168),
                                   # 1024x7168's other pieces: 64- and 128-token tiles x 4
                                   (100, 512, 7168), (200, 512, 7168), (500, 512, 7168)])
@pytest.mark.parametrize("permuted", [True, False])
def test_fused_matches_reference(m, i, k, permuted):
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    if permuted:
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    for _ in range(2):  # a pair or a piece counter left set would corrupt the next call
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k", [(65, 2048, 7168), (200, 2048, 7168), (1000, 512, 7168)])
def test_fused_with_pieces_pdl_matches_reference(m, i, k):
    """``PIECES_PDL``: the trigger and the spread pass of the next call, three calls in a
    row."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    assert fused_module.PIECES_PDL
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    for _ in range(3):
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)

