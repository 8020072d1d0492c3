#!/usr/bin/env bash
# tools/quant_output_probe.py: the quantization kernel with fresh against reused outputs
# (~60 s). Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session11_quant_out.sh
source "$(dirname "$0")/../device_common.sh"
timeout 200 python tools/quant_output_probe.py 2>&1 | tee "$OUT/quant_output_probe.log"
echo "done after $(elapsed) s"
