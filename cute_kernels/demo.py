"""The main job: ``python -m cute_kernels.demo``.

With a GPU: runs every kernel against the reference and prints a timing table against cuBLAS
(CUDA-graph timing). Without one: compiles every kernel for sm_90a, runs the reference path on
the CPU, and says plainly that no GPU was found.
"""

from __future__ import annotations

import argparse
import time

import torch

from . import reference
from .arch import has_gpu, target_arch

# (name, compile function, scalar args) for every kernel family: compiled in CPU mode.
def _kernels():
    from .gdn_split import compile_gdn_qkvzba_split
    from .gemv import compile_gemv
    from .nvfp4_dequant import compile_nvfp4_dequant
    from .nvfp4_gemm_small_m import compile_nvfp4_gemm_small_m
    from .nvfp4_quant import compile_nvfp4_quant

    return [
        ("nvfp4_dequantize K=7168 bf16", compile_nvfp4_dequant, (7168, "torch.bfloat16")),
        ("bf16_gemv 5120x6144", compile_gemv, (5120, 6144, "torch.bfloat16", False)),
        ("nvfp4_quantize K=7168", compile_nvfp4_quant, (7168, "torch.bfloat16", False, False)),
        ("silu_mul_nvfp4_quant I=18432", compile_nvfp4_quant,
         (18432, "torch.bfloat16", True, False)),
        ("nvfp4_gemm M<=8 36864x7168", compile_nvfp4_gemm_small_m,
         (36864, 7168, "fp4", "torch.bfloat16", 2, 1, 4, 1)),
        ("gdn_qkvzba_split Qwen3.8", compile_gdn_qkvzba_split,
         (16, 48, 128, 128, "contiguous", "torch.bfloat16")),
    ]


def _cpu_demo() -> int:
    from .testing import compile_only

    print(f"No CUDA GPU found: compiling the kernels for {target_arch()} and running the "
          "reference path on the CPU. Nothing below ran on a GPU.\n")
    print(f"{'kernel':<34} {'compile s':>9}")
    for name, fn, args in _kernels():
        t0 = time.perf_counter()
        compile_only(fn, *args)
        print(f"{name:<34} {time.perf_counter() - t0:9.2f}")
    x = torch.randn(64, 7168, dtype=torch.bfloat16)
    g = 448 * 6 / x.abs().max().float()
    q, sf = reference.nvfp4_quantize(x, g)
    back = reference.nvfp4_dequantize(q, sf, g, out_dtype=torch.float32)
    err = ((back - x.float()).norm() / x.float().norm()).item()
    print(f"\nreference NVFP4 round trip of a 64x7168 bf16 tensor: relative error {err:.4f}")
    gate_up = torch.randn(8, 2 * 2048, dtype=torch.bfloat16)
    q2, sf2 = reference.silu_mul_nvfp4_quant(gate_up, 448 * 6 / 4.0)
    print(f"reference silu_mul_nvfp4_quant 8x4096 -> packed {tuple(q2.shape)}, scales {tuple(sf2.shape)}")
    print("\nNo CUDA GPU found: kernels compiled only; run on a GPU for checks and timings.")
    return 0


def _gpu_demo() -> int:
    from .bench.timing import rotations_for, time_graph_us
    from .nvfp4_dequant import nvfp4_dequantize

    print(f"GPU: {torch.cuda.get_device_name()} ({target_arch()}); times are CUDA-graph replay, "
          "median, rotating input copies past the L2.\n")
    print(f"{'kernel':<20} {'shape':<16} {'check':<10} {'ours us':>8} {'GB/s':>7} "
          f"{'cuBLAS us':>9}  cuBLAS op")
    for n, k in [(7168, 18432), (36864, 7168)]:
        w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        g = 448 * 6 / w.abs().max().float()
        q, sf = reference.nvfp4_quantize(w, g)
        got = nvfp4_dequantize(q, sf, g)
        ok = torch.equal(got, reference.nvfp4_dequantize(q, sf, g, out_dtype=torch.bfloat16))
        nbytes = q.numel() + sf.numel() + w.numel() * 2
        copies = [(q.clone(), sf.clone()) for _ in range(rotations_for(nbytes))]
        us = time_graph_us([lambda c=c: nvfp4_dequantize(c[0], c[1], g) for c in copies])
        x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
        ws = [w.clone() for _ in range(rotations_for(w.numel() * 2))]
        cublas = time_graph_us([lambda w=w: torch.nn.functional.linear(x, w) for w in ws])
        print(f"{'nvfp4_dequantize':<20} {f'{n}x{k}':<16} {'bit-exact' if ok else 'MISMATCH':<10} "
              f"{us:8.1f} {nbytes / us / 1e3:7.0f} {cublas:9.1f}  bf16 GEMV M=1 on the same weight")
        if not ok:
            return 1
    return _gpu_demo_nvfp4_gemm()


def _gpu_demo_nvfp4_gemm() -> int:
    """NVFP4 weights at decode (M = 1): the weight-streaming GEMM vs cuBLAS on bf16 weights."""
    from .bench.timing import rotations_for, time_graph_us
    from .nvfp4_gemm import nvfp4_gemm

    n, k = 36864, 7168
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    b, b_sf = reference.nvfp4_quantize(w, 448 * 6 / w.abs().max().float())
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 448 * 6 / x.abs().max().float())
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 0.5)
    got = nvfp4_gemm(a, a_sf, b, b_sf, 0.5, out_dtype=torch.float32)
    err = ((got.double() - want).norm() / want.norm()).item()
    copies = [(b.clone(), b_sf.clone()) for _ in range(rotations_for(b.numel() * 9 // 8))]
    us = time_graph_us([lambda c=c: nvfp4_gemm(a, a_sf, c[0], c[1], 0.5) for c in copies])
    ws = [w] + [w.clone() for _ in range(rotations_for(w.numel() * 2) - 1)]
    cublas = time_graph_us([lambda w=w: torch.nn.functional.linear(x, w) for w in ws])
    nbytes = b.numel() + b_sf.numel()
    print(f"{'nvfp4_gemm M=1':<20} {f'{n}x{k}':<16} {f'rel {err:.0e}':<10} {us:8.1f} "
          f"{nbytes / us / 1e3:7.0f} {cublas:9.1f}  bf16 GEMV M=1 on the unquantized weight")
    return 0 if err <= 1e-3 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cute_kernels.demo", description=__doc__)
    parser.parse_args(argv)
    return _gpu_demo() if has_gpu() else _cpu_demo()


if __name__ == "__main__":
    raise SystemExit(main())
