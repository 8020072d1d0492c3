"""NVFP4 GEMM: ours vs cuBLAS bf16 (same shape, bf16 weights) and QuACK ``gemm_w4a16`` NVFP4.

Rows per (N x K, M): ours with NVFP4 activations (W4A4), the same with the weights as
``prepare_nvfp4_weight``'s permuted words (W4A4 permuted: the layout the models use), and with
bf16 activations (W4A16, the like-for-like comparison with QuACK), on packed bytes and on
permuted words (W4A16 permuted). Bytes = packed weights + scales + activations + output, so
at M = 1 the "% copy" column is the fraction of the DRAM roofline. From M = 256
(compute-bound) the permuted W4A4 GEMM and cuBLAS are also timed each in its own steady state
under the power cap ("sustained", ``time_sustained_us``); the other rows start every graph
from the same state (``timing``'s module notes). ``--sweep`` first times every small-M tile
config on a few shapes and prints the best per M, then the small/large crossover table behind
``small_m_regime``.
"""

from __future__ import annotations

import torch

from .. import reference
from ..nvfp4_dequant import nvfp4_dequantize
from ..nvfp4_gemm import launch_small_m, nvfp4_gemm, small_m_config
from ..nvfp4_gemm_large_m import launch_large_m
from ..permuted_fp4 import prepare_nvfp4_weight
from .report import Row
from .timing import (SUSTAINED_MIN_M, rotations_for, select_ms, select_shapes, time_graph_us,
                     time_graphs_interleaved_us, time_sustained_us)

SHAPES = [(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120), (9216, 7168),
          (4096, 7168), (7168, 2048)]
MS = [1, 4, 8, 16, 32, 64, 128, 256, 1024]
# (row_tiles, token_tiles, warps, prefetch)
CONFIGS = [(1, 1, 4, 1), (1, 1, 4, 0), (2, 1, 4, 1), (1, 1, 8, 1), (2, 1, 8, 1), (1, 1, 16, 1),
           (1, 2, 4, 1), (2, 2, 4, 0), (1, 2, 8, 1), (2, 4, 4, 0), (4, 4, 4, 0), (2, 4, 8, 0),
           (2, 1, 4, 3), (1, 1, 8, 3), (2, 2, 4, 2)]  # prefetch >= 2: the cp.async ring


def _weights(n, k):
    w = torch.randn(n, k, device="cuda") * torch.pow(10.0, torch.rand(n, 1, device="cuda") - 1)
    g = 448 * 6 / w.abs().amax()
    b, b_sf = reference.nvfp4_quantize(w.to(torch.bfloat16), g)
    return b, b_sf


def _activations(m, k):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 448 * 6 / x.float().abs().amax())
    return x, a, a_sf


def _quack(copies, n, k):
    """QuACK's prepared form of each weight copy, or None where QuACK is not installed."""
    try:
        from quack.gemm_w4 import gemm_w4a16, prepare_w4_weight
    except Exception:  # noqa: BLE001 - optional comparator
        return None
    prepared = []
    for b, b_sf in copies:
        sf_dense = reference._unswizzle(b_sf, n, k // 16, "b_sf")
        prepared.append(prepare_w4_weight(b, sf_dense, wformat="nvfp4"))
    return [lambda x, p=p: gemm_w4a16(x, p[0], p[1], tensor_scale=0.5, wformat="nvfp4")
            for p in prepared]


def sweep_configs(shapes=((36864, 7168), (7168, 18432), (4096, 7168), (7168, 2048)), ms=(1, 16, 64)):
    for n, k in shapes:
        copies = [_weights(n, k) for _ in range(rotations_for(n * k // 2))]
        for m in ms:
            x, a, a_sf = _activations(m, k)
            d = torch.empty(m, n, dtype=torch.bfloat16, device="cuda")
            al = torch.full((1,), 0.5, device="cuda")
            times = {}
            for cfg in CONFIGS:
                times[cfg] = time_graph_us([
                    lambda b=b, s=s, c=cfg: launch_small_m(a, a_sf, b, s, al, d, c)
                    for b, s in copies])
            best = min(times, key=times.get)
            cur = small_m_config(m, n, k, a_sf is not None)
            print(f"sweep nvfp4 small-M {n}x{k} M={m}: best {best} {times[best]:.2f} us; "
                  f"current {cur} {times.get(cur, float('nan')):.2f} us; "
                  f"worst {max(times.values()):.2f} us")
        del copies


def crossover_table(ms=(16, 32, 64, 128)):
    """The measurements behind ``small_m_regime``: per shape and M, the small-M kernel (its
    config) against the large-M kernel (dequantized activations + wgmma; best token tile),
    W4A4, graph us."""
    print("crossover (W4A4, graph us): N x K, M, small-M, large-M (tile), winner")
    for n, k in SHAPES:
        copies = [_weights(n, k) for _ in range(rotations_for(n * k // 2))]
        al = torch.full((1,), 0.5, device="cuda")
        for m in ms:
            x, a, a_sf = _activations(m, k)
            d = torch.empty(m, n, dtype=torch.bfloat16, device="cuda")
            small = time_graph_us([lambda b=b, s=s: launch_small_m(
                a, a_sf, b, s, al, d, small_m_config(m, n, k, a_sf is not None))
                for b, s in copies])
            large = {}
            for tile in (64, 128):
                large[tile] = time_graph_us([lambda b=b, s=s, t=tile: launch_large_m(
                    nvfp4_dequantize(a, a_sf, 1.0), b, s, al, d, (t, 0)) for b, s in copies])
            tile = min(large, key=large.get)
            print(f"crossover {n}x{k} M={m}: small {small:.1f} large {large[tile]:.1f} "
                  f"(tile {tile}) -> {'small' if small <= large[tile] else 'large'}", flush=True)
        del copies


def run(quick: bool = False, sweep: bool = False, **_) -> list[Row]:
    if sweep:
        sweep_configs()
        crossover_table()
    rows = []
    for n, k in select_shapes(SHAPES[:3] if quick else SHAPES):
        wbytes = n * k // 2 + n * k // 16
        copies = [_weights(n, k) for _ in range(rotations_for(wbytes))]
        permuted = [(prepare_nvfp4_weight(b), s) for b, s in copies]
        w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
               for _ in range(rotations_for(n * k * 2))]
        quack = _quack(copies, n, k)
        for m in select_ms(MS[:6] if quick else MS):
            x, a, a_sf = _activations(m, k)
            flops = 2 * m * n * k
            w4a4 = [lambda b=b, s=s: nvfp4_gemm(a, a_sf, b, s, 0.5) for b, s in copies]
            w4a4p = [lambda b=b, s=s: nvfp4_gemm(a, a_sf, b, s, 0.5) for b, s in permuted]
            w4a16 = [lambda b=b, s=s: nvfp4_gemm(x, None, b, s, 0.5) for b, s in copies]
            w4a16p = [lambda b=b, s=s: nvfp4_gemm(x, None, b, s, 0.5) for b, s in permuted]
            # ours and cuBLAS in turn: drift during the run cannot tilt the ratio
            cublas_calls = [lambda w=w: torch.nn.functional.linear(x, w) for w in w16]
            w4a4_us, w4a4p_us, w4a16_us, w4a16p_us, cublas = time_graphs_interleaved_us(
                [w4a4, w4a4p, w4a16, w4a16p, cublas_calls])
            comps = {"cuBLAS bf16": cublas}
            if quack is not None:
                try:
                    comps["QuACK w4a16"] = time_graph_us([lambda q=q: q(x) for q in quack])
                except Exception as e:  # noqa: BLE001 - report, keep measuring
                    print(f"QuACK gemm_w4a16 failed at M={m} {n}x{k}: {e}")
            rows.append(Row("nvfp4_gemm", "nvfp4_gemm W4A4", f"M={m} N={n} K={k}",
                            w4a4_us, bytes=wbytes + m * k * 9 // 16 + m * n * 2,
                            flops=flops, comparators=comps))
            rows.append(Row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", f"M={m} N={n} K={k}",
                            w4a4p_us, bytes=wbytes + m * k * 9 // 16 + m * n * 2,
                            flops=flops, comparators=comps))
            for label, us in (("nvfp4_gemm W4A16", w4a16_us),
                              ("nvfp4_gemm W4A16 permuted", w4a16p_us)):
                rows.append(Row("nvfp4_gemm", label, f"M={m} N={n} K={k}", us,
                                bytes=wbytes + m * k * 2 + m * n * 2, flops=flops,
                                comparators=comps))
            if m >= SUSTAINED_MIN_M:  # compute-bound: the power cap's steady state too
                ours_s, cublas_s = time_sustained_us([w4a4p, cublas_calls])
                rows.append(Row("nvfp4_gemm", "W4A4 permuted sustained", f"M={m} N={n} K={k}",
                                ours_s, flops=flops,
                                comparators={"cuBLAS bf16 sustained": cublas_s}))
        del copies, permuted, w16
    return rows
