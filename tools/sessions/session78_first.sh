#!/usr/bin/env bash
# Session 78's first call (~330 s, H200): K warps that split K evenly on the balanced
# one-token launch, for issue 5's M = 1 points still open on the H200 (session 77's suite):
# 9216x7168 W4A4 11.97 us (73.1%; 75% asks 11.67) at (8, 3), where 8 K warps take 4 or 3 of
# the 28 K steps: (7, 3) gives every warp 4 (72 registers, no spill); 5120x17408 W4A16 15.96
# (74.0%; 15.74 asked) and W4A4 15.68 at (12, 2), 68 steps at most 6 a warp for a mean of
# 5.67: (14, 2) at most 5 for 4.86 (64 registers); 9216x7168 W4A16 12.35 (70.9%) on the
# unbalanced route: (8, 3) and (7, 3) (three an SM never timed for bf16 tokens); the fused
# 9216x7168 (issue 6: 13.09 us, 66.8%; 11.67 asked) and its W4A16 at (12, 2): 6 K warps a row
# group, at most 5 of the 28 steps a warp against 7 at (8, 2) (72 registers). Then the
# swiglu suite's 9216x7168 (the fused op's W4A16 on the balanced (8, 2) rule, session 76, has
# no H200 suite row) and the targets report over this run. Where a form wins, narrow the rule
# in `one_token_balanced` / `public_balanced_launch` and rerun the balanced GPU tests.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session78_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points balanced_probe 150 0 1 4 5 7 9
warm_suite swiglu 1
report_warm
run_points balanced_probe 200 0,1,4,5,7,9
run_suite swiglu 110 1
suite_lines "1|8|16"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
