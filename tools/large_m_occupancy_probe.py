"""The wgmma kernel at 32..128 tokens with two CTAs per SM and 32-token tiles (session 16).

Session 6's ncu run on 36864x7168 M = 64 (64-token tiles) had 2.26 warps per scheduler, 0.93
eligible, 44% of issue slots busy: the consumer warps' decode stalls on its own latency while
the tensor pipe waits. Two CTAs per SM (``ctas_per_sm=2``: 80 registers at launch, 104 for the
consumers, no spill) give each scheduler four consumer warps; 32-token tiles halve the MMA of
M <= 32. Per shape and M: the current route (``launch_planned`` on ``plain_plan``, bf16
activations: the kernel alone plus stream-K's counter memset), then stream-K ("sk") and whole-tile ("whole") launches per
(token tile, CTAs per SM). Whole tiles of one token tile must give the same bits with one or
two CTAs per SM ("same" / "DIFFER"). Permuted words, graph us, weights rotated past the L2.
CUTE_KERNELS_BENCH_SHAPES picks shapes."""

import torch
from probe_inputs import permuted_weight_copies

from cute_kernels.bench.timing import select_shapes, time_graph_us, warm_only
from cute_kernels.large_m_plans import large_m_plan, plain_plan, stream_k_plan
from cute_kernels.nvfp4_gemm import launch_planned
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

SHAPES = [(36864, 7168), (34816, 5120), (9216, 7168), (7168, 18432), (5120, 17408),
          (4096, 7168), (7168, 2048)]
alpha = torch.full((1,), 0.5, device="cuda")


def variants(m: int):
    """(label, tile_m, ctas_per_sm, stream_k)."""
    tiles = [t for t in (32, 64) if t >= m or t == 64]
    for tile in tiles:
        for cps in (1, 2):
            for sk in (True, False):
                yield f"{'sk' if sk else 'whole'}{tile}x{cps}", tile, cps, sk


for n, k in select_shapes(SHAPES):
    words = permuted_weight_copies(n, k)
    for m in (32, 64, 128):
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        plan = plain_plan(m, n, k)
        row = [f"{n}x{k} M={m}: route {stream_k_plan(m, n, k) or large_m_plan(m, n, k)} "
               + f"{time_graph_us([lambda w=w: launch_planned(a, None, w[0], w[1], alpha, out, plan) for w in words], 50):.2f}"]
        whole_bits = {}
        for label, tile, cps, sk in variants(m):
            def call(w, tile=tile, cps=cps, sk=sk):
                launch_large_m(a, w[0], w[1], alpha, out, (tile, 0), stream_k=sk,
                               ctas_per_sm=cps)
            row.append(f"{label} {time_graph_us([lambda w=w: call(w) for w in words], 50):.2f}")
            if not sk and not warm_only():
                out.fill_(float("nan"))
                call(words[0])
                whole_bits.setdefault(tile, []).append(out.clone())
        same = [torch.equal(x[0], x[1]) and not x[0].isnan().any()
                for x in whole_bits.values() if len(x) == 2]
        print("  ".join(row) + ("  same" if all(same) else "  DIFFER"), flush=True)
    del words
