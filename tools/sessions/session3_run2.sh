#!/usr/bin/env bash
# Session 3, device call 2: tests of the new kernels, the quant bench with its sweep, the GEMM probe.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
t() { local lim=$1; shift; timeout "$lim" python -m pytest -m gpu -q -p no:cacheprovider "$@" 2>&1 | tail -15 > "$OUT/t-$(basename "$1" .py).log"; echo "== $1: $(tail -1 "$OUT/t-$(basename "$1" .py).log")"; }
t 150 tests/test_nvfp4_quant.py
t 150 tests/test_nvfp4_gemm_swiglu_quant.py
t 120 tests/test_nvfp4_gemm_large_m.py -x
timeout 170 python -m cute_kernels.bench quant --sweep --out "$OUT" > "$OUT/bench-quant.log" 2>&1; echo "bench quant rc=$?"
grep -E "sweep|TB/s|GB/s|M=4096|M=16384" "$OUT/bench-quant.log" | head -30
timeout 200 python tools/gemm_probe3.py large fused 2>&1 | tee "$OUT/probe3.log" | grep -v Warning | tail -40
