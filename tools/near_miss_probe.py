"""Session 19: launch variants at the points within ~3% of an issue target (H200 suites of
2026-11-30, permuted words, W4A4), timed side by side, two rounds. One part per
CUTE_KERNELS_BENCH_SHAPES index (one warm-up process each):
  0  fused 1024x7168 M = 64 (1.48x QuACK + silu + quant, 1.5x wanted): small-M configs
  1  gemm 34816x5120 M = 16 (59.2% of the copy bandwidth, 60% wanted): the 16-token
     stream-K launch's stages, CTAs per SM and K groups, and 32-token tiles
  2  gemm 4096x7168 M = 1024 (0.89x cuBLAS, 0.9x wanted): whole 256-token tiles (the plan)
     against stream-K and 128-token tiles
  3  gemm 7168x18432 M = 4, 8 (1.46x QuACK, 1.5x wanted): small-M configs
Session 20's near misses (its suites, after the stage cap), prepared for session 21:
  4  fused 34816x5120 M = 1 (74.1% of the copy bandwidth, 75% wanted): small-M configs
  5  gemm 9216x7168 M = 4, 8 (59.9 / 59.4%, 60% wanted): small-M configs
  6  fused 4096x7168 M = 16 (1.46x QuACK + silu + quant, 1.5x wanted): small-M configs
Session 21 (part 4 found fused 34816x5120 M = 1 at 30.7 us with 3 warps, 32.1 with 4): the
warps of the M = 1 configs, one part per weight:
  7..11   fused 36864x7168, 34816x5120, 9216x7168, 4096x7168, 1024x7168 at M = 1
  12..16  gemm 5120x17408, 9216x7168, 7168x18432, 36864x7168, 34816x5120 at M = 1
Prepared for session 22 (3 warps won only fused 34816x5120 M = 1 on permuted words):
  17  fused 34816x5120 M = 1 on packed words: the default there, (2, 1, 4, 1), against 3 warps
  18  fused 34816x5120 and 36864x7168 at M = 2 / 4, permuted words: the rule's 4 warps
      against 3
Wgmma variants include the activations' dequantization, as the public function runs it."""

import torch
from probe_inputs import (config_line, gate_up_copies, permuted_weight_copies, small_m_default,
                          time_wgmma_variants)

from cute_kernels import prepare_gate_up_weight, reference, restore_gate_up_weight
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")


def small_m_configs(kind, n, k, ms, words, extra):
    """Graph us of the default small-M config for ``words``' layout (starred) and of
    ``extra``'s, per M, twice; configs the kernel refuses (shared memory, tile rules) are
    skipped."""
    from cute_kernels.nvfp4_gemm import launch_small_m
    from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused
    from layouts import sf_padded_shape

    for m in ms:
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        default = small_m_default(kind, n, k, m, words)
        if kind == "gemm":
            out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            run = lambda w, c: launch_small_m(a, a_sf, w[0], w[1], alpha, out, c)
        else:
            q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
            sf = torch.empty(sf_padded_shape(m, n // 32), device="cuda", dtype=torch.uint8)
            run = lambda w, c: launch_fused(a, a_sf, w[0], w[1], alpha, gs, q, sf, c)
        configs = []
        for c in [default] + [c for c in extra if c != default]:
            try:
                run(words[0], c)
                configs.append(c)
            except Exception as e:  # noqa: BLE001 (a refused config is skipped, named)
                print(f"  {c} skipped: {str(e)[:80]}", flush=True)
        for _ in range(2):
            times = time_graphs_interleaved_us([[lambda w=w, c=c: run(w, c) for w in words]
                                                for c in configs], 50)
            print(config_line(kind, n, k, m, default, zip(configs, times)), flush=True)


def wgmma_variants(n, k, m, variants):
    """variants: name -> (tile_m, stages, splits, stream_k, hybrid, ctas_per_sm, k_groups)."""
    time_wgmma_variants("gemm", n, k, m, {
        name: dict(config=(v[0], v[1]), splits=v[2], stream_k=v[3], hybrid=v[4],
                   ctas_per_sm=v[5], k_groups=v[6]) for name, v in variants.items()})


def permuted_gate_up(two_i, k):
    """``gate_up_copies`` as the models hold them: permuted words."""
    return [prepare_gate_up_weight(*restore_gate_up_weight(w, s), permute=True)
            for w, s in gate_up_copies(two_i, k)]


PARTS = [
    lambda: small_m_configs("fused", 1024, 7168, (64,), permuted_gate_up(1024, 7168), [
        (rt, tt, w, p) for rt in (2, 4) for tt in (1, 2, 4, 8) for w in (4, 8) for p in (0, 1)
        if not (rt == 4 and w == 8)]),
    lambda: wgmma_variants(34816, 5120, 16, {
        "plan(sk16,c2,g2)": (16, 0, 1, True, False, 2, 2),
        "st4": (16, 4, 1, True, False, 2, 2), "st5": (16, 5, 1, True, False, 2, 2),
        "st6": (16, 6, 1, True, False, 2, 2), "c1g2": (16, 0, 1, True, False, 1, 2),
        "c2g1": (16, 0, 1, True, False, 2, 1), "sk32c2g2": (32, 0, 1, True, False, 2, 2)}),
    lambda: wgmma_variants(4096, 7168, 1024, {
        "plan(w256)": (256, 0, 1, False, False, 1, 1), "sk256": (256, 0, 1, True, False, 1, 1),
        "hy256": (256, 0, 1, True, True, 1, 1), "sk128": (128, 0, 1, True, False, 1, 1),
        "w128": (128, 0, 1, False, False, 1, 1)}),
    lambda: small_m_configs(
        "gemm", 7168, 18432, (4, 8),
        permuted_weight_copies(7168, 18432),
        [(1, 1, 4, 1), (2, 1, 4, 1), (1, 1, 8, 1), (2, 1, 8, 1), (2, 1, 4, 1, 2), (2, 1, 4, 1, 3),
         (1, 1, 4, 1, 2), (1, 1, 4, 1, 3), (2, 1, 4, 0, 2), (2, 1, 8, 1, 2)]),
    lambda: small_m_configs("fused", 34816, 5120, (1,), permuted_gate_up(34816, 5120), [
        (2, 1, 4, 0), (2, 1, 4, 2), (2, 1, 8, 1), (2, 1, 8, 0), (4, 1, 4, 1), (2, 1, 4, 1, 2),
        (2, 1, 3, 1)]),
    lambda: small_m_configs(
        "gemm", 9216, 7168, (4, 8),
        permuted_weight_copies(9216, 7168),
        [(1, 1, 8, 1), (2, 1, 4, 1), (1, 1, 4, 0), (1, 1, 4, 2), (1, 1, 4, 1, 2), (2, 1, 8, 1),
         (1, 1, 3, 1)]),
    lambda: small_m_configs("fused", 4096, 7168, (16,), permuted_gate_up(4096, 7168), [
        (2, 2, 4, 1), (2, 1, 8, 1), (2, 2, 8, 0), (4, 2, 4, 1), (2, 2, 8, 1, 2), (2, 4, 8, 1),
        (4, 1, 4, 1)]),
]


def m1_warps(kind, n, k):
    """M = 1 with the default config's warps swapped for 2, 3, 5 and 6."""
    if kind == "gemm":
        words = permuted_weight_copies(n, k)
    else:
        words = permuted_gate_up(n, k)
    default = small_m_default(kind, n, k, 1, words)
    extra = [default[:2] + (w,) + default[3:] for w in (2, 3, 5, 6)]
    small_m_configs(kind, n, k, (1,), words, extra)


PARTS += [lambda n=n, k=k: m1_warps("fused", n, k)
          for n, k in ((36864, 7168), (34816, 5120), (9216, 7168), (4096, 7168), (1024, 7168))]
PARTS += [lambda n=n, k=k: m1_warps("gemm", n, k)
          for n, k in ((5120, 17408), (9216, 7168), (7168, 18432), (36864, 7168), (34816, 5120))]
PARTS += [
    lambda: small_m_configs("fused", 34816, 5120, (1,), gate_up_copies(34816, 5120),
                            [(2, 1, 3, 1), (2, 1, 3, 0), (2, 1, 4, 0)]),
    lambda: [small_m_configs("fused", n, k, (2, 4), permuted_gate_up(n, k), [(2, 1, 3, 1)])
             for n, k in ((34816, 5120), (36864, 7168))],
]
for part in select_shapes(PARTS):
    part()
