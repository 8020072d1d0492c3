"""Session 56's routes onto 128-token tiles in K pieces against the routes before, public calls
on permuted words with NVFP4 activations (the pass included): "gemm" (``nvfp4_gemm`` as routed
now: past 64 tokens the scattered pieces where ``plain_plan`` has two or four, two as cluster
pairs), "gemm_scatter" (``PAIR_TWO_PIECES`` off: two scattered pieces), "gemm_64row" (the
64-row tiles of session 33 as well: the route before) and "gemm_nopdl" (the pairs' PDL trigger
and spread pass to 512 tokens, not 1024), the fused op likewise ("fused", ..., "fused_nopdl":
without ``PIECES_PDL``; "fused_pdl128": with it on 128-token tiles only, as before session
57), cuBLAS bf16 and cuBLAS
+ torch silu * up beside. (Session 56 call 2
ran the forms before ``PIECES_PDL`` and ``PDL_PAIR_TRIGGER_MAX_M``: its "_pdl" form had them;
call 3 a "_pdl2k" form at M = 2048, one wave of whole tiles with them up to 2048 tokens, the
fused op's too: it lost, and went.)
Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

from probe_inputs import (cublas_silu, print_variant_rounds, public_fused, route_point_operands,
                          routing)

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes

PLANS = importlib.import_module("cute_kernels.large_m_plans")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
ROUTED = [PLANS, importlib.import_module("cute_kernels.nvfp4_gemm"), FUSED]

# (N = 2I, K, M): four pieces, two pieces (4096x7168), two pieces (1024x7168); then the fused
# op's other "pieces" launches (1024x7168: 64-token tiles in four pieces at 65..256 tokens, then
# 128-token ones)
POINTS = [(4096, 7168, 65), (4096, 7168, 128), (4096, 7168, 192), (4096, 7168, 256),
          (1024, 7168, 960), (1024, 7168, 1024), (1024, 7168, 100), (1024, 7168, 128),
          (1024, 7168, 256), (1024, 7168, 512), (1024, 7168, 2048)]
# a form: (module, switch, value) triples
FORMS = {"": [], "_scatter": [(PLANS, "PAIR_TWO_PIECES", False)],
         "_64row": [(PLANS, "PAIR_TWO_PIECES", False), (PLANS, "WG_K_SPLIT_PIECES_FROM_M", 256)],
         # without the PDL trigger and spread pass on the fused "pieces" launches and on the
         # pairs past 512 tokens (session 56 call 2 had them as the form "_pdl", then off)
         "_nopdl": [(FUSED, "PIECES_PDL", False), (PLANS, "PDL_PAIR_TRIGGER_MAX_M", 512)],
         # the fused pieces' PDL on 128-token tiles only (before session 57 it was so: the
         # form "_pdl64" then measured the 64-token tiles with it, now the default)
         "_pdl128": [(FUSED, "PIECES_PDL_MIN_TILE_M", 128)]}


for n, k, m in select_shapes(POINTS):
    a, a_sf, words, gate_up, x, w16s = route_point_operands(n, k, m)

    def gemm(w, switches):
        with routing(switches, ROUTED):
            nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)

    def fused(w, switches):
        public_fused(ROUTED)(w, switches, a, a_sf)

    variants = {}
    for op, call, copies in (("gemm", gemm, words), ("fused", fused, gate_up)):
        for suffix, switches in FORMS.items():
            variants[op + suffix] = (copies, lambda w, c=call, s=switches: c(w, s))
    variants["cublas"] = (w16s, lambda w: x @ w.t())
    variants["cublas_silu"] = (w16s, lambda w: cublas_silu(x, w))
    print_variant_rounds(f"{n}x{k} M={m}", variants)
