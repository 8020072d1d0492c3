"""Long K at M = 1 (7168x18432: 224 row blocks of 32 rows, 5120x17408: 160): the small-M tile
configs that put more loads in flight per SM (8 warps, 16-row blocks, K splits) against the
default, W4A4 and W4A16, graph us (50 calls per graph). CUTE_KERNELS_BENCH_SHAPES picks shapes;
one line per shape and activation type (roofline: packed weight + scale bytes at 4.25 TB/s)."""

import torch
from probe_inputs import weight_copies

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.nvfp4_gemm import launch_small_m, small_m_config

alpha = torch.full((1,), 0.5, device="cuda")
CONFIGS = [(2, 1, 8, 1), (1, 1, 8, 1), (1, 1, 4, 1), (2, 1, 4, 1, 2), (2, 1, 8, 1, 2),
           (1, 1, 8, 1, 2), (1, 1, 4, 1, 3), (2, 1, 4, 1, 3), (2, 1, 4, 1, 4)]
for n, k in select_shapes([(7168, 18432), (5120, 17408)]):
    weights = weight_copies(n, k)
    roof = n * k * 9 // 16 / 4.25e6
    for fp4 in (True, False):
        a, a_sf = torch.randn(1, k, device="cuda", dtype=torch.bfloat16), None
        if fp4:
            a, a_sf = reference.nvfp4_quantize(a, 100.0)
        out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
        times = {}
        for c in [small_m_config(1, n, k, fp4)] + CONFIGS:
            if c in times:
                continue
            times[c] = time_graph_us([lambda w=w, c=c: launch_small_m(
                a, a_sf, w[0], w[1], alpha, out, c) for w in weights], 50)
        first = next(iter(times))
        best = min(times, key=times.get)
        print(f"{n}x{k} M=1 {'W4A4' if fp4 else 'W4A16'}: default {first} {times[first]:.1f} "
              f"({roof / times[first]:.0%}) best {best} {times[best]:.1f} "
              f"({roof / times[best]:.0%}) | "
              + " ".join(f"{''.join(map(str, c))}={t:.1f}" for c, t in times.items()),
              flush=True)
    del weights
