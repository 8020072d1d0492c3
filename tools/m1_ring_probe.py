"""The cp.async ring (prefetch 2 / 3: that many K steps in flight a warp, through shared
memory) at one token, against the public config (the register double buffer, prefetch 1).
Session 43's fixed-part probe put 9216x7168 M = 1 at ~1.39 us an iteration against ~1.25 us
of bytes at the copy rate; at ~17.5 warps an SM of one step in flight each, the bytes in
flight are about what Little's law asks at ~1 us of load latency. More steps in flight is the
ring's purpose; it was last measured at M = 1 in session 1 (2026-11-29: 36864x7168 46.7
against 60.1, 5120x17408 (1, 1, 4, 2) 26.9 against 27.6), before the permuted decode, the
staged loop and the tables. The ring launches take no PDL (the one-wave rules ask the register
prefetch); the public route does.

Per point, graph us (50 calls a graph, weights rotated past the L2) of the public config,
starred, and of its ring variants, at M = 1 NVFP4 tokens on permuted words.
CUTE_KERNELS_BENCH_SHAPES picks points; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import permuted_weight_copies, print_configs_against_default

from cute_kernels.bench.timing import select_shapes

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
POINTS = [(9216, 7168), (5120, 17408), (36864, 7168), (4096, 7168)]


def ring_variants(default):
    """The default with 2 and 3 steps in flight, on its warps and on 4 / 8 warps."""
    rt, jt, warps, _, *rest = default
    return [(rt, jt, w, p, *rest) for w in sorted({warps, 4, 8}) for p in (2, 3)]


for n, k in select_shapes(POINTS):
    words = permuted_weight_copies(n, k)
    print_configs_against_default("gemm", n, k, 1, words, ring_variants, alpha, gs)
    del words
