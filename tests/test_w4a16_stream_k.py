"""bf16 activations (W4A16) in place (``KOrder.PERMUTED_IDENTITY``) on 256-token stream-K tiles
where the route has 128-token ones (1024x7168 at 3072 tokens): the public fused op against the
fp64 reference, that launch forced as ``tools/bf16_weights_probe.py``'s "_sk256" form."""

import importlib

import pytest

from cute_kernels import prepare_gate_up_weight, restore_gate_up_weight

fused_module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")


@pytest.mark.gpu
@pytest.mark.parametrize("m", [2304, 3072])
def test_public_fused_on_256_token_stream_k_matches_reference(monkeypatch, m):
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    monkeypatch.setattr(fused_module, "large_m_route", lambda m, i, k: ("stream_k", 256))
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 512, 7168, False)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    for _ in range(2):
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)
