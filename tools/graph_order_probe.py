"""Does a graph's place in the interleaved timing change its time? Session 26's first call
timed ``nvfp4_gemm``'s plan for 5120x17408 M = 256 at 79.4 us as the first of the probe's
interleaved graphs and 69.1 us as the fifth (the same launch forced: "sk128"), at 200 calls
a graph; at 20 calls both read ~70.5. The suite (200 calls) has 82.3 against cuBLAS 68.5.

Three identical graphs of the public call (A1, A2, A3) and cuBLAS bf16 (C), replayed in the
order A1, C, A2, A3 each round: A2 follows cuBLAS, A3 and A1 follow our kernel. Then the same
with an idle gap before each replay ("gap"), which lets the clocks recover. Per graph: median,
min and max us per call over the replays. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_PROBE_CALLS`` sets the calls per graph (default 200)."""

import os
import statistics
import time

import torch
from probe_inputs import gate_up_words

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import _capture, rotations_for, select_shapes, warm_only

CALLS = int(os.environ.get("CUTE_KERNELS_PROBE_CALLS", "200"))
REPLAYS = 12
POINTS = [(5120, 17408, 256), (7168, 2048, 256), (9216, 7168, 256), (4096, 7168, 256),
          (7168, 18432, 256)]


def replay_ms(graph, gap_s: float) -> float:
    if gap_s:
        torch.cuda.synchronize()
        time.sleep(gap_s)
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    graph.replay()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop)


for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
           for _ in range(1 if warm_only() else rotations_for(n * k * 2))]
    ours = [lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5) for w in words]
    if warm_only():
        for c in ours:
            c()
        torch.cuda.synchronize()
        continue
    cublas = [lambda w=w: x @ w.t() for w in w16]
    graphs = {"A1": _capture(ours, CALLS), "C": _capture(cublas, CALLS),
              "A2": _capture(ours, CALLS), "A3": _capture(ours, CALLS)}
    for mode, gap_s in (("back-to-back", 0.0), ("gap 50 ms", 0.05), ("back-to-back", 0.0)):
        ms = {name: [] for name in graphs}
        for _ in range(REPLAYS):
            for name, graph in graphs.items():
                ms[name].append(replay_ms(graph, gap_s) * 1e3 / CALLS)
        cells = " | ".join(f"{name} {statistics.median(t):.2f} ({min(t):.2f}-{max(t):.2f})"
                           for name, t in ms.items())
        print(f"{n}x{k} M={m} {CALLS} calls {mode:12s}: {cells}", flush=True)
