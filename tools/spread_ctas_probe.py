"""Where the spread activation pass puts its CTAs, at the stream-K 16-token points where the pass
costs most (session 39, ``tools/pass_cost_probe.py``, public / the GEMM alone: 7168x18432
M = 16 30.30 / 27.93 us, 9216x7168 M = 16 19.47 / 17.56; against 9.52 / 8.58 on 4096x7168's
cluster pairs). There the launch holds two CTAs an SM, whose register files fill the SM, and
the spread pass asks for a whole SM's shared memory (one CTA an SM): while its ~36-64 CTAs
run, the next GEMM's CTAs can start only on the other SMs, so those SMs' CTAs begin their
prologue and first loads after the pass. Issue 5's M <= 16 bar (60% of the roofline) needs
7168x18432 M = 16 at about 29.2 us.

Per point, graph us of back-to-back calls (interleaved, two rounds): "public", "alone" (the
same launches with the bf16 activations made before the capture: no pass), and the public
route with the spread pass on about 16 / 32 / 132 CTAs ("c16", "c32", "c132"; the default
aims at ``SPREAD_PASS_CTAS`` = 64, 1..4 units a thread) and with two or four CTAs an SM
allowed ("2/SM", "4/SM": the default grid on half or a quarter of the SMs), and the same
launch untriggered with the pass unspread ("off"). One point per CUTE_KERNELS_BENCH_SHAPES
index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (fp4_gemm_operands, planned_forms, print_forms, public_and_alone,
                          replaced_call)

from cute_kernels import unit_grid
from cute_kernels.bench.timing import select_shapes
from cute_kernels.large_m_plans import plain_plan

DEQUANT = importlib.import_module("cute_kernels.nvfp4_dequant")
SPREAD = unit_grid.spread_launch
# (N, K, M): the stream-K 16-token points, then 7168x18432 at fewer tokens and 4096x7168's
# cluster pairs for contrast
POINTS = [(7168, 18432, 16), (9216, 7168, 16), (5120, 17408, 16), (7168, 18432, 9),
          (7168, 18432, 12), (4096, 7168, 16)]


def up_to(ctas_per_sm: int):
    """``spread_launch``'s grid with up to ``ctas_per_sm`` CTAs an SM allowed."""
    def launch(out_rows: int, k: int, sms: int) -> tuple[int, int]:
        cap, per_thread = SPREAD(out_rows, k, sms)
        return (max(cap, ctas_per_sm) if cap else 0), per_thread
    return launch


alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    calls = public_and_alone(a, a_sf, alpha, out, weights)
    public = calls["public"]
    for ctas in (16, 32, 132):
        calls[f"c{ctas}"] = replaced_call(public, unit_grid, {"SPREAD_PASS_CTAS": ctas})
    for ctas_per_sm in (2, 4):
        calls[f"{ctas_per_sm}/SM"] = replaced_call(public, DEQUANT,
                                                   {"spread_launch": up_to(ctas_per_sm)})
    off = {"pdl_trigger": False, "spread_pass": False}
    calls["off"] = planned_forms(a, a_sf, alpha, out, plain_plan(m, n, k), {"off": off})["off"]
    print(f"gemm {n}x{k} M={m}: spread grid (CTAs an SM, units a thread) "
          f"{SPREAD(-(-m // 16) * 16, k, 132)}", flush=True)
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, calls
