"""Session-3 measurements on the H200: the large-M wgmma kernel against cuBLAS bf16, and the
fused SwiGLU kernel against the unfused pair, cuBLAS + torch silu*mul. Prints tables, writes
JSON to $OUT (or /tmp/out)."""

import json
import os
import sys

import torch
import torch.nn.functional as F

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, time_graph_us
from cute_kernels.nvfp4_gemm import launch_small_m, small_m_config
from cute_kernels.nvfp4_gemm_large_m import launch_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config
from cute_kernels.nvfp4_quant import silu_mul_nvfp4_quant

out_dir = os.environ.get("OUT", "/tmp/out")
results = []
what = sys.argv[1:] or ["large", "fused"]
FUSED_MS = tuple(int(v) for v in os.environ.get("FUSED_MS", "1,8,64").split(","))
LARGE_SHAPES = [(36864, 7168), (34816, 5120), (9216, 7168), (4096, 7168)][
    :int(os.environ.get("LARGE_SHAPES", "4"))]
LARGE_MS = tuple(int(v) for v in os.environ.get("LARGE_MS", "16,64,256,1024,4096").split(","))


def weights(n, k, copies):
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    b, b_sf = reference.nvfp4_quantize(w, 100.0)
    return w, [(b.clone(), b_sf.clone()) for _ in range(copies)]


if "large" in what:
    alpha = torch.full((1,), 0.5, device="cuda")
    for n, k in [(36864, 7168), (7168, 18432), (4096, 7168), (34816, 5120)]:
        w16, bs = weights(n, k, 1)
        b, b_sf = bs[0]
        for m in (256, 1024, 4096, 16384):
            if m == 16384 and n != 36864:
                continue
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            flop = 2 * m * n * k
            t_cublas = time_graph_us([lambda: torch.mm(a, w16.t(), out=out)], calls_per_graph=20)
            row = {"kind": "large", "n": n, "k": k, "m": m, "cublas_us": t_cublas}
            for tile_m in (128, 256):
                try:
                    t = time_graph_us([lambda: launch_large_m(a, b, b_sf, alpha, out,
                                                              (tile_m, 0))], calls_per_graph=20)
                except Exception as e:  # noqa: BLE001 - report and go on
                    print("large_m failed", n, k, m, tile_m, repr(e)[:200])
                    t = float("nan")
                row[f"ours{tile_m}_us"] = t
            best = min(row["ours128_us"], row["ours256_us"])
            print(f"large N={n} K={k} M={m}: cuBLAS {t_cublas:.1f} us "
                  f"({flop / t_cublas / 1e6:.0f} TF/s) ours128 {row['ours128_us']:.1f} "
                  f"ours256 {row['ours256_us']:.1f} ({flop / best / 1e6:.0f} TF/s) "
                  f"ratio {t_cublas / best:.2f}", flush=True)
            results.append(row)
        del w16, bs, b, b_sf

if "fused" in what:
    alpha = torch.full((1,), 0.5, device="cuda")
    g_out = torch.full((1,), 30.0, device="cuda")
    for two_i, k in [(36864, 7168), (34816, 5120), (9216, 7168), (4096, 7168), (1024, 7168)]:
        i = two_i // 2
        wbytes = two_i * k // 2 + two_i * k // 16
        copies = rotations_for(wbytes)
        w16 = torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
        ws = [reference.nvfp4_quantize(w16, 100.0) for _ in range(copies)]
        w16s = [w16.clone() for _ in range(rotations_for(two_i * k * 2))]
        for m in FUSED_MS:
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            a, a_sf = reference.nvfp4_quantize(x, 100.0)
            q = torch.empty(m, i // 2, dtype=torch.uint8, device="cuda")
            mp = -(-m // 128) * 128
            sf = torch.empty(mp * (i // 16), dtype=torch.uint8, device="cuda")
            gu = torch.empty(m, two_i, dtype=torch.bfloat16, device="cuda")
            cfg = swiglu_small_m_config(m, i, k)
            fused = [lambda w=w: launch_fused(a, a_sf, w[0], w[1], alpha, g_out, q, sf, cfg)
                     for w in ws]
            gcfg = small_m_config(m, two_i, k)

            def unfused_call(w):
                launch_small_m(a, a_sf, w[0], w[1], alpha, gu, gcfg)
                silu_mul_nvfp4_quant(gu, g_out)
            unfused = [lambda w=w: unfused_call(w) for w in ws]
            cublas = [lambda w=w: (lambda y: F.silu(y[:, :i]) * y[:, i:])(x @ w.t())
                      for w in w16s]
            tf, tu, tc = (time_graph_us(c, calls_per_graph=100) for c in (fused, unfused, cublas))
            roof = wbytes / 4.27e6  # us at the copy bandwidth
            print(f"fused 2I={two_i} K={k} M={m}: fused {tf:.1f} us ({roof / tf:.0%} of "
                  f"roofline {roof:.1f}) unfused {tu:.1f} cuBLAS+silu {tc:.1f} "
                  f"-> {tc / tf:.2f}x cuBLAS, {tu / tf:.2f}x unfused", flush=True)
            results.append({"kind": "fused", "two_i": two_i, "k": k, "m": m, "fused_us": tf,
                            "unfused_us": tu, "cublas_silu_us": tc, "roofline_us": roof})
        del ws, w16s, w16

if "fusedlarge" in what:
    # The fused kernel through the public function (its own regime choice) against the
    # unfused pair and cuBLAS bf16 + torch silu*mul, M from the small/large boundary up.
    from cute_kernels.nvfp4_gemm import nvfp4_gemm
    from cute_kernels.nvfp4_gemm_swiglu_quant import nvfp4_gemm_swiglu_quant

    for two_i, k in LARGE_SHAPES:
        i = two_i // 2
        w16 = torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
        w, w_sf = reference.nvfp4_quantize(w16, 100.0)
        for m in LARGE_MS:
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            a, a_sf = reference.nvfp4_quantize(x, 100.0)

            def unfused():
                silu_mul_nvfp4_quant(nvfp4_gemm(a, a_sf, w, w_sf, 0.5), 30.0)

            calls = {"fused": lambda: nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, 0.5, 30.0),
                     "unfused": unfused,
                     "cublas": lambda: (lambda y: F.silu(y[:, :i]) * y[:, i:])(x @ w16.t())}
            t = {}
            for name, c in calls.items():
                try:
                    t[name] = time_graph_us([c], calls_per_graph=10)
                except Exception as e:  # noqa: BLE001 - report and go on
                    print(f"{name} failed at M={m}: {repr(e)[:160]}")
                    t[name] = float("nan")
            print(f"fusedlarge 2I={two_i} K={k} M={m}: fused {t['fused']:.1f} unfused "
                  f"{t['unfused']:.1f} cuBLAS+silu {t['cublas']:.1f} us -> "
                  f"{t['unfused'] / t['fused']:.2f}x unfused, {t['cublas'] / t['fused']:.2f}x "
                  "cuBLAS", flush=True)
            results.append({"kind": "fusedlarge", "two_i": two_i, "k": k, "m": m, **t})
        del w16, w, w_sf

os.makedirs(out_dir, exist_ok=True)
with open(os.path.join(out_dir, "gemm_probe3.json"), "w") as f:
    json.dump(results, f, indent=1)
