"""``nvfp4_gemm``'s wgmma kernel with its NVFP4 activations decoded in the kernel
(``NVFP4GemmLargeM(act_fp4=True)``, ``fp4_operand``): compiled entry points and the launch on
validated operands. Not routed yet: ``tools/fp4_operand_probe.py`` measures it against the
public route (the activations' pass, then the GEMM)."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from . import jit
from .arch import compile_options, sm_count
from .dtypes import torch_to_cutlass
from .k_order import KOrder, wgmma_k_order
from .large_m_decode import SF_CHUNK_WORDS, TILE_K
from .nvfp4_gemm_large_m import (H200_SMS, TILE_N, NVFP4GemmLargeM, compile_tail,
                                 fake_stream_k_buffers, operand_k_order, stream_k_buffers)
from .nvfp4_gemm import pdl_choices, planned_launch
from .permuted_fp4 import weight_dims


class NVFP4GemmFp4Act(NVFP4GemmLargeM):
    """The kernel on (codes, scales) of NVFP4 activations: a int32 [M, K/8] (packed bytes as
    words), a_sf int32 [pad128(M) * K/64] (the swizzled scale bytes as words)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, act_fp4=True, **kwargs)

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mD: cute.Tensor, stream):
        self._launch((mA, mASF), mB, mBSF, (mAlpha,), (mD,), stream)


class NVFP4GemmFp4ActStreamK(NVFP4GemmFp4Act):
    """``NVFP4GemmFp4Act(stream_k=True)`` with the stream-K workspace and arrival counters."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mD: cute.Tensor, mWork: cute.Tensor, mCount: cute.Tensor,
                 stream):
        self._launch((mA, mASF), mB, mBSF, (mAlpha,), (mD,), stream, (mWork, mCount))


@jit.cached
def compile_fp4_act_gemm(n: int, k: int, out_dtype: str, tile_m: int = 64, stages: int = 0,
                         sms: int = H200_SMS, splits: int = 1, stream_k: bool = False,
                         hybrid: bool = False, k_order: KOrder = KOrder.PERMUTED,
                         ctas_per_sm: int = 1, k_groups: int = 1, wg_k_split: bool = False,
                         pair_pieces: bool = False, pdl_trigger: bool = False):
    """``compile_nvfp4_gemm_large_m``'s arguments, the activations NVFP4 (``NVFP4GemmFp4Act``):
    a int32 [M, K/8], a_sf int32 [pad128(M) * K/64], then b, b_sf, alpha, out (and in stream-K
    the workspace and counters)."""
    m = cute.sym_int()
    a = make_fake_compact_tensor(cutlass.Int32, (m, k // 8), stride_order=(1, 0),
                                 assumed_align=16)
    a_sf = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=16)
    b = make_fake_compact_tensor(cutlass.Int32, (n, k // 8), stride_order=(1, 0),
                                 assumed_align=16)
    b_sf = make_fake_compact_tensor(
        cutlass.Int32, ((n + TILE_N - 1) // TILE_N * (k // TILE_K) * SF_CHUNK_WORDS,),
        assumed_align=16)
    alpha = make_fake_compact_tensor(cutlass.Float32, (1,))
    d = make_fake_compact_tensor(torch_to_cutlass(out_dtype), (m, n), stride_order=(1, 0),
                                 assumed_align=16)
    options = dict(k_order=k_order, ctas_per_sm=ctas_per_sm, k_groups=k_groups,
                   wg_k_split=wg_k_split, pdl_trigger=pdl_trigger)
    stream = make_fake_stream(use_tvm_ffi_env_stream=True)
    if stream_k:
        kernel = NVFP4GemmFp4ActStreamK(n, k, torch_to_cutlass(out_dtype), tile_m, stages, sms,
                                        splits, stream_k=True, hybrid=hybrid, **options)
        return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d, *fake_stream_k_buffers(),
                            stream, options=compile_options())
    kernel = NVFP4GemmFp4Act(n, k, torch_to_cutlass(out_dtype), tile_m, stages, sms, splits,
                             pair_pieces=pair_pieces, **options)
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d, stream, options=compile_options())


def launch_fp4_act(a, a_sf, b, b_sf, alpha_t, out, config: tuple[int, ...], splits: int = 1,
                   stream_k: bool = False, hybrid: bool = False, ctas_per_sm: int = 1,
                   k_groups: int = 1, k_order: KOrder | None = None, wg_k_split: bool = False,
                   pair_pieces: bool = False, pdl_trigger: bool = False) -> None:
    """``launch_large_m`` with NVFP4 activations: a packed uint8 [M, K/2] and its swizzled
    e4m3 scales a_sf (``nvfp4_quantize``'s output, validated) instead of bf16 ones; the same
    options (``k_order`` PERMUTED or PAIRS: the weights' own)."""
    import torch

    m = out.shape[0]
    if m == 0:
        return
    n, k, _ = weight_dims(b)
    tile_m, stages, *ctas = config
    stream_k = stream_k or splits > 1
    sms = ctas[0] if ctas else ctas_per_sm * sm_count(b.device.index or 0)
    args = (a.view(torch.int32), a_sf.view(torch.int32).view(-1), b.view(torch.int32),
            b_sf.view(torch.int32).view(-1), alpha_t, out)
    tail = compile_tail(operand_k_order(b, k_order), ctas_per_sm, k_groups, wg_k_split,
                        pair_pieces, pdl_trigger)
    kernel = compile_fp4_act_gemm(n, k, str(out.dtype), tile_m, stages, sms, splits, stream_k,
                                  hybrid, *tail)
    if stream_k:
        kernel(*args, *stream_k_buffers(m, n, tile_m, sms, out.device,
                                        64 if wg_k_split else TILE_N))
    else:
        kernel(*args)


def launch_planned_fp4(a, a_sf, b, b_sf, alpha_t, out, plan: tuple[int, int, bool, bool],
                       wg_k_split: bool = True, pdl_trigger: bool | None = None) -> None:
    """``nvfp4_gemm.launch_planned`` with NVFP4 activations ``a``, ``a_sf`` decoded in the kernel
    (no pass, so no spread either): the same launch (``planned_launch``), the same bits. One
    CTA an SM (``NVFP4GemmLargeM``'s ``act_fp4``)."""
    n, k, _ = weight_dims(b)
    m = out.shape[0]
    tile_m, splits, options = planned_launch(m, n, k, plan, wg_k_split)
    pdl_choices(options, pdl_trigger, None)  # (takes the spread out)
    launch_fp4_act(a, a_sf, b, b_sf, alpha_t, out, (tile_m, 0), splits, plan[2], plan[3],
                   k_order=wgmma_k_order(b), **options)
