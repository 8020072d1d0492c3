"""L2 prefetch before the PDL wait in the small-M kernels (``NVFP4GemmSmallM.PDL_L2_PREFETCH``:
0 nothing, 1 the CTA's first round of steps, 2 its whole K range for weights up to 16 MiB),
and PDL for the plain GEMM with it: ``pdl_probe.time_gemms`` (M = 1 and 8 W4A4, seven shapes)
and ``time_fused`` (M = 1, three gate_up shapes), graph us, 200 back-to-back calls per graph.
The variant (L2_VARIANT, an index into VARIANTS) patches class attributes in this process; the
cache key does not see them, so each variant keeps its kernels in its own cache folder
(``/tmp/kcache-l2-<v>``). CUTE_KERNELS_BENCH_SHAPES picks GEMM shapes (and skips the fused
ones); L2_FUSED_ONLY=1 times the fused shapes only."""

import os

# (PDL_L2_PREFETCH, plain GEMM PDL, plain GEMM trigger after the main loop)
VARIANTS = [(0, False, True), (1, False, True), (2, False, True), (2, True, False),
            (2, True, True)]
variant = int(os.environ.get("L2_VARIANT", "0"))
os.environ["CUTE_KERNELS_CACHE_DIR"] = f"/tmp/kcache-l2-{variant}"

from pdl_probe import time_fused, time_gemms  # noqa: E402

from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM  # noqa: E402

mode, NVFP4GemmSmallM.PDL, NVFP4GemmSmallM.PDL_EARLY_TRIGGER = VARIANTS[variant]
NVFP4GemmSmallM.PDL_L2_PREFETCH = mode
tag = (f"L2 prefetch {mode}, plain "
       + (("PDL trigger " + ("after loop" if VARIANTS[variant][2] else "at exit"))
          if VARIANTS[variant][1] else "no PDL"))
if not os.environ.get("L2_FUSED_ONLY"):
    time_gemms(tag)
if "CUTE_KERNELS_BENCH_SHAPES" not in os.environ:
    time_fused(tag)
