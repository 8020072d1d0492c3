#!/usr/bin/env bash
# Session 22's second device call: the swiglu suite again (call 1's log did not come back: at
# most 8 files return) and tools/epilogue_probe.py, their kernels compiled in parallel first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session22_call2.sh   (~250 s)
source "$(dirname "$0")/../device_common.sh"
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 \
    python -m cute_kernels.bench swiglu --out "/tmp/warm-swiglu$i" > "/tmp/logs/warm-swiglu$i.log" 2>&1 &
done
warm_points epilogue_probe 250 0 1 2 3 4
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 200 python -m cute_kernels.bench swiglu --out /tmp/swiglu > "$OUT/swiglu.log" 2>&1
echo "swiglu done after $(elapsed) s"
timeout $(( 560 - $(elapsed) )) python tools/epilogue_probe.py 2>&1 | tee "$OUT/epilogue_probe.log"
echo "done after $(elapsed) s"
