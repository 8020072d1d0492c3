"""The wgmma kernels converting their activations in the kernel (``converted_act``): NVFP4 ones
decoded (``act_fp4``), bf16 ones with their K reordered (``act_reorder``). Compiled entry points
of ``nvfp4_gemm``'s kernel and of the fused op's, and their launches on validated operands, as
the public routes launch them but with no pass. Not routed yet: ``tools/pass_cost_probe.py``
and ``tools/fused_fp4_probe.py`` measure them against the public routes."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from layouts import GATE_UP_GROUP

from . import jit
from .arch import compile_options
from .dtypes import torch_to_cutlass
from .k_order import KOrder, wgmma_k_order
from .large_m_decode import SF_CHUNK_WORDS, TILE_K
from .large_m_plans import plain_plan
from .nvfp4_gemm import pdl_choices, planned_launch
from .nvfp4_gemm_large_m import (H200_SMS, TILE_N, NVFP4GemmLargeM, build_nvfp4_gemm_large_m,
                                 fake_stream_k_buffers, launch_large_m)
from .nvfp4_gemm_swiglu_quant import (half_group_route, large_m_route, narrow_pdl_plan,
                                      packed_route, route_launch)
from .permuted_fp4 import weight_dims
from .swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM, build_swiglu_quant_large_m
from .swiglu_quant_large_m import launch_large_m as launch_fused_large_m


def _fp4_operands(k: int):
    """The compiled activations: codes int32 [M, K/8] (M the output's symbol too) and scales
    int32 [pad128(M) * K/64]."""
    m = cute.sym_int()
    return m, (make_fake_compact_tensor(cutlass.Int32, (m, k // 8), stride_order=(1, 0),
                                        assumed_align=16),
               make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=16))


def _weights(n: int, k: int):
    """The compiled weights: int32 [N, K/8] and their scale chunks."""
    return (make_fake_compact_tensor(cutlass.Int32, (n, k // 8), stride_order=(1, 0),
                                     assumed_align=16),
            make_fake_compact_tensor(cutlass.Int32, ((n + TILE_N - 1) // TILE_N * (k // TILE_K)
                                                     * SF_CHUNK_WORDS,), assumed_align=16))


class NVFP4GemmFp4Act(NVFP4GemmLargeM):
    """``nvfp4_gemm``'s kernel on (codes, scales) of NVFP4 activations."""

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


class SwigluQuantFp4Act(NVFP4GemmSwigluQuantLargeM):
    """The fused op's kernel on (codes, scales) of NVFP4 activations (the consumers quantize)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, act_fp4=True, **kwargs)

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
    function takes a, a_sf (``_fp4_operands``), then b, b_sf, alpha, out (and in stream-K the
    workspace and counters)."""
    m, acts = _fp4_operands(k)
    alpha = make_fake_compact_tensor(cutlass.Float32, (1,))
    d = make_fake_compact_tensor(torch_to_cutlass(out_dtype), (m, n), stride_order=(1, 0),
                                 assumed_align=16)
    options = dict(k_order=k_order, ctas_per_sm=ctas_per_sm, k_groups=k_groups,
                   wg_k_split=wg_k_split, pdl_trigger=pdl_trigger)
    operands = (*acts, *_weights(n, k), alpha, d)
    stream = make_fake_stream(use_tvm_ffi_env_stream=True)
    if stream_k:
        kernel = NVFP4GemmFp4ActStreamK(n, k, torch_to_cutlass(out_dtype), tile_m, stages, sms,
                                        splits, stream_k=True, hybrid=hybrid, **options)
        return cute.compile(kernel, *operands, *fake_stream_k_buffers(), stream,
                            options=compile_options())
    kernel = NVFP4GemmFp4Act(n, k, torch_to_cutlass(out_dtype), tile_m, stages, sms, splits,
                             pair_pieces=pair_pieces, **options)
    return cute.compile(kernel, *operands, stream, options=compile_options())


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
    assert quantizers == 0 and i % GATE_UP_GROUP == 0, (quantizers, i)
    m, acts = _fp4_operands(k)
    scalars = (make_fake_compact_tensor(cutlass.Float32, (1,)),
               make_fake_compact_tensor(cutlass.Float32, (1,)))
    q = make_fake_compact_tensor(cutlass.Uint8, (m, i // 2), stride_order=(1, 0),
                                 assumed_align=16)
    sf = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(),), assumed_align=16)
    options = dict(k_order=k_order, ctas_per_sm=ctas_per_sm, k_groups=k_groups, splits=splits,
                   wg_k_split=wg_k_split, pdl_trigger=pdl_trigger)
    operands = (*acts, *_weights(2 * i, k), *scalars, q, sf)
    stream = make_fake_stream(use_tvm_ffi_env_stream=True)
    if stream_k:
        kernel = SwigluQuantFp4ActStreamK(i, k, tile_m, stages, sms, stream_k=True,
                                          hybrid=hybrid, **options)
        return cute.compile(kernel, *operands, *fake_stream_k_buffers(), stream,
                            options=compile_options())
    kernel = SwigluQuantFp4Act(i, k, tile_m, stages, sms, pair_pieces=pair_pieces, **options)
    return cute.compile(kernel, *operands, stream, options=compile_options())


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


def launch_planned_converted(a, a_sf, b, b_sf, alpha_t, out,
                             plan: tuple[int, int, bool, bool], wg_k_split: bool = True,
                             pdl_trigger: bool | None = None) -> None:
    """``nvfp4_gemm.launch_planned`` with the activations converted in the kernel (no pass, so
    no spread either): NVFP4 ``a``, ``a_sf`` decoded, or bf16 ``a`` (``a_sf`` None) in its own
    K order; the same launch (``planned_launch``), the same bits. One CTA an SM."""
    n, k, _ = weight_dims(b)
    m = out.shape[0]
    tile_m, splits, options = planned_launch(m, n, k, plan, wg_k_split)
    pdl_choices(options, pdl_trigger, None)  # (takes the spread out)
    launch = (tile_m, 0), splits, plan[2], plan[3]
    if a_sf is None:
        launch_large_m(a, b, b_sf, alpha_t, out, *launch, k_order=wgmma_k_order(b),
                       compile_fn=compile_reorder_act_gemm, **options)
    else:
        launch_fp4_act(a, a_sf, b, b_sf, alpha_t, out, *launch, k_order=wgmma_k_order(b),
                       **options)


def launch_fused_converted(a, a_sf, w, w_sf, alpha_t, gs_t, out, out_sf) -> None:
    """The fused op's wgmma route (``half_group_route``'s launch, else ``large_m_route``'s,
    not the fp32 split route) with the activations converted in the kernel (NVFP4 ``a``,
    ``a_sf`` decoded, or bf16 ``a`` reordered): the launch the public function takes past its
    small-M regime, with the consumers quantizing (the same bits as the quantizer warps) and
    no pass."""
    two_i, k, permuted = weight_dims(w)
    m, i = a.shape[0], two_i // 2
    order = wgmma_k_order(w)
    if a_sf is None:
        codes, compile_fn = a, compile_fused_reorder_act
    else:
        codes, compile_fn = a.view(torch.int32), with_act_scales(compile_fused_fp4_act, a_sf)
    if half_group_route(m, i, k, a_sf is not None, permuted):
        tile_m, splits, options = planned_launch(m, two_i, k, plain_plan(m, two_i, k),
                                                 wg_k_split=True)
        pdl_choices(options, None, None)
        launch_fused_large_m(codes, w, w_sf, alpha_t, gs_t, out, out_sf, (tile_m, 0),
                             k_order=order, compile_fn=compile_fn, splits=splits, **options)
        return
    route, plan = (large_m_route if permuted else packed_route)(m, i, k)
    assert route != "split", (m, i, k)
    config, stream_k, options = route_launch(route, plan, m, two_i, k)
    if route == "narrow":
        options["pdl_trigger"] = narrow_pdl_plan(config[0], options["ctas_per_sm"])[0]
    launch_fused_large_m(codes, w, w_sf, alpha_t, gs_t, out, out_sf, config, stream_k=stream_k,
                         k_order=order, compile_fn=compile_fn, quantizers=0, **options)
