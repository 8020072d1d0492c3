#!/usr/bin/env bash
# Session 32 fifth call (~150 s): Nsight Compute on nvfp4_gemm at 7168x2048 / 4096x7168 M = 64
# (tools/small_m_profile.py with two cases): pipes, stall reasons, DRAM and L2 rates, every kernel.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session32_fifth.sh [PROBE]
# PROBE (default small_m_profile): another tools/*_profile.py, its CUTE_KERNELS_PROFILE_CASES
# given by the caller (session 32's sixth call: large_m_profile, 7168x2048 M = 64 whole / two
# K pieces).
source "$(dirname "$0")/../device_common.sh"
P=sm__pipe_
PROBE=${1:-small_m_profile}
if [ "$PROBE" = small_m_profile ]; then
  export CUTE_KERNELS_PROFILE_CASES="7168,2048,64;4096,7168,64" CUTE_KERNELS_PROFILE_PERMUTED=1
fi
timeout 300 ncu --profile-from-start off --section SpeedOfLight --section LaunchStats --section Occupancy \
  --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
  --metrics ${P}tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,${P}alu_cycles_active.avg.pct_of_peak_sustained_active,${P}fma_cycles_active.avg.pct_of_peak_sustained_active,${P}fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,${P}shared_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__cycles_active.avg,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__t_bytes.sum.per_second,dram__bytes_read.sum.per_second,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio \
  python "tools/$PROBE.py" > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -E "^  [a-zA-Z_]|Duration|Issue|Warp Cycles|Eligible|Executed Ipc|pipe|stalled|inst_executed|cycles_active|bank|wavefronts|throughput|bytes" "$OUT/ncu.txt" | grep -v "^    ---" | awk '$NF != "0" && $NF != "0.00"' | head -260
