#!/usr/bin/env bash
# Nsight Compute on the wgmma kernel (tools/large_m_profile.py): where a k-tile's cycles go at
# 32-token tiles (decode-bound) and 128 / 256-token tiles (tensor-bound): pipes, stall reasons,
# shared-memory bank conflicts. Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session16_profile.sh
source "$(dirname "$0")/../device_common.sh"
P=sm__pipe_
timeout 400 ncu --profile-from-start off --kernel-name regex:kernel --section SpeedOfLight \
  --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
  --metrics ${P}tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,${P}alu_cycles_active.avg.pct_of_peak_sustained_active,${P}fma_cycles_active.avg.pct_of_peak_sustained_active,${P}fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,${P}shared_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__cycles_active.avg,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__t_bytes.sum.per_second,dram__bytes_read.sum.per_second,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio \
  python tools/large_m_profile.py > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -E "^  [a-zA-Z_]|Duration|Issue|Warp Cycles|Eligible|Executed Ipc|pipe|stalled|inst_executed|cycles_active|bank|wavefronts|throughput|bytes" "$OUT/ncu.txt" | grep -v "^    ---" | awk '$NF != "0" && $NF != "0.00"' | head -200
