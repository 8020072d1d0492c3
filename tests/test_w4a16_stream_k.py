"""bf16 activations (W4A16) in place (``KOrder.PERMUTED_IDENTITY``) on 256-token stream-K tiles
where the route has 128-token ones (``w4a16_stream_k_plan``): the rule on CPU, and the public
fused op against the fp64 reference on that launch (forced as ``tools/bf16_weights_probe.py``'s
"_sk256" form, the launch the rule gives at these token counts)."""

import importlib

import pytest

from cute_kernels import prepare_gate_up_weight, restore_gate_up_weight

fused_module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")


@pytest.mark.parametrize("m,two_i,want", [
    (2304, 1024, 256), (3072, 1024, 256), (4608, 1024, 256), (1792, 4096, 256),
    (2500, 1024, 128),  # padded to 256-token tiles: not in place
    (1100, 1024, 128),
])
def test_rule(m, two_i, want):
    route, plan = fused_module.large_m_route(m, two_i // 2, 7168)
    assert (route, plan) == ("stream_k", 128)
    assert fused_module.w4a16_stream_k_plan(m, two_i, False, True, route, plan) == want
    assert fused_module.w4a16_stream_k_plan(m, two_i, True, True, route, plan) == 128  # W4A4
    assert fused_module.w4a16_stream_k_plan(m, two_i, False, False, route, plan) == 128


@pytest.mark.gpu
@pytest.mark.parametrize("m", [2304, 3072])
def test_public_fused_on_256_token_stream_k_matches_reference(monkeypatch, m):
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    monkeypatch.setattr(fused_module, "large_m_route", lambda m, i, k: ("stream_k", 256))
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 512, 7168, False)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    for _ in range(2):
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)
