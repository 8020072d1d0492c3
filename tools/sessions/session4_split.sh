#!/usr/bin/env bash
# Session 4, split-K check: GPU tests of the split-K path and the public GEMM, then the probe
# (cache filled by one warm-up process per shape first). Few files under $OUT.
source "$(dirname "$0")/../device_common.sh"
timeout 150 python -m pytest -m gpu -q -x -p no:cacheprovider -k "split" tests/test_nvfp4_gemm_large_m.py > /tmp/logs/t-split.log 2>&1 &
timeout 150 python -m pytest -m gpu -q -p no:cacheprovider tests/test_nvfp4_gemm.py > /tmp/logs/t-gemm.log 2>&1 &
for i in 0 1 2; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 python tools/split_probe.py > /tmp/logs/warm$i.log 2>&1 &
done
wait
echo "tests + warm-up done after $(( $(date +%s) - t0 )) s"
for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^E  " "$f" | head -8; done
grep -l -E "Error|Traceback" /tmp/logs/warm*.log && tail -5 /tmp/logs/warm0.log
timeout 90 python tools/split_probe.py 2>&1 | tee "$OUT/split_probe.log"
echo "done after $(( $(date +%s) - t0 )) s"
