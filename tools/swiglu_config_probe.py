"""Session 4: every small-M config of the fused gate_up + SwiGLU + quant kernel at M = 1..32
(W4A4, as the models call it), beside the unfused pair's GEMM at its default config.
Usage: python tools/swiglu_config_probe.py [M ...]; CUTE_KERNELS_BENCH_SHAPES picks shapes.
Prints one line per (shape, M): the default config's time, the best config and its time."""

import itertools
import json
import os
import sys

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.gate_up_weight import prepare_gate_up_weight
from cute_kernels.nvfp4_gemm import nvfp4_gemm
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m, swiglu_small_m_config

out_dir = os.environ.get("OUT", "/tmp/out")
ms = [int(v) for v in sys.argv[1:]] or [1, 8, 16, 32]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
rows = []
for two_i, k in select_shapes([(36864, 7168), (9216, 7168), (4096, 7168), (1024, 7168),
                               (34816, 5120)]):
    i = two_i // 2
    wbytes = two_i * k // 2 + two_i * k // 16
    ws = []
    for _ in range(rotations_for(wbytes)):
        raw, raw_sf = reference.nvfp4_quantize(
            torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16), 100.0, swizzle=False)
        ws.append(prepare_gate_up_weight(raw, raw_sf))
    for m in ms:
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
        sf = torch.empty(((m + 127) // 128 * 128) * (i // 16), device="cuda", dtype=torch.uint8)
        times = {}
        default = swiglu_small_m_config(m, i, k)  # may carry a K split the sweep does not
        for cfg in [default] + list(itertools.product((2, 4), (1, 2, 4), (4, 8), (0, 1, 2))):
            if cfg[1] > -(-m // 8) or cfg in times:
                continue
            times[cfg] = time_graph_us(
                [lambda w=w, cfg=cfg: launch_small_m(a, a_sf, w[0], w[1], alpha, gs, q, sf, cfg)
                 for w in ws], 100)
        gemm = time_graph_us([lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5) for w in ws], 100)
        best = min(times, key=times.get)
        row = {"2I": two_i, "K": k, "M": m, "default": list(default),
               "default_us": times[default], "best": list(best), "best_us": times[best],
               "gemm_us": gemm, "all": {",".join(map(str, c)): t for c, t in times.items()}}
        rows.append(row)
        print(f"2I={two_i} K={k} M={m}: default {default} {times[default]:.1f} us, best {best} "
              f"{times[best]:.1f} us; the pair's GEMM {gemm:.1f} us", flush=True)
tag = os.environ.get("CUTE_KERNELS_BENCH_SHAPES", "all") + "-" + "_".join(map(str, ms))
with open(os.path.join(out_dir, f"swiglu_config_probe_{tag}.json"), "w") as f:
    json.dump(rows, f, indent=1)
