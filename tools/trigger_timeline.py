"""Where the PDL trigger's time goes: kernel start and end times (CUPTI, through
``torch.profiler``) of back-to-back ``nvfp4_gemm`` calls replayed from a CUDA graph, the same
launch without and with the trigger (``launch_planned(pdl_trigger=)``). Session 35 measured
the trigger lose past 256 tokens even with one tile a CTA (4096x7168 M = 512 40.39 -> 41.70
us) and on cluster pairs (M = 64 12.29 -> 14.47), and win on 7168x2048 M = 64 (8.40 -> 7.93).
Per point and variant, for the middle calls of the graph: each kernel's start relative to the
previous kernel's start and end ("gap": negative where they overlap) and its duration, then
the mean per call. Session 36: and with the pass spread over the SMs
(``launch_planned(spread_pass=True)``, ``tools/pass_spread_probe.py``). One point per
CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import statistics

import torch
from probe_inputs import fp4_gemm_operands
from torch.profiler import ProfilerActivity, profile

from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import launch_planned

POINTS = [(4096, 7168, 512), (4096, 7168, 64), (7168, 2048, 64), (4096, 7168, 1024)]
CALLS = 8  # calls a graph; the first and last two are left out of the table


def kernel_spans(run) -> list[tuple[str, float, float]]:
    """(name, start us, end us) of the GPU kernels ``run`` launches, in start order."""
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        run()
        torch.cuda.synchronize()
    spans = [(e.name, e.time_range.start, e.time_range.end) for e in prof.events()
             if e.device_type == torch.autograd.DeviceType.CUDA and e.time_range.end > 0]
    return sorted(spans, key=lambda s: s[1])


def short(name: str) -> str:
    """A kernel's kind from its mangled name."""
    for key, label in (("Dequant", "dequant"), ("ReorderK", "reorder"), ("GemmLargeM", "gemm")):
        if key in name:
            return label
    return name[:24]


alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    plan = plain_plan(m, n, k)
    for trigger, spread in ((False, False), (True, False), (True, True)):
        def call(w, trigger=trigger, spread=spread):
            launch_planned(a, a_sf, w[0], w[1], alpha, out, plan, wg_k_split=True,
                           pdl_trigger=trigger, spread_pass=spread)

        call(weights[0])
        torch.cuda.synchronize()
        if warm_only():
            continue
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for i in range(CALLS):
                call(weights[i % len(weights)])
        graph.replay()
        torch.cuda.synchronize()
        spans = kernel_spans(graph.replay)
        per_call = len(spans) // CALLS
        print(f"{n}x{k} M={m} plan={plan} trigger={trigger} spread={spread}: "
              f"{len(spans)} kernels")
        rows = {}
        for i in range(2 * per_call, (CALLS - 2) * per_call):
            name, start, end = spans[i]
            prev_start, prev_end = spans[i - 1][1], spans[i - 1][2]
            label = f"{i % per_call}:{short(name)}"
            rows.setdefault(label, []).append((start - prev_start, start - prev_end, end - start))
            print(f"  {label:12s} start-after-prev-start {start - prev_start:7.2f}  "
                  f"gap {start - prev_end:7.2f}  duration {end - start:7.2f}")
        for label, values in rows.items():
            means = [statistics.fmean(v[j] for v in values) for j in range(3)]
            print(f"  mean {label:12s} {means[0]:7.2f} {means[1]:7.2f} {means[2]:7.2f}")
        call_us = (spans[(CALLS - 2) * per_call][1] - spans[2 * per_call][1]) / (CALLS - 4)
        print(f"  per call {call_us:.2f} us", flush=True)
    del weights
