"""The quantization kernels against a copy of their own size. Issue 4 sets 85% of the copy
bandwidth at M >= 4096; ``quant_bw_probe.py`` divides by the 256 MiB copy's figure, and at
M = 4096, K = 5120 a call moves 54 MB, where a copy's own ramp and tail weigh more. Per shape:
the default kernel (public function, graph us), then a device copy of the same byte count
(half read, half written; the better of torch ``copy_`` and the DSL stream copy, copies
rotated past the L2) as TB/s and as % of the 256 MiB figure, and the kernel's rate as % of
each. H200 figures go to ``notes/quant-bw.md``."""

import torch

from cute_kernels import nvfp4_quantize, silu_mul_nvfp4_quant
from cute_kernels.bench.ceilings import copy_bandwidth_tbs
from cute_kernels.bench.timing import rotations_for, time_graph_us, warm_only


def sf_bytes(m: int, k: int) -> int:
    return -(-m // 128) * 128 * -(-(k // 16) // 4) * 4


SHAPES = [(fused, m, k) for fused in (False, True)
          for m, k in [(4096, 5120), (4096, 7168), (4096, 17408), (4096, 18432), (16384, 5120),
                       (16384, 18432)]]
# every kernel first, then the copies: a timing right after the ceilings' clock warm-up ran
# slow (``ceilings._warm_clocks`` was dense matmuls then)
kernel_us = {}
for fused, m, k in SHAPES:
    width = 2 * k if fused else k
    xs = [torch.randn(m, width, device="cuda", dtype=torch.bfloat16)
          for _ in range(rotations_for(2 * m * width))]
    fn = silu_mul_nvfp4_quant if fused else nvfp4_quantize
    kernel_us[fused, m, k] = time_graph_us([lambda x=x: fn(x, 30.0) for x in xs], 20)
    del xs
if not warm_only():
    big = copy_bandwidth_tbs(256 << 20, "torch")
    print(f"torch copy_ 256 MiB: {big:.2f} TB/s", flush=True)
    for (fused, m, k), us in kernel_us.items():
        moved = 2 * m * (2 * k if fused else k) + m * k // 2 + sf_bytes(m, k)
        copies = rotations_for(moved // 2)
        same = max(copy_bandwidth_tbs(moved // 2, kind, copies) for kind in ("torch", "ours"))
        rate = moved / (us * 1e-6) / 1e12
        print(f"{'fused' if fused else 'plain'} M={m} K={k}: {us:.2f} us {rate:.2f} TB/s | "
              f"copy of {moved / 1e6:.0f} MB {same:.2f} TB/s ({same / big:.0%} of 256 MiB) | "
              f"kernel {rate / big:.1%} of the 256 MiB copy, {rate / same:.1%} of the "
              f"same-size copy", flush=True)
