#!/usr/bin/env bash
# Issue 4, session 85 (~120 s, either card): the quantizer on grids that are not persistent
# (tools/quant_bw_probe.py "gN" variants: N work items a warp, the block scheduler balancing
# the SMs as CTAs exit; ncu in session 77 found the persistent grid's SMs empty 16% of the run
# at plain M = 4096 K = 5120) against the defaults, at plain M = 4096 K = 5120 / 7168,
# M = 16384 K = 5120 and fused M = 4096 I = 5120 (outputs compared with the old kernel's).
# Where a gN form wins at M = 4096 on the H200: launch_config takes it there. H100 (call 1,
# 2026-12-06): every gN form below cmp6tp at M = 4096 (K = 5120: 89.1% against 78.8-85.6).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session85_quant.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp9t,cmp9tg1,cmp9teg1,cmp9tg2,cmp6tpg2,cmp6tpg3,cmp8v2tp,cmp12v2t,\
cmp12v2tg1,cmp8v2tpg2
warm_points quant_bw_probe 150 0 1 4 8
report_warm
run_points quant_bw_probe 200 0 1 4 8
echo "quant probe done after $(elapsed) s"
