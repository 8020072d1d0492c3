#!/usr/bin/env bash
# tools/copy_size_probe.py: the quantization kernels against a copy of their own byte count
# (~120 s). Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session11_copy.sh
source "$(dirname "$0")/../device_common.sh"
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python tools/copy_size_probe.py > /tmp/logs/warm-copy.log 2>&1
grep -A8 Traceback /tmp/logs/warm-copy.log | tail -8
timeout 300 python tools/copy_size_probe.py 2>&1 | tee "$OUT/copy_size_probe.log"
echo "done after $(elapsed) s"
