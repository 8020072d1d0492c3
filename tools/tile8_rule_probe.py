"""``nvfp4_gemm`` (public, permuted words, bf16 tokens) with ``large_m_plans.TILE_8_MAX_M`` as
shipped ("old": 16-token stream-K tiles at 4..8 tokens) beside 8-token tiles there ("new":
``TILE_8_MAX_M = 8``), and cuBLAS bf16, on the big weights whose W4A16 M = 4..8 takes the
wgmma kernel (issue 5's 60% of the copy at M <= 16: 9216x7168 ~53%, 5120x17408 ~56% on the
H200). Graph us, two rounds; outputs compared. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (agrees, bf16_weight_rotation, permuted_weight_copies,
                          print_variant_rounds, replaced)

from cute_kernels import large_m_plans, nvfp4_gemm
from cute_kernels.bench.timing import select_shapes, warm_only

POINTS = [(n, k, m) for n, k in ((9216, 7168), (5120, 17408), (7168, 18432)) for m in (4, 8)]


def gemm_with(tile_8_max_m: int, x, w, out):
    """The public op with ``TILE_8_MAX_M`` set (its memoized plans cleared either side)."""
    with replaced(large_m_plans, {"TILE_8_MAX_M": tile_8_max_m}):
        large_m_plans.plain_plan.cache_clear()
        nvfp4_gemm(x, None, w[0], w[1], 0.5, out=out)
    large_m_plans.plain_plan.cache_clear()


for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    words = permuted_weight_copies(n, k)
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for name in ("old", "new")}
    calls = {"old": lambda w: gemm_with(0, x, w, outs["old"]),
             "new": lambda w: gemm_with(8, x, w, outs["new"])}
    if not warm_only():
        for call in calls.values():
            call(words[0])
        if outs["new"].isnan().any() or not agrees(outs["new"], outs["old"]):
            print(f"  W4A16 {n}x{k} M={m}: new DISAGREES with old", flush=True)
    print_variant_rounds(f"gemm W4A16 {n}x{k} M={m} 16- -> 8-token stream-K tiles",
                         {"old": (words, calls["old"]), "new": (words, calls["new"]),
                          "cublas": (bf16_weight_rotation(n, k), lambda w: x @ w.t())})
    del words
    torch.cuda.empty_cache()
