"""Quantization kernels on the H200, short form: six configs on two shapes, then the issue's
shapes at M = 4096 with the default config, as % of the copy bandwidth."""

import torch

from cute_kernels.bench.quant_suite import sweep_configs
from cute_kernels.bench.timing import time_graph_us
from cute_kernels.nvfp4_quant import nvfp4_quantize, silu_mul_nvfp4_quant

COPY_TBPS = 4.24  # torch copy_ at 256 MiB, measured in this session's quant bench

sweep_configs(shapes=((16384, 7168, False), (16384, 7168, True)),
              configs=[(4, 4, 8, True), (4, 4, 8, False), (4, 8, 4, True), (4, 4, 16, True),
                       (4, 4, 16, False), (2, 8, 8, True)])
for fused in (False, True):
    for m in (4096,):
        for k in (5120, 7168, 17408, 18432):
            width = 2 * k if fused else k
            xs = [torch.randn(m, width, device="cuda", dtype=torch.bfloat16) for _ in range(2)]
            fn = silu_mul_nvfp4_quant if fused else nvfp4_quantize
            t = time_graph_us([lambda x=x: fn(x, 100.0) for x in xs], calls_per_graph=20)
            nbytes = m * width * 2 + m * k // 2 + m * k // 16
            tbps = nbytes / t / 1e6
            print(f"{'silu_mul_nvfp4_quant' if fused else 'nvfp4_quantize':<21} M={m:<6} K={k:<6}"
                  f" {t:8.2f} us {tbps:5.2f} TB/s {tbps / COPY_TBPS:6.1%} of copy", flush=True)
            del xs
