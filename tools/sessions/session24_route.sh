#!/usr/bin/env bash
# Session 24's second call: tools/fused_route_probe.py at its 20 points (the public function
# with large_m_route forced onto each candidate launch, the dequantization included), the
# table behind the fused op's route at 129..2048 tokens.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session24_route.sh   (~400 s)
source "$(dirname "$0")/../device_common.sh"
warm_points fused_route_probe 280 $(seq 0 19)
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 260 python tools/fused_route_probe.py 2>&1 | tee "$OUT/fused_route.log"
echo "done after $(elapsed) s"
