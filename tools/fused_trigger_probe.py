"""The fused op's half-group launches (``nvfp4_gemm_swiglu_quant`` on 4096x7168 at 17..256
tokens, ``_half_groups``) with the PDL trigger after the main loop and the spread activation
pass (``large_m_plans.pdl_trigger_plan``, as ``nvfp4_gemm``'s launches of the same tiles).
Session 35 measured the trigger alone lose there (M = 64 13.90 -> 15.65 us, M = 256 27.37 ->
28.72); session 36's ``tools/pass_spread_probe.py`` found the spread pass turn the plain GEMM's
losses into gains. Per point, graph us of back-to-back calls (interleaved, two rounds): the
public route ("public": both, by the rule), untriggered ("plain") and the trigger alone
("trigger"). One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import torch
from probe_inputs import fused_operands, gate_up_words, print_forms

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_swiglu_quant import _half_groups, half_group_route

POINTS = [(4096, 7168, 17), (4096, 7168, 32), (4096, 7168, 64), (4096, 7168, 128),
          (4096, 7168, 256)]
FORMS = {"plain": (False, False), "trigger": (True, False)}

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k, m in select_shapes(POINTS):
    assert half_group_route(m, two_i // 2, k), (two_i, k, m)
    weights = gate_up_words(two_i, k, True)
    ops = fused_operands(two_i, k, m, True)
    a, a_sf, q, sf = (ops[n] for n in ("a", "a_sf", "q", "sf"))
    calls = {"public": lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q,
                                                         out_sf=sf)}
    calls.update({name: lambda w, t=t, s=s: _half_groups(a, a_sf, w[0], w[1], alpha, gs, q, sf,
                                                         pdl_trigger=t, spread_pass=s)
                  for name, (t, s) in FORMS.items()})
    print_forms(f"fused {two_i}x{k} M={m}", calls, weights)
    del weights
