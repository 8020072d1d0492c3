"""NVFP4 quantization: ``nvfp4_quantize``, ``silu_mul_nvfp4_quant`` and the masked-experts
variant, CUDA-graph timing. Bytes = bytes read + bytes written (input, codes, swizzled scales),
so the rate is directly comparable to the copy bandwidth.

Comparators: the reference in torch ops (eager only: it synchronises with the host, so it cannot
be captured), and for the fused kernel the unfused path an engine would otherwise run, torch
``silu_mul`` (``reference.silu_mul``: same numerics, several elementwise kernels) followed by
our ``nvfp4_quantize``, graph-timed. At M = 1..64 every kernel is launch-bound, so an
"empty launch" row (a one-element torch ``add_``) shows the floor. At M >= 4096 a ``copy, same
bytes`` comparator times ``Tensor.copy_`` moving the kernel's byte count (half read, half
written) over buffers rotated past the L2: its ratio is the fraction of a copy of the same
size, beside the "% copy" column's 256 MiB ceiling (short launches ramp up and drain too).

``--sweep`` first times every (vecs, warps) kernel config on a few shapes and prints the best.
"""

from __future__ import annotations

import torch

from .. import reference
from ..arch import sm_count
from ..nvfp4_quant import (BLOCK, compile_nvfp4_quant, nvfp4_quantize, silu_mul_nvfp4_quant,
                           silu_mul_nvfp4_quant_experts)
from .ceilings import copy_bandwidth_tbs
from .report import Row
from .timing import rotations_for, time_eager_us, time_graph_us

KS = [5120, 7168, 17408, 18432]  # hidden and intermediate sizes of Qwen3.8-27B and DeepSeek-V3
LARGE_M = [4096, 16384]
SMALL_M = [1, 8, 64]
EXPERTS = [(8, 128), (8, 1024), (32, 128), (32, 1024)]  # (E, M); I = 2048 (DeepSeek experts)
EXPERT_I = 2048
# (vecs, warps, CTAs per SM of the persistent grid, prefetch the next item)
CONFIGS = [(4, 4, 8, True), (4, 4, 8, False), (4, 8, 4, True), (4, 8, 4, False),
           (4, 4, 16, True), (4, 4, 16, False), (2, 4, 8, True), (2, 8, 8, True),
           (4, 4, 4, True), (4, 4, 4, False), (4, 4, 2, False),
           # 8 loads per lane: the per-item index, address and scale-store work over 2048
           # elements (K = 7168 and 5120 then end in partial items)
           (8, 4, 8, False), (8, 4, 4, False)]


def _sf_bytes(m: int, k: int) -> int:
    return -(-m // 128) * 128 * -(-(k // BLOCK) // 4) * 4


def _quant_bytes(m: int, k: int, in_elems: int) -> int:
    return m * in_elems * 2 + m * k // 2 + _sf_bytes(m, k)


def _rows_input(m: int, width: int) -> torch.Tensor:
    return (torch.randn(m, width, device="cuda") * torch.rand(m, 1, device="cuda") * 4).to(
        torch.bfloat16)


def _copies(m: int, width: int, nbytes: int) -> list[torch.Tensor]:
    return [_rows_input(m, width) for _ in range(rotations_for(nbytes))]


def _g(x: torch.Tensor) -> torch.Tensor:
    # A device tensor: a Python float would add a fill kernel per call (as_scale_tensor).
    return reference.nvfp4_global_scale(x).reshape(1)


def _same_bytes_copy_us(nbytes: int) -> float:
    """Graph us of ``Tensor.copy_`` reading and writing ``nbytes / 2`` each (rotated copies)."""
    return nbytes / (copy_bandwidth_tbs(nbytes // 2, "torch", rotations_for(nbytes)) * 1e6)


def _quantize_rows(ms, ks) -> list[Row]:
    rows = []
    for m in ms:
        for k in ks:
            nbytes = _quant_bytes(m, k, k)
            xs = _copies(m, k, nbytes)
            g = _g(xs[0])
            ours = [lambda x=x: nvfp4_quantize(x, g) for x in xs]
            torch_ops = [lambda x=x: reference.nvfp4_quantize(x, g) for x in xs[:2]]
            rows.append(Row("quant", "nvfp4_quantize", f"M={m} K={k}", time_graph_us(ours),
                            eager_us=time_eager_us(ours), bytes=nbytes,
                            comparators={"torch ops (eager)": time_eager_us(torch_ops,
                                                                            repeats=5),
                                         "copy, same bytes": _same_bytes_copy_us(nbytes)}))
            del xs
    return rows


def _silu_rows(ms, ks) -> list[Row]:
    rows = []
    for m in ms:
        for i in ks:
            nbytes = _quant_bytes(m, i, 2 * i)
            xs = _copies(m, 2 * i, nbytes)
            g = _g(reference.silu_mul(xs[0]))
            ours = [lambda x=x: silu_mul_nvfp4_quant(x, g) for x in xs]
            unfused = [lambda x=x: nvfp4_quantize(reference.silu_mul(x), g) for x in xs]
            comps = {"torch silu_mul + ours": time_graph_us(unfused)}
            if m >= min(LARGE_M):
                comps["copy, same bytes"] = _same_bytes_copy_us(nbytes)
            rows.append(Row("quant", "silu_mul_nvfp4_quant", f"M={m} I={i}",
                            time_graph_us(ours), eager_us=time_eager_us(ours), bytes=nbytes,
                            comparators=comps))
            del xs
    return rows


def _experts_rows(cases, quick: bool) -> list[Row]:
    rows = []
    i = EXPERT_I
    for e, m in cases:
        for frac in (1, 8):  # every row valid; an eighth of the rows valid (decode-like)
            valid = m // frac
            # only the valid rows are read and written (their scales: pad4(I/16) bytes a row)
            nbytes = e * valid * (2 * i * 2 + i // 2 + _sf_bytes(128, i) // 128)
            xs = [_rows_input(e * m, 2 * i).view(e, m, 2 * i)
                  for _ in range(rotations_for(e * m * 4 * i))]
            mask = torch.full((e,), valid, dtype=torch.int32, device="cuda")
            gs = torch.full((e,), 448 * 6 / 8.0, device="cuda")
            ours = [lambda x=x: silu_mul_nvfp4_quant_experts(x, mask, gs) for x in xs]
            rows.append(Row("quant", "silu_mul_quant_experts", f"E={e} M={m} valid={valid} I={i}",
                            time_graph_us(ours), eager_us=time_eager_us(ours), bytes=nbytes))
            del xs
            if quick:
                break
    return rows


def _empty_launch_row() -> Row:
    t = torch.zeros(1, device="cuda")
    calls = [lambda: t.add_(1.0)]
    return Row("quant", "empty launch", "torch add_ on 1 element", time_graph_us(calls),
               eager_us=time_eager_us(calls))


def sweep_configs(shapes=((16384, 7168, False), (4096, 5120, False), (16384, 7168, True),
                          (64, 7168, True)),
                  configs=CONFIGS):
    """Time each (vecs, warps, CTAs per SM, prefetch) config of the kernel on a few
    (M, K, fused) shapes."""
    for m, k, silu in shapes:
        width = 2 * k if silu else k
        nbytes = _quant_bytes(m, k, width)
        xs = _copies(m, width, nbytes)
        g = torch.ones(1, device="cuda")
        mask = torch.zeros(1, dtype=torch.int32, device="cuda")
        packed = torch.empty(m, k // 2, dtype=torch.uint8, device="cuda")
        sf = torch.empty(_sf_bytes(m, k), dtype=torch.uint8, device="cuda")
        times = {}
        for cfg in configs:
            vecs, warps, per_sm, prefetch = cfg
            fn = compile_nvfp4_quant(k, str(torch.bfloat16), silu, False, vecs, warps,
                                     per_sm * sm_count(), prefetch)
            times[cfg] = time_graph_us([lambda x=x, fn=fn: fn(x, g, mask, packed, sf)
                                        for x in xs])
        best = min(times, key=times.get)
        table = "  ".join(f"{c}: {t:.1f}" for c, t in times.items())
        print(f"sweep M={m} K={k} fused={silu}: best (vecs, warps, CTAs/SM, prefetch) = {best}; {table} us")
        del xs


def run(quick: bool = False, sweep: bool = False, **_) -> list[Row]:
    if sweep:
        sweep_configs()
    ks = KS[:2] if quick else KS
    rows = _quantize_rows(LARGE_M[:1] if quick else LARGE_M, ks)
    rows += _silu_rows(LARGE_M[:1] if quick else LARGE_M, ks)
    rows += _silu_rows(SMALL_M, ks[:2])
    rows.append(_empty_launch_row())
    rows += _experts_rows(EXPERTS[:2] if quick else EXPERTS, quick)
    return rows
