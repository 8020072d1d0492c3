#!/usr/bin/env bash
# Why M = 1 streams below 75% of roofline: Nsight Compute on the small-M GEMM
# (tools/small_m_profile.py: long K against 36864x7168, clocks not locked, as the timings run;
# ComputeWorkloadAnalysis: is an issue pipe the limit?) and tools/wave_probe.py (time against
# grid size), whose kernels compile in the background while ncu runs. (It also ran
# tools/tail_probe.py, removed with the head + tail launches it measured slower.)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session9_profile.sh
source "$(dirname "$0")/../device_common.sh"
for i in $(seq 0 17); do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/wave_probe.py > /tmp/logs/warm-wave$i.log 2>&1 &
done
timeout 300 ncu --profile-from-start off --clock-control none --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
  --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis \
  --section InstructionStats \
  --metrics sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg,dram__bytes_read.sum.per_second,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
  python tools/small_m_profile.py > "$OUT/ncu_small_m.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -E "^  [a-zA-Z_]|Duration|Throughput|Issue|Stall|Warp Cycles|Active|inst_executed|pipe|Pipe|bytes|hit_rate|cycles_active|Executed Ipc|Registers|Occupancy|Eligible|Waves" "$OUT/ncu_small_m.txt" | grep -v "^    ---" | head -150
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 100 python tools/wave_probe.py 2>&1 | tee "$OUT/wave_probe.log"
echo "done after $(elapsed) s"
