#!/usr/bin/env bash
# Session 41's fourth call (prepared in session 40, ~350 s): Nsight Compute on the wgmma GEMM at
# the 16..64-token stream-K points issue 5 still misses (9216x7168 / 5120x17408 / 7168x18432
# M = 16, 7168x18432 M = 64), with the warp-state and scheduler sections: what the consumer
# warpgroups wait on. Session 40's arithmetic (notes/nvfp4-gemm-next.md, session 40's state):
# 9216x7168 M = 16 spends ~550 cycles a k-tile per CTA, about twice the consumer's own chain
# and about twice the DRAM's fair share, so neither alone explains it.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session41_fourth.sh
source "$(dirname "$0")/../device_common.sh"
CUTE_KERNELS_PROFILE_CASES="9216,7168,16;5120,17408,16;7168,18432,16;7168,18432,64" \
  timeout 400 ncu --profile-from-start off --clock-control none --kernel-name regex:Gemm \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis --section Occupancy \
  python tools/l2_profile.py > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -vE "^==PROF==" "$OUT/ncu.txt" | grep -E "plan|Stall|Warp Cycles|Issue|Throughput|Busy|Eligible|Active|Duration|Bandwidth" | head -160
# then the small-M kernel's scale table filled before the PDL wait (tools/table_first_probe.py,
# ~120 s; SmallMLaunchRules.TABLE_BEFORE_WAIT, compile-tested only): 9216x7168 M = 4 / 8 are
# 0.03-0.07 us from issue 5's 60%
warm_points table_first_probe 200 $(seq 0 9)
wait
timeout 150 python tools/table_first_probe.py 2>&1 | tee "$OUT/table_first_probe.log"
echo "done after $(elapsed) s"
