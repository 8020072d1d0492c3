"""NVFP4 dequantize: packed e2m1 [M, K/2] + swizzled e4m3 scales -> bf16/fp16 [M, K].

``out[m, k] = (e2m1(q[m, k]) * float(sf[m, k // 16])) / G`` in fp32 (the product is exact, so the
division is the only rounding before the cast to the output dtype): bit-exact with
``reference.nvfp4_dequantize``. The kernel divides twice per block, not per element: each
magnitude is a power-of-two multiple of ``sf/G`` or ``1.5*sf/G`` (see ``e2m1_scaled``). One thread decodes one 16-element block:
an 8-byte load of codes, a 1-byte scale load through the swizzled layout, two 16-byte stores.

Global scale 1 into bf16 with K a multiple of 64 (the wgmma kernels' activations,
``bf16_activations``) takes a second kernel, ``NVFP4DequantUnitScale``: ``e2m1 * sf`` is exact
in bf16 (at most 6 significant bits), so no division and no fp32 value is needed. Its unit is
a quarter of a 64-element group: two words of codes, the group's 4 scales (one 4-byte load,
one swizzled index), two 16-byte stores that with the group's other 3 threads make whole
sectors (H200, 2026-11-30: the permuted-K form of this unit ran 3.2-3.9 TB/s where one word
per thread ran 2.1-3.0). Decode as in the wgmma kernels (``device_mma.e2m1x2_from_byte``: a
byte of codes -> bf16x2 ``e2m1 * 2^-126``), then two exact bf16x2 products, by
``bf16(sf * 2^63)`` and by ``2^63``. ``NVFP4DequantPermutedK`` writes the same values in
``PERMUTED_K_ORDER`` (activations for permuted words and, in ``KOrder.PAIRS``, packed weight
bytes; ``k_order``). They launch with PDL and let the next kernel launch at once
(``griddepcontrol.launch_dependents`` first thing): that is the wgmma GEMM, which prefetches
its first weights to L2 and then waits for this kernel's output. Where the GEMM before them
triggers early, they launch under it spread over the SMs (``spread_launch``).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from layouts import sf_tiled_layout

from . import jit
from .arch import compile_options, sm_count
from .device_fp4 import e2m1_scaled
from .device_mma import (BF16X2_POW2_63, POW2_63, bf16x2_splat, e2m1x2_from_byte,
                         e2m1x2_permuted, e2m1x2_raw, in_register, mul_bf16x2)
from .dtypes import torch_to_cutlass
from .k_order import IN_PLACE_ORDERS, KOrder, order_k
from .reference import FP4_BLOCK
from .reorder_k import reorder_k
from .unit_grid import UnitGridKernel, spread_launch

BLOCK = FP4_BLOCK  # elements per scale factor


class NVFP4Dequant:
    """Static configuration: K (so the block count per row is a constant) and the output dtype."""

    def __init__(self, k: int, out_dtype: type[cutlass.Numeric], threads: int = 256):
        self.k = k
        self.kb = k // BLOCK
        self.out_dtype = out_dtype
        self.threads = threads

    @cute.jit
    def __call__(self, mQ: cute.Tensor, mSF: cute.Tensor, mG: cute.Tensor, mOut: cute.Tensor,
                 stream):
        m = mQ.shape[0]
        # The swizzled scale buffer seen through its CuTe layout: sf[(m, kb)] -> byte.
        m_tiles = (m + 127) // 128
        kb_tiles = (self.kb + 3) // 4
        sSF = cute.make_tensor(mSF.iterator, sf_tiled_layout(m_tiles * 128, kb_tiles * 4))
        blocks = m * self.kb
        self.kernel(mQ, sSF, mG, mOut, blocks).launch(
            grid=((blocks + self.threads - 1) // self.threads, 1, 1),
            block=(self.threads, 1, 1),
            stream=stream,
        )

    @cute.kernel
    def kernel(self, mQ: cute.Tensor, sSF: cute.Tensor, mG: cute.Tensor, mOut: cute.Tensor,
               blocks: cutlass.Int32):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        i = bidx * self.threads + tidx
        if i < blocks:
            row = i // self.kb
            kb = i - row * self.kb
            sf = sSF[(row, kb)].to(cutlass.Float32)
            g = mG[0]
            # Two true divisions per block instead of sixteen (see e2m1_scaled).
            base1 = sf / g
            base3 = (sf * cutlass.Float32(1.5)) / g
            gQ = cute.local_tile(mQ, (1, BLOCK // 2), (row, kb))
            rQ = cute.make_rmem_tensor_like(gQ)
            cute.autovec_copy(gQ, rQ)
            gOut = cute.local_tile(mOut, (1, BLOCK), (row, kb))
            rOut = cute.make_rmem_tensor_like(gOut)
            for j in cutlass.range_constexpr(BLOCK // 2):
                byte = cutlass.Uint32(rQ[0, j])
                rOut[0, 2 * j] = e2m1_scaled(byte & 0xF, base1, base3).to(self.out_dtype)
                rOut[0, 2 * j + 1] = e2m1_scaled(byte >> 4, base1, base3).to(self.out_dtype)
            cute.autovec_copy(rOut, gOut)


class NVFP4DequantUnitScale(UnitGridKernel):
    """Global scale 1, bf16 out (module docstring); static K (a multiple of 64), dynamic M.
    A thread's unit is (64-element group, r = 0..3): it writes output chunks r and 4 + r
    (16 bytes each; chunk t is word t of the group, times its scale, block t // 2), so the
    group's 4 threads cover its 128 output bytes and a warp's stores are whole sectors. It
    reads its two words and the group's 4 scale bytes (one 4-byte load). The output may have
    more groups than the codes (whole token tiles for the wgmma kernels' TMA:
    ``bf16_activations(rows=)``): the units past the codes' write zeros."""

    def __init__(self, k: int, threads: int = 256, ctas_per_sm: int = 0,
                 units_per_thread: int = 4):
        """``threads``, ``ctas_per_sm`` and ``units_per_thread``: ``UnitGridKernel``'s."""
        assert k % 64 == 0
        super().__init__(threads, ctas_per_sm, units_per_thread)
        self.k, self.kb = k, k // BLOCK

    @cute.jit
    def __call__(self, mW: cute.Tensor, mSF: cute.Tensor, mOut: cute.Tensor, stream):
        units = mW.shape[0] * 4
        out_units = mOut.shape[0] * 4
        m = mW.shape[0] * 64 // self.k
        sSF = cute.make_tensor(mSF.iterator, sf_tiled_layout((m + 127) // 128 * 128,
                                                             (self.kb + 3) // 4 * 4))
        self.kernel(mW, mSF, sSF, mOut, units, out_units).launch(
            **self.launch_options(out_units, stream))

    @cute.jit
    def _load_scales(self, mSF: cute.Tensor, sSF: cute.Tensor, group, sf):
        """The 4 scale bytes of a 64-element group: 4 contiguous bytes of a 128x4 atom."""
        groups_per_row = self.k // 64
        row = group // groups_per_row
        byte = cute.crd2idx((row, 4 * (group - row * groups_per_row)), sSF.layout)
        cute.autovec_copy(cute.local_tile(mSF, (4,), (byte // 4,)), sf)

    WORDS = 2  # code words a unit reads: 4b + r, b = 0, 1

    @cute.kernel
    def kernel(self, mW: cute.Tensor, mSF: cute.Tensor, sSF: cute.Tensor, mOut: cute.Tensor,
               units: cutlass.Int32, out_units: cutlass.Int32):
        first = self.first_unit()
        words = [cute.make_rmem_tensor((1, self.WORDS), cutlass.Int32)
                 for _ in range(self.units_per_thread)]
        sfs = [cute.make_rmem_tensor((4,), cutlass.Float8E4M3FN)
               for _ in range(self.units_per_thread)]
        for j in cutlass.range_constexpr(self.units_per_thread):
            u = first + j * self.threads
            if u < units:
                self._load_words(mW, u, words[j])
                self._load_scales(mSF, sSF, u // 4, sfs[j])
        two63 = in_register(BF16X2_POW2_63)
        for j in cutlass.range_constexpr(self.units_per_thread):
            u = first + j * self.threads
            if u < units:
                sf32 = sfs[j].load().to(cutlass.Float32)
                for b in cutlass.range_constexpr(2):
                    chunk = cute.make_rmem_tensor((1, 4), cutlass.Int32)
                    self._chunk(words[j], sf32, u % 4, b, two63, chunk)
                    cute.autovec_copy(chunk, cute.local_tile(mOut, (1, 4),
                                                             (u // 4, 4 * b + u % 4)))
            elif u < out_units:  # padding rows
                zeros = cute.make_rmem_tensor((1, 4), cutlass.Int32)
                zeros.fill(0)
                for b in cutlass.range_constexpr(2):
                    cute.autovec_copy(zeros, cute.local_tile(mOut, (1, 4),
                                                             (u // 4, 4 * b + u % 4)))

    @cute.jit
    def _load_words(self, mW: cute.Tensor, u, words):
        """Words r and 4 + r of group u // 4 (r = u % 4)."""
        for b in cutlass.range_constexpr(2):
            words[0, b] = mW[u // 4, 4 * b + u % 4]

    @cute.jit
    def _chunk(self, words, sf32, r, b, two63, chunk):
        """Output chunk 4b + r: word 4b + r, its scale block 2b + r // 2, bf16 pairs in order."""
        scale = cutlass.Float32(cutlass.select_(r < 2, sf32[2 * b], sf32[2 * b + 1]))
        s = bf16x2_splat(scale * cutlass.Float32(POW2_63))
        for p in cutlass.range_constexpr(4):  # elements 2p, 2p + 1: byte p
            raw = e2m1x2_from_byte(cutlass.Uint32(words[0, b]), cutlass.Uint32(0x4440 + p))
            chunk[0, p] = cutlass.Int32(mul_bf16x2(mul_bf16x2(raw, s), two63))


class NVFP4DequantPermutedK(NVFP4DequantUnitScale):
    """``NVFP4DequantUnitScale`` writing each 64-element group of K in ``PERMUTED_K_ORDER`` (the
    wgmma kernels' activations for permuted weights). Output chunk t = 4 b + r (16 bytes,
    slots 8t .. 8t + 7) of a group holds pair r (elements r and r + 4, ``e2m1x2_raw``) of
    words 2q + b, q = 0..3, each times its scale, block q. A thread's unit is (group, r): it
    reads the group's 8 words and 4 scales (two 16-byte and one 4-byte load, shared by the
    group's 4 threads) and writes chunks r and 4 + r, so a warp's stores cover whole sectors."""

    WORDS = 8

    @cute.jit
    def _load_words(self, mW: cute.Tensor, u, words):
        cute.autovec_copy(cute.local_tile(mW, (1, 8), (u // 4, 0)), words)

    @cute.jit
    def _chunk(self, words, sf32, r, b, two63, chunk):
        for q in cutlass.range_constexpr(4):
            s = bf16x2_splat(sf32[q] * cutlass.Float32(POW2_63))
            raw = self._pair(cutlass.Uint32(words[0, 2 * q + b]), r)
            chunk[0, q] = cutlass.Int32(mul_bf16x2(mul_bf16x2(raw, s), two63))

    @cute.jit
    def _pair(self, word, r):
        """Pair ``r`` (a runtime 0..3) of a packed-byte word as bf16x2 ``e2m1 * 2^-126``."""
        return e2m1x2_raw(word >> cutlass.Uint32(4 * r), 0)


class NVFP4DequantPermutedWords(NVFP4DequantPermutedK):
    """``NVFP4DequantPermutedK`` reading ``permuted_fp4``'s words instead of packed bytes: the
    same output (``PERMUTED_K_ORDER``), each pair taken from the bit-permuted word
    (``e2m1x2_permuted``; the thread's pair r is a runtime value, so all four are formed and
    one selected). The swapped fused kernel's weight pass on permuted words
    (``swiglu_quant_swapped``)."""

    @cute.jit
    def _pair(self, word, r):
        """Pair ``r`` of a permuted word: all four formed, ``r``'s selected."""
        raw = e2m1x2_permuted(word, 0)
        for p in cutlass.range_constexpr(1, 4):
            raw = cutlass.select_(r == p, e2m1x2_permuted(word, p), raw)
        return raw


def compile_group_kernel(kernel):
    """A 64-group kernel: codes as int32 [M*K/64, 8], bf16 out as int32 [M'*K/64, 32], M' >= M
    (zeros past M)."""
    w = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), 8), stride_order=(1, 0),
                                 assumed_align=16)
    sf = make_fake_compact_tensor(cutlass.Float8E4M3FN, (cute.sym_int(),), assumed_align=16)
    out = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), 32), stride_order=(1, 0),
                                   assumed_align=16)
    return cute.compile(kernel, w, sf, out, make_fake_stream(use_tvm_ffi_env_stream=True),
                        options=compile_options())


@jit.cached
def compile_nvfp4_dequant_permuted_k(k: int, ctas_per_sm: int = 0, units_per_thread: int = 4):
    """Tensor-free compile of ``NVFP4DequantPermutedK``: static K (a multiple of 64), dynamic M;
    ``ctas_per_sm`` and ``units_per_thread`` as ``UnitGridKernel``'s."""
    return compile_group_kernel(NVFP4DequantPermutedK(k, ctas_per_sm=ctas_per_sm,
                                                      units_per_thread=units_per_thread))


@jit.cached
def compile_nvfp4_dequant_permuted_words(k: int, ctas_per_sm: int = 0,
                                         units_per_thread: int = 4):
    """Tensor-free compile of ``NVFP4DequantPermutedWords``: static K (a multiple of 64),
    dynamic rows; ``ctas_per_sm`` and ``units_per_thread`` as ``UnitGridKernel``'s."""
    return compile_group_kernel(NVFP4DequantPermutedWords(k, ctas_per_sm=ctas_per_sm,
                                                          units_per_thread=units_per_thread))


@jit.cached
def compile_nvfp4_dequant_unit_scale(k: int, ctas_per_sm: int = 0, units_per_thread: int = 4):
    """Tensor-free compile of ``NVFP4DequantUnitScale``: static K (a multiple of 64), dynamic M;
    ``ctas_per_sm`` and ``units_per_thread`` as its."""
    return compile_group_kernel(NVFP4DequantUnitScale(k, ctas_per_sm=ctas_per_sm,
                                                      units_per_thread=units_per_thread))


@jit.cached
def compile_nvfp4_dequant(k: int, out_dtype: str):
    """Tensor-free compile: static K and output dtype, dynamic M."""
    cdtype = torch_to_cutlass(out_dtype)
    m = cute.sym_int()
    q = make_fake_compact_tensor(cutlass.Uint8, (m, k // 2), stride_order=(1, 0), assumed_align=16)
    sf = make_fake_compact_tensor(cutlass.Float8E4M3FN, (cute.sym_int(),), assumed_align=16)
    g = make_fake_compact_tensor(cutlass.Float32, (1,))
    out = make_fake_compact_tensor(cdtype, (m, k), stride_order=(1, 0), assumed_align=16)
    return cute.compile(NVFP4Dequant(k, cdtype), q, sf, g, out,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


def nvfp4_dequantize(packed: torch.Tensor, sf: torch.Tensor, global_scale,
                     out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
    """Dequantize NVFP4 on the GPU. See the module docstring for the exact arithmetic. Under
    ``torch.compile`` (``global_scale`` a tensor) the call is the custom op
    ``torch.ops.cute_kernels.nvfp4_dequantize``."""
    if torch.compiler.is_compiling() and isinstance(global_scale, torch.Tensor):
        return torch.ops.cute_kernels.nvfp4_dequantize(packed, sf, global_scale, out_dtype)
    from .validate import check_cuda, check_dtype, check_contiguous, as_scale_tensor
    from layouts import sf_padded_shape

    check_dtype("packed", packed, torch.uint8)
    if packed.dim() != 2:
        raise ValueError(f"packed: expected a 2-D [M, K/2] tensor, got shape {tuple(packed.shape)}")
    m, half_k = packed.shape
    k = 2 * half_k
    if k % BLOCK:
        raise ValueError(f"packed: K = {k} must be a multiple of {BLOCK}")
    check_dtype("sf", sf, torch.float8_e4m3fn)
    mp, kbp = sf_padded_shape(m, k // BLOCK)
    if sf.numel() != mp * kbp:
        raise ValueError(f"sf: expected {mp}x{kbp} = {mp * kbp} swizzled scales for M={m}, K={k},"
                         f" got {sf.numel()}")
    if out_dtype not in (torch.bfloat16, torch.float16):
        raise TypeError(f"out_dtype: expected torch.bfloat16 or torch.float16, got {out_dtype}")
    check_cuda("packed", packed)
    check_cuda("sf", sf, like=packed)
    check_contiguous("packed", packed)
    check_contiguous("sf", sf)
    # exact without a division: the unit-scale kernel (int32 flat indices)
    unit = (isinstance(global_scale, (int, float)) and global_scale == 1
            and out_dtype == torch.bfloat16 and k % 64 == 0 and m * k < 2**31)
    g = None if unit else as_scale_tensor("global_scale", global_scale, packed.device)
    out = torch.empty((m, k), dtype=out_dtype, device=packed.device)
    if m == 0:
        return out
    if unit:
        compile_nvfp4_dequant_unit_scale(k)(packed.view(torch.int32).view(-1, 8), sf.view(-1),
                                            out.view(torch.int32).view(-1, 32))
    else:
        compile_nvfp4_dequant(k, str(out_dtype))(packed, sf.view(-1), g, out)
    return out


def bf16_activations(a: torch.Tensor, a_sf, k_order: KOrder = KOrder.IDENTITY,
                     rows: int | None = None, spread: bool = False) -> torch.Tensor:
    """The wgmma kernels' activations: bf16 ``a`` as it is (W4A16, ``a_sf`` None), NVFP4 ``a``
    dequantized with global scale 1 (``e2m1 * scale`` is exact in bf16; alpha carries the rest).
    At large M that pass is a small fraction of the GEMM, and the kernels keep one format.
    ``k_order`` (``KOrder``, or a bool: the weights are permuted words): K in that order inside
    each 64-element group, written so by the dequantize kernel, or a reordering copy of bf16
    ``a`` (``reorder_k``'s kernel; ``k_order.order_k`` where that does not apply).

    ``rows`` (>= M; wherever the pass writes a new buffer anyway: NVFP4 ``a``, and bf16 ``a``
    in another order, not bf16 ``a`` as it is): the result has that many rows, zeros past M,
    so that the wgmma kernels' TMA never reads past it (its
    zero fill of rows past the tensor is slow: H200 2026-12-01, ``tools/token_tail_probe.py``,
    kernel us at M = 129, M rows / padded to the 128-token tile: 9216x7168 stream-K 74.4 /
    50.6, 4096x7168 41.7 / 30.4; 64-token whole tiles on 9216x7168 60.4 / 54.9).

    ``spread``: the pass (NVFP4 ``a``'s, or bf16 ``a``'s reordering copy) on a grid of about
    ``SPREAD_PASS_CTAS`` CTAs at as few an SM as it needs (``spread_launch``), for a pass that
    launches under the kernel before it."""
    k_order = KOrder(k_order)
    m, k = a.shape[0], a.shape[1] * (1 if a_sf is None else 2)
    out_rows = max(m, rows or 0)
    launch = spread_launch(out_rows, k, sm_count(a.device.index)) if spread and out_rows else ()
    if (a_sf is None and k_order not in IN_PLACE_ORDERS and m * k < 2**31 and k % 64 == 0
            and a.is_cuda and a.is_contiguous()):
        return reorder_k(a, rows, launch)  # one kernel, not order_k's strided copy
    if a_sf is None or m * k >= 2**31 or k % 64:
        x = a if a_sf is None else nvfp4_dequantize(a, a_sf, 1.0)
        return x if k_order in IN_PLACE_ORDERS else order_k(x, k_order, rows)
    out = torch.empty((out_rows, k), dtype=torch.bfloat16, device=a.device)
    if out.shape[0]:  # one launch writes the rows past M too (no memset between it and the
        # GEMM, which its PDL trigger lets start early)
        # PERMUTED and PAIRS both take PERMUTED_K_ORDER
        compile_group = (compile_nvfp4_dequant_unit_scale if k_order in IN_PLACE_ORDERS
                         else compile_nvfp4_dequant_permuted_k)
        compile_group(k, *launch)(a.view(torch.int32).view(-1, 8), a_sf.view(-1),
                                  out.view(torch.int32).view(-1, 32))
    return out


# ---- torch.compile: a custom op (a fresh output, the scale a tensor) ----------------------------
@torch.library.custom_op("cute_kernels::nvfp4_dequantize", mutates_args=())
def _nvfp4_dequantize_op(packed: torch.Tensor, sf: torch.Tensor, global_scale: torch.Tensor,
                         out_dtype: torch.dtype) -> torch.Tensor:
    return nvfp4_dequantize(packed, sf, global_scale, out_dtype)


@_nvfp4_dequantize_op.register_fake
def _(packed, sf, global_scale, out_dtype):
    return packed.new_empty((packed.shape[0], 2 * packed.shape[1]), dtype=out_dtype)
