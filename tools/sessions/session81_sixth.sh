#!/usr/bin/env bash
# Session 81's sixth call (~520 s, an H200 only: on an H100 it stops at once). Deeper rings at
# 16 tokens (tools/stage_depth_probe.py: does the consumers' hold on their stages cost bytes
# in flight on the H200, as it does not on the H100?). The one-token
# launches' bytes in flight on the H200 (tools/balanced_probe.py: the fused op at (12, 2)
# against (8, 2), 26 warps an SM against 18, NVFP4 and bf16 tokens; W4A16 5120x17408 at
# (14, 2); tools/balanced_ring_probe.py: the cp.async ring), then the nvfp4_gemm suite at
# 9216x7168, 5120x17408 and 7168x18432 (8-token tiles, two K groups from 60 units, the wide
# lanes) and the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_sixth.sh
source "$(dirname "$0")/../device_common.sh"
if ! nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  echo "not an H200: nothing run"; exit 0
fi
warm_points stage_depth_probe 200 0 1
warm_points balanced_probe 200 4 8 5
warm_points balanced_ring_probe 200 0 1 2 3
warm_suite nvfp4_gemm 4 1 0
report_warm
run_points stage_depth_probe 90 0 1
run_points balanced_probe 90 4 8 5
timeout 100 python tools/balanced_ring_probe.py 2>&1 | tee "$OUT/balanced_ring_probe.log"
echo "probes done at $(elapsed) s"
suite_targets nvfp4_gemm "1|4|8|16|32|64|1024" 4 1 0
echo "done after $(elapsed) s"
