#!/usr/bin/env bash
# Session 82's sixth call (~150 s, either card): Nsight Compute's per-instruction stall
# samples of the 16-token launch from L2 (tools/l2_consumer_ncu.py: real, in flight, no
# wgmma, no decode), as SASS-line CSVs, and the warp-state summary.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_sixth.sh
source "$(dirname "$0")/../device_common.sh"
timeout 150 python tools/l2_consumer_ncu.py > /tmp/logs/warm-l2ncu.log 2>&1  # compiles
tail -n 3 /tmp/logs/warm-l2ncu.log
timeout 300 ncu --profile-from-start off --cache-control none --section SourceCounters \
  --section WarpStateStats --section SpeedOfLight -o /tmp/l2prof \
  python tools/l2_consumer_ncu.py > "$OUT/l2-ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
ncu -i /tmp/l2prof.ncu-rep --page details > "$OUT/l2-ncu-details.txt" 2>&1
grep -E "Duration|Stall|Warp Cycles|Issued" "$OUT/l2-ncu-details.txt" | head -60
ncu -i /tmp/l2prof.ncu-rep --page source --print-source sass --csv 2>&1 \
  | gzip > "$OUT/l2-sass.csv.gz"
ls -la "$OUT"
echo "done after $(elapsed) s"
