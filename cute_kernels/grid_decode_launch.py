"""Host side of grid decode (``grid_decode``, EXPERIMENTAL): compiles and launches of the plain
and fused wgmma kernels that decode their NVFP4 activations themselves. On no public route
(slower than the pass so far); ``tools/grid_decode_probe.py`` times it against the pass."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from . import jit
from .arch import compile_options, sm_count
from .arrival_counters import arrival_counters
from .dtypes import torch_to_cutlass
from .grid_decode import flag_words
from .k_order import KOrder
from .nvfp4_gemm_large_m import (H200_SMS, TILE_K, NVFP4GemmLargeM,
                                 fake_weight_operands, operand_k_order)
from .permuted_fp4 import weight_dims
from .swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM


class NVFP4GemmLargeMGridDecode(NVFP4GemmLargeM):
    """``NVFP4GemmLargeM(grid_decode=True)`` with the decode's tensors as arguments."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor, mAlpha: cute.Tensor,
                 mD: cute.Tensor, mA32: cute.Tensor, mCodes: cute.Tensor, mCodeSF: cute.Tensor,
                 mFlags: cute.Tensor, stream):
        self._launch(mA, mB, mBSF, (mAlpha,), (mD,), stream, (),
                     (mA32, mCodes, mCodeSF, mFlags))


class NVFP4GemmSwigluQuantLargeMGridDecode(NVFP4GemmSwigluQuantLargeM):
    """The fused kernel with ``grid_decode``."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 mA32: cute.Tensor, mCodes: cute.Tensor, mCodeSF: cute.Tensor,
                 mFlags: cute.Tensor, stream):
        self._launch(mA, mB, mBSF, (mAlpha, mG), (mQ, mSF), stream, (),
                     (mA32, mCodes, mCodeSF, mFlags))


def _fake_decode_tensors(k: int) -> tuple:
    """The scratch (bf16 [rows, K] for the TMA and int32 [rows * K / 64, 32] for the decoders),
    the codes as int32 [M * K / 64, 8], their scale bytes and the flags, as compiled
    arguments."""
    rows = cute.sym_int()
    a = make_fake_compact_tensor(cutlass.BFloat16, (rows, k), stride_order=(1, 0),
                                 assumed_align=16)
    a32 = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), 32), stride_order=(1, 0),
                                   assumed_align=16)
    codes = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), 8), stride_order=(1, 0),
                                     assumed_align=16)
    code_sf = make_fake_compact_tensor(cutlass.Float8E4M3FN, (cute.sym_int(),),
                                       assumed_align=16)
    flags = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=4)
    return a, (a32, codes, code_sf, flags)


@jit.cached
def compile_nvfp4_gemm_large_m_grid_decode(n: int, k: int, out_dtype: str, tile_m: int,
                                           stages: int = 0, sms: int = H200_SMS,
                                           k_order: KOrder = KOrder.PERMUTED,
                                           decode_ring: int = 0):
    """``compile_nvfp4_gemm_large_m`` with ``grid_decode`` (whole tiles); ``decode_ring``:
    the decoders' loads through a ring of that many items a warp (0: registers)."""
    cout = torch_to_cutlass(out_dtype)
    a, decode = _fake_decode_tensors(k)
    b, b_sf, alpha = fake_weight_operands(n, k)
    d = make_fake_compact_tensor(cout, (cute.sym_int(), n), stride_order=(1, 0),
                                 assumed_align=16)
    kernel = NVFP4GemmLargeMGridDecode(n, k, cout, tile_m, stages, sms, k_order=k_order,
                                       grid_decode=True, decode_ring=decode_ring)
    return cute.compile(kernel, a, b, b_sf, alpha, d, *decode,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


@jit.cached
def compile_nvfp4_gemm_swiglu_quant_large_m_grid_decode(i: int, k: int, tile_m: int,
                                                        stages: int = 0, sms: int = H200_SMS,
                                                        k_order: KOrder = KOrder.PERMUTED,
                                                        decode_ring: int = 0):
    """``compile_nvfp4_gemm_swiglu_quant_large_m`` with ``grid_decode`` (whole tiles, no
    quantizer warps; ``decode_ring`` as ``compile_nvfp4_gemm_large_m_grid_decode``)."""
    a, decode = _fake_decode_tensors(k)
    b, b_sf, alpha = fake_weight_operands(2 * i, k)
    gs = make_fake_compact_tensor(cutlass.Float32, (1,))
    q = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(), i // 2), stride_order=(1, 0),
                                 assumed_align=16)
    sf = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(),), assumed_align=16)
    kernel = NVFP4GemmSwigluQuantLargeMGridDecode(i, k, tile_m, stages, sms, k_order=k_order,
                                                  grid_decode=True, decode_ring=decode_ring)
    return cute.compile(kernel, a, b, b_sf, alpha, gs, q, sf, *decode,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


def decode_buffers(a: torch.Tensor, a_sf: torch.Tensor, rows: int, tile_m: int) -> tuple:
    """(scratch bf16 [rows, K], its int32 view, the codes' int32 view, the scale bytes, the
    flags) for NVFP4 activations ``a`` [M, K/2] uint8 with swizzled scales ``a_sf``."""
    m, k = a.shape[0], a.shape[1] * 2
    scratch = torch.empty((rows, k), dtype=torch.bfloat16, device=a.device)
    flags = arrival_counters(flag_words(rows, k // TILE_K, tile_m), a.device)
    return (scratch, scratch.view(torch.int32).view(-1, 32), a.view(torch.int32).view(-1, 8),
            a_sf.view(-1), flags)


def _prepared(a, a_sf, w, m: int, tile_m: int, k_order: KOrder | None) -> tuple:
    """(N, K, SMs, the K order, the weight and the scratch as the kernels take them, the
    decode's tensors) of a grid-decode launch on weights ``w`` over M tokens."""
    n, k, _ = weight_dims(w)
    sms = sm_count(w.device.index or 0)
    scratch, *decode = decode_buffers(a, a_sf, -(-m // tile_m) * tile_m, tile_m)
    return n, k, sms, operand_k_order(w, k_order), (scratch, w.view(torch.int32)), decode


def launch_large_m_grid_decode(a, a_sf, b, b_sf, alpha_t, out, tile_m: int,
                               k_order: KOrder | None = None, decode_ring: int = 0) -> None:
    """``nvfp4_gemm_large_m.launch_large_m`` on NVFP4 activations ``a`` / ``a_sf`` decoded by
    the launch itself (whole ``tile_m``-token tiles; ``decode_ring`` as
    ``compile_nvfp4_gemm_large_m_grid_decode``)."""
    n, k, sms, k_order, operands, decode = _prepared(a, a_sf, b, out.shape[0], tile_m, k_order)
    compile_nvfp4_gemm_large_m_grid_decode(n, k, str(out.dtype), tile_m, 0, sms, k_order,
                                           decode_ring)(
        *operands, b_sf.view(torch.int32).view(-1), alpha_t, out, *decode)


def launch_fused_grid_decode(a, a_sf, w, w_sf, alpha_t, out_global_scale, out, out_sf,
                             tile_m: int, k_order: KOrder | None = None,
                             decode_ring: int = 0) -> None:
    """``swiglu_quant_large_m.launch_large_m`` on NVFP4 activations decoded by the launch
    itself (whole ``tile_m``-token tiles, the consumers quantizing)."""
    two_i, k, sms, k_order, operands, decode = _prepared(a, a_sf, w, out.shape[0], tile_m,
                                                         k_order)
    compile_nvfp4_gemm_swiglu_quant_large_m_grid_decode(two_i // 2, k, tile_m, 0, sms, k_order,
                                                        decode_ring)(
        *operands, w_sf.view(torch.int32).view(-1), alpha_t, out_global_scale, out,
        out_sf.view(torch.uint8).view(-1), *decode)
