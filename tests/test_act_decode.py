"""NVFP4 activations decoded inside the wgmma kernels (``act_decode``, off the public routes):
compile-only on the CPU for the plain and the fused kernel at two shapes each; on the GPU the
outputs bit for bit those of the same launch on the activations' decode pass
(``bf16_activations``), M tails past the 128- / 256-token tile and the 128-row scale blocks."""

import pytest
import torch

from cute_kernels import (prepare_gate_up_weight, prepare_nvfp4_weight, reference,
                          restore_gate_up_weight)
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m, launch_large_m
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
from cute_kernels.testing import compile_only
from tests.conftest import poisoned

P = int(KOrder.PERMUTED)


@pytest.mark.parametrize("n,k,tile_m,splits,stream_k,warp_rows", [
    (1024, 7168, 256, 1, False, 0), (4096, 5120, 128, 1, False, 0),   # whole tiles
    (1024, 7168, 128, 2, True, 0), (9216, 7168, 128, 1, True, 0),     # split-K, stream-K
    (1024, 7168, 256, 1, False, 2), (1024, 7168, 128, 2, True, 1)])   # with the decode warps
def test_act_decode_compiles_for_sm90a(monkeypatch, n, k, tile_m, splits, stream_k, warp_rows):
    kernels = _compiled_kernels(monkeypatch)
    assert compile_only(compile_nvfp4_gemm_large_m, n, k, "torch.bfloat16", tile_m, 0, 132,
                        splits, stream_k, False, P, 1, 1, False, False, False, True, warp_rows)
    assert [(x.act_decode, x.stream_k, x.act_warp_rows) for x in kernels] == [
        (True, stream_k, warp_rows)]


@pytest.mark.parametrize("i,k,tile_m,splits,stream_k,quantizers,warp_rows", [
    (512, 7168, 256, 1, False, 3, 0), (2048, 5120, 128, 1, False, 0, 0),
    (512, 7168, 128, 2, True, 0, 0), (512, 7168, 256, 1, True, 3, 0),
    (512, 7168, 256, 1, False, 0, 1)])
def test_fused_act_decode_compiles_for_sm90a(monkeypatch, i, k, tile_m, splits, stream_k,
                                             quantizers, warp_rows):
    kernels = _compiled_kernels(monkeypatch)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, i, k, tile_m, 0, 132,
                        stream_k, False, P, 1, 1, quantizers, splits, False, False, False, True,
                        warp_rows)
    assert [(x.act_decode, x.stream_k, x.quantizers, x.act_warp_rows) for x in kernels] == [
        (True, stream_k, quantizers, warp_rows)]


def _compiled_kernels(monkeypatch) -> list:
    """The kernel objects ``cute.compile`` is given from now on (what a compile function
    built, not only that something compiled)."""
    import cutlass.cute as cute

    seen, compile_ = [], cute.compile

    def recording(kernel, *args, **kwargs):
        seen.append(kernel)
        return compile_(kernel, *args, **kwargs)

    monkeypatch.setattr(cute, "compile", recording)
    return seen


def test_act_decode_limits():
    """Two CTAs an SM, two K groups, narrow tiles and packed-byte weights are not taken."""
    import cutlass

    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM

    for bad in ({"ctas_per_sm": 2}, {"tile_m": 64}, {"k_order": KOrder.IDENTITY},
                {"k_groups": 2}):
        options = {"tile_m": 128, "k_order": KOrder.PERMUTED, "act_decode": True} | bad
        with pytest.raises(AssertionError):
            NVFP4GemmLargeM(1024, 1024, cutlass.BFloat16, **options)


def _nvfp4(m, k):
    x = torch.randn(m, k, device="cuda") * torch.pow(10.0, torch.rand(m, 1, device="cuda") - 0.5)
    return reference.nvfp4_quantize(x.to(torch.bfloat16), 448 * 6 / x.abs().amax())


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,tile_m,ctas,options", [
    (1, 256, 1024, 128, 0, {}), (300, 384, 1536, 256, 5, {}), (1000, 1024, 7168, 256, 0, {}),
    (129, 200, 576, 128, 3, {}),
    (300, 384, 1536, 128, 5, {"stream_k": True}), (1000, 1024, 7168, 128, 0, {"splits": 2}),
    (700, 640, 1024, 128, 4, {"stream_k": True, "hybrid": True}),
    (300, 384, 1536, 256, 5, {"act_warp_rows": 1}),
    (1000, 1024, 7168, 256, 0, {"act_warp_rows": 2}),
    (300, 384, 1536, 128, 5, {"stream_k": True, "act_warp_rows": 1})])
def test_act_decode_matches_the_pass(m, n, k, tile_m, ctas, options):
    """The plain kernel: the same bits as on the pass's bf16 activations (the decode writes
    the pass's values), and within the fp64 reference's tolerance; a grid of ``ctas`` CTAs
    (0: all SMs) walks several tiles a CTA so every stage's mbarrier phases turn over;
    whole tiles, stream-K, split-K and the hybrid."""
    a, a_sf = _nvfp4(m, k)
    w, w_sf = _nvfp4(n, k)
    alpha = torch.full((1,), 0.25, device="cuda")
    words = prepare_nvfp4_weight(w)
    config = (tile_m, 0, ctas) if ctas else (tile_m, 0)
    want = poisoned(m, n, dtype=torch.bfloat16)
    launch_large_m(bf16_activations(a, a_sf, KOrder.PERMUTED), words, w_sf, alpha, want,
                   config, **{o: v for o, v in options.items() if o != "act_warp_rows"})
    got = poisoned(m, n, dtype=torch.bfloat16)
    launch_large_m(a, words, w_sf, alpha, got, config, a_sf=a_sf, **options)
    torch.cuda.synchronize()
    assert not got.isnan().any()
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))
    ref = reference.nvfp4_gemm_fp64(a, a_sf, w, w_sf, 0.25)
    assert ((got.double() - ref).norm() / ref.norm()).item() <= 1e-2


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,tile_m,ctas,options", [
    (300, 320, 832, 256, 3, {}), (1000, 512, 7168, 256, 0, {"quantizers": 3}),
    (129, 192, 1536, 128, 0, {}), (1024, 512, 7168, 128, 0, {"splits": 2}),
    (300, 320, 832, 128, 5, {"stream_k": True, "quantizers": 3}),
    (600, 512, 1536, 256, 2, {"quantizers": 0}), (1000, 512, 7168, 256, 0, {"act_warp_rows": 1}),
    (1024, 512, 7168, 128, 0, {"splits": 2, "act_warp_rows": 1})])
def test_fused_act_decode_matches_the_pass(m, i, k, tile_m, ctas, options):
    """The fused kernel (with and without quantizer warps): codes and scales, padding rows
    included, bit for bit those of the same launch on the pass's activations."""
    from layouts import sf_padded_shape
    from tests.test_nvfp4_gemm_swiglu_quant import _inputs

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    alpha_t = torch.full((1,), alpha, device="cuda")
    g_t = torch.full((1,), g_out, device="cuda")
    config = (tile_m, 0, ctas) if ctas else (tile_m, 0)
    mp, kbp = sf_padded_shape(m, i // 16)
    outs = []
    for decode in (False, True):
        out = poisoned(m, i // 2, dtype=torch.uint8)
        out_sf = poisoned(mp, kbp, dtype=torch.float8_e4m3fn)
        if decode:
            launch_fused(a, w, w_sf, alpha_t, g_t, out, out_sf, config, a_sf=a_sf, **options)
        else:
            launch_fused(bf16_activations(a, a_sf, KOrder.PERMUTED), w, w_sf, alpha_t, g_t, out,
                         out_sf, config, **{o: v for o, v in options.items()
                                            if o != "act_warp_rows"})
        outs.append((out, out_sf))
    torch.cuda.synchronize()
    assert torch.equal(outs[0][0], outs[1][0])
    assert torch.equal(outs[0][1].view(torch.uint8), outs[1][1].view(torch.uint8))


def test_public_routes_decode_only_when_turned_on(monkeypatch):
    """``decodes_in_kernel``: off by default; on, only NVFP4 activations on permuted words in
    128- / 256-token tiles of one K group, one CTA an SM."""
    from cute_kernels import act_decode

    assert not act_decode.decodes_in_kernel(object(), KOrder.PERMUTED, 128, {})
    monkeypatch.setattr(act_decode, "ROUTES_DECODE", True)
    assert act_decode.decodes_in_kernel(object(), KOrder.PERMUTED, 256, {"splits": 2})
    for a_sf, order, tile_m, options in ((None, KOrder.PERMUTED, 128, {}),
                                         (object(), KOrder.PAIRS, 128, {}),
                                         (object(), KOrder.PERMUTED, 64, {}),
                                         (object(), KOrder.PERMUTED, 128, {"ctas_per_sm": 2}),
                                         (object(), KOrder.PERMUTED, 128, {"k_groups": 2}),
                                         (object(), KOrder.PERMUTED, 128, {"wg_k_split": True})):
        assert not act_decode.decodes_in_kernel(a_sf, order, tile_m, options)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k", [(1000, 1024, 7168), (4096, 1024, 7168), (300, 4096, 1536)])
def test_public_gemm_routes_with_decode_match(monkeypatch, m, n, k):
    """``nvfp4_gemm`` with ``ROUTES_DECODE`` on: the same bits as with it off."""
    from cute_kernels import act_decode, nvfp4_gemm

    a, a_sf = _nvfp4(m, k)
    w, w_sf = _nvfp4(n, k)
    words = prepare_nvfp4_weight(w)
    want = nvfp4_gemm(a, a_sf, words, w_sf, 0.25)
    monkeypatch.setattr(act_decode, "ROUTES_DECODE", True)
    got = nvfp4_gemm(a, a_sf, words, w_sf, 0.25)
    torch.cuda.synchronize()
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k", [(1024, 512, 7168), (4096, 512, 7168), (1000, 2048, 1536)])
def test_public_fused_routes_with_decode_match(monkeypatch, m, i, k):
    """``nvfp4_gemm_swiglu_quant`` with ``ROUTES_DECODE`` on: the same codes and scales."""
    from cute_kernels import act_decode, nvfp4_gemm_swiglu_quant
    from tests.test_nvfp4_gemm_swiglu_quant import _inputs

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    want = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    monkeypatch.setattr(act_decode, "ROUTES_DECODE", True)
    got = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    torch.cuda.synchronize()
    assert torch.equal(got[0], want[0])
    assert torch.equal(got[1].view(torch.uint8), want[1].view(torch.uint8))
