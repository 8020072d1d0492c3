# Sourced by the device scripts in tools/: output folder, shared kernel cache, a start time, and
# helpers for the sanitizers and the GPU tests.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/logs
export CUTE_KERNELS_CACHE_DIR=/tmp/kcache
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
# sanitize TOOL SECONDS: compute-sanitizer on tools/sanitize_probe.py; summary in $OUT/TOOL.txt
sanitize() {
  timeout "$2" compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 9 \
    python tools/sanitize_probe.py > "$OUT/sanitize-$1.log" 2>&1
  echo "$1 exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$1.log" | tail -1)" \
    > "$OUT/$1.txt"
}
# gpu_tests SECONDS LOG pytest-args...: the GPU tests, quietly, into LOG
gpu_tests() {
  local secs=$1 log=$2
  shift 2
  timeout "$secs" python -m pytest -m gpu -q -p no:cacheprovider "$@" > "$log" 2>&1
}
