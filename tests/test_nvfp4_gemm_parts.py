"""The small-M GEMM and the fused gate_up kernel as a head and a tail launch
(``launch_small_m_parts``, an experiment for grids whose last wave is mostly empty):
compile-only on CPU; on a GPU the pair against the references and in dependent chains
replayed from a graph (the tail launches with PDL while the head still runs, and must not
complete before it)."""

import pytest
import torch

from layouts import sf_padded_shape

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.nvfp4_gemm import launch_small_m_parts
from cute_kernels.nvfp4_gemm_small_m import compile_nvfp4_gemm_small_m
from cute_kernels.nvfp4_gemm_small_m_split import compile_nvfp4_gemm_small_m_split
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_small_m
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m_parts as launch_fused_parts
from cute_kernels.testing import compile_only
from tests.conftest import check_graph_replays_chain, poisoned
from tests.test_nvfp4_gemm import _inputs, _quantized, _rel_err
from tests.test_nvfp4_gemm_swiglu_quant import _check_against_reference
from tests.test_nvfp4_gemm_swiglu_quant import _inputs as _fused_inputs

# (head config, head row blocks, tail config) for N = 1000: a 640-row head, a 360-row tail
# (its last block past N)
PARTS = [((2, 1, 4, 1), 20, (1, 1, 4, 1)), ((2, 1, 4, 1), 20, (2, 1, 4, 1, 2)),
         ((1, 1, 8, 1), 40, (1, 1, 4, 1, 3))]


@pytest.mark.parametrize("config,row_part", [((2, 1, 4, 1), (0, 1056, "head")),
                                             ((1, 1, 4, 1), (2112, 192, "tail"))])
def test_parts_compile_for_sm90a(config, row_part):
    assert compile_only(compile_nvfp4_gemm_small_m, 36864, 7168, "fp4", "torch.bfloat16",
                        *config, 1, row_part)


def test_split_tail_compiles_for_sm90a():
    assert compile_only(compile_nvfp4_gemm_small_m_split, 36864, 7168, "fp4", "torch.bfloat16",
                        2, 1, 4, 1, 1, 4, (1056, 96, "tail"))


@pytest.mark.parametrize("splits,row_part", [(1, (0, 1056, "head")), (4, (1056, 96, "tail"))])
def test_fused_parts_compile_for_sm90a(splits, row_part):
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_small_m, 18432, 7168, "fp4", 2, 1, 4,
                        1, 1, splits, row_part)


@pytest.mark.parametrize("head,blocks,tail,match", [
    ((2, 1, 4, 1, 2), 20, (1, 1, 4, 1), "unsplit head"),
    ((2, 1, 4, 1), 40, (1, 1, 4, 1), "fewer than 1000 rows"),
    ((1, 1, 4, 1), 1, (2, 1, 4, 1), "multiple of the tail's 32-row blocks"),
])
def test_parts_reject_bad_splits(head, blocks, tail, match):
    b = torch.zeros(1000, 288, dtype=torch.uint8)
    with pytest.raises(ValueError, match=match):
        launch_small_m_parts(None, None, b, None, None, None, head, blocks, tail)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 5, 13])
@pytest.mark.parametrize("parts", PARTS)
@pytest.mark.parametrize("fp4_a", [True, False])
def test_parts_match_fp64_reference(m, parts, fp4_a):
    a, a_sf, b, b_sf, alpha = _inputs(m, 1000, 576, fp4_a)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    out = poisoned(m, 1000, dtype=torch.float32)
    alpha_t = torch.full((1,), alpha, device="cuda")
    launch_small_m_parts(a, a_sf, b, b_sf, alpha_t, out, *parts)
    assert not out.isnan().any()
    assert _rel_err(out, want) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("parts", [((2, 1, 4, 1), 40, (1, 1, 4, 1)),
                                   ((2, 1, 4, 1), 40, (2, 1, 4, 1, 2))])
def test_parts_chain_in_a_graph_matches_eager(parts):
    """Each head + tail pair reads the pair before it (W4A16, bf16 output as the next input),
    replayed from a graph with no gaps: the next head starts only when the tail before it has
    completed, which must imply the head before it has too."""
    k = 2048
    weights = [_quantized(k, k, "cuda")[:2] for _ in range(4)]
    x = (torch.randn(3, k, device="cuda") * 3).to(torch.bfloat16)
    alpha = torch.full((1,), 1e-3, device="cuda")

    def chain(outs):
        y = x
        for (b, b_sf), out in zip(weights, outs):
            launch_small_m_parts(y, None, b, b_sf, alpha, out, *parts)
            y = out

    check_graph_replays_chain(chain, len(weights), (3, k))


# fused, I = 320 (2I = 640 weight rows, 20 row blocks of 32), K = 1088 (5 steps)
FUSED_PARTS = [((2, 1, 4, 1), 12, (2, 1, 8, 1)), ((2, 1, 4, 1), 12, (2, 1, 4, 1, 4)),
               ((4, 1, 4, 1), 6, (2, 1, 4, 1))]


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 13])
@pytest.mark.parametrize("parts", FUSED_PARTS)
@pytest.mark.parametrize("fp4_a", [True, False])
def test_fused_parts_match_reference(m, parts, fp4_a):
    i, k = 320, 1088
    a, a_sf, w, w_sf, alpha, g_out = _fused_inputs(m, i, k, fp4_a)
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
    launch_fused_parts(a, a_sf, w, w_sf, torch.full((1,), alpha, device="cuda"),
                       torch.full((1,), g_out, device="cuda"), out, out_sf, *parts)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
def test_fused_parts_chain_in_a_graph_matches_eager():
    """Three MLP steps, the fused gate_up as a head + tail pair (PDL on both sides of the
    head), then the down ``nvfp4_gemm`` feeding the next step, replayed from a graph."""
    i, k, m = 512, 1024, 3
    x, _, w, w_sf, alpha, g_out = _fused_inputs(m, i, k, False)
    down = [reference.nvfp4_quantize(torch.randn(k, i, device="cuda", dtype=torch.bfloat16),
                                     100.0) for _ in range(3)]
    alpha_t = torch.full((1,), alpha, device="cuda")
    g_t = torch.full((1,), g_out, device="cuda")
    mp, kbp = sf_padded_shape(m, i // 16)

    def chain(outs):
        y = x
        for (d, d_sf), out in zip(down, outs):
            q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
            sf = torch.empty(mp, kbp, device="cuda", dtype=torch.float8_e4m3fn)
            launch_fused_parts(y, None, w, w_sf, alpha_t, g_t, q, sf, (2, 1, 4, 1), 20,
                               (2, 1, 4, 1, 2))
            y = nvfp4_gemm(q, sf, d, d_sf, 1e-3, out=out)

    check_graph_replays_chain(chain, len(down), (m, k))
