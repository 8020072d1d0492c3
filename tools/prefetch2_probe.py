"""The small-M kernels at M = 1 and 2 (activations staged in shared memory): the default config
against the same config with ``prefetch`` = 2 (two K steps per loop iteration, register buffers
swapped statically instead of copied). Plain GEMM on the issue's shapes (W4A4) and the fused
gate_up + SwiGLU + quant (2I x K). CUTE_KERNELS_BENCH_SHAPES picks shapes of the plain list;
writes $OUT/prefetch2_probe.json."""

import json
import os

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.gate_up_weight import prepare_gate_up_weight
from cute_kernels.nvfp4_gemm import launch_small_m, small_m_config
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config

out_dir = os.environ.get("OUT", "/tmp/out")
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
FUSED = {(36864, 7168), (34816, 5120), (9216, 7168), (4096, 7168)}
rows = []
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
    for m in (1, 2):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        cfg = small_m_config(m, n, k)
        row = {"n": n, "k": k, "m": m, "config": list(cfg)}
        for pf in (cfg[3], 2):
            c = (*cfg[:3], pf)
            row[f"gemm_pf{pf}"] = time_graph_us(
                [lambda w=w, c=c: launch_small_m(a, a_sf, w[0], w[1], alpha, out, c)
                 for w in plain], 100)
        if fused is not None:
            i = n // 2
            q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
            sf = torch.empty(128 * (i // 16), device="cuda", dtype=torch.uint8)
            fcfg = swiglu_small_m_config(m, i, k)
            row["fused_config"] = list(fcfg)
            for pf in (fcfg[3], 2):
                c = (*fcfg[:3], pf)
                row[f"fused_pf{pf}"] = time_graph_us(
                    [lambda w=w, c=c: launch_fused(a, a_sf, w[0], w[1], alpha, gs, q, sf, c)
                     for w in fused], 100)
        rows.append(row)
        print(" ".join(f"{key}={val:.1f}" if isinstance(val, float) else f"{key}={val}"
                       for key, val in row.items()), flush=True)
    del plain, fused
tag = os.environ.get("CUTE_KERNELS_BENCH_SHAPES", "all")
with open(os.path.join(out_dir, f"prefetch2_probe_{tag}.json"), "w") as f:
    json.dump(rows, f, indent=1)
