"""Session 4: split-K in the wgmma kernel on the shapes whose output tiles starve the grid.
Per (N x K, M): the public nvfp4_gemm (W4A4, ``large_m_plan``: tile and splits), the same
kernel without splits (``large_m_config``'s tile), and cuBLAS bf16. CUTE_KERNELS_BENCH_SHAPES
picks shapes; writes $OUT/split_probe.json."""

import json
import os

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.nvfp4_dequant import nvfp4_dequantize
from cute_kernels.nvfp4_gemm import nvfp4_gemm
from cute_kernels.nvfp4_gemm_large_m import large_m_config, large_m_plan, launch_large_m

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
        x16 = nvfp4_dequantize(a, a_sf, 1.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        plan = large_m_plan(m, n, k)
        row = {"n": n, "k": k, "m": m, "plan": list(plan)}
        row["public"] = time_graph_us([lambda c=c: nvfp4_gemm(a, a_sf, c[0], c[1], 0.5)
                                       for c in copies], 50)
        row["no_split"] = time_graph_us(
            [lambda c=c: launch_large_m(x16, c[0], c[1], alpha, out,
                                        (large_m_config(m, n, k)[0], 0)) for c in copies], 50)
        row["cublas"] = time_graph_us([lambda w=w: torch.nn.functional.linear(x, w)
                                       for w in w16], 50)
        rows.append(row)
        print(f"{n}x{k} M={m} plan {plan}: nvfp4_gemm {row['public']:.1f} us, no split "
              f"{row['no_split']:.1f}, cuBLAS {row['cublas']:.1f}", flush=True)
    del copies, w16
with open(os.path.join(out_dir, "split_probe.json"), "w") as f:
    json.dump(rows, f, indent=1)
