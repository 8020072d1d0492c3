"""``nvfp4_gemm`` (public, permuted words) with ``large_m_plans.K_GROUPS_MIN_UNITS`` as shipped
("new": two K groups a stage on 16- and 32-token stream-K tiles from 60 units a CTA) beside
the rule before session 80 ("old": from 80), NVFP4 and bf16 tokens, at M = 4 / 8 / 16 / 32 on
9216x7168 (61 units a CTA: the only suite shape the rule moves), and cuBLAS bf16. Graph us,
two rounds; outputs compared. One point per CUTE_KERNELS_BENCH_SHAPES
index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (agrees, bf16_weight_rotation, permuted_weight_copies,
                          print_variant_rounds, replaced)

from cute_kernels import large_m_plans, nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, warm_only

POINTS = [(9216, 7168, m, a_fp4) for m in (4, 8, 16, 32) for a_fp4 in (True, False)]
OLD = {"K_GROUPS_MIN_UNITS": 80}

for n, k, m, a_fp4 in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if a_fp4 else (x, None)
    words = permuted_weight_copies(n, k)
    outs = {name: torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            for name in ("old", "new")}

    def old(w):
        with replaced(large_m_plans, OLD):
            nvfp4_gemm(a, a_sf, w[0], w[1], 0.5, out=outs["old"])

    def new(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], 0.5, out=outs["new"])
    kind = "W4A4" if a_fp4 else "W4A16"
    if not warm_only():
        old(words[0])
        new(words[0])
        if not agrees(outs["new"], outs["old"]):
            print(f"  {kind} M={m}: new DISAGREES with old", flush=True)
    print_variant_rounds(f"gemm {kind} {n}x{k} M={m} K groups on 16-token tiles old -> new",
                         {"old": (words, old), "new": (words, new),
                          "cublas": (bf16_weight_rotation(n, k), lambda w: x @ w.t())})
    del words
    torch.cuda.empty_cache()
