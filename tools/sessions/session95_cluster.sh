#!/usr/bin/env bash
# Session 95: the balanced one-token launches staging the token once a cluster of 2 or 4 CTAs
# (tools/cluster_staging_probe.py; cute_kernels/cluster_staging.py, probe-only
# STAGING_CLUSTER) against their own staging, either card (~250 s; on an H200 ~60 s more):
# its GPU tests beside the warm-ups, the probe's three points from DRAM then from L2
# (PROBE_L2=1: the H100's stand-in for the H200), the stamps' timeline of the public 9216x7168
# (tools/one_token_timeline.py point 0: is the staging shorter on clusters?), memcheck and
# racecheck on tools/sanitize_balanced.py with BALANCED_CLUSTER=2 (a kernel cache of its own);
# on an H200 last the nvfp4_gemm suite at 9216x7168 and the swiglu suite at 9216x7168, M = 1
# (session 94's row-group route's row, unmeasured; issue 6's fused row).
# If a cluster form wins from DRAM and L2 with equal bits: route it (a rule beside
# ``plain_row_group_launch``, the switch made a launch argument).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session95_cluster.sh
source "$(dirname "$0")/../device_common.sh"
warm_points cluster_staging_probe 240 0 1 2
warm_points one_token_timeline 240 0
if on_h200; then
  warm_at_ms 1 nvfp4_gemm 4
  warm_at_ms 1 swiglu 1
fi
gpu_tests 300 /tmp/logs/t-cluster.log tests/test_cluster_staging.py &
report_warm_and_tests
run_points cluster_staging_probe 150 0 1 2
echo "from L2 after $(elapsed) s"
PROBE_L2=1 run_points cluster_staging_probe 150 0 1 2
echo "stamps after $(elapsed) s"
run_points one_token_timeline 120 0
echo "sanitizers after $(elapsed) s"
BALANCED_CLUSTER=2 CUTE_KERNELS_CACHE_DIR=/tmp/kc-cluster sanitize_script sanitize_balanced 200
if on_h200; then
  export CUTE_KERNELS_BENCH_MS=1
  run_suite nvfp4_gemm 60 4
  run_suite swiglu 60 1
  suite_lines 1
  python -m cute_kernels.bench.targets "$OUT" --open
fi
echo "done after $(elapsed) s"
