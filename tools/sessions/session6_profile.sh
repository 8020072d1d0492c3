#!/usr/bin/env bash
# Nsight Compute on the wgmma kernel (tools/large_m_profile.py as of session 6: `git show
# afe8e1a:tools/large_m_profile.py`, 36864x7168 M = 64 and 9216x7168 M = 256; session 16 rewrote
# it for other cases, see session16_profile.sh): where a k-tile's ~850 cycles
# go at 64-token tiles (tensor pipe, issue, stalls, L2 / DRAM). Usage on the lent H200:
# source .gpu/setup.sh; bash tools/sessions/session6_profile.sh
source "$(dirname "$0")/../device_common.sh"
timeout 400 ncu --profile-from-start off --section SpeedOfLight --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
  --section Occupancy --section InstructionStats \
  --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,lts__t_bytes.sum.per_second,dram__bytes_read.sum.per_second \
  python tools/large_m_profile.py > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -E "^  [a-zA-Z_]|Duration|Throughput|Issue|Stall|Warp Cycles|Active|gmma|inst_executed|bytes|Executed Ipc|Registers|Occupancy|Eligible|No Eligible" "$OUT/ncu.txt" | grep -v "^    ---" | head -150
