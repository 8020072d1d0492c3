#!/usr/bin/env bash
# Issue 4 (~120 s): why the plain quantizer holds M = 4096 K = 5120 / 7168 at 74 / 78% of the
# copy (85% asked) when M = 16384 reaches 86%: neither fewer instructions (lean, session 76),
# more bytes in flight (rings, two items) nor the grid's last round moved it. ncu at the
# three points (tools/quant_profile.py): speed of light, memory, warp stall reasons,
# scheduler, occupancy.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session77_quant_ncu.sh
source "$(dirname "$0")/../device_common.sh"
timeout 300 ncu --profile-from-start off \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
  --section SchedulerStats --section Occupancy python tools/quant_profile.py \
  > "$OUT/quant-ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -E "^  [a-zA-Z_]|Duration|DRAM Throughput|Memory Throughput|Issue|Warp Cycles|Eligible|Stall|stall|Achieved Occupancy|Active Warps" \
  "$OUT/quant-ncu.txt" | head -120
