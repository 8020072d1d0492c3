#!/usr/bin/env bash
# Session 45, calls 2 and 3 (~300 / ~450 s): the stream-K fix-up with one release / acquire a
# CTA (the arrival atomic's own, ordered by the consumer barriers) instead of a fence in every
# consumer thread,
# against main's package (ab_main/: git archive of the commit before). Alongside: the large-M,
# fused stream-K GPU tests and memcheck + racecheck on tools/sanitize_probe.py (its stream-K
# launches: pieces across CTAs, plain and fused). Then tools/loop_ab_probe.py at M = 16 / 32 on
# the stream-K GEMM points (7168x18432, 5120x17408, 36864x7168, 9216x7168), two rounds.
# Call 3 (AB_DIRS="ab_fence ." LOOP_MS=16,32,64 SHAPES="0 1 2 4 7"): also the tile's
# head piece checking the counter first (ab_fence/: the one-fence commit), and the fused
# kernel's stream-K at 64 tokens.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session45_fence.sh
source "$(dirname "$0")/../device_common.sh"
for d in ${AB_DIRS:-ab_main}; do [ "$d" = . ] || [ -d "$d/cute_kernels" ] || { echo "$d/ missing"; exit 2; }; done
export LOOP_MS=${LOOP_MS:-16,32}
read -r -a SHAPES <<< "${SHAPES:-0 1 2 4}"
read -r -a DIRS <<< "${AB_DIRS:-ab_main .}"
gpu_tests 300 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py -k "stream or hybrid" &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "stream" &
sanitize_both
ab_warm_points 330 "${SHAPES[*]}" "${DIRS[@]}"
ab_checks
cat "$OUT/racecheck.txt" 2>/dev/null
export CUTE_KERNELS_BENCH_SHAPES=$(IFS=,; echo "${SHAPES[*]}")
ab_rounds 90 2 "${DIRS[@]}"
echo "done after $(elapsed) s"
