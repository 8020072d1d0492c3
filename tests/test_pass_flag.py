"""The activation pass's flag (``pass_flags``, ``nvfp4_gemm.PASS_FLAG``): the pass kernels and
the wgmma GEMM that polls the flag compile for sm_90a in each launch form; on a GPU the flagged
route gives the default route's bits (both kinds of tokens, whole tiles, stream-K, 64-row
tiles, cluster pairs, the weights-first launch, tails), several calls in a row and a replayed
graph chain leave every flag lowered, and a GEMM launch that fails after its pass lowers the
flag the pass raised."""

import importlib

import pytest
import torch

from cute_kernels import nvfp4_quantize, prepare_nvfp4_weight, reference
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import compile_nvfp4_dequant_permuted_k_flagged
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, compile_nvfp4_gemm_large_m, compile_tail
from cute_kernels.reorder_k import compile_reorder_k_flagged
from cute_kernels.testing import compile_only
from tests.conftest import check_graph_replays_chain, poisoned, w4a16_chain


@pytest.mark.parametrize("compile_fn", [compile_reorder_k_flagged,
                                        compile_nvfp4_dequant_permuted_k_flagged])
@pytest.mark.parametrize("k,launch", [(2048, ()), (7168, (1, 2))])
def test_flagged_passes_compile_for_sm90a(compile_fn, k, launch):
    assert compile_only(compile_fn, k, *launch)


@pytest.mark.parametrize("stream_k,tile_m,tail", [
    (False, 128, compile_tail(KOrder.PERMUTED, 1, 1, pdl_trigger=True, pass_flag=True)),
    (False, 64, compile_tail(KOrder.PERMUTED, 1, 2, True, True, True, pass_flag=True)),
    (True, 16, compile_tail(KOrder.PERMUTED, 1, 2, pdl_trigger=True, pass_flag=True)),
    (True, 16, compile_tail(KOrder.PERMUTED, 2, 2, pdl_trigger=True, pass_flag=True)),
])
def test_flagged_gemm_compiles_for_sm90a(stream_k, tile_m, tail):
    """Whole tiles, 64-row tiles in cluster pairs, stream-K (its asynchronous fix-up warp
    waits too) and the weights-first launch (two CTAs an SM)."""
    assert len(tail) == 8 and tail[-1] is True
    assert compile_only(compile_nvfp4_gemm_large_m, 2048, 7168, "torch.bfloat16", tile_m, 0,
                        H200_SMS, 1, stream_k, False, *tail)


def test_compile_tail_keeps_the_short_forms_without_the_flag():
    assert compile_tail(KOrder.IDENTITY, 1, 1) == ()
    assert compile_tail(KOrder.PERMUTED, 1, 1, pass_flag=True) == (
        int(KOrder.PERMUTED), 1, 1, False, False, False, 1, True)


@pytest.fixture
def flagged(monkeypatch):
    """The ``nvfp4_gemm`` module with ``PASS_FLAG`` on (the package's name is the function)."""
    gemm = importlib.import_module("cute_kernels.nvfp4_gemm")
    monkeypatch.setattr(gemm, "PASS_FLAG", True)
    return gemm


def _flags_lowered():
    from cute_kernels import pass_flags

    torch.cuda.synchronize()
    return all(not buf.any() for buf, _ in pass_flags._eager.values())


def _tokens(m, k, fp4):
    """NVFP4 tokens (packed, scales) or bf16 ones (scales None)."""
    x = (torch.randn(m, k, device="cuda") * 2).to(torch.bfloat16)
    return nvfp4_quantize(x, 448 * 6 / (4 * x.abs().amax().item())) if fp4 else (x, None)


# (M, N, K): whole 128- and 64-token tiles, 64-row tiles in cluster pairs, 16-token stream-K
# at one CTA an SM (the fix-up warp waits too) and at two (weights first), tails
POINTS = [(256, 7168, 2048), (256, 2048, 2048), (64, 4096, 7168), (16, 9216, 7168),
          (12, 34816, 5120), (129, 2048, 2048), (37, 4096, 7168), (13, 9216, 7168)]


@pytest.mark.gpu
@pytest.mark.parametrize("fp4", [True, False])
@pytest.mark.parametrize("m,n,k", POINTS)
def test_flagged_route_gives_the_default_bits(flagged, fp4, m, n, k):
    """Three flagged calls in a row against the default route, bit for bit; the first against
    the fp64 reference; every flag lowered after."""
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda"), 100.0)
    words = prepare_nvfp4_weight(b)
    a, a_sf = _tokens(m, k, fp4)
    alpha = 1 / (100.0 * k ** 0.5)
    if flagged.small_m_regime(m, n, k, fp4, True):
        pytest.skip("the small-M kernel takes this point: no pass")
    flagged.PASS_FLAG = False
    want = flagged.nvfp4_gemm(a, a_sf, words, b_sf, alpha, torch.float32)
    flagged.PASS_FLAG = True
    for _ in range(3):
        got = flagged.nvfp4_gemm(a, a_sf, words, b_sf, alpha, torch.float32,
                                 out=poisoned(m, n, dtype=torch.float32))
        torch.testing.assert_close(got, want, rtol=0, atol=0)
    ref = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    assert (got.double() - ref).norm() / ref.norm() <= 1e-3
    assert _flags_lowered()


@pytest.mark.gpu
def test_consecutive_calls_take_the_two_flags_in_turn(flagged):
    from cute_kernels.pass_flags import FLAG_WORDS, pass_flag

    device = torch.device("cuda")
    first, second, third = (pass_flag(device) for _ in range(3))
    assert first.data_ptr() != second.data_ptr() == second.data_ptr()
    assert third.data_ptr() == first.data_ptr() and first.numel() == FLAG_WORDS
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        assert pass_flag(device).data_ptr() not in (first.data_ptr(), second.data_ptr())


@pytest.mark.gpu
@pytest.mark.parametrize("m,k", [(256, 2048), (64, 7168), (16, 7168)])
def test_flagged_w4a16_chain_in_a_graph_matches_eager(flagged, m, k):
    """W4A16 chains, each GEMM's output the next one's input (each call's reordering copy
    raises the flag its GEMM polls, five calls: the flags' turns wrap), replayed from a graph
    three times: bit for bit the eager run."""
    weights = [(prepare_nvfp4_weight(b), b_sf) for b, b_sf in (
        reference.nvfp4_quantize(torch.randn(k, k, device="cuda"), 100.0) for _ in range(5))]
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    check_graph_replays_chain(w4a16_chain(weights, x, 1 / (100.0 * k ** 0.5)), 5, (m, k))
    assert _flags_lowered()


@pytest.mark.gpu
@pytest.mark.parametrize("m,k", [(16, 7168), (64, 4096)])
def test_flagged_w4a4_chain_in_a_graph_matches_eager(flagged, m, k):
    """NVFP4 chains: each output quantized for the next GEMM, whose dequantization pass raises
    the flag; replayed from a graph, bit for bit the eager run."""
    weights = [(prepare_nvfp4_weight(b), b_sf) for b, b_sf in (
        reference.nvfp4_quantize(torch.randn(k, k, device="cuda"), 100.0) for _ in range(5))]
    x = (torch.randn(m, k, device="cuda") * 2).to(torch.bfloat16)
    g = 448 * 6 / (4 * x.abs().amax().item())
    alpha = 1 / (g * 100.0 * k ** 0.5)

    def chain(outs):
        y = x
        for (b, b_sf), out in zip(weights, outs):
            q, q_sf = nvfp4_quantize(y, g)
            y = flagged.nvfp4_gemm(q, q_sf, b, b_sf, alpha, out=out)

    check_graph_replays_chain(chain, 5, (m, k))
    assert _flags_lowered()


@pytest.mark.gpu
def test_failed_gemm_launch_lowers_the_flag(flagged, monkeypatch):
    """The pass ran and raised its flag, then the GEMM's launch raised: the flag is lowered,
    so the call that takes it next waits for its own pass (same bits as the default)."""
    m, n, k = 256, 2048, 2048
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda"), 100.0)
    words = prepare_nvfp4_weight(b)
    a, a_sf = _tokens(m, k, True)
    launch = flagged.launch_large_m

    def failing(*args, **kwargs):
        raise RuntimeError("launch failed")

    monkeypatch.setattr(flagged, "launch_large_m", failing)
    with pytest.raises(RuntimeError, match="launch failed"):
        flagged.nvfp4_gemm(a, a_sf, words, b_sf, 1e-3)
    assert _flags_lowered()
    monkeypatch.setattr(flagged, "launch_large_m", launch)
    got = [flagged.nvfp4_gemm(a, a_sf, words, b_sf, 1e-3) for _ in range(3)]
    flagged.PASS_FLAG = False
    want = flagged.nvfp4_gemm(a, a_sf, words, b_sf, 1e-3)
    assert all(torch.equal(g, want) for g in got) and _flags_lowered()
