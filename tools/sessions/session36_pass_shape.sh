#!/usr/bin/env bash
# Session 36's sixth call (~150 s): the spread pass's CTAs an SM and units a thread under the
# routed trigger (tools/pass_shape_probe.py, 7 points, compiled in parallel first).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session36_pass_shape.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run pass_shape_probe 7 200
echo "done after $(elapsed) s"
