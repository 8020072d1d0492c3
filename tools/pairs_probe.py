"""Issue 6's one-token gap on the plain kernel's grid: the fused cluster-pair kernel
(``swiglu_small_m_pairs``: one 8-column tile a CTA of four warps, its up and gate rows in one
MMA tile, two CTAs a cluster sharing the quant block's amax through distributed shared memory)
against the public route. Session 42: 9216x7168 M = 1 13.92 us fused on row groups, 12.85 for
the plain GEMM's 576 one-tile CTAs on the same weight bytes; the fused kernel as 288 CTAs of
8 warps was as slow as the plain one on that grid (13.90), so the grid is the gap.

Per point, graph us (interleaved, two rounds): the public function ("public") and the pair
kernel ("pairs"), outputs compared (equal bytes where the public rule's warps walk the same K
steps: four warps a tile). One shape per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import gate_up_words, print_forms

from cute_kernels import nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.swiglu_small_m_pairs import launch_small_m_pairs
from layouts import sf_padded_shape

SHAPES = [(9216, 7168), (36864, 7168), (34816, 5120), (4096, 7168)]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k in select_shapes(SHAPES):
    weights = gate_up_words(two_i, k, True)
    for m in (1, 4, 8):
        a, a_sf = reference.nvfp4_quantize(
            torch.randn(m, k, device="cuda", dtype=torch.bfloat16), 100.0)
        mp, kbp = sf_padded_shape(m, two_i // 32)
        q = torch.empty(m, two_i // 4, device="cuda", dtype=torch.uint8)
        sf = torch.empty(mp, kbp, device="cuda", dtype=torch.uint8)

        def public(w):
            return nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)

        def pairs(w):
            launch_small_m_pairs(a, a_sf, w[0], w[1], alpha, gs, q, sf)
        want, want_sf = public(weights[0])
        pairs(weights[0])
        torch.cuda.synchronize()
        label = f"fused {two_i}x{k} M={m}"
        if not warm_only():
            diff = int((q != want).sum()) + int((sf != want_sf.view(torch.uint8)).sum())
            if diff:
                print(f"{label}: pairs differ from the public route in {diff} bytes")
        print_forms(label, {"public": public, "pairs": pairs}, weights)
    del weights
