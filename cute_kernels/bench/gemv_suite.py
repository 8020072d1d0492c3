"""Decode GEMV (M = 1): ours vs cuBLAS (torch.nn.functional.linear), CUDA-graph timing.

``--sweep`` also times every tile config per shape and prints the best, which is how the
defaults in ``linear._TUNED`` were chosen.
"""

from __future__ import annotations

import torch

from ..gemv import compile_gemv
from ..linear import _DEFAULT_CONFIG, _TUNED, _TUNED_FP8, bf16_gemv, fp8_gemv
from .report import Row
from .timing import rotations_for, time_eager_us, time_graph_us

# Qwen3.8-27B and DeepSeek-V3 decode shapes (N, K) from DESIGN.md.
SHAPES = [(5120, 6144), (8192, 5120), (16384, 5120), (14336, 5120), (5120, 17408),
          (34816, 5120), (36864, 7168), (7168, 18432), (4096, 7168), (7168, 2048),
          (9216, 7168), (7168, 4608), (1024, 7168), (248320, 5120)]
CONFIGS = [(1, 4, 4), (1, 4, 8), (2, 4, 2), (2, 4, 4), (2, 4, 8), (4, 4, 2), (4, 4, 4), (2, 8, 4), (4, 8, 2), (1, 8, 8)]


def _time_config(x, ws, cfg):
    n, k = ws[0].shape
    fp8 = x.dtype == torch.float8_e4m3fn
    out_dtype = torch.bfloat16
    fn = compile_gemv(n, k, str(x.dtype), False, *cfg, str(out_dtype), fp8)
    y = torch.empty(1, n, dtype=out_dtype, device="cuda")
    alpha = torch.ones(1, device="cuda")
    return time_graph_us([lambda w=w: fn(x, w, y.view(n), alpha, y) for w in ws])


def _weights(n, k, dtype, scale=1.0):
    return [(torch.randn(n, k, device="cuda") * scale).to(dtype)
            for _ in range(rotations_for(n * k * dtype.itemsize))]


def sweep_configs(shapes=SHAPES[:10], dtype=torch.bfloat16) -> dict:
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
        _TUNED_FP8.update(sweep_configs(SHAPES[:10], torch.float8_e4m3fn))
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
        rows.append(_fp8_row(n, k))
    return rows


def _fp8_row(n: int, k: int) -> Row:
    x = torch.randn(1, k, device="cuda").to(torch.float8_e4m3fn)
    x16 = torch.zeros(16, k, device="cuda").to(torch.float8_e4m3fn)
    x16[0] = x[0]
    ws = _weights(n, k, torch.float8_e4m3fn)
    alpha = torch.full((1,), 0.5, device="cuda")
    one = torch.ones((), device="cuda")
    ours = [lambda w=w: fp8_gemv(x, w, alpha) for w in ws]
    scaled_mm = [lambda w=w: torch._scaled_mm(x16, w.t(), scale_a=one, scale_b=alpha.view(()),
                                              out_dtype=torch.bfloat16) for w in ws]
    return Row("gemv", "fp8_gemv", f"M=1 N={n} K={k}", time_graph_us(ours),
               eager_us=time_eager_us(ours), bytes=n * k + k + n * 2,
               comparators={"_scaled_mm M=16": time_graph_us(scaled_mm)})
