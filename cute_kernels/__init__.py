"""cute-kernels: NVFP4 and decode kernels for LLM inference in NVIDIA's CuTe DSL."""

from .arch import has_gpu, target_arch
from .jit import cache_entries, clear_cache

__all__ = ["has_gpu", "target_arch", "cache_entries", "clear_cache"]
