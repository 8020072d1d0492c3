# Sourced by the device scripts (tools/sessions/, one per device call): output folder, shared
# kernel cache, a start time, and helpers for the sanitizers and the GPU tests.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/logs
export CUTE_KERNELS_CACHE_DIR=/tmp/kcache
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
# on_h200: whether the GPU is an H200 (the targets' card; a plain run may get an H100)
on_h200() {
  nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200
}
# only_on_h200: ends the calling script (status 0) unless the GPU is an H200; the H200-only
# scripts' first step, so an H100 costs only its start
only_on_h200() {
  if ! on_h200; then
    echo "not an H200: nothing run"; exit 0
  fi
}
# sanitize TOOL SECONDS: compute-sanitizer on tools/sanitize_probe.py; summary in $OUT/TOOL.txt
sanitize() {
  timeout "$2" compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 9 \
    python tools/sanitize_probe.py > "$OUT/sanitize-$1.log" 2>&1
  echo "$1 exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$1.log" | tail -1)" \
    > "$OUT/$1.txt"
}
# sanitize_both: in the background, tools/sanitize_probe.py once (compiling its kernels), then
# memcheck and racecheck on it side by side
sanitize_both() {
  (timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
   sanitize memcheck 200 & sanitize racecheck 230 & wait) &
}
# report_warm [WHAT]: after the caller's background warm-ups (WHAT: "warm-up"), waits for them
# and shows any traceback
report_warm() {
  wait
  echo "${1:-warm-up} done after $(elapsed) s"
  grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -20
}
# run_points SCRIPT SECONDS INDEX...: tools/SCRIPT.py at those shape indices (warmed before),
# its output shown and kept in $OUT/SCRIPT.log
run_points() {
  local script=$1 secs=$2
  shift 2
  CUTE_KERNELS_BENCH_SHAPES=$(IFS=,; echo "$*") timeout "$secs" python "tools/$script.py" \
    2>&1 | tee -a "$OUT/$script.log"
}
# report_warm_and_tests: after the caller's background warm-ups and gpu_tests, waits for them,
# reports the tests (test_summary) and any warm-up traceback, and keeps the test logs in $OUT
report_warm_and_tests() {
  report_warm "warm-up + tests"
  test_summary
  local f
  for f in /tmp/logs/t-*.log; do cp "$f" "$OUT/"; done
}
# sanitize_script SCRIPT [SECONDS]: memcheck and racecheck at once on tools/SCRIPT.py (API
# errors off: cuda-python's driver lookups report as errors), logs in $OUT/TOOL.log, one
# summary line each; each cut at SECONDS (150)
sanitize_script() {
  local tool
  for tool in memcheck racecheck; do
    timeout "${2:-150}" compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
      python "tools/$1.py" > "$OUT/$tool.log" 2>&1 &
  done
  wait
  for tool in memcheck racecheck; do
    echo "$tool: $(grep -E "SUMMARY|probe ran" "$OUT/$tool.log" | tr '\n' ' ')"
  done
}
# gpu_tests SECONDS LOG pytest-args...: the GPU tests, quietly, into LOG
gpu_tests() {
  local secs=$1 log=$2
  shift 2
  timeout "$secs" python -m pytest -m gpu -q -p no:cacheprovider "$@" > "$log" 2>&1
}
# all_gpu_tests SHARDS SECONDS [PATH...]: every GPU test (of PATHs if given), its ids split into SHARDS contiguous shards run
# side by side (-v: a shard cut by the limit still shows what passed), logs joined in
# $OUT/gpu-tests.log, one summary line and each shard's last line shown. Session 50: the
# 1218 tests in 12 shards took 242 s on a fresh machine (cold kernel cache).
all_gpu_tests() {
  local shards=$1 secs=$2 f
  shift 2
  python -m pytest -m gpu --collect-only -q -p no:cacheprovider "$@" 2>/dev/null | grep '::' \
    > /tmp/ids.txt
  echo "$(wc -l < /tmp/ids.txt) GPU tests"
  # (a warm machine keeps an earlier call's shards and logs: none of them may join this run)
  rm -f /tmp/shard.* /tmp/logs/t-shard.*.log
  split -n "l/$shards" /tmp/ids.txt /tmp/shard.
  local files=(/tmp/shard.*)
  set -f  # (test ids hold [...]: no globbing)
  for f in "${files[@]}"; do
    timeout "$secs" python -m pytest -v -p no:cacheprovider $(cat "$f") \
      > "/tmp/logs/t-$(basename "$f").log" 2>&1 &
  done
  wait
  set +f
  cat /tmp/logs/t-shard.*.log > "$OUT/gpu-tests.log"
  echo "passed $(grep -c ' PASSED' "$OUT/gpu-tests.log"), failed $(grep -c ' FAILED' \
    "$OUT/gpu-tests.log"), errors $(grep -c ' ERROR' "$OUT/gpu-tests.log") after $(elapsed) s"
  for f in /tmp/logs/t-shard.*.log; do echo "$(basename "$f"): $(tail -1 "$f")"; done
  grep -E ' FAILED| ERROR|^FAILED|^ERROR' "$OUT/gpu-tests.log" | head -20
}
# test_summary: the last line of each /tmp/logs/t-*.log (gpu_tests' logs) and its failures
test_summary() {
  local f
  for f in /tmp/logs/t-*.log; do
    echo "$(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR" "$f" | head -8
  done
}
# warm_points SCRIPT SECONDS INDEX...: in the background, one CUTE_KERNELS_BENCH_WARM process
# of tools/SCRIPT.py per shape index (compiles only; the caller waits)
warm_points() {
  local script=$1 secs=$2 i
  shift 2
  for i in "$@"; do
    CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout "$secs" \
      python "tools/$script.py" > "/tmp/logs/warm-$script$i.log" 2>&1 &
  done
}
# warm_then_run SCRIPT SHAPES SECONDS: one warm-up process per shape index 0..SHAPES-1 fills
# the kernel cache in parallel, then the timed run of tools/SCRIPT.py, its output shown and
# kept in $OUT/SCRIPT.log
warm_then_run() {
  local script=$1 shapes=$2 secs=$3
  warm_points "$script" "$secs" $(seq 0 $(( shapes - 1 )))
  wait
  echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
  timeout "$secs" python "tools/$script.py" 2>&1 | tee "$OUT/$script.log"
}
# start_final_checks: in the background, memcheck and racecheck on tools/sanitize_probe.py, the
# GEMM / fused / model + quantization GPU tests, and one warm-up process per shape of the
# swiglu and nvfp4_gemm suites; report_checks (after any more background jobs) waits for all
# and writes the summary to $OUT/checks.txt
start_final_checks() {
  (timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
   sanitize memcheck 200 & sanitize racecheck 230 & wait) &
  # 420 s: on a fresh machine's empty kernel cache both files ran past 280 s (session 43)
  gpu_tests 420 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
  gpu_tests 420 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
  gpu_tests 280 /tmp/logs/t-models.log tests/models tests/test_nvfp4_quant.py &
  warm_suites
}
# warm_suite SUITE INDEX...: in the background, one warm-up process of the bench suite SUITE
# per shape index (compiles only; the caller waits)
warm_suite() {
  local suite=$1 i
  shift
  for i in "$@"; do
    CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 \
      python -m cute_kernels.bench "$suite" --out "/tmp/warm-$suite$i" \
      > "/tmp/logs/warm-$suite$i.log" 2>&1 &
  done
}
# warm_at_ms MS SUITE INDEX...: warm_suite at the token counts MS only (CUTE_KERNELS_BENCH_MS,
# "1,16": a cold machine compiles only those launches)
warm_at_ms() {
  local ms=$1
  shift
  CUTE_KERNELS_BENCH_MS=$ms warm_suite "$@"
}
# short91_warm: session91_h200_short.sh's warm-ups (in the background; the caller waits)
short91_warm() {
  warm_at_ms 1,4,8,16 nvfp4_gemm 1 4
  warm_at_ms 1 swiglu 1
  warm_points staging_cost_probe 200 1
}
# near_miss_warm / near_miss_rows: the near-miss rows measured once since sessions 86-88
# (swiglu 1024x7168 M = 1024, nvfp4_gemm 7168x2048 M = 256 and 7168x18432 M = 16 / 32), warmed
# in the background, or run (their suite lines shown by the caller's suite_lines)
near_miss_warm() {
  warm_at_ms 1024 swiglu 2
  warm_at_ms 256 nvfp4_gemm 6
  warm_at_ms 16,32 nvfp4_gemm 0
}
near_miss_rows() {
  export CUTE_KERNELS_BENCH_MS=1024
  run_suite swiglu 60 2
  grep -h "permuted.*M=1024 " "$OUT"/bench-swiglu2.log | cut -c1-175
  export CUTE_KERNELS_BENCH_MS=256
  run_suite nvfp4_gemm 60 6
  export CUTE_KERNELS_BENCH_MS=16,32
  run_suite nvfp4_gemm 80 0
  unset CUTE_KERNELS_BENCH_MS
}
# near_rows_run: the nvfp4_gemm suite's 9216x7168 M = 1 row, then near_miss_rows (warmed by
# the caller: warm_at_ms 1 nvfp4_gemm 4; near_miss_warm), their suite lines, the open targets
# and what moved against the saved H200 rows
near_rows_run() {
  CUTE_KERNELS_BENCH_MS=1 run_suite nvfp4_gemm 60 4
  near_miss_rows
  suite_lines "1|16|32|256"
  python -m cute_kernels.bench.targets "$OUT" --open
  python -m cute_kernels.bench.moved "$OUT" --against tools/h200_latest_rows.json --device H200
}
# timelines_warm / timelines_run SECONDS: session 97's stamped timelines (quant_timeline points
# 0-3, stream_k_timeline points 0-2): their stamps' GPU tests and warm-ups in the background
# (the caller waits: report_warm_and_tests), or the probes, each cut at SECONDS
timelines_warm() {
  gpu_tests 240 /tmp/logs/t-stamps.log tests/test_quant_timeline.py tests/test_stream_k_stamps.py &
  warm_points quant_timeline 200 0 1 2 3
  warm_points stream_k_timeline 240 0 1 2
}
timelines_run() {
  run_points quant_timeline "$1" 0 1 2 3
  run_points stream_k_timeline "$1" 0 1 2
}
# warm_suites: warm_suite for every shape of the swiglu and nvfp4_gemm suites
warm_suites() {
  warm_suite swiglu 0 1 2 3 4
  warm_suite nvfp4_gemm 0 1 2 3 4 5 6
}
report_checks() {
  wait
  { echo "warm-up + tests done after $(elapsed) s"
    for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
    tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
    grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head; } > "$OUT/checks.txt" 2>&1
  rm -f "$OUT"/sanitize-*.log "$OUT"/memcheck.txt "$OUT"/racecheck.txt
  cat "$OUT/checks.txt"
}
# final_suites SECONDS: the swiglu suite, the demo, then the nvfp4_gemm suite shape by shape
# until SECONDS after the start
final_suites() {
  local budget=$1 i
  left() { echo $(( budget - $(elapsed) )); }
  timeout "$(left)" python -m cute_kernels.bench swiglu --out /tmp/bench-swiglu > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(elapsed) s"
  timeout "$(left)" python -m models.demo > "$OUT/demo.log" 2>&1; echo "demo exit $? at $(elapsed) s"
  for i in 0 1 2 3 4 5 6; do
    [ "$(left)" -gt 20 ] || break
    CUTE_KERNELS_BENCH_SHAPES=$i timeout "$(left)" python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm$i >> "$OUT/bench-gemm.log" 2>&1; echo "gemm shape $i exit $? at $(elapsed) s"
  done
  grep -E "M=1 |M=64 " "$OUT/demo.log" | head
}
# suite_lines [MS]: the permuted-word lines of the bench suites' logs in $OUT, at the token
# counts MS ("1|16|64": an alternation; all of them without it), cut to 175 characters
suite_lines() {
  grep -h "permuted M=" "$OUT"/bench-*.log | grep -E "M=(${1:-[0-9]+}) " | cut -c1-175
}
# suite_targets SUITE MS INDEX...: run_suite SUITE (SUITE_SECONDS a shape, 110 unless set) at
# those shape indices, its permuted-word lines at the token counts MS (suite_lines), the
# targets report over $OUT, then (on an H200) every row that moved > 4% against the H200 rows
# committed with the tree (tools/h200_latest_rows.json: `python -m cute_kernels.bench.moved
# --save`)
suite_targets() {
  local suite=$1 ms=$2
  shift 2
  run_suite "$suite" "${SUITE_SECONDS:-110}" "$@"
  suite_lines "$ms"
  python -m cute_kernels.bench.targets "$OUT" --open
  python -m cute_kernels.bench.moved "$OUT" --against tools/h200_latest_rows.json --device H200
}
# session80_suites warm|run: session80_fifth.sh's suites (the nvfp4_gemm suite at 9216x7168,
# 7168x2048 and 5120x17408, the swiglu suite at 1024x7168), warmed, or run with the targets
session80_suites() {
  if [ "$1" = warm ]; then
    warm_suite nvfp4_gemm 4 6 1
    warm_suite swiglu 2
    return
  fi
  run_suite swiglu 110 2
  suite_targets nvfp4_gemm "1|4|8|16|32" 4 6 1
}
# run_suite SUITE SECONDS INDEX...: the bench suite SUITE shape by shape (after warm_suite),
# each into $OUT/bench-SUITEINDEX.log and $OUT/SUITEINDEX/
run_suite() {
  local suite=$1 secs=$2 i
  shift 2
  for i in "$@"; do
    CUTE_KERNELS_BENCH_SHAPES=$i timeout "$secs" python -m cute_kernels.bench "$suite" \
      --out "$OUT/$suite$i" > "$OUT/bench-$suite$i.log" 2>&1
    echo "$suite shape $i exit $? at $(elapsed) s"
  done
}
# check_then_probe SCRIPT: after the caller's background gpu_tests (logs /tmp/logs/t-*.log),
# warms tools/SCRIPT.py up alongside them, reports the tests, then runs SCRIPT into $OUT/SCRIPT.log
check_then_probe() {
  CUTE_KERNELS_BENCH_WARM=1 timeout 150 python "tools/$1.py" > "/tmp/logs/warm-$1.log" 2>&1 &
  wait
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^E  " "$f" | head -6; done
  grep -A8 Traceback "/tmp/logs/warm-$1.log" | tail -8
  timeout 100 python "tools/$1.py" 2>&1 | tee "$OUT/$1.log"
  echo "done after $(elapsed) s"
}
# ab_checks: after the caller's background jobs (gpu_tests into /tmp/logs/t-*.log, optionally
# the memcheck probe, warm-up processes into /tmp/logs/warm-*.log), their summary, shown and
# kept in $OUT/checks.txt
ab_checks() {
  wait
  { for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
    [ -f /tmp/logs/probe.log ] && { tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"; }
    grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
  echo "tests + warm-up done after $(elapsed) s"
}
# ab_probe DIR SECONDS [ENV...]: tools/loop_ab_probe.py with the package in DIR ("." = the
# tree's; any other DIR is a package copy such as ab_main/, with its own kernel cache)
ab_probe() {
  local dir=$1 secs=$2
  shift 2
  if [ "$dir" = . ]; then
    env "$@" timeout "$secs" python tools/loop_ab_probe.py
  else
    env PYTHONPATH="$PWD/$dir:${PYTHONPATH:-}" CUTE_KERNELS_CACHE_DIR="/tmp/kc-$dir" "$@" \
      timeout "$secs" python tools/loop_ab_probe.py
  fi
}
# ab_rounds SECONDS [ROUNDS [DIR...]]: loop_ab_probe with each package in turn (default main's
# ab_main/, then the tree's), ROUNDS times (default 2), SECONDS each at most; one column per
# run in $OUT/ab.txt
ab_rounds() {
  local secs=$1 rounds=${2:-2} round dir cols=() n=0 dirs=(ab_main .)
  [ $# -gt 2 ] && dirs=("${@:3}")
  for ((round = 1; round <= rounds; round++)); do
    for dir in "${dirs[@]}"; do
      n=$((n + 1))
      ab_probe "$dir" "$secs" LOOP_HASH_FILE="$OUT/run$n.hash" > "$OUT/run$n.log" 2>&1
      cols+=("$OUT/run$n.log")
    done
    echo "round $round (${dirs[*]}) done after $(elapsed) s"
  done
  local first=${cols[0]} f
  { for f in "${cols[@]}"; do grep "M=" "$f" | awk '{print $NF}' > "$f.col"; done
    paste -d' ' <(grep "M=" "$first" | awk '{$NF=""; print}') "${cols[@]/%/.col}"; } | tee "$OUT/ab.txt"
  for f in "${cols[@]:1}"; do  # the same bits as the first run's package?
    cmp -s "${first%.log}.hash" "${f%.log}.hash" && echo "$f: same outputs" || echo "$f: outputs differ"
  done | sort -u | tee -a "$OUT/ab.txt"
}
# ab_warm SECONDS [DIR...]: in the background, loop_ab_probe's kernels compiled for each package
# (default ab_main/ and the tree's)
ab_warm() {
  local secs=$1 dir
  shift
  local dirs=("$@")
  [ ${#dirs[@]} -gt 0 ] || dirs=(ab_main .)
  for dir in "${dirs[@]}"; do
    ab_probe "$dir" "$secs" CUTE_KERNELS_BENCH_WARM=1 > "/tmp/logs/warm-ab-${dir//[.\/]/_}.log" 2>&1 &
  done
}
# ab_warm_points SECONDS "I J ..." [DIR...]: in the background, one loop_ab_probe warm-up
# process per package (default ab_main/ and the tree's) and point index
ab_warm_points() {
  local secs=$1 dir i points
  read -r -a points <<< "$2"
  shift 2
  local dirs=("$@")
  [ ${#dirs[@]} -gt 0 ] || dirs=(ab_main .)
  for dir in "${dirs[@]}"; do
    for i in "${points[@]}"; do
      ab_probe "$dir" "$secs" CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES="$i" \
        > "/tmp/logs/warm-ab-${dir//[.\/]/_}$i.log" 2>&1 &
    done
  done
}
# ab_public_large_m [DIR...]: package copies (default ab_main/, then the tree ".") through the
# public functions at LOOP_MS (default 32,64,256) with loop_ab_probe, two rounds, each package
# warmed one process per point; alongside, the large-M, dequantization, permuted and fused
# large-M GPU tests and memcheck + racecheck on the tree (session 16's wgmma-route A/B runs)
ab_public_large_m() {
  local dir dirs=(ab_main .)
  [ $# -gt 0 ] && dirs=("$@")
  for dir in "${dirs[@]}"; do
    [ "$dir" = . ] || [ -d "$dir/cute_kernels" ] || { echo "$dir/ missing"; exit 2; }
  done
  export LOOP_MS=${LOOP_MS:-32,64,256}
  gpu_tests 300 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_dequant.py tests/test_permuted_fp4.py &
  gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "large or stream or split_route" &
  sanitize_both
  ab_warm_points 280 "$(seq -s ' ' 0 $(( ${AB_POINTS:-13} - 1 )))" "${dirs[@]}"
  ab_checks
  cat "$OUT/racecheck.txt" 2>/dev/null
  ab_rounds 90 2 "${dirs[@]}"
}
# start_fused_checks: in the background, memcheck and racecheck on tools/sanitize_probe.py and
# the fused op's GPU tests in four processes (its variants' bit test, then three -k slices of
# the rest, the model tests with the last); fused_checks_report (after any more background
# jobs) waits for all, shows and keeps the summary in $OUT/checks.txt and racecheck's first
# reports in $OUT/racecheck-detail.txt (session 23)
FUSED_A="matches_reference or split_route or public_narrow or dependent_chain"
FUSED_B="every_tile_config or one_token or large or stream"
start_fused_checks() {
  local t=tests/test_nvfp4_gemm_swiglu_quant.py
  (timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
   sanitize memcheck 220 & sanitize racecheck 260 & wait) &
  gpu_tests 280 /tmp/logs/t-variants.log $t -k variants &
  gpu_tests 280 /tmp/logs/t-fusedA.log $t -k "($FUSED_A) and not variants" &
  gpu_tests 280 /tmp/logs/t-fusedB.log $t -k "($FUSED_B) and not ($FUSED_A or variants)" &
  gpu_tests 280 /tmp/logs/t-fusedC.log $t tests/models -k "not ($FUSED_A or $FUSED_B or variants)" &
}
fused_checks_report() {
  wait
  { echo "tests + warm-up done after $(elapsed) s"
    for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -8; done
    tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
    grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
  grep -E -B3 -A14 "Race reported|Error: " "$OUT/sanitize-racecheck.log" | head -120 > "$OUT/racecheck-detail.txt"
  rm -f "$OUT"/sanitize-*.log "$OUT"/memcheck.txt "$OUT"/racecheck.txt
}
# warm_swiglu_suite: in the background, one warm-up process per shape of the swiglu suite
warm_swiglu_suite() {
  local i
  for i in 0 1 2 3 4; do
    CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
  done
}
# quant_sanitize TOOL...: in the foreground, tools/quant_sanitize_probe.py once, then under
# each compute-sanitizer TOOL (memcheck, racecheck); exit lines in $OUT/memcheck.txt
quant_sanitize() {
  local tool
  timeout 120 python tools/quant_sanitize_probe.py > /tmp/logs/qprobe.log 2>&1
  for tool in "$@"; do
    timeout 120 compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 9 \
      python tools/quant_sanitize_probe.py > "/tmp/logs/$tool.log" 2>&1
    echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "/tmp/logs/$tool.log" | tail -1)"
  done > "$OUT/memcheck.txt"
}
# quant_checks "TOOLS" TESTS_S WARM_S PROBE_S "POINTS" PYTEST-ARGS...: the quantization GPU
# tests (cut at TESTS_S) beside quant_bw_probe's warm-ups at POINTS (shape indices, cut at
# WARM_S) and the sanitizers TOOLS, their report, then the probe at those points (cut at PROBE_S,
# kept in $OUT/quant_bw_probe.log)
quant_checks() {
  local tools=$1 tests_s=$2 warm_s=$3 probe_s=$4 points=$5
  shift 5
  gpu_tests "$tests_s" /tmp/logs/t-quant.log "$@" &
  # shellcheck disable=SC2086
  warm_points quant_bw_probe "$warm_s" $points
  # shellcheck disable=SC2086
  quant_sanitize $tools &
  quant_report
  CUTE_KERNELS_BENCH_SHAPES=$(echo $points | tr ' ' ,) timeout "$probe_s" \
    python tools/quant_bw_probe.py 2>&1 | tee "$OUT/quant_bw_probe.log"
}
# quant_tests_and_probe "POINTS" PYTEST-ARGS...: quant_checks with memcheck and racecheck
quant_tests_and_probe() {
  quant_checks "memcheck racecheck" 230 250 200 "$@"
}
# quant_memcheck_and_probe "POINTS" PYTEST-ARGS...: memcheck only and shorter limits, for a
# short device budget
quant_memcheck_and_probe() {
  quant_checks memcheck 200 200 150 "$@"
}
# quant_report: after the caller's background jobs (gpu_tests, quant_sanitize, warm-ups), their
# summary, shown and kept in $OUT/checks.txt
quant_report() {
  wait
  { echo "tests + warm-up + sanitizers done after $(elapsed) s"
    for f in /tmp/logs/t-*.log; do [ -f "$f" ] && { echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; }; done
    tail -3 /tmp/logs/qprobe.log; cat "$OUT/memcheck.txt"
    grep -h -A12 Traceback /tmp/logs/warm-*.log 2>/dev/null | tail -14; } > "$OUT/checks.txt" 2>&1
  cat "$OUT/checks.txt"
}
