"""``KOrder.BF16``: the weights through ``bf16_weights``' pass (bf16 ``e2m1 * scale * 2^-63``,
K as it is) and the wgmma kernels with both operands in shared memory; the fused op takes it
for bf16 activations (W4A16) on small weights at many tokens (``bf16_weights_route``). The
pass bit-exact against the reference, compile-only kernels, and on a GPU the plain kernel and
the public fused op against the fp64 reference on every launch form and at token tails."""

import importlib

import pytest
import torch

from cute_kernels import (prepare_gate_up_weight, prepare_nvfp4_weight, reference,
                          restore_gate_up_weight)
from cute_kernels.bf16_weights import bf16_weights, compile_bf16_weights
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m, launch_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import (bf16_weights_route, large_m_launch, large_m_route,
                                                  route_launch)
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import compile_only
from tests.conftest import poisoned

fused_module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
BF16 = int(KOrder.BF16)
ALL_ROUTES = ("whole", "stream_k", "pieces")


@pytest.mark.parametrize("permuted", [True, False])
def test_pass_compiles(permuted):
    compile_only(compile_bf16_weights, 7168, permuted)


@pytest.mark.parametrize("tail", [
    (128, 0, 132, 1, False, False, BF16),             # whole tiles
    (256, 0, 132, 1, True, False, BF16),              # stream-K
    (128, 0, 132, 2, True, False, BF16),              # two scattered K pieces
    (128, 0, 132, 1, False, False, BF16, 1, 1, False, True),  # a cluster pair
])
def test_plain_kernel_compiles(tail):
    compile_only(compile_nvfp4_gemm_large_m, 1024, 7168, "torch.bfloat16", *tail)


@pytest.mark.parametrize("tail", [
    (128, 0, 132, False, False, BF16),                          # whole tiles
    (128, 0, 132, True, False, BF16, 1, 1, 0, 4),               # four scattered pieces
    (128, 0, 132, False, False, BF16, 1, 1, 0, 1, False, True),        # a cluster pair
    (128, 0, 132, False, False, BF16, 1, 1, 0, 1, False, True, True),  # with the PDL trigger
    (256, 0, 132, True, False, BF16, 1, 1, 0),                  # stream-K
])
def test_fused_kernel_compiles(tail):
    compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 512, 7168, *tail)


def test_route():
    """W4A16 only, from ``BF16_WEIGHTS_MIN_M`` tokens, on small weights, on whole 128-token
    tiles of one CTA an SM."""
    for m in (1536, 1800, 2048):
        route, plan = large_m_route(m, 512, 7168)
        config, _, options = route_launch(route, plan, m, 1024, 7168)
        assert bf16_weights_route(m, 1024, 7168, False, route, config[0], options), m
        assert not bf16_weights_route(m, 1024, 7168, True, route, config[0], options)
        assert not bf16_weights_route(m, 4096, 7168, False, route, config[0], options)
        assert all(large_m_launch(m, 1024, 7168, False, dtype).bf16_weights
                   for dtype in (torch.uint8, torch.int32))
    for m in (256, 512, 768, 1000, 1024, 1100, 2500, 3072, 4096):  # pieces; stream-K; 256
        route, plan = large_m_route(m, 512, 7168)
        config, _, options = route_launch(route, plan, m, 1024, 7168)
        assert not bf16_weights_route(m, 1024, 7168, False, route, config[0], options), m
    assert not bf16_weights_route(2048, 1024, 7168, False, "whole", 128, {"ctas_per_sm": 2})


def _weights(n, k, permuted):
    packed, sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda") * 5, 100.0)
    return (prepare_nvfp4_weight(packed) if permuted else packed), sf, packed


@pytest.mark.gpu
@pytest.mark.parametrize("permuted", [True, False])
@pytest.mark.parametrize("n,k", [(1024, 7168), (200, 576)])
def test_pass_matches_reference(permuted, n, k):
    """Bit-exact: the reference's ``e2m1 * scale`` over 2^63, in bf16."""
    w, sf, packed = _weights(n, k, permuted)
    want = reference.nvfp4_dequantize(packed, sf, 2.0**63, n, k, out_dtype=torch.bfloat16)
    got = bf16_weights(w, sf)
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 129, 1000])
@pytest.mark.parametrize("launch", [{}, {"splits": 2}, {"splits": 4}, {"stream_k": True},
                                    {"pair_pieces": True}])
def test_plain_kernel_matches_reference(m, launch):
    """The plain kernel on bf16 weights: whole tiles, scattered pieces, stream-K, a pair."""
    n, k = 384, 1024
    w, sf, packed = _weights(n, k, True)
    a = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    alpha = torch.full((1,), 0.75, device="cuda")
    want = reference.nvfp4_gemm_fp64(a, None, packed, sf, 0.75)
    out = poisoned(m, n, dtype=torch.float32)
    for _ in range(2):  # a piece counter left set would corrupt the next call
        launch_large_m(a, bf16_weights(w, sf), sf, alpha, out, (128, 0), **launch)
        torch.cuda.synchronize()
        assert not out.isnan().any()
        err = ((out.double() - want).norm() / want.norm()).item()
        assert err <= 1e-3, err


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1536, 1800, 2048])
@pytest.mark.parametrize("permute", [True, False])
def test_public_fused_matches_reference(m, permute):
    """The public op on bf16 activations where it takes the bf16 weights (1024x7168: whole
    tiles; 1800: a token tail)."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 512, 7168, False)
    if permute:
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    assert large_m_launch(m, 1024, 7168, False, w.dtype).bf16_weights
    for _ in range(2):
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [129, 300, 512, 1000, 1100])
def test_forced_route_matches_reference(monkeypatch, m):
    """The bf16 weights on the K pieces and stream-K too (the probe's "_bf16" form): 64-token
    tiles in four pieces, 128-token ones in four, a cluster pair, stream-K; tails."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    monkeypatch.setattr(fused_module, "BF16_WEIGHTS_MIN_M", 0)
    monkeypatch.setattr(fused_module, "BF16_WEIGHTS_ROUTES", ALL_ROUTES)
    monkeypatch.setattr(fused_module, "BF16_WEIGHTS_TILE_M", None)
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 512, 7168, False)
    _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)


# ``NVFP4GemmLargeM.UNIFORM_WEIGHT_DESC`` (probe switch, off): the bf16 weights' wgmma
# descriptors from a warp-uniform thread of the warpgroup, so the main loop's wgmmas take no
# R2UR (``tools/wgmma_uniform_check.py``). Every thread of a warpgroup has the same descriptors:
# the same bits.
def test_uniform_weight_desc_compiles(monkeypatch):
    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM

    monkeypatch.setattr(NVFP4GemmLargeM, "UNIFORM_WEIGHT_DESC", True)
    compile_only(compile_nvfp4_gemm_large_m, 1024, 7168, "torch.bfloat16", 128, 0, 132, 1,
                 False, False, BF16)


@pytest.mark.gpu
@pytest.mark.parametrize("m,launch", [(129, {}), (1000, {"splits": 4}), (300, {"stream_k": True}),
                                      (129, {"pair_pieces": True})])
def test_uniform_weight_desc_gives_the_same_bits(monkeypatch, m, launch):
    from tests.test_nvfp4_gemm_large_m import switch_keeps_bits

    switch_keeps_bits(monkeypatch, "UNIFORM_WEIGHT_DESC", (False, True), m, (128, 0), launch,
                      KOrder.BF16, shape=(384, 1024))
