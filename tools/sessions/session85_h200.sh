#!/usr/bin/env bash
# Session 85, an H200 only (~520 s; on an H100 it stops at once): session85_quant.sh (~40 s:
# the quantizer on grids that are not persistent; on an H100 they lost at M = 4096, call 1),
# then session81_fifth.sh: the nvfp4_gemm suites at 9216x7168, 5120x17408, 7168x18432 and
# 7168x2048, the swiglu suite at 1024x7168 (the rows the H200 has not timed since the 8-token
# tiles, two K groups from 60 units, the wide lanes and the balanced one-token launches) and
# the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session85_h200.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
only_on_h200
bash "$here/session85_quant.sh"
bash "$here/session81_fifth.sh"
