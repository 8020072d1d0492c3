"""PDL for the plain small-M GEMM, the variants not shipped: launched with PDL and triggered
after the main loop (``PDL_EARLY_TRIGGER``, as the fused kernel) or only as the CTAs exit, against
the shipped launch (no PDL). M = 1 and 8 W4A4 on the seven shapes, graph us (200 back-to-back
calls per graph). The variant (PDL_PLAIN_VARIANT = 0, 1, 2) is a class attribute patched in this
process; the cache key does not see it, so each variant keeps its kernels in its own cache folder
(``/tmp/kcache-pdl-plain<variant>``). CUTE_KERNELS_BENCH_SHAPES picks shapes."""

import os

VARIANTS = [("no PDL", False, True), ("PDL, trigger after loop", True, True),
            ("PDL, trigger at exit", True, False)]
variant = int(os.environ.get("PDL_PLAIN_VARIANT", "0"))
os.environ["CUTE_KERNELS_CACHE_DIR"] = f"/tmp/kcache-pdl-plain{variant}"

import torch  # noqa: E402
from probe_inputs import weight_copies  # noqa: E402

from cute_kernels import nvfp4_gemm, reference  # noqa: E402
from cute_kernels.bench.timing import select_shapes, time_graph_us  # noqa: E402
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM  # noqa: E402

name, NVFP4GemmSmallM.PDL, NVFP4GemmSmallM.PDL_EARLY_TRIGGER = VARIANTS[variant]
for n, k in select_shapes([(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120),
                           (9216, 7168), (4096, 7168), (7168, 2048)]):
    weights = weight_copies(n, k)
    times = []
    for m in (1, 8):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        us = time_graph_us([lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5) for w in weights])
        times.append(f"M={m} {us:.2f}")
    print(f"{name}: gemm {n}x{k} " + " ".join(times), flush=True)
    del weights
