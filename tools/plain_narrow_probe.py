"""``nvfp4_gemm``'s 128-token tiles past the mid-M range (``plain_narrow_launch``): at each
point of issue 5's weights where the rule changes the launch, the plan with the rule off
beside the plan with it on and cuBLAS bf16; permuted words, NVFP4 activations, the rule's
output checked against the old plan's. Graph us (``probe_inputs.print_variant_rounds``), two
rounds; one point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

import torch
from probe_inputs import bf16_weight_rotation, gate_up_words, gemm_on_plan, print_variant_rounds

from cute_kernels import large_m_plans, reference
from cute_kernels.bench.timing import select_shapes

WEIGHTS = [(7168, 18432), (5120, 17408), (9216, 7168), (4096, 7168), (7168, 2048),
           (36864, 7168), (34816, 5120)]
TOKENS = (300, 384, 513, 600, 700, 800, 900, 1024, 1100, 1300, 1536, 2048, 2100, 2500)


def plan_without_rule(m: int, n: int, k: int) -> tuple:
    kept = large_m_plans.PLAIN_NARROW_MAX_M
    large_m_plans.PLAIN_NARROW_MAX_M = 0
    try:
        return large_m_plans.plain_plan.__wrapped__(m, n, k)
    finally:
        large_m_plans.PLAIN_NARROW_MAX_M = kept


# where the rule changes the launch and session 64's first run of this probe had no point
# (indices 41..): issue 5's weights and other model shapes
UNMEASURED = [(5120, 17408, 1600), (5120, 17408, 2350), (34816, 5120, 1600),
              (34816, 5120, 1850), (1024, 7168, 1500), (1024, 7168, 1700), (2048, 7168, 600),
              (2048, 7168, 800), (3072, 7168, 1350), (3072, 7168, 1900), (1536, 7168, 1000),
              (2560, 5120, 1600), (2560, 5120, 2300)]
POINTS = [(n, k, m) for n, k in WEIGHTS for m in TOKENS
          if large_m_plans.plain_plan(m, n, k) != plan_without_rule(m, n, k)] + UNMEASURED


def agrees(out: torch.Tensor, ref: torch.Tensor) -> bool:
    # same inputs, another launch: only the fp32 summation order differs
    scale = ref.float().abs().max().clamp_min(1e-6)
    return bool(((out.float() - ref.float()).abs().max() / scale) < 1e-2)


for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    old, new = plan_without_rule(m, n, k), large_m_plans.plain_plan(m, n, k)
    if not agrees(gemm_on_plan(a4, a4_sf, words[0], new), gemm_on_plan(a4, a4_sf, words[0], old)):
        print(f"  {new} DISAGREES with {old}", flush=True)
    variants = {"old": (words, lambda w: gemm_on_plan(a4, a4_sf, w, old)),
                "new": (words, lambda w: gemm_on_plan(a4, a4_sf, w, new)),
                "cublas": (bf16_weight_rotation(n, k), lambda w: x @ w.t())}
    print_variant_rounds(f"gemm {n}x{k} M={m} {old} -> {new}", variants)
