"""The fused op's swapped kernel (NVFP4 activations as the register operand, the weights through
the pass): compile-only on the CPU, the route rule, and on the GPU the weight pass's bits and
the kernel against the fp64 reference."""

import importlib

import pytest
import torch

from cute_kernels import nvfp4_gemm_swiglu_quant, reference
from cute_kernels.k_order import KOrder, order_k
from cute_kernels.nvfp4_dequant import compile_nvfp4_dequant_permuted_words, nvfp4_dequantize
from cute_kernels.nvfp4_gemm_swiglu_quant import swapped_route
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight
from cute_kernels.swiglu_quant_swapped import (bf16_gate_up_weights,
                                               compile_nvfp4_gemm_swiglu_quant_swapped,
                                               launch_swapped)
from cute_kernels.testing import compile_only
from layouts import sf_padded_shape
from tests.conftest import poisoned
from tests.test_nvfp4_gemm_swiglu_quant import _check_against_reference, _inputs

fused_module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")


@pytest.mark.parametrize("args", [(512, 7168), (128, 512), (512, 7168, 0, 132, True),
                                  (512, 7168, 0, 132, False, 2),
                                  (512, 7168, 0, 132, False, 1, 3),
                                  (512, 7168, 0, 132, False, 1, 0, True)])
def test_swapped_kernel_compiles_for_sm90a(args):
    compile_only(compile_nvfp4_gemm_swiglu_quant_swapped, *args)


def test_permuted_words_pass_compiles_for_sm90a():
    compile_only(compile_nvfp4_dequant_permuted_words, 7168)


def test_swapped_route():
    """NVFP4 activations, 2I a multiple of 256, at least two tokens a weight row, tiles for
    0.7 of the SMs, or for 0.5 where the normal route is stream-K; stream-K where the last
    wave of whole tiles would be mostly empty (the points measured, sessions 54 and 58)."""
    assert swapped_route(2048, 1024, 7168, True) is None  # 64 tiles: the normal whole tiles
    assert swapped_route(2304, 1024, 7168, True) == "stream_k"  # 0.55 waves: 57.9 against 60.7
    assert swapped_route(2500, 1024, 7168, True) == "stream_k"  # 0.61 waves: 62.3 against 69.1
    assert swapped_route(3072, 1024, 7168, True) == "stream_k"  # 96 tiles: 69.7 against 78.4
    for m in (4000, 4096, 8192, 16384):
        assert swapped_route(m, 1024, 7168, True) == "whole"
    assert swapped_route(8192, 4096, 7168, True) == "whole"
    assert swapped_route(16384, 9216, 7168, True) is None  # 1.8 tokens a row: even
    assert swapped_route(4096, 1024, 7168, False) is None  # bf16 activations: the normal kernel
    assert swapped_route(4096, 384, 7168, True) is None  # 2I not a multiple of the 256 features
    assert swapped_route(4300, 1024, 7168, True) == "stream_k"  # 136 tiles: 1.03 waves


def test_swapped_route_under_the_waves_follows_the_normal_stream_k(monkeypatch):
    """Under ``SWAPPED_MIN_WAVES`` the swapped stream-K replaces only the normal route's own
    stream-K, from ``SWAPPED_STREAM_K_MIN_WAVES``."""
    monkeypatch.setattr(fused_module, "large_m_route", lambda m, i, k: ("whole", (128, 0)))
    assert swapped_route(2500, 1024, 7168, True) is None
    monkeypatch.setattr(fused_module, "large_m_route", lambda m, i, k: ("stream_k", 128))
    assert swapped_route(2500, 1024, 7168, True) == "stream_k"
    assert swapped_route(2048, 1024, 7168, True) is None  # 0.48 waves


def test_swapped_pairs_rule(monkeypatch):
    """Where the pairs fill one wave to ``SWAPPED_PAIRS_MIN_WAVES`` from 1.5 tokens a weight
    row (1024x7168 M = 1536..2048: 96..128 CTAs), not past it, not on bf16 activations or odd
    k-tiles; off with ``SWAPPED_PAIRS``."""
    for m in (1536, 1792, 2048):
        assert fused_module.swapped_pairs(m, 1024, 7168, True)
    assert not fused_module.swapped_pairs(1535, 1024, 7168, True)  # under 1.5 tokens a row
    assert not fused_module.swapped_pairs(2049, 1024, 7168, True)  # 136 CTAs
    assert not fused_module.swapped_pairs(2048, 1024, 7168, False)
    assert not fused_module.swapped_pairs(2048, 1024, 7168 - 64, True)
    assert not fused_module.swapped_pairs(16384, 9216, 7168, True)  # many waves
    monkeypatch.setattr(fused_module, "SWAPPED_PAIRS", False)
    assert not fused_module.swapped_pairs(2048, 1024, 7168, True)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,form", [(1664, 512, 7168, "pair"), (2304, 512, 7168, "stream_k")])
def test_public_op_routes_1024x7168_to_the_swapped_kernel(m, i, k, form, monkeypatch):
    """The rules as they are (no switch): 1024x7168's pairs (1664 tokens: 104 CTAs, an M
    tail) and the swapped stream-K where the normal route is stream-K (2304: 0.55 waves)."""
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    calls = []
    monkeypatch.setattr(fused_module, "launch_swapped",
                        lambda *args, **kw: calls.append(kw) or launch_swapped(*args, **kw))
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    assert calls == [{"stream_k": form == "stream_k", "pair_pieces": form == "pair"}]
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k", [(2048, 512, 7168), (300, 128, 512)])
def test_public_op_takes_the_swapped_pairs(m, i, k, monkeypatch):
    """The probe's "_pair" form: the public op on the swapped kernel's cluster pairs."""
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    for name, value in (("SWAPPED_PAIRS", True), ("SWAPPED_PAIRS_MIN_WAVES", 0.0),
                        ("SWAPPED_PAIRS_MIN_TOKENS_PER_ROW", 0)):
        monkeypatch.setattr(fused_module, name, value)
    calls = []
    monkeypatch.setattr(fused_module, "launch_swapped",
                        lambda *args, **kw: calls.append(kw) or launch_swapped(*args, **kw))
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    assert calls == [{"stream_k": False, "pair_pieces": True}]
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("two_i,k", [(1024, 7168), (256, 576)])
def test_weight_pass_is_the_dequantized_weight_in_pairs_order(two_i, k):
    """Packed bytes and permuted words alike: e2m1 * scale in bf16, K in PERMUTED_K_ORDER."""
    w = torch.randn(two_i, k, device="cuda").to(torch.bfloat16)
    packed, sf = reference.nvfp4_quantize(w, 448 * 6 / w.float().abs().amax())
    want = order_k(nvfp4_dequantize(packed, sf, 1.0), KOrder.PAIRS)
    assert torch.equal(bf16_gate_up_weights(packed, sf), want)
    assert torch.equal(bf16_gate_up_weights(prepare_nvfp4_weight(packed), sf), want)


def _run_swapped(a, a_sf, w, w_sf, alpha, g_out, **kw):
    m, i = a.shape[0], w.shape[0] // 2
    mp, kbp = sf_padded_shape(m, i // 16)
    out = poisoned(m, i // 2, dtype=torch.uint8)
    out_sf = poisoned(mp, kbp, dtype=torch.uint8)
    f32 = dict(dtype=torch.float32, device="cuda")
    launch_swapped(bf16_gate_up_weights(w, w_sf), a, a_sf, torch.tensor([alpha], **f32),
                   torch.tensor([g_out], **f32), out, out_sf, **kw)
    return out, out_sf.view(torch.float8_e4m3fn)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,kw", [
    (1, 128, 512, {}),              # one token in a 128-token tile, one feature tile
    (129, 256, 576, {}),            # an M tail, 9 k-tiles, two feature tiles
    (1000, 512, 7168, {}),          # 1024x7168, 8 token tiles
    (2100, 512, 7168, {"ctas": 5}),  # 17 x 4 tiles on 5 CTAs: the persistent loop
    (700, 1152, 1024, {"ctas": 7}),  # 9 feature tiles in bands of 8
    (1000, 512, 7168, {"stream_k": True}),            # 32 tiles' units on the SMs
    (2100, 512, 7168, {"stream_k": True, "ctas": 7}),  # ranges across tiles
    (300, 256, 576, {"splits": 3}),                     # 6 tiles in three K pieces
    (2100, 512, 7168, {"quantizers": 3, "ctas": 5}),  # the quantizer warps, 14 tiles a CTA
    (1000, 512, 7168, {"quantizers": 3, "stream_k": True}),
    (1, 128, 512, {"pair_pieces": True}),      # cluster pairs: each CTA one interleave group
    (129, 256, 1024, {"pair_pieces": True}),   # an M tail, two feature tiles
    (2048, 512, 7168, {"pair_pieces": True}),  # 1024x7168: 64 tiles, 128 CTAs
])
@pytest.mark.parametrize("permute", [False, True])
def test_swapped_kernel_matches_reference(m, i, k, kw, permute):
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    if permute:
        w = prepare_nvfp4_weight(w)
    out, out_sf = _run_swapped(a, a_sf, w, w_sf, alpha, g_out, **kw)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    again, again_sf = _run_swapped(a, a_sf, w, w_sf, alpha, g_out, **kw)
    assert torch.equal(again, out) and torch.equal(again_sf.view(torch.uint8),
                                                   out_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,min_waves,form", [
    (512, 128, 512, 0.0, "stream_k"),    # 4 tiles (the wave rule off)
    (777, 128, 512, 0.0, "stream_k"),    # an M tail
    (3072, 512, 1024, 0.7, "stream_k"),  # 96 tiles: 0.73 waves
    (14336, 128, 512, 0.7, "whole"),     # 112 tiles: 0.85 waves
])
def test_public_op_takes_the_swapped_kernel(m, i, k, min_waves, form, monkeypatch):
    """The public op launches the swapped kernel in the route's form; on whole tiles with the
    normal route's bits (stream-K adds its pieces' fp32 sums: the reference check only)."""
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, True)
    monkeypatch.setattr(fused_module, "SWAPPED_MIN_WAVES", min_waves)
    calls = []
    monkeypatch.setattr(fused_module, "launch_swapped",
                        lambda *args, **kw: calls.append(kw) or launch_swapped(*args, **kw))
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    assert calls and calls[0]["stream_k"] == (form == "stream_k")
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    monkeypatch.setattr(fused_module, "SWAPPED", False)
    normal, normal_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    assert len(calls) == 1
    if form == "whole":
        assert torch.equal(out, normal) and torch.equal(out_sf.view(torch.uint8),
                                                        normal_sf.view(torch.uint8))
