"""Stream-K over warps in the small-M GEMM (``nvfp4_gemm_small_m_stream_k``) against the
default small-M launch (``small_m_config``: whole row blocks per CTA, or split-K): per shape
and M, graph us (50 calls per graph), W4A4 and, at M = 1, W4A16. Stream-K configs are
(row_tiles, token_tiles, warps) x CTAs per SM. CUTE_KERNELS_BENCH_SHAPES picks shapes; one line
per shape and M with the default, the best and every config (roofline: packed weight + scale
bytes at 4.02 TB/s, the measured copy bandwidth)."""

import torch
from probe_inputs import weight_copies

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.nvfp4_gemm import launch_small_m, small_m_config
from cute_kernels.nvfp4_gemm_large_m import H200_SMS

alpha = torch.full((1,), 0.5, device="cuda")
CONFIGS = [((2, 1, 4, 1), c) for c in (2, 3, 4)] + [((1, 1, 4, 1), c) for c in (4, 6)]
for n, k in select_shapes([(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120),
                           (9216, 7168), (4096, 7168), (7168, 2048)]):
    weights = weight_copies(n, k)
    roof = n * k * 9 // 16 / 4.02e6
    for m, fp4 in ((1, True), (1, False), (2, True), (4, True), (8, True)):
        a, a_sf = torch.randn(m, k, device="cuda", dtype=torch.bfloat16), None
        if fp4:
            a, a_sf = reference.nvfp4_quantize(a, 100.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        default = small_m_config(m, n, k, fp4)
        times = {"default": time_graph_us([lambda w=w: launch_small_m(
            a, a_sf, w[0], w[1], alpha, out, default) for w in weights], 50)}
        for config, per_sm in CONFIGS:
            try:
                times[f"{''.join(map(str, config[:3]))}x{per_sm}"] = time_graph_us(
                    [lambda w=w, c=config, p=per_sm: launch_small_m(
                        a, a_sf, w[0], w[1], alpha, out, c, stream_k_ctas=p * H200_SMS)
                     for w in weights], 50)
            except ValueError as e:  # shared memory
                if "shared memory" not in str(e):
                    raise
        best = min(times, key=times.get)
        print(f"{n}x{k} M={m} {'W4A4' if fp4 else 'W4A16'}: default {default} "
              f"{times['default']:.1f} ({roof / times['default']:.0%}) best {best} "
              f"{times[best]:.1f} ({roof / times[best]:.0%}) | "
              + " ".join(f"{c}={t:.1f}" for c, t in times.items()), flush=True)
    del weights
