#!/usr/bin/env bash
# Session 45's first call (prepared in session 44, ~120 s): Nsight Compute on 9216x7168 M = 1,
# the plain small-M launch (whole and its loop capped at 0) beside the fused op's one-token
# launch (CUTE_KERNELS_PROFILE_FUSED=1): the same 278-instruction loop a warp, but 288 CTAs of
# 8 warps in two row groups against 576 of 4, ~1.54 us an iteration against ~1.37
# (nvfp4-gemm-next.md item 0000000000000000000000 c). Sectors a request, L2 / DRAM traffic,
# stall reasons, occupancy.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session45_first.sh
source "$(dirname "$0")/../device_common.sh"
CUTE_KERNELS_PROFILE_FUSED=1 timeout 250 ncu --profile-from-start off --clock-control none \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section Occupancy --section LaunchStats --print-details all \
  python tools/small_m_profile.py > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -vE "^==PROF==" "$OUT/ncu.txt" | grep -E "M=1|Duration|DRAM Throughput|SM Active|Issue Active|Eligible Warps|Active Warps Per|Stall (Long|Wait|Barrier|Not Sel|Math|Short)|Sectors|Requests|Hit Rate|Waves|Registers" | head -150
echo "done after $(elapsed) s"
