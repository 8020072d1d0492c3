"""PDL in the fused small-M kernel: its first step's weight loads issued after the
griddepcontrol.wait (shipped) or before it (``NVFP4GemmSmallM.PDL_LOAD_BEFORE_WAIT``; unsafe
where the kernel just before wrote the weights). ``pdl_probe.time_fused``: M = 1 on three
gate_up shapes, graph us, 200 back-to-back calls per graph. PDL_LOAD_VARIANT 0 or 1 patches the
class attribute in this process; each variant keeps its kernels in its own cache folder."""

import os

variant = int(os.environ.get("PDL_LOAD_VARIANT", "0"))
os.environ["CUTE_KERNELS_CACHE_DIR"] = f"/tmp/kcache-pdl-load{variant}"

from pdl_probe import time_fused  # noqa: E402

from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM  # noqa: E402

NVFP4GemmSmallM.PDL_LOAD_BEFORE_WAIT = bool(variant)
time_fused("loads before wait" if variant else "wait first")
