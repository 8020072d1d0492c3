"""Stream-K in the wgmma kernels against what the public functions run today, graph us.

Plain GEMM (bf16 activations, the kernel alone): per N x K and M, ``large_m_plan``'s route
(tile, K splits), stream-K with each sensible token tile, and cuBLAS bf16. Fused gate_up +
SwiGLU + quant (2I x K): the public function's route (fused wgmma kernel or the fp32 split
route), and the fused kernel in stream-K. Each stream-K result is first compared with the
route's (relative difference; codes for the fused kernel). From M = 512 the plain GEMM is also
timed in the data-parallel + stream-K hybrid ("hy"). CUTE_KERNELS_BENCH_SHAPES picks entries of
the combined list; prints one line per shape and M."""

import torch

from probe_inputs import gate_up_copies, weight_copies

from cute_kernels import nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.large_m_plans import large_m_plan
from cute_kernels.nvfp4_gemm_large_m import launch_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m as launch_fused

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
GEMM = [("gemm", n, k) for n, k in [(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120),
                                     (9216, 7168), (4096, 7168), (7168, 2048)]]
FUSED = [("fused", n, k) for n, k in [(36864, 7168), (9216, 7168), (1024, 7168), (4096, 7168),
                                       (34816, 5120)]]


def tiles_for(m):
    return (64,) if m <= 64 else (64, 128) if m <= 128 else (128, 256)


for kind, n, k in select_shapes(GEMM + FUSED):
    if kind == "gemm":
        copies = weight_copies(n, k)
        w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
               for _ in range(rotations_for(n * k * 2))]
        for m in (32, 64, 128, 256, 512, 1024):
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            tile_m, splits = large_m_plan(m, n, k)
            c = copies[0]
            ref = torch.empty(m, n, device="cuda", dtype=torch.float32)
            launch_large_m(x, c[0], c[1], alpha, ref, (tile_m, 0), splits)
            t_route = time_graph_us([lambda c=c: launch_large_m(
                x, c[0], c[1], alpha, out, (tile_m, 0), splits) for c in copies], 50)
            line = [f"route ({tile_m},{splits}) {t_route:.1f}"]
            for t in tiles_for(m):
                for hybrid in (False, True) if m >= 512 else (False,):
                    got = torch.empty(m, n, device="cuda", dtype=torch.float32)
                    launch_large_m(x, c[0], c[1], alpha, got, (t, 0), stream_k=True,
                                   hybrid=hybrid)
                    diff = ((got - ref).norm() / ref.norm()).item()
                    us = time_graph_us([lambda c=c, t=t, h=hybrid: launch_large_m(
                        x, c[0], c[1], alpha, out, (t, 0), stream_k=True, hybrid=h)
                        for c in copies], 50)
                    line.append(f"{'hy' if hybrid else 'sk'}{t} {us:.1f} (diff {diff:.0e})")
            cub = time_graph_us([lambda w=w: torch.nn.functional.linear(x, w) for w in w16], 50)
            print(f"gemm {n}x{k} M={m}: " + " | ".join(line) + f" | cuBLAS {cub:.1f}", flush=True)
        del copies, w16
    else:
        i = n // 2
        fused = gate_up_copies(n, k)
        for m in (128, 256, 512, 1024):
            a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                           dtype=torch.bfloat16), 100.0)
            x16 = bf16_activations(a, a_sf)
            q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
            sf = torch.empty(((m + 127) // 128 * 128) * (i // 16), device="cuda",
                             dtype=torch.uint8)
            want, _ = nvfp4_gemm_swiglu_quant(a, a_sf, fused[0][0], fused[0][1], alpha, gs)
            t_route = time_graph_us([lambda w=w: nvfp4_gemm_swiglu_quant(
                a, a_sf, w[0], w[1], alpha, gs, out=q, out_sf=sf) for w in fused], 50)
            line = [f"route {t_route:.1f}"]
            for t in tiles_for(m):
                launch_fused(x16, fused[0][0], fused[0][1], alpha, gs, q, sf, (t, 0), True)
                same = (q == want).float().mean().item()
                us = time_graph_us([lambda w=w, t=t: launch_fused(
                    x16, w[0], w[1], alpha, gs, q, sf, (t, 0), True) for w in fused], 50)
                line.append(f"sk{t} {us:.1f} (codes equal {same:.4f})")
            print(f"fused {n}x{k} M={m}: " + " | ".join(line), flush=True)
        del fused
