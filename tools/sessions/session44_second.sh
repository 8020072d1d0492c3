#!/usr/bin/env bash
# Session 44's second call (prepared in session 43, ~400 s): Nsight Compute on the wgmma GEMM
# at issue 5's stream-K M = 16 points (9216x7168, 5120x17408, 7168x18432) with every stall
# reason printed (session 41's call had the sections without the breakdown;
# nvfp4-gemm-next.md item 000000000000000000000 d), then the suites session 43's launch rules
# moved and did not rerun: nvfp4_gemm 7168x2048 (M = 12 / 16: 6.3 -> 5.5 us in the probe) and
# the swiglu suite's 36864x7168, 4096x7168, 34816x5120 (M = 8).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session44_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 6
warm_suite swiglu 0 3 4
CUTE_KERNELS_PROFILE_CASES="9216,7168,16;5120,17408,16;7168,18432,16" \
  timeout 250 ncu --profile-from-start off --clock-control none --kernel-name regex:Gemm \
  --section WarpStateStats --section SchedulerStats --print-details all \
  python tools/l2_profile.py > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -vE "^==PROF==" "$OUT/ncu.txt" | grep -iE "plan|stall|Warp Cycles|Issued|Eligible" | head -150
report_warm
run_suite nvfp4_gemm 100 6
run_suite swiglu 100 0 3 4
suite_lines "1|8|16|64"
echo "done after $(elapsed) s"
