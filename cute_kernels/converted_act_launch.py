"""The wgmma kernels converting their activations in the kernel (``converted_act``): NVFP4 ones
decoded (``act_fp4``), bf16 ones with their K reordered (``act_reorder``). Compiled entry points
of ``nvfp4_gemm``'s kernel and of the fused op's, and their launches on validated operands, as
the public routes launch them but with no pass. Not routed yet: ``tools/pass_cost_probe.py``
and ``tools/fused_fp4_probe.py`` measure them against the public routes."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor

from . import jit
from .k_order import KOrder
from .nvfp4_gemm import launch_planned
from .nvfp4_gemm_large_m import (H200_SMS, NVFP4GemmLargeM, build_nvfp4_gemm_large_m,
                                 launch_large_m)
from .nvfp4_gemm_swiglu_quant import _half_groups, _large_m, half_group_route
from .permuted_fp4 import weight_dims
from .swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM, build_swiglu_quant_large_m


class _Fp4Activations:
    """A kernel class (before ``NVFP4GemmLargeM`` or the fused one in the bases) on NVFP4
    activations decoded in the kernel (``act_fp4``): its compiled activation operands are
    the codes int32 [M', K/8] and the scales int32 [pad128(M') * K/64]."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, act_fp4=True, **kwargs)

    @staticmethod
    def act_operands(k: int) -> tuple:
        return (make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), k // 8),
                                         stride_order=(1, 0), assumed_align=16),
                make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=16))


class NVFP4GemmFp4Act(_Fp4Activations, NVFP4GemmLargeM):
    """``nvfp4_gemm``'s kernel on (codes, scales) of NVFP4 activations."""

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


class SwigluQuantFp4Act(_Fp4Activations, NVFP4GemmSwigluQuantLargeM):
    """The fused op's kernel on (codes, scales) of NVFP4 activations (the consumers quantize)."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 stream):
        self._launch((mA, mASF), mB, mBSF, (mAlpha, mG), (mQ, mSF), stream)


class SwigluQuantFp4ActStreamK(SwigluQuantFp4Act):
    """``SwigluQuantFp4Act`` in stream-K, the workspace and counters as arguments."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 mWork: cute.Tensor, mCount: cute.Tensor, stream):
        self._launch((mA, mASF), mB, mBSF, (mAlpha, mG), (mQ, mSF), stream, (mWork, mCount))


@jit.cached
def compile_fp4_act_gemm(n: int, k: int, out_dtype: str, tile_m: int = 64, stages: int = 0,
                         sms: int = H200_SMS, splits: int = 1, stream_k: bool = False,
                         hybrid: bool = False, k_order: KOrder = KOrder.PERMUTED,
                         ctas_per_sm: int = 1, k_groups: int = 1, wg_k_split: bool = False,
                         pair_pieces: bool = False, pdl_trigger: bool = False):
    """``compile_nvfp4_gemm_large_m``'s arguments, the activations NVFP4: the compiled
    function takes a, a_sf (``_Fp4Activations``), then b, b_sf, alpha, out (and in stream-K
    the workspace and counters)."""
    return build_nvfp4_gemm_large_m(n, k, out_dtype, tile_m, stages, sms, splits, stream_k,
                                    hybrid, k_order, ctas_per_sm, k_groups, wg_k_split,
                                    pair_pieces, pdl_trigger,
                                    classes=(NVFP4GemmFp4Act, NVFP4GemmFp4ActStreamK))


@jit.cached
def compile_fused_fp4_act(i: int, k: int, tile_m: int = 128, stages: int = 0,
                          sms: int = H200_SMS, stream_k: bool = False, hybrid: bool = False,
                          k_order: KOrder = KOrder.PERMUTED, ctas_per_sm: int = 1,
                          k_groups: int = 1, quantizers: int = 0, splits: int = 1,
                          wg_k_split: bool = False, pair_pieces: bool = False,
                          pdl_trigger: bool = False):
    """``compile_nvfp4_gemm_swiglu_quant_large_m``'s arguments (``quantizers`` 0), the
    activations NVFP4: the compiled function takes a, a_sf, then w, w_sf, alpha,
    out_global_scale, out, out_sf (and in stream-K the workspace and counters)."""
    assert quantizers == 0, quantizers
    return build_swiglu_quant_large_m(i, k, tile_m, stages, sms, stream_k, hybrid, k_order,
                                      ctas_per_sm, k_groups, quantizers, splits, wg_k_split,
                                      pair_pieces, pdl_trigger,
                                      classes=(SwigluQuantFp4Act, SwigluQuantFp4ActStreamK))


@jit.cached
def compile_reorder_act_gemm(n: int, k: int, out_dtype: str, tile_m: int = 128, stages: int = 0,
                             sms: int = H200_SMS, splits: int = 1, stream_k: bool = False,
                             hybrid: bool = False, k_order: KOrder = KOrder.PERMUTED,
                             ctas_per_sm: int = 1, k_groups: int = 1, wg_k_split: bool = False,
                             pair_pieces: bool = False, pdl_trigger: bool = False):
    """``compile_nvfp4_gemm_large_m``'s arguments and compiled function, the kernel taking its
    bf16 activations in their own K order (``act_reorder``)."""
    return build_nvfp4_gemm_large_m(n, k, out_dtype, tile_m, stages, sms, splits, stream_k,
                                    hybrid, k_order, ctas_per_sm, k_groups, wg_k_split,
                                    pair_pieces, pdl_trigger, act_reorder=True)


@jit.cached
def compile_fused_reorder_act(i: int, k: int, tile_m: int = 128, stages: int = 0,
                              sms: int = H200_SMS, stream_k: bool = False, hybrid: bool = False,
                              k_order: KOrder = KOrder.PERMUTED, ctas_per_sm: int = 1,
                              k_groups: int = 1, quantizers: int = 0, splits: int = 1,
                              wg_k_split: bool = False, pair_pieces: bool = False,
                              pdl_trigger: bool = False):
    """``compile_nvfp4_gemm_swiglu_quant_large_m``'s arguments (``quantizers`` 0) and compiled
    function, the kernel taking its bf16 activations in their own K order."""
    assert quantizers == 0, quantizers
    return build_swiglu_quant_large_m(i, k, tile_m, stages, sms, stream_k, hybrid, k_order,
                                      ctas_per_sm, k_groups, quantizers, splits, wg_k_split,
                                      pair_pieces, pdl_trigger, act_reorder=True)


def with_act_scales(compile_fn, a_sf):
    """A ``compile_fn`` for the bf16 launches (``launch_large_m``, which pass the activations
    first) whose kernels take the activations' scales ``a_sf`` right after their codes."""
    words = a_sf.view(torch.int32).view(-1)

    def compiled(*args):
        kernel = compile_fn(*args)
        return lambda codes, *rest: kernel(codes, words, *rest)
    return compiled


def launch_fp4_act(a, a_sf, b, b_sf, alpha_t, out, config: tuple[int, ...], splits: int = 1,
                   stream_k: bool = False, hybrid: bool = False, **options) -> None:
    """``nvfp4_gemm_large_m.launch_large_m`` with NVFP4 activations: a packed uint8 [M, K/2]
    and its swizzled e4m3 scales a_sf (``nvfp4_quantize``'s output, validated) instead of bf16
    ones; the same options (``k_order`` PERMUTED or PAIRS: the weights' own)."""
    launch_large_m(a.view(torch.int32), b, b_sf, alpha_t, out, config, splits, stream_k, hybrid,
                   compile_fn=with_act_scales(compile_fp4_act_gemm, a_sf), **options)


def _plain_converted(a, a_sf):
    """``nvfp4_gemm.launch_planned``'s ``converted``: bf16 activations as they are to the
    reordering kernel, NVFP4 codes (as words) to the decoding one, their scales bound."""
    if a_sf is None:
        return a, compile_reorder_act_gemm
    return a.view(torch.int32), with_act_scales(compile_fp4_act_gemm, a_sf)


def _fused_converted(a, a_sf):
    """``_plain_converted`` for the fused op's kernels."""
    if a_sf is None:
        return a, compile_fused_reorder_act
    return a.view(torch.int32), with_act_scales(compile_fused_fp4_act, a_sf)


def launch_planned_converted(a, a_sf, b, b_sf, alpha_t, out,
                             plan: tuple[int, int, bool, bool], wg_k_split: bool = True,
                             pdl_trigger: bool | None = None) -> None:
    """``nvfp4_gemm.launch_planned`` with the activations converted in the kernel (no pass):
    NVFP4 ``a``, ``a_sf`` decoded, or bf16 ``a`` (``a_sf`` None) in its own K order; the same
    launch, the same bits. One CTA an SM."""
    launch_planned(a, a_sf, b, b_sf, alpha_t, out, plan, wg_k_split, pdl_trigger=pdl_trigger,
                   converted=_plain_converted)


def launch_fused_converted(a, a_sf, w, w_sf, alpha_t, gs_t, out, out_sf) -> None:
    """The fused op's wgmma route (``half_group_route``'s launch, else ``large_m_route``'s,
    not the fp32 split route) with the activations converted in the kernel (NVFP4 ``a``,
    ``a_sf`` decoded, or bf16 ``a`` reordered): the launch the public function takes past its
    small-M regime, with the consumers quantizing (the same bits as the quantizer warps) and
    no pass."""
    two_i, k, permuted = weight_dims(w)
    m, i = a.shape[0], two_i // 2
    route = _half_groups if half_group_route(m, i, k, a_sf is not None, permuted) else _large_m
    route(a, a_sf, w, w_sf, alpha_t, gs_t, out, out_sf, converted=_fused_converted)
