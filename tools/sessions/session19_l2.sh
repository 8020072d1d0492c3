#!/usr/bin/env bash
# Nsight Compute, clocks uncontrolled: L2 and DRAM throughput, tensor pipe and cluster size of
# the wgmma kernel against cuBLAS bf16 at M >= 256 (tools/l2_profile.py).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session19_l2.sh
source "$(dirname "$0")/../device_common.sh"
timeout 400 ncu --profile-from-start off --clock-control none \
  --metrics gpu__time_duration.sum,lts__t_bytes.sum.per_second,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_bytes.sum.per_second,launch__cluster_dim_x,launch__cluster_dim_y,launch__grid_size,launch__block_size,sm__cycles_elapsed.avg.per_second,lts__d_sectors.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed \
  python tools/l2_profile.py > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -vE "^==PROF==|^    ---" "$OUT/ncu.txt" | grep -E "plan|^  [a-zA-Z_]|[a-z_]+__|Context" | head -200
