"""Session 4: split-K in the wgmma kernel on the shapes whose output tiles starve the grid.
Per (N x K, M): the wgmma kernel with ``large_m_plan``'s tile and K splits, the same kernel
without splits (``large_m_config``'s tile, what ``nvfp4_gemm`` runs today), and cuBLAS bf16;
each split-K result is first checked against the unsplit one. CUTE_KERNELS_BENCH_SHAPES
picks shapes; writes $OUT/split_probe.json."""

import json
import os

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.nvfp4_dequant import nvfp4_dequantize
from cute_kernels.large_m_plans import large_m_config, large_m_plan
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

out_dir = os.environ.get("OUT", "/tmp/out")
alpha = torch.full((1,), 0.5, device="cuda")
rows = []
for n, k in select_shapes([(7168, 18432), (5120, 17408), (9216, 7168)]):
    copies = [reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0) for _ in range(rotations_for(n * k * 9 // 16))]
    w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
           for _ in range(rotations_for(n * k * 2))]
    for m in (17, 32, 64, 128, 256):
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        a, a_sf = reference.nvfp4_quantize(x, 100.0)
        x16 = nvfp4_dequantize(a, a_sf, 1.0)  # the W4A4 activations, as nvfp4_gemm feeds them
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        plan = large_m_plan(m, n, k)
        row = {"n": n, "k": k, "m": m, "plan": list(plan)}
        tile_m, splits = plan
        split_out = torch.empty(m, n, device="cuda", dtype=torch.float32)
        plain_out = torch.empty(m, n, device="cuda", dtype=torch.float32)
        c = copies[0]
        launch_large_m(x16, c[0], c[1], alpha, split_out, (tile_m, 0), splits)
        launch_large_m(x16, c[0], c[1], alpha, plain_out, (large_m_config(m, n, k)[0], 0))
        row["rel_diff"] = float(((split_out - plain_out).norm() / plain_out.norm()).item())
        row["split"] = time_graph_us(
            [lambda c=c: launch_large_m(x16, c[0], c[1], alpha, out, (tile_m, 0), splits)
             for c in copies], 50)
        row["no_split"] = time_graph_us(
            [lambda c=c: launch_large_m(x16, c[0], c[1], alpha, out,
                                        (large_m_config(m, n, k)[0], 0)) for c in copies], 50)
        row["cublas"] = time_graph_us([lambda w=w: torch.nn.functional.linear(x, w)
                                       for w in w16], 50)
        rows.append(row)
        print(f"{n}x{k} M={m} plan {plan}: split {row['split']:.1f} us (rel diff "
              f"{row['rel_diff']:.1e}), no split {row['no_split']:.1f}, cuBLAS "
              f"{row['cublas']:.1f}", flush=True)
    del copies, w16
with open(os.path.join(out_dir, "split_probe.json"), "w") as f:
    json.dump(rows, f, indent=1)
