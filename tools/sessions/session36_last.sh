#!/usr/bin/env bash
# Session 36's seventh call (~350 s): the spread pass's grid rule (``spread_launch``: about 64
# CTAs, one an SM) against the first rule and fixed shapes (tools/pass_shape_probe.py, 10
# points), its GPU tests and the W4A4 graph chains, then the nvfp4_gemm suite on 4096x7168 and
# 7168x2048 (shapes 5, 6) and the swiglu suite on 4096x7168 (shape 3); all compiled first,
# beside the tests.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session36_last.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-spread.log tests/test_nvfp4_dequant.py tests/test_pdl_trigger.py &
warm_points pass_shape_probe 180 $(seq 0 9)
warm_suite nvfp4_gemm 5 6
warm_suite swiglu 3
wait
echo "warm-up + tests done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
test_summary | tee "$OUT/checks.txt"
timeout 80 python tools/pass_shape_probe.py 2>&1 | tee "$OUT/pass_shape_probe.log"
for run in "nvfp4_gemm 5" "nvfp4_gemm 6" "swiglu 3"; do
  set -- $run
  CUTE_KERNELS_BENCH_SHAPES=$2 timeout 100 python -m cute_kernels.bench "$1" \
    --out "$OUT/$1$2" > "$OUT/bench-$1$2.log" 2>&1
  echo "$1 shape $2 exit $? at $(elapsed) s"
done
grep -h -E "permuted M=(1|16|32|64|128|256) " "$OUT"/bench-*.log | cut -c1-60,75-210
