#!/usr/bin/env bash
# Session 3, device call 3: NVFP4 GEMM tests with the wgmma large-M path wired in, the
# small/large crossover table, the plain quantization bandwidth after the bounds-check removal.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
t() { local lim=$1; shift; timeout "$lim" python -m pytest -m gpu -q -p no:cacheprovider "$@" 2>&1 | tail -15 > "$OUT/t-$(basename "$1" .py).log"; echo "== $1: $(tail -1 "$OUT/t-$(basename "$1" .py).log")"; }
t 150 tests/test_nvfp4_gemm_large_m.py
t 150 tests/test_nvfp4_gemm.py
t 60 tests/test_nvfp4_quant.py -k "bit_exact or special"
timeout 150 python -c "
from cute_kernels.bench.nvfp4_gemm_suite import crossover_table; crossover_table()" 2>&1 | grep crossover | tee "$OUT/crossover.log"
timeout 120 python -c "
import torch
from cute_kernels.bench.timing import time_graph_us
from cute_kernels.nvfp4_quant import nvfp4_quantize, silu_mul_nvfp4_quant
for m, k in [(4096, 5120), (4096, 7168), (4096, 18432), (16384, 7168)]:
    xs = [torch.randn(m, k, device='cuda', dtype=torch.bfloat16) for _ in range(4)]
    t = time_graph_us([lambda x=x: nvfp4_quantize(x, 100.0) for x in xs], calls_per_graph=50)
    nb = m * k * 2 + m * k // 2 + m * k // 16
    print(f'quant M={m} K={k}: {t:.2f} us {nb / t / 1e6:.0f} GB/s {nb / t / 1e6 / 4270:.1%} of 4.27')
" 2>&1 | grep quant | tee "$OUT/quant.log"
