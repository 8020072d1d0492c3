"""Session 4: the wgmma kernel's token tile at M = 32..128 (64 vs 128 vs 256 tokens per tile)
against the small-M kernel, plain W4A16 GEMM and the fused gate_up + SwiGLU + quant. Prints a
table; writes $OUT/tile_m_probe.json."""

import json
import os

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.gate_up_weight import prepare_gate_up_weight
from cute_kernels.nvfp4_gemm import launch_small_m, small_m_config
from cute_kernels.nvfp4_gemm_large_m import launch_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m as launch_fused_large
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused_small
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config

out_dir = os.environ.get("OUT", "/tmp/out")
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
rows = []
for n, k in select_shapes([(36864, 7168), (34816, 5120), (7168, 18432), (9216, 7168)]):
    wbytes = n * k // 2 + n * k // 16
    copies = []
    for _ in range(rotations_for(wbytes)):
        b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                           100.0)
        copies.append((b, b_sf))
    fused_w = None
    if n in (36864, 34816, 9216, 4096):
        fused_w = []
        for b, _ in copies:
            raw, raw_sf = reference.nvfp4_quantize(
                torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0, swizzle=False)
            fused_w.append(prepare_gate_up_weight(raw, raw_sf))
    for m in (32, 64, 128):
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        row = {"n": n, "k": k, "m": m}
        for tm in (64, 128):
            row[f"large{tm}"] = time_graph_us(
                [lambda c=c, tm=tm: launch_large_m(x, c[0], c[1], alpha, out, (tm, 0))
                 for c in copies], 20)
        if m <= 64:
            cfg = small_m_config(m, n, k)
            row["small"] = time_graph_us(
                [lambda c=c: launch_small_m(x, None, c[0], c[1], alpha, out, cfg)
                 for c in copies], 20)
        if fused_w is not None:
            q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
            sf = torch.empty(((m + 127) // 128 * 128) * (n // 32), device="cuda",
                             dtype=torch.uint8)
            for tm in (64, 128):
                row[f"fused{tm}"] = time_graph_us(
                    [lambda w=w, tm=tm: launch_fused_large(x, w[0], w[1], alpha, gs, q, sf,
                                                           (tm, 0)) for w in fused_w], 20)
            if m <= 64:
                cfg = swiglu_small_m_config(m, n // 2, k)
                row["fused_small"] = time_graph_us(
                    [lambda w=w: launch_fused_small(x, None, w[0], w[1], alpha, gs, q, sf, cfg)
                     for w in fused_w], 20)
        rows.append(row)
        print(" ".join(f"{key}={val:.1f}" if isinstance(val, float) else f"{key}={val}"
                       for key, val in row.items()), flush=True)
    del copies, fused_w
with open(os.path.join(out_dir, f"tile_m_probe{os.environ.get('CUTE_KERNELS_BENCH_SHAPES', '')}.json"), "w") as f:
    json.dump(rows, f, indent=1)
