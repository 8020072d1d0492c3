"""``nvfp4_gemm`` (public, bf16 tokens) with ``large_m_plans.TILE_8_MAX_M`` off ("old": 16-token
stream-K tiles at 4..8 tokens) beside 8-token tiles there ("new": ``TILE_8_MAX_M = 8``, and
for packed bytes ``PACKED_TILE_8``), and cuBLAS bf16, on the big weights whose W4A16 M = 4..8
takes the wgmma kernel (issue 5's 60% of the copy at M <= 16: 9216x7168 ~53%, 5120x17408 ~56%
on the H200; 7168x18432 M = 4 / 8 1.47x / 1.45x QuACK, 1.5x asked), on permuted words and
(the last points) packed bytes. Graph us, two rounds; outputs compared. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (agrees, bf16_weight_rotation, permuted_weight_copies,
                          print_variant_rounds, replaced, weight_copies)

from cute_kernels import large_m_plans, nvfp4_gemm
from cute_kernels.bench.timing import select_shapes, warm_only

POINTS = [(n, k, m, permuted) for permuted in (True, False)
          for n, k in ((9216, 7168), (5120, 17408), (7168, 18432)) for m in (4, 8)]


def gemm_with(tile_8_max_m: int, x, w, out):
    """The public op with ``TILE_8_MAX_M`` (and ``PACKED_TILE_8``) set, its memoized plans
    cleared either side."""
    switches = {"TILE_8_MAX_M": tile_8_max_m, "PACKED_TILE_8": tile_8_max_m > 0}
    with replaced(large_m_plans, switches):
        large_m_plans.plain_plan.cache_clear()
        large_m_plans.packed_plan.cache_clear()
        nvfp4_gemm(x, None, w[0], w[1], 0.5, out=out)
    large_m_plans.plain_plan.cache_clear()
    large_m_plans.packed_plan.cache_clear()


for n, k, m, permuted in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    words = permuted_weight_copies(n, k) if permuted else weight_copies(n, k)
    kind = "permuted" if permuted else "packed"
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for name in ("old", "new")}
    calls = {"old": lambda w: gemm_with(0, x, w, outs["old"]),
             "new": lambda w: gemm_with(8, x, w, outs["new"])}
    if not warm_only():
        for call in calls.values():
            call(words[0])
        if outs["new"].isnan().any() or not agrees(outs["new"], outs["old"]):
            print(f"  W4A16 {kind} {n}x{k} M={m}: new DISAGREES with old", flush=True)
    print_variant_rounds(f"gemm W4A16 {kind} {n}x{k} M={m} 16- -> 8-token stream-K tiles",
                         {"old": (words, calls["old"]), "new": (words, calls["new"]),
                          "cublas": (bf16_weight_rotation(n, k), lambda w: x @ w.t())})
    del words
    torch.cuda.empty_cache()
