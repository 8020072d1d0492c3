"""cute-kernels: NVFP4 and decode kernels for LLM inference in NVIDIA's CuTe DSL.

The public kernels are importable from the package (``from cute_kernels import nvfp4_gemm``).
They are imported eagerly: several share their module's name (``linear``, ``nvfp4_gemm``), and a
lazy lookup would hand back the module once the submodule had been imported by other code.
"""

from .arch import has_gpu, target_arch
from .gate_up_weight import prepare_gate_up_weight, restore_gate_up_weight
from .gdn_split import gdn_qkvzba_split
from .jit import cache_entries, clear_cache
from .linear import bf16_gemv, fp8_gemv, fp8_linear, linear, use_bf16_gemv, use_fp8_gemv
from .nvfp4_dequant import nvfp4_dequantize
from .nvfp4_gemm import nvfp4_gemm
from .nvfp4_gemm_swiglu_quant import nvfp4_gemm_swiglu_quant
from .nvfp4_quant import nvfp4_quantize, silu_mul_nvfp4_quant, silu_mul_nvfp4_quant_experts
from .permuted_fp4 import prepare_nvfp4_weight
from .silu_mul import silu_mul

__all__ = ["has_gpu", "target_arch", "cache_entries", "clear_cache", "nvfp4_dequantize",
           "bf16_gemv", "fp8_gemv", "fp8_linear", "linear", "use_bf16_gemv", "use_fp8_gemv",
           "silu_mul", "nvfp4_quantize", "silu_mul_nvfp4_quant", "silu_mul_nvfp4_quant_experts",
           "nvfp4_gemm", "nvfp4_gemm_swiglu_quant", "gdn_qkvzba_split", "prepare_gate_up_weight",
           "restore_gate_up_weight", "prepare_nvfp4_weight"]
