"""PDL variants of the small-M kernels, each patched into this process by PDL_LOAD_VARIANT (an
index into VARIANTS; each variant keeps its kernels in its own cache folder, the cache key does
not see class attributes):

* 0, 1: the fused kernel with its first step's weight loads after the griddepcontrol.wait or
  before it (``NVFP4GemmSmallM.PDL_LOAD_BEFORE_WAIT``), ``pdl_probe.time_fused`` (M = 1, three
  gate_up shapes);
* 2..5: the plain GEMM without PDL, or with PDL, loads before the wait and the trigger at the
  CTA start, after the main loop or at exit, ``pdl_probe.time_gemms`` (M = 1 and 8, seven
  shapes; CUTE_KERNELS_BENCH_SHAPES picks them).

Graph us, 200 back-to-back calls per graph."""

import os

# (what, plain PDL, trigger, loads before the wait)
VARIANTS = [("fused", None, "loop", False), ("fused", None, "loop", True),
            ("plain", False, "loop", True), ("plain", True, "start", True),
            ("plain", True, "loop", True), ("plain", True, "exit", True)]
variant = int(os.environ.get("PDL_LOAD_VARIANT", "0"))
os.environ["CUTE_KERNELS_CACHE_DIR"] = f"/tmp/kcache-pdl-load{variant}"

from pdl_probe import time_fused, time_gemms  # noqa: E402

from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM  # noqa: E402

what, pdl, NVFP4GemmSmallM.PDL_TRIGGER, NVFP4GemmSmallM.PDL_LOAD_BEFORE_WAIT = VARIANTS[variant]
if what == "fused":
    time_fused("loads before wait" if VARIANTS[variant][3] else "wait first")
else:
    NVFP4GemmSmallM.PDL = pdl
    if not pdl:
        NVFP4GemmSmallM.PDL_SHORT_K_STEPS = 0  # not even the short-K grids
    time_gemms(f"PDL, trigger at {VARIANTS[variant][2]}" if pdl else "no PDL")
