"""Stream-K fitted tiles past 1024 tokens (session 67, for session 68): call 3 of session 67
measured them 1-24% over the model's estimates, worst where a CTA's range spans several tiles
of long-K weights (7168x18432 M = 1136, 2.1 tiles a CTA: 24%). A guess: the CTAs then walk K
out of step, and the weight rows a wave of whole tiles reads together through the L2 are read
again from DRAM per token tile (the kernel's comment on lanes says it of the activations). Two
ways to keep them in step: the hybrid (``hybrid``: whole tiles for all but the last one to two
waves' worth, stream-K on the rest), and stream-K in lanes of row tiles (``lanes``: the CTAs
of a group walk the same activation k-tiles together; today only 128 / 256-token tiles on at
most 32 row tiles take them), here with the most lanes dividing the row tiles whose whole
groups fill 90% of the SMs (``lanes_for``: bands of several row tiles a lane). Per point:
today's plan ("plan", whole tiles past 1024), the fitted width whole ("w"), stream-K ("sk"),
hybrid ("hy") and in lanes ("skL"), the last two first checked against the fp64 product (fp32
out poisoned with NaN; the relative error printed), then graph us in two rounds with cuBLAS
bf16, NVFP4 activations on permuted words. Points: session 67 call 3's four stream-K losses,
then its four wins. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, fp64_plan_error, gate_up_words, gemm_on_plan,
                          print_variant_rounds, replaced)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.large_m_plans import STREAM_K_LANES_MIN_GRID_FILL, plain_plan
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, TILE_N

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")

# (N, K, M, the stream-K width measured in session 67 call 3)
POINTS = [(7168, 18432, 1136, 240), (5120, 17408, 1560, 176), (36864, 7168, 1295, 144),
          (34816, 5120, 1825, 240), (5120, 17408, 1030, 176), (5120, 17408, 1295, 144),
          (5120, 17408, 1931, 176), (34816, 5120, 1100, 160)]


def lanes_for(n: int, sms: int = H200_SMS) -> int:
    """The most lanes that divide N's row tiles and whose whole groups of CTAs fill
    ``STREAM_K_LANES_MIN_GRID_FILL`` of the SMs (56 row tiles: 14, 40: 40, 288: 32, 272: 17)."""
    rows = -(-n // TILE_N)
    return max([d for d in range(1, min(rows, sms) + 1)
                if rows % d == 0 and sms // d * d >= STREAM_K_LANES_MIN_GRID_FILL * sms])


def in_lanes(lanes: int):
    """A context in which ``nvfp4_gemm``'s stream-K launches take ``lanes`` lanes."""
    return replaced(GEMM, {"plain_stream_k_lanes": lambda n, tile_m, stream_k, sms=H200_SMS:
                           lanes if stream_k else 1})


for n, k, m, width in select_shapes(POINTS):
    lanes = lanes_for(n)
    # (plan, lanes): the fitted widths take no lanes on their own (``stream_k_lanes``)
    plans = {"w": ((width, 1, False, False), 1), "sk": ((width, 1, True, False), 1),
             "hy": ((width, 1, True, True), 1), "skL": ((width, 1, True, False), lanes)}
    errors = {}
    for name in ("hy", "skL"):  # (warms fp32 out)
        with in_lanes(plans[name][1]):
            errors[name] = fp64_plan_error(n, k, m, plans[name][0])
    if not warm_only():
        print(f"gemm {n}x{k} M={m} plan={plain_plan(m, n, k)} width {width}, {lanes} lanes",
              flush=True)
        print("  fp64 rel err: " + " ".join(f"{name}={e:.1e}" for name, e in errors.items()),
              flush=True)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)

    def on_plan(w, plan, plan_lanes):
        with in_lanes(plan_lanes):
            return gemm_on_plan(a4, a4_sf, w, plan)

    variants = {"plan": (words, lambda w: gemm_on_plan(a4, a4_sf, w))}
    variants.update({name: (words, lambda w, p=p: on_plan(w, *p)) for name, p in plans.items()})
    variants["cublas"] = (bf16_weight_rotation(n, k), lambda w: x @ w.t())
    print_variant_rounds("  us", variants)
