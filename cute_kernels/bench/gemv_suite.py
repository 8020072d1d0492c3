"""Decode GEMV (M = 1): ours vs cuBLAS (torch.nn.functional.linear), CUDA-graph timing.

``--sweep`` also times every tile config per shape and prints the best, which is how the
defaults in ``linear._TUNED`` were chosen.
"""

from __future__ import annotations

import torch

from ..gemv import compile_gemv
import time

from ..linear import (_DEFAULT_CONFIG, _TUNED, _TUNED_FP8, bf16_gemv, fp8_gemv, fp8_linear,
                      use_bf16_gemv, use_fp8_gemv)
from .report import Row
from .timing import rotations_for, time_eager_us, time_graph_us

# Qwen3.8-27B and DeepSeek-V3 decode shapes (N, K) from DESIGN.md.
SHAPES = [(5120, 6144), (8192, 5120), (16384, 5120), (14336, 5120), (5120, 17408),
          (34816, 5120), (36864, 7168), (7168, 18432), (4096, 7168), (7168, 2048),
          (9216, 7168), (7168, 4608), (1024, 7168), (248320, 5120)]
CONFIGS = [(1, 8, 16), (1, 4, 16), (2, 8, 8), (1, 4, 4), (1, 4, 8), (2, 4, 2), (2, 4, 4), (2, 4, 8), (4, 4, 2), (4, 4, 4), (2, 8, 4), (4, 8, 2), (1, 8, 8)]


def _time_config(x, ws, cfg):
    n, k = ws[0].shape
    fp8 = x.dtype == torch.float8_e4m3fn
    out_dtype = torch.bfloat16
    fn = compile_gemv(n, k, str(x.dtype), False, *cfg, str(out_dtype), fp8)
    y = torch.empty(1, n, dtype=out_dtype, device="cuda")
    alpha = torch.ones(1, device="cuda")
    return time_graph_us([lambda w=w: fn(x, w, y.view(n), alpha, alpha, y) for w in ws])


def _weights(n, k, dtype, scale=1.0):
    return [(torch.randn(n, k, device="cuda") * scale).to(dtype)
            for _ in range(rotations_for(n * k * dtype.itemsize))]


def sweep_configs(shapes=SHAPES[:12], dtype=torch.bfloat16) -> dict:
    best = {}
    for n, k in shapes:
        x = torch.randn(1, k, device="cuda").to(dtype)
        ws = _weights(n, k, dtype)
        times = {cfg: _time_config(x, ws, cfg) for cfg in CONFIGS}
        cfg = min(times, key=times.get)
        best[(n, k)] = cfg
        print(f"sweep {dtype} {n}x{k}: best {cfg} {times[cfg]:.2f} us; default {_DEFAULT_CONFIG} "
              f"{times[_DEFAULT_CONFIG]:.2f} us; worst {max(times.values()):.2f} us")
        del ws
    return best


def run(quick: bool = False, sweep: bool = False) -> list[Row]:
    if sweep:
        _TUNED.update(sweep_configs())
        _TUNED_FP8.update(sweep_configs(SHAPES[:12], torch.float8_e4m3fn))
    rows = []
    for n, k in SHAPES[:4] if quick else SHAPES:
        x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
        ws = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) * 0.02
              for _ in range(rotations_for(n * k * 2))]
        ours = [lambda w=w: bf16_gemv(x, w) for w in ws]
        cublas = [lambda w=w: torch.nn.functional.linear(x, w) for w in ws]
        rows.append(Row("gemv", "bf16_gemv", f"M=1 N={n} K={k}", time_graph_us(ours),
                        eager_us=time_eager_us(ours), bytes=n * k * 2 + k * 2 + n * 2,
                        comparators={"cuBLAS": time_graph_us(cublas),
                                     "cuBLAS eager": time_eager_us(cublas)}))
        del ws
    for n, k in SHAPES[:4] if quick else SHAPES[:13]:
        rows.extend(_fp8_rows(n, k))
    _print_predicate_table(rows)
    rows.extend(_host_overhead_rows())
    return rows


def _print_predicate_table(rows: list[Row]) -> None:
    """The measurements behind use_bf16_gemv / use_fp8_gemv: ratio to the library GEMM."""
    print("\npredicate table (graph us; ratio = library / ours; 'use' = what the predicate says)")
    for r in rows:
        n, k = (int(p.split("=")[1]) for p in r.shape.split()[1:])
        if r.name == "fp8_linear":
            continue
        lib = r.comparators.get("cuBLAS", r.comparators.get("_scaled_mm M=16"))
        use = (use_bf16_gemv if r.name == "bf16_gemv" else use_fp8_gemv)(1, n, k)
        print(f"  {r.name:<10} {n:>6}x{k:<6} ours {r.us:7.2f} lib {lib:7.2f} ratio {lib / r.us:5.2f}"
              f"  use={use}")


def _host_us(fn, calls: int = 1000) -> float:
    """CPU microseconds per call over back-to-back calls, no sync inside the loop."""
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    cpu = time.perf_counter() - t0
    torch.cuda.synchronize()
    return cpu * 1e6 / calls


def _host_overhead_rows() -> list[Row]:
    n, k = 5120, 6144
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    xq, wq = x.to(torch.float8_e4m3fn), w.to(torch.float8_e4m3fn)
    alpha = torch.ones(1, device="cuda")
    lin = _host_us(lambda: torch.nn.functional.linear(x, w))
    return [Row("host", "bf16_gemv (CPU us/call)", f"M=1 N={n} K={k}",
                _host_us(lambda: bf16_gemv(x, w)), comparators={"F.linear CPU": lin}),
            Row("host", "fp8_gemv (CPU us/call)", f"M=1 N={n} K={k}",
                _host_us(lambda: fp8_gemv(xq, wq, alpha)), comparators={"F.linear CPU": lin})]


def _fp8_rows(n: int, k: int) -> list[Row]:
    x = torch.randn(1, k, device="cuda").to(torch.float8_e4m3fn)
    x16 = torch.zeros(16, k, device="cuda").to(torch.float8_e4m3fn)
    x16[0] = x[0]
    ws = _weights(n, k, torch.float8_e4m3fn)
    alpha = torch.full((1,), 0.5, device="cuda")
    one = torch.ones((), device="cuda")
    ours = [lambda w=w: fp8_gemv(x, w, alpha) for w in ws]
    scaled_mm = [lambda w=w: torch._scaled_mm(x16, w.t(), scale_a=one, scale_b=alpha.view(()),
                                              out_dtype=torch.bfloat16) for w in ws]
    xb = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    fused = [lambda w=w: fp8_linear(xb, w, alpha, alpha) for w in ws]
    # What fp8_linear replaces: quantize x (M padded to 16), then _scaled_mm.
    x16b = torch.zeros(16, k, device="cuda", dtype=torch.bfloat16)

    def unfused(w):
        x16b[:1].copy_(xb)
        q = (x16b / alpha).clamp(-448, 448).to(torch.float8_e4m3fn)
        return torch._scaled_mm(q, w.t(), scale_a=alpha.view(()), scale_b=alpha.view(()),
                                out_dtype=torch.bfloat16)

    return [Row("gemv", "fp8_gemv", f"M=1 N={n} K={k}", time_graph_us(ours),
                eager_us=time_eager_us(ours), bytes=n * k + k + n * 2,
                comparators={"_scaled_mm M=16": time_graph_us(scaled_mm)}),
            Row("gemv", "fp8_linear", f"M=1 N={n} K={k}", time_graph_us(fused),
                eager_us=time_eager_us(fused), bytes=n * k + 2 * k + n * 2,
                comparators={"quant+_scaled_mm": time_graph_us([lambda w=w: unfused(w)
                                                                for w in ws])})]
