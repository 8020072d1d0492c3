"""The plain wgmma kernel's PDL trigger after the first main loop (``NVFP4GemmLargeM``'s
``pdl_trigger``, ``large_m_plans.pdl_trigger_pays``): where ``nvfp4_gemm`` takes it, that it
compiles, and on a GPU that chains of dependent GEMMs on those launches, replayed from a graph
with no gaps between kernels, match the eager run bit for bit."""

import pytest
import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.k_order import KOrder
from cute_kernels.large_m_plans import PDL_TRIGGER_MAX_M, plain_plan
from cute_kernels.nvfp4_gemm import planned_launch
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, compile_nvfp4_gemm_large_m, compile_tail
from cute_kernels.testing import compile_only
from tests.conftest import check_graph_replays_chain, w4a16_chain


def _triggers(m, n, k):
    return planned_launch(m, n, k, plain_plan(m, n, k), wg_k_split=True)[2]["pdl_trigger"]


@pytest.mark.parametrize("m,n,k,want", [
    (32, 7168, 2048, True), (64, 7168, 2048, True), (256, 7168, 2048, True),  # one tile a CTA
    (256, 4096, 7168, True),      # 64-row tiles (wg_k_split), one a CTA
    (64, 9216, 7168, True), (128, 9216, 7168, True), (16, 7168, 18432, True),  # stream-K
    (64, 4096, 7168, False),      # two K pieces in a cluster pair
    (128, 4096, 7168, False),     # two K pieces through global memory
    (256, 5120, 17408, False),    # stream-K over two token tiles
    (512, 4096, 7168, False), (1024, 7168, 2048, False),  # past PDL_TRIGGER_MAX_M
    (128, 36864, 7168, False),    # several tiles a CTA
])
def test_trigger_where_measured_faster(m, n, k, want):
    assert _triggers(m, n, k) == want


def test_no_trigger_past_max_m():
    for n, k in ((7168, 2048), (4096, 7168), (9216, 7168), (7168, 18432), (2048, 2048)):
        for m in (PDL_TRIGGER_MAX_M + 1, 1024, 4096):
            assert not _triggers(m, n, k), (m, n, k)


@pytest.mark.parametrize("stream_k,tail", [
    (False, compile_tail(KOrder.PERMUTED, 1, 2, True, pdl_trigger=True)),
    (True, compile_tail(KOrder.PERMUTED, 1, 1, pdl_trigger=True)),
])
def test_trigger_compiles_for_sm90a(stream_k, tail):
    assert tail[-1] is True
    assert compile_only(compile_nvfp4_gemm_large_m, 7168, 2048, "torch.bfloat16", 64, 0,
                        H200_SMS, 1, stream_k, False, *tail)


@pytest.mark.gpu
@pytest.mark.parametrize("m,k", [(256, 2048), (256, 4096), (64, 7168)])
def test_triggered_chain_in_a_graph_matches_eager(m, k):
    """W4A16 chains, each GEMM's output the next one's input, on launches that trigger:
    whole 64-token tiles (2048), 64-row tiles with the warpgroups on K (4096), stream-K
    (7168). A kernel that read its activations before the one before it had finished would
    differ from the eager run."""
    assert _triggers(m, k, k)
    quantized = [reference.nvfp4_quantize(torch.randn(k, k, device="cuda"), 100.0)
                 for _ in range(3)]
    weights = [(prepare_nvfp4_weight(b), b_sf) for b, b_sf in quantized]
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    check_graph_replays_chain(w4a16_chain(weights, x, 1e-3), len(weights), (m, k))
