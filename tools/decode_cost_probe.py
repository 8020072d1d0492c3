"""How much of the M = 1 time is the FP4 decode's instruction cost (the hypothesis: the small-M
loop is bound by the SM's integer (ALU) pipe, which issues at half rate, and the decode is
~2/3 of it): the small-M GEMM with ``e2m1x2_raw`` swapped, in this process, for a cheaper
and WRONG decode (timing only):

* ``real``: the shipped decode (two shifts, two masks per bf16x2 pair);
* ``no_sign``: magnitudes only (one shift, one mask);
* ``none``: the raw word as the pair (no decode instructions).

If ``no_sign`` is much faster than ``real``, fewer integer instructions per byte is the lever
(e.g. a prepared, bit-permuted weight layout that extracts three of four pairs with one shift
and one mask). Graph us, M = 1 W4A4, default configs. DECODE_VARIANT picks the variant (each
in its own cache folder); CUTE_KERNELS_BENCH_SHAPES picks shapes."""

import os

VARIANTS = ["real", "no_sign", "none"]
variant = VARIANTS[int(os.environ.get("DECODE_VARIANT", "0"))]
os.environ["CUTE_KERNELS_CACHE_DIR"] = f"/tmp/kcache-decode-{variant}"

import cutlass  # noqa: E402
import torch  # noqa: E402
from probe_inputs import weight_copies  # noqa: E402

from cute_kernels import nvfp4_gemm, reference  # noqa: E402
from cute_kernels import nvfp4_gemm_small_m as small_m  # noqa: E402
from cute_kernels.bench.timing import select_shapes, time_graph_us  # noqa: E402
from cute_kernels.device_mma import _shift  # noqa: E402


def no_sign(word, r: int):
    return _shift(word, 6 - 4 * r) & cutlass.Uint32(0x01C001C0)


def none(word, r: int):
    return word


if variant != "real":
    small_m.e2m1x2_raw = {"no_sign": no_sign, "none": none}[variant]

for n, k in select_shapes([(36864, 7168), (7168, 18432), (34816, 5120), (5120, 17408)]):
    weights = weight_copies(n, k)
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    us = time_graph_us([lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5) for w in weights])
    roof = n * k * 9 // 16 / 4.25e6
    print(f"decode {variant} {n}x{k} M=1: {us:.2f} us ({roof / us:.0%} of roofline)",
          flush=True)
    del weights
