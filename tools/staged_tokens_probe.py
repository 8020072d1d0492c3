"""Staged activations at 3..8 tokens: the small-M GEMM with the CTA's tokens converted (W4A16)
or decoded (W4A4) once into shared memory, forced through ``launch_small_m`` with
``nvfp4_gemm.PLAIN_X_SMEM_TOKENS`` / ``PLAIN_STAGE_BYTES`` widened, against the public route,
on permuted words. Never timed before: session 9's probe stopped on an import error, and since
then W4A16 from 4 tokens on big weights routes to the wgmma kernel, which the old probe's
public calls reached instead of the staged kernel.

Why it may win (CPU, nvdisasm, 9216x7168): the staged main loop is 279 SASS instructions a
step at 4 or 8 tokens, bf16 or NVFP4 alike (one token tile of 8 columns serves them all),
against 438 for the W4A4 register path (M = 3..8 today) and 307 for W4A16's (prefetch off).
The open points it aims at (issue 5, W4A16 permuted rows, ``python -m
cute_kernels.bench.targets notes/raw --latest --open``, session 50's suite): 9216x7168 M = 4 /
8 51.5 / 51.7% of the roofline, 5120x17408 50.2 / 55.9% (60% asked), 7168x18432 M = 4 / 8
1.46 / 1.44x QuACK (1.5x asked); the W4A4 rows there are met (62%, the register path).

What limits it: shared memory. A token of bf16 pairs is 2 bytes per K element (7168: 14 KB), so
a CTA's staging of 4 tokens caps 9216x7168 at three CTAs an SM and 8 tokens at one; a K split
stages only its slice, but multiplies the CTAs. The forms below are the configs whose grid is
nearest one wave (each one's CTAs, CTAs an SM and waves in its comment).

Forms: "public" (``nvfp4_gemm`` as routed) and "sRTWPS" (staged, config (R, 1, W, P[, S])).
Graph us of back-to-back calls, interleaved, two rounds; then each form's output against the
public one's (relative norm of the difference of the bf16 outputs: sums in another order,
~1e-3 at most). One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import importlib

import torch
from probe_inputs import permuted_weight_copies, replaced, time_forms_against_public

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")  # the package exports the function
STAGE_ALL = {"PLAIN_X_SMEM_TOKENS": 8, "PLAIN_STAGE_BYTES": 1 << 20}

# (N, K, M, staged configs); per config: CTAs, CTAs an SM (registers, shared memory), waves
# on 132 SMs, for W4A16 (CPU, session 72)
POINTS = [
    (9216, 7168, 4, [(2, 1, 4, 1),          # 288, 3, 0.73
                     (2, 1, 4, 1, 2),       # 576, 4, 1.09
                     (1, 1, 4, 1, 2)]),     # 1152, 7, 1.25
    (9216, 7168, 8, [(2, 1, 4, 1, 2),       # 576, 3, 1.45
                     (2, 1, 4, 1, 3),       # 864, 4, 1.64
                     (1, 1, 4, 1, 3)]),     # 1728, 5, 2.62
    (5120, 17408, 4, [(2, 1, 4, 1, 2),      # 320, 3, 0.81
                      (2, 1, 4, 1, 3),      # 480, 4, 0.91
                      (1, 1, 4, 1, 2)]),    # 640, 3, 1.62
    (5120, 17408, 8, [(2, 1, 4, 1, 3),      # 480, 2, 1.82
                      (1, 1, 4, 1, 3)]),    # 960, 2, 3.64
    (7168, 18432, 4, [(2, 1, 4, 1, 3),      # 672, 4, 1.27
                      (2, 1, 4, 1, 2),      # 448, 2, 1.70
                      (1, 1, 4, 1, 3)]),    # 1344, 4, 2.55
    (7168, 18432, 8, [(2, 1, 4, 1, 3)]),    # 672, 2, 2.55
    (9216, 7168, 3, [(2, 1, 4, 1),          # 288, 3+, <= 0.73
                     (2, 1, 4, 1, 2)]),
    (36864, 7168, 4, [(2, 1, 4, 1),         # 1152, 3, 2.91
                      (1, 1, 4, 1, 2)]),    # 4608, 7, 4.99
    (34816, 5120, 4, [(1, 1, 4, 1),         # 2176, 5, 3.30
                      (2, 1, 4, 1)]),       # 1088, 4, 2.06
    (4096, 7168, 4, [(1, 1, 4, 1, 3),       # 768, 6, 0.97
                     (2, 1, 4, 1)]),        # 128, 3, 0.32
    (4096, 7168, 8, [(1, 1, 4, 1, 3),       # 768, 5, 1.16
                     (2, 1, 4, 1, 2)]),     # 256, 3, 0.65
]


def form_name(config) -> str:
    return "s" + "".join(map(str, config))


def point(n: int, k: int, m: int, configs) -> None:
    weights = permuted_weight_copies(n, k)
    alpha = torch.full((1,), 0.5, device="cuda")
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    for kind, act, act_sf in (("W4A16", x, None), ("W4A4", a, a_sf)):
        outs = {name: torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
                for name in ["public"] + [form_name(c) for c in configs]}

        def public(w, out=outs["public"]):
            gemm_module.nvfp4_gemm(act, act_sf, w[0], w[1], alpha, out=out)

        calls = {"public": public}
        for c in configs:
            def staged(w, c=c, out=outs[form_name(c)]):
                with replaced(gemm_module, STAGE_ALL):
                    gemm_module.launch_small_m(act, act_sf, w[0], w[1], alpha, out, c)
            calls[form_name(c)] = staged
        time_forms_against_public(f"{kind} {n}x{k} M={m}", calls, weights, outs, codes=False)
    del weights
    torch.cuda.empty_cache()


if __name__ == "__main__":
    for n, k, m, configs in select_shapes(POINTS):
        point(n, k, m, configs)
