"""NVFP4 GEMM, large-M (TMA + wgmma) kernel: compile-only on CPU; on a GPU, against the fp64
reference (W4A16: bf16 activations, NVFP4 weights)."""

import pytest
import torch

from cute_kernels import reference
from cute_kernels.nvfp4_gemm_large_m import (compile_nvfp4_gemm_large_m, large_m_config,
                                             launch_large_m)
from cute_kernels.testing import compile_only
from tests.conftest import poisoned


@pytest.mark.parametrize("n,k,out_dtype,tile_m", [
    (4096, 7168, "torch.bfloat16", 256),   # DeepSeek expert gate_up
    (7168, 2048, "torch.float32", 128),    # DeepSeek expert down
    (200, 576, "torch.float16", 64),       # N tail, odd number of k-tiles
])
def test_large_m_compiles_for_sm90a(n, k, out_dtype, tile_m):
    assert compile_only(compile_nvfp4_gemm_large_m, n, k, out_dtype, tile_m)


def _inputs(m, n, k, device="cuda"):
    """Realistic NVFP4 weights (row magnitudes over three decades, ModelOpt global scale) and
    bf16 activations."""
    w = torch.randn(n, k, device=device) * torch.pow(10.0, torch.rand(n, 1, device=device) * 3 - 2)
    b, b_sf = reference.nvfp4_quantize(w.to(torch.bfloat16), 448 * 6 / w.abs().amax())
    a = (torch.randn(m, k, device=device) * 3).to(torch.bfloat16)
    alpha = float(torch.rand(()) * 2 + 0.1)
    return a, b, b_sf, alpha


def _rel_err(got, want):
    return ((got.double() - want).norm() / want.norm().clamp_min(1e-300)).item()


def _run(a, b, b_sf, alpha, out_dtype, config):
    out = poisoned(a.shape[0], b.shape[0], dtype=out_dtype)
    launch_large_m(a, b, b_sf, torch.full((1,), alpha, device="cuda"), out, config)
    torch.cuda.synchronize()
    return out


@pytest.mark.gpu
@pytest.mark.parametrize("m", [129, 1000, 4096])
@pytest.mark.parametrize("n,k", [(256, 512), (200, 576), (1000, 64), (4096, 7168), (7168, 2048)])
def test_matches_fp64_reference(m, n, k):
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    config = large_m_config(m, n, k)
    got = _run(a, b, b_sf, alpha, torch.float32, config)
    assert not got.isnan().any()
    assert _rel_err(got, want) <= 1e-3
    # bf16 / fp16 output: one rounding of the same fp32 result (fp16 overflows to inf past
    # 65504 exactly where the rounding of the fp32 result does).
    for dtype, rtol, atol in ((torch.bfloat16, 2**-8, 1e-30), (torch.float16, 2**-10, 2**-24)):
        got16 = _run(a, b, b_sf, alpha, dtype, config)
        torch.testing.assert_close(got16.float(), got.to(dtype).float(), rtol=rtol, atol=atol)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(64, 0), (128, 0), (256, 0), (128, 2, 7), (256, 3, 5),
                                    (64, 2, 1)])
def test_every_tile_config_agrees(config):
    # 13 k-tiles (odd, more than the stages), N and M tails; with a shrunk grid each CTA walks
    # many tiles, so pipeline phases carry across tiles.
    m, n, k = 777, 1160, 832
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    got = _run(a, b, b_sf, alpha, torch.float32, config)
    assert not got.isnan().any()
    assert _rel_err(got, want) <= 1e-3, config


@pytest.mark.gpu
def test_persistent_grid_smaller_than_tiles_and_graph_capture():
    # 1024 output tiles on ~132 CTAs; replayed in a CUDA graph on a side stream.
    m, n, k = 4096, 4096, 1024
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = _run(a, b, b_sf, alpha, torch.float32, (128, 0))
    out = poisoned(m, n, dtype=torch.float32)
    alpha_t = torch.full((1,), alpha, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        launch_large_m(a, b, b_sf, alpha_t, out, (128, 0))
    graph.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(out, want, rtol=0, atol=0)
