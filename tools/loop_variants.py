"""Branch loads-fence: the small-M loop variants of the A/B (``tools/ab_fence.sh``), set by
LOOP_VARIANT before anything compiles. They patch class attributes the kernel cache key does
not see, so each variant runs in its own process with its own CUTE_KERNELS_CACHE_DIR.

- f1: the branch default: the lean staged path up to two row tiles, loads fenced at the top
  of the step;
- f2: f1 with the register buffers trading roles (two steps per iteration, no copy);
- f4: f1 with the scale splats looked up in a shared-memory table;
- f5: f2 with the table."""

import os


def apply_variant() -> str:
    variant = os.environ.get("LOOP_VARIANT", "")
    if variant:
        from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM as K
        K.LEAN_MAX_RT, K.LOADS_FENCE = 2, True
        K.TRADE_BUFFERS = variant in ("f2", "f5")
        K.SCALE_TABLE = variant in ("f4", "f5")
    return variant
