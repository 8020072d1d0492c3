"""One dispatch point between the CuTe DSL kernels (CUDA tensors) and the reference (CPU).

Every op the model layer uses goes through ``ops.<name>(...)``: on CUDA tensors it calls the
public kernel function, on anything else the matching ``cute_kernels.reference`` function (pure
torch, the executable numerics spec). Both sides take the same leading positional arguments, so
each call site is one line. The kernel function is looked up on the first CUDA call; on the CPU
nothing is compiled or launched.
"""

from __future__ import annotations

import importlib

import torch

from cute_kernels import reference

__all__ = ["linear", "silu_mul", "nvfp4_quantize", "silu_mul_nvfp4_quant", "nvfp4_gemm",
           "nvfp4_gemm_swiglu_quant", "gdn_qkvzba_split", "on_gpu"]

# op name -> ("module:function" of the kernel, CPU function)
_TABLE = {
    "linear": ("cute_kernels.linear:linear", torch.nn.functional.linear),
    "silu_mul": ("cute_kernels.silu_mul:silu_mul", reference.silu_mul),
    "nvfp4_quantize": ("cute_kernels.nvfp4_quant:nvfp4_quantize", reference.nvfp4_quantize),
    "silu_mul_nvfp4_quant": ("cute_kernels.nvfp4_quant:silu_mul_nvfp4_quant",
                             reference.silu_mul_nvfp4_quant),
    "nvfp4_gemm": ("cute_kernels.nvfp4_gemm:nvfp4_gemm", reference.nvfp4_gemm),
    "nvfp4_gemm_swiglu_quant": ("cute_kernels.nvfp4_gemm_swiglu_quant:nvfp4_gemm_swiglu_quant",
                                reference.gemm_swiglu_quant),
    "gdn_qkvzba_split": ("cute_kernels.gdn_split:gdn_qkvzba_split", reference.gdn_qkvzba_split),
}
_KERNELS: dict = {}


def on_gpu(t: torch.Tensor) -> bool:
    return t.device.type == "cuda"


def _dispatch(name: str):
    target, cpu_fn = _TABLE[name]

    def call(first: torch.Tensor, *args, **kwargs):
        if not on_gpu(first):
            return cpu_fn(first, *args, **kwargs)
        fn = _KERNELS.get(name)
        if fn is None:
            module, attr = target.split(":")
            fn = _KERNELS[name] = getattr(importlib.import_module(module), attr)
        return fn(first, *args, **kwargs)

    call.__name__ = name
    call.__doc__ = f"``{target}`` on CUDA tensors, ``{cpu_fn.__module__}.{cpu_fn.__name__}`` " \
                   f"elsewhere (dispatch on the first argument's device)."
    return call


linear = _dispatch("linear")
silu_mul = _dispatch("silu_mul")
nvfp4_quantize = _dispatch("nvfp4_quantize")
silu_mul_nvfp4_quant = _dispatch("silu_mul_nvfp4_quant")
nvfp4_gemm = _dispatch("nvfp4_gemm")
nvfp4_gemm_swiglu_quant = _dispatch("nvfp4_gemm_swiglu_quant")
gdn_qkvzba_split = _dispatch("gdn_qkvzba_split")
