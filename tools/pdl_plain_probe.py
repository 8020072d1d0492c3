"""PDL for the plain small-M GEMM, the variants not shipped: launched with PDL and triggered
after the main loop (``PDL_EARLY_TRIGGER``, as the fused kernel) or only as the CTAs exit, against
the shipped launch (no PDL): ``pdl_probe.time_gemms`` (M = 1 and 8 W4A4 on the seven shapes,
200 back-to-back calls per graph). The variant (PDL_PLAIN_VARIANT = 0, 1, 2) is a class
attribute patched in this process; the cache key does not see it, so each variant keeps its
kernels in its own cache folder (``/tmp/kcache-pdl-plain<variant>``).
CUTE_KERNELS_BENCH_SHAPES picks shapes."""

import os

VARIANTS = [("no PDL", False, True), ("PDL, trigger after loop", True, True),
            ("PDL, trigger at exit", True, False)]
variant = int(os.environ.get("PDL_PLAIN_VARIANT", "0"))
os.environ["CUTE_KERNELS_CACHE_DIR"] = f"/tmp/kcache-pdl-plain{variant}"

from pdl_probe import time_gemms  # noqa: E402

from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM  # noqa: E402

name, NVFP4GemmSmallM.PDL, NVFP4GemmSmallM.PDL_EARLY_TRIGGER = VARIANTS[variant]
time_gemms(name)
