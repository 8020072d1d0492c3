#!/usr/bin/env bash
# Session 44's first call (prepared in session 43, ~320 s): tools/fused_staged_start_probe.py
# (the fused one-token row-group launches with the trigger at the CTA start over 1.5..7.8 CTAs
# an SM: nvfp4-gemm-next.md item 000000000000000000000 b), then Nsight Compute on 9216x7168
# M = 1's small-M launch, whole and with the main loop capped at 0 (tools/small_m_profile.py;
# item c: where the ~0.14 us an iteration over the copy rate and the ~1.3 us of exposed
# launch, staging and drain go), stall reasons printed in full; then tools/m1_ring_probe.py
# (the cp.async ring, 2 / 3 steps in flight, at one token: the loop's bytes in flight).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session44_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_staged_start_probe 200 $(seq 0 9)
warm_points m1_ring_probe 200 0 1 2 3
report_warm
run_points fused_staged_start_probe 200 $(seq 0 9)
timeout 200 ncu --profile-from-start off --clock-control none \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
  --print-details all python tools/small_m_profile.py > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -vE "^==PROF==" "$OUT/ncu.txt" | grep -E "M=1|Stall|Warp Cycles|Issue|Throughput|Busy|Eligible|Active|Duration|Bandwidth|Registers|Waves" | head -120
run_points m1_ring_probe 150 0 1 2 3
echo "done after $(elapsed) s"
