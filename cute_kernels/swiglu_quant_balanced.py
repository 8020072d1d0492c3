"""The fused gate_up + SwiGLU + NVFP4 quantization at one token on the balanced grid
(``nvfp4_gemm_balanced``): a block is one 16-column group of the output, its up tile and its
gate tile on two row groups of K warps, as the fused one-token launch's (1, 1, 8, 1, 1, 2)
holds them; the remainder blocks' pieces meet in the fix-up warp, which then runs the fused
epilogue (``NVFP4GemmSwigluQuantSmallM.epilogue``) on the whole sums.

Why: the fused one-token launch at 9216x7168 is 288 CTAs of 8 warps on 132 SMs, 24 SMs with
three and 108 with two (issue 6 asks 11.67 us at M = 1 there; session 50's suite: 13.62).
The public op takes it behind ``nvfp4_gemm_balanced.FUSED_ONE_TOKEN_BALANCED`` at
``PUBLIC_BALANCED_CTAS_PER_SM`` (9216x7168, two an SM: 13.78 -> 13.13 us, H200 session 73),
and on bf16 tokens at ``PUBLIC_W4A16_FUSED_BALANCED_CTAS_PER_SM`` (14.57 -> 13.13, session
76)."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_stream

from layouts import GATE_UP_GROUP

from . import jit
from .arch import compile_options, sm_count
from .fused_scales import BLOCK
from .nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced, balanced_buffers,
                                  balanced_lane_tail)
from .nvfp4_gemm_small_m_split import fake_split_buffers
from .permuted_fp4 import weight_dims
from .swiglu_quant_small_m import (NVFP4GemmSwigluQuantSmallM, NVFP4GemmSwigluQuantSmallMSplitK,
                                   fake_fused_operands)


class NVFP4GemmSwigluQuantBalanced(NVFP4GemmOneTokenBalanced):
    """Static I (weights [2I, K/2], ``prepare_gate_up_weight``'s), K, ``warps`` K warps in all
    (half on a block's up tile, half on its gate tile) and grid; M = 1 at run time."""

    tile_row = NVFP4GemmSwigluQuantSmallM.tile_row
    epilogue = NVFP4GemmSwigluQuantSmallM.epilogue
    epilogue_table = NVFP4GemmSwigluQuantSmallM.epilogue_table
    epilogue_table_bytes = NVFP4GemmSwigluQuantSmallM.epilogue_table_bytes
    PADDING_WORDS = NVFP4GemmSwigluQuantSmallM.PADDING_WORDS
    # the out_scale table of G (``NVFP4GemmSwigluQuantSmallM``'s comment on the epilogue's tail:
    # H100 session 89, 9216x7168 M = 1 16.35 -> 16.09 us alone, 15.59 with the word padding)
    EPILOGUE_TABLE = True
    # the fused split kernel's arguments: the fused ones, then the workspace and the counters
    __call__ = NVFP4GemmSwigluQuantSmallMSplitK.__call__

    def epilogue_table_on(self) -> bool:
        """``EPILOGUE_TABLE``: the grid is a few CTAs an SM, so no cap on their count."""
        return self.EPILOGUE_TABLE

    def __init__(self, i: int, k: int, a_fp4: bool, warps: int, ctas_per_sm: int, sms: int,
                 permuted: bool = False, lane_columns: bool = False):
        if i % GATE_UP_GROUP:
            raise ValueError(f"I must be a multiple of {GATE_UP_GROUP}; got I={i}")
        self.i = i
        self.half = 1  # one up tile a block; tile 1 is its gate rows
        self.kb_out = i // BLOCK
        super().__init__(2 * i, k, a_fp4, cutlass.Uint8, warps, ctas_per_sm, sms, permuted,
                         row_groups=2, lane_columns=lane_columns)


@jit.cached
def compile_nvfp4_gemm_swiglu_quant_balanced(i: int, k: int, a_dtype: str, warps: int,
                                             ctas_per_sm: int, sms: int,
                                             permuted: bool = False, lane_columns: bool = False):
    """Arguments of the compiled function: those of ``compile_nvfp4_gemm_swiglu_quant_small_m``
    (a, a_sf, w, w_sf, alpha, out_global_scale, out, out_sf), then ``balanced_buffers``'
    workspace and counters."""
    a_fp4 = a_dtype == "fp4"
    kernel = NVFP4GemmSwigluQuantBalanced(i, k, a_fp4, warps, ctas_per_sm, sms, permuted,
                                          lane_columns)
    return cute.compile(kernel, *fake_fused_operands(i, k, a_fp4), *fake_split_buffers(),
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


def launch_swiglu_quant_balanced(a, a_sf, w, w_sf, alpha: torch.Tensor,
                                 out_global_scale: torch.Tensor, out: torch.Tensor,
                                 out_sf: torch.Tensor, warps: int = 8, ctas_per_sm: int = 2,
                                 compile_fn=compile_nvfp4_gemm_swiglu_quant_balanced) -> None:
    """The balanced fused launch on validated operands at M = 1 (alpha and out_global_scale
    one-element fp32 tensors); ``warps`` K warps (two row groups), ``ctas_per_sm`` times the
    device's SMs CTAs."""
    if a.shape[0] != 1:
        raise ValueError(f"a balanced one-token launch takes one token; got M={a.shape[0]}")
    two_i, k, permuted = weight_dims(w)
    sms = sm_count(out.device.index or 0)
    a_kind = "fp4" if a_sf is not None else str(a.dtype)
    # W4A16 has no activation scales; the kernel never reads that argument, w_sf stands in.
    compile_fn(two_i // 2, k, a_kind, warps, ctas_per_sm, sms, permuted,
               *balanced_lane_tail(a_sf is not None))(
        a.view(torch.int32), (w_sf if a_sf is None else a_sf).view(-1), w.view(torch.int32),
        w_sf.view(-1), alpha, out_global_scale, out, out_sf.view(torch.uint8).view(-1),
        *balanced_buffers(two_i, ctas_per_sm * sms, out.device, 32))
