"""Session 5: the small-M kernels with the cp.async shared-memory ring (prefetch >= 2) against
their default configs, at M = 1, 4, 8, 16. Plain GEMM on the issue's shapes (W4A4) and the fused
gate_up + SwiGLU + quant (2I x K) on its shapes. Configs that do not fit shared memory are
skipped. CUTE_KERNELS_BENCH_SHAPES picks shapes; prints one line per shape and M."""

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.gate_up_weight import prepare_gate_up_weight
from cute_kernels.nvfp4_gemm import launch_small_m, small_m_config
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
FUSED = {(36864, 7168), (34816, 5120), (9216, 7168), (4096, 7168)}
RING = {1: [(2, 1, 4, 2), (2, 1, 4, 3), (2, 1, 8, 2), (1, 1, 4, 2), (1, 1, 8, 2), (1, 1, 8, 3),
            (4, 1, 4, 2)],
        4: [(2, 1, 4, 2), (2, 1, 4, 3), (2, 1, 8, 2), (1, 1, 8, 2)],
        16: [(2, 2, 4, 2), (2, 2, 4, 3), (1, 2, 8, 2), (2, 2, 8, 2)]}
RING[8] = RING[4]


def best_of(label, fn_of_config, configs):
    times = {}
    for c in configs:
        try:
            times[c] = time_graph_us(fn_of_config(c), 50)
        except ValueError as e:  # too much shared memory
            if "shared memory" not in str(e):
                raise
    default = times[configs[0]]
    best = min(times, key=times.get)
    ring = " ".join(f"{''.join(map(str, c))}={t:.1f}" for c, t in times.items())
    return f"{label}: default {configs[0]} {default:.1f} best {best} {times[best]:.1f} | {ring}"


for n, k in select_shapes([(36864, 7168), (34816, 5120), (7168, 18432), (5120, 17408),
                           (9216, 7168), (4096, 7168), (7168, 2048)]):
    wbytes = n * k * 9 // 16
    plain = [reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                      100.0) for _ in range(rotations_for(wbytes))]
    fused = None
    if (n, k) in FUSED:
        fused = [prepare_gate_up_weight(*reference.nvfp4_quantize(
            torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0, swizzle=False))
            for _ in range(rotations_for(wbytes))]
    for m in (1, 4, 8, 16):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        configs = [small_m_config(m, n, k)] + RING[m]
        print(best_of(f"{n}x{k} M={m} gemm", lambda c: [
            lambda w=w: launch_small_m(a, a_sf, w[0], w[1], alpha, out, c) for w in plain],
            configs), flush=True)
        if fused is not None:
            i = n // 2
            q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
            sf = torch.empty(128 * (i // 16), device="cuda", dtype=torch.uint8)
            configs = [swiglu_small_m_config(m, i, k)] + [c for c in RING[m] if c[0] % 2 == 0]
            print(best_of(f"{n}x{k} M={m} fused", lambda c: [
                lambda w=w: launch_fused(a, a_sf, w[0], w[1], alpha, gs, q, sf, c)
                for w in fused], configs), flush=True)
    del plain, fused
