"""What the wgmma kernels' TMA stream at 16-token stream-K tiles spends its time on: issue 5's
M = 16 points (9216x7168 51.4%, 5120x17408 56.3% of the copy on the H200; 60% asked), the
launch alone (bf16 activations made once, outside the timing) with the consumers stubbed
(``NVFP4GemmLargeM.STUB_CONSUMERS``: no decode, no wgmma; outputs wrong):

- ``stub``: the whole stream (activations, weights, scales);
- ``no_act`` / ``no_w`` / ``no_sf``: the same without one of them (``STUB_SKIP``);
- ``none``: no loads at all (the launch, pipeline, fix-up and epilogue alone);
- ``blocked``: the weights from contiguous 4 KB blocks, one a (row tile, k-tile) box
  (``BLOCKED_WEIGHTS``: 16 rows of 256 bytes a box instead of 128 rows of 32), at one and
  two K groups a stage;

beside the real launch at one and two K groups a stage and one and two CTAs an SM (``_c2``:
also the stubbed stream and the bare launch), and the real consumers without their wgmmas
(``no_mma``, ``STUB_MMA``) or without their decode (``no_decode``, ``STUB_DECODE``).

Why: session 80's ``stream_shape_probe`` (H100) had the stubbed stream
17.2-19.0 us at 9216x7168 M = 16 (one to four K groups) against the real 19.0-20.0, where our
fp8 GEMV reads the same bytes in 14.5: the stream loses its time somewhere other than the
decode, and a contiguous weight order is the lever this tells apart from the rest.

Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import launch_alone_inputs, print_variant_rounds, switched_compiler

from cute_kernels.bench.timing import select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)

POINTS = [(9216, 7168, 16), (5120, 17408, 16)]
# name -> (NVFP4GemmLargeM switches, K groups, CTAs an SM); no switches: the real launch
FORMS = {
    "real": ({}, 1, 1), "real_g2": ({}, 2, 1), "real_c2": ({}, 1, 2), "real_g2_c2": ({}, 2, 2),
    "stub": ({"STUB_SKIP": ()}, 1, 1),
    "no_act": ({"STUB_SKIP": ("act",)}, 1, 1), "no_w": ({"STUB_SKIP": ("weights",)}, 1, 1),
    "no_sf": ({"STUB_SKIP": ("scales",)}, 1, 1),
    "none": ({"STUB_SKIP": ("act", "weights", "scales")}, 1, 1),
    "blocked": ({"BLOCKED_WEIGHTS": True}, 1, 1), "stub_g2": ({"STUB_SKIP": ()}, 2, 1),
    "blocked_g2": ({"BLOCKED_WEIGHTS": True}, 2, 1), "stub_c2": ({"STUB_SKIP": ()}, 1, 2),
    "none_c2": ({"STUB_SKIP": ("act", "weights", "scales")}, 1, 2),
    "no_mma_g2": ({"STUB_MMA": True}, 2, 1), "no_decode_g2": ({"STUB_DECODE": True}, 2, 1),
    "no_mma": ({"STUB_MMA": True}, 1, 1), "no_decode": ({"STUB_DECODE": True}, 1, 1)}
# switches on the real consumers; the rest stub them (``STUB_CONSUMERS``)
CONSUMER_SWITCHES = ("STUB_MMA", "STUB_DECODE")


def compiler(name: str, switches: dict):
    if not switches:
        return compile_nvfp4_gemm_large_m
    stub = not any(switch in switches for switch in CONSUMER_SWITCHES)
    return switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                             {"STUB_CONSUMERS": stub, **switches}, f"compile_parts_{name}")


COMPILERS = {name: compiler(name, form[0]) for name, form in FORMS.items()}

for n, k, m in select_shapes(POINTS):
    words, x, alpha = launch_alone_inputs(n, k, m)
    out = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)

    def form(name, groups, ctas_per_sm):
        return lambda w: launch_large_m(
            x, w[0], w[1], alpha, out, (16, 0), stream_k=True, ctas_per_sm=ctas_per_sm,
            k_groups=groups, k_order=KOrder.PERMUTED, compile_fn=COMPILERS[name])
    print_variant_rounds(f"gemm {n}x{k} M={m} 16-token stream-K, GEMM alone",
                         {name: (words, form(name, *f[1:])) for name, f in FORMS.items()})
    del words
    torch.cuda.empty_cache()
