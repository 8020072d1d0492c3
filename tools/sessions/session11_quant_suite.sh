#!/usr/bin/env bash
# The quant suite after the ceilings' clock warm-up became copies (issue 4's closing table),
# < 300 s. Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session11_quant_suite.sh
source "$(dirname "$0")/../device_common.sh"
timeout 280 python -m cute_kernels.bench quant --out "$OUT" > "$OUT/quant.log" 2>&1
echo "quant exit $? at $(elapsed) s"
grep -v "^ *$" "$OUT/quant.log" | tail -40
