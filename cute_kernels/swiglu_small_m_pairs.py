"""The fused SwiGLU + NVFP4 small-M kernel on the plain kernel's grid: one 16-row MMA tile a
CTA holding 8 output columns, their up rows and (``HALF_ROWS`` = 64 on, the interleave's gate
group) their gate rows, and a cluster of two CTAs per 16-column quant block.

Why: at one token the fused kernel needs a quant block's 16 up and 16 gate rows together, so
its CTAs hold two tiles (288 CTAs at 9216x7168, 13.92 us on row groups) where the plain GEMM
runs 576 one-tile CTAs of four warps (12.85 us on the same weight bytes; session 42). Here a
CTA is the plain kernel's (one tile, four warps on K, ``NVFP4GemmSmallM``'s main loop and
reduction unchanged); only the tile's second half is the gate rows, so lane ``4g + q`` holds up
(``acc[..., p]``) and gate (``acc[..., 2 + p]``) of column ``c0 + g`` for tokens ``2q + p``.

Epilogue (warp 0): h = ``silu_mul_fast(alpha gate, alpha up)`` as the other fused kernels;
the block amax of each token over the CTA's 8 columns (a max butterfly over the 8 lanes that
share ``q``), then the pair's two amaxes meet through distributed shared memory: after a
cluster barrier (both CTAs past their reductions' shared memory), lane ``g = 0`` of each ``q``
stores its two tokens' amaxes into the partner CTA's buffer, a second barrier, and each CTA
takes the max of both: the same amax, hence the same scale, in both. Codes as
``quantize_block_pair`` forms them (``e2m1_encode_total``, an OR butterfly into one 32-bit word
a token: column ``c0 + g`` at bit ``4 g``); the CTA of rank ``r`` stores its 4 bytes at byte
``8 b + 4 r`` of the packed row, rank 0 the scale byte and the scale padding rows. The sums
are those of (2, 1, 4, 1) (the same K steps a warp), so the outputs are bit-identical to it.

Compile-tested, not yet timed (``tools/pairs_probe.py``): the public route takes it only with
``nvfp4_gemm_swiglu_quant.M1_CLUSTER_PAIRS``, off.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass._mlir.dialects import llvm
from cutlass.cute.runtime import make_fake_stream
from cutlass.cutlass_dsl import dsl_user_op
from cutlass.memory import SmemAllocator
import torch

from layouts import GATE_UP_GROUP

from . import jit
from .arch import compile_options
from .device_fp4 import div6, e2m1_encode_total, over_quant_block
from .fused_scales import BLOCK, scale_tile_at, zero_scale_padding
from .nvfp4_gemm import staged_tokens
from .nvfp4_gemm_small_m import NVFP4GemmSmallM
from .nvfp4_gemm_swiglu_quant import NVFP4GemmSwigluQuantSmallM, fake_fused_operands
from .nvfp4_quant import silu_mul_fast
from .permuted_fp4 import weight_dims

COLUMNS = 8  # output columns a CTA: half a quant block


@dsl_user_op
def store_to_peer(smem_ptr, value, peer_rank, *, loc=None, ip=None) -> None:
    """``st.shared::cluster.f32``: ``value`` at ``smem_ptr``'s offset in the shared memory of
    the cluster's CTA ``peer_rank`` (a DSMEM tensor takes no plain stores in the DSL)."""
    addr = cute.arch.map_dsmem_ptr(smem_ptr, peer_rank, loc=loc, ip=ip).toint()
    llvm.inline_asm(None, [cutlass.Int32(addr).ir_value(loc=loc, ip=ip),
                           cutlass.Float32(value).ir_value(loc=loc, ip=ip)],
                    "st.shared::cluster.f32 [$0], $1;", "r,f", has_side_effects=True,
                    is_align_stack=False, asm_dialect=llvm.AsmDialect.AD_ATT, loc=loc, ip=ip)


class NVFP4GemmSwigluQuantSmallMPairs(NVFP4GemmSwigluQuantSmallM):
    """Static I (a multiple of 64), K, activation type, warps and prefetch; one row tile and
    one token tile a CTA (up to 8 tokens), two CTAs a cluster. The fused kernel's arguments
    and launch switches (PDL), its own tiles and epilogue."""

    HALF_ROWS = GATE_UP_GROUP
    CLUSTER_Y = 2

    def __init__(self, i: int, k: int, a_fp4: bool, warps: int = 4, prefetch: int = 1,
                 x_tokens: int = 0, permuted: bool = False):
        assert i % GATE_UP_GROUP == 0 and prefetch <= 1
        # the plain kernel's one tile a CTA (the fused class asks two)
        NVFP4GemmSmallM.__init__(self, 2 * i, k, a_fp4, cutlass.Uint8, 1, 1, warps, prefetch,
                                 x_tokens, permuted=permuted)
        self.i = i
        self.kb_out = i // BLOCK

    def tile_row(self, block, t: int):
        """The up row of the CTA's first column ``c = 8 block`` (its gate row ``HALF_ROWS`` on):
        ``128 (c // 64) + c % 64``."""
        c = block * COLUMNS
        return (c // GATE_UP_GROUP) * (2 * GATE_UP_GROUP) + c % GATE_UP_GROUP

    def cluster_barriers(self):
        """The epilogue's two cluster barriers, for warps 1.."""
        cute.arch.cluster_arrive_relaxed()
        cute.arch.cluster_wait()
        cute.arch.cluster_arrive()
        cute.arch.cluster_wait()

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        """SwiGLU, the pair's shared block scales, codes, scale padding (module docstring)."""
        mQ, mSF = outs
        alpha = scalars[0][0]
        gs = scalars[1][0]
        rank = block % 2  # the CTA's rank in its cluster (clusters run along grid y)
        kb = block // 2   # the quant block (16 columns) of the pair
        h = cute.make_rmem_tensor((2,), cutlass.Float32)
        amax = cute.make_rmem_tensor((2,), cutlass.Float32)
        for p in cutlass.range_constexpr(2):
            h[p] = silu_mul_fast(alpha * acc[0, 0, 2 + p], alpha * acc[0, 0, p])
            amax[p] = over_quant_block(cute.math.abs(h[p]),
                                       lambda u, v: cute.arch.fmax(u, v, nan=True))
        # the partner's amaxes of the CTA's 8 tokens land here (token 2q + p at 2q + p)
        sPeer = SmemAllocator().allocate_tensor(cutlass.Float32, cute.make_layout(8),
                                                byte_alignment=16)
        # both CTAs past their reductions' shared memory (relaxed: nothing to publish yet)
        cute.arch.cluster_arrive_relaxed()
        cute.arch.cluster_wait()
        if g == 0:
            for p in cutlass.range_constexpr(2):
                store_to_peer(sPeer.iterator + 2 * lane_q + p, amax[p], 1 - rank)
        cute.arch.cluster_arrive()  # release: the stores above are visible after the wait
        cute.arch.cluster_wait()
        rPre = cute.make_rmem_tensor((2,), cutlass.Float32)
        for p in cutlass.range_constexpr(2):
            both = cute.arch.fmax(amax[p], sPeer[2 * lane_q + p], nan=True)
            rPre[p] = gs * div6(both)
        rSF = cute.make_rmem_tensor((2,), cutlass.Float8E4M3FN)
        rSF.store(rPre.load().to(cutlass.Float8E4M3FN))  # cvt.rn.satfinite, as the pair does
        sf_f = rSF.load().to(cutlass.Float32)
        sf_b = rSF.load().bitcast(cutlass.Uint8)
        sSF, r0 = scale_tile_at(mSF, self.kb_out, tok0, kb, 128)
        for p in cutlass.range_constexpr(2):
            byte = sf_b[p]  # extracted here, not inside the stores' branches
            s = cutlass.Float32(0.0)
            if sf_f[p] != cutlass.Float32(0.0):
                s = cutlass.Float32(1.0) / (sf_f[p] / gs)
            word = over_quant_block(e2m1_encode_total(h[p] * s) << cutlass.Uint32(4 * g),
                                    lambda u, v: u | v)
            tok = tok0 + lane_q * 2 + p
            if g == p and tok < m:
                gQ = cute.recast_tensor(cute.local_tile(mQ, (1, 4), (tok, 2 * kb + rank)),
                                        cutlass.Uint32)
                gQ[0] = word
                if rank == 0:
                    sSF[r0 + lane_q * 2 + p, 0] = byte
        if rank == 0 and tok0 + 8 >= m:
            zero_scale_padding(mSF, self.kb_out, m, 4 * g + lane_q, kb, 1)


@jit.cached
def compile_nvfp4_gemm_swiglu_quant_small_m_pairs(i: int, k: int, a_dtype: str, warps: int = 4,
                                                  prefetch: int = 1, x_tokens: int = 0,
                                                  permuted: bool = False):
    """Static I (weights [2I, K/2]), K and config; M dynamic (at most 8 tokens). Arguments as
    ``compile_nvfp4_gemm_swiglu_quant_small_m``'s without a K split."""
    kernel = NVFP4GemmSwigluQuantSmallMPairs(i, k, a_dtype == "fp4", warps, prefetch, x_tokens,
                                             permuted)
    return cute.compile(kernel, *fake_fused_operands(i, k, a_dtype == "fp4"),
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


def launch_small_m_pairs(a, a_sf, w, w_sf, alpha: torch.Tensor, out_global_scale: torch.Tensor,
                         out: torch.Tensor, out_sf: torch.Tensor, warps: int = 4) -> None:
    """The kernel on validated operands (1 <= M <= 8), as ``launch_small_m`` of
    ``nvfp4_gemm_swiglu_quant`` takes them; activations staged as for (1, 1, 4, 1)."""
    two_i, k, permuted = weight_dims(w)
    m = a.shape[0]
    if not 1 <= m <= 8:
        raise ValueError(f"a: the cluster-pair kernel takes 1..8 tokens, got M = {m}")
    a_kind = "fp4" if a_sf is not None else str(a.dtype)
    x_tokens = staged_tokens(m, (1, 1, warps, 1), k, a_fp4=a_sf is not None)
    kernel = compile_nvfp4_gemm_swiglu_quant_small_m_pairs(two_i // 2, k, a_kind, warps, 1,
                                                           x_tokens, permuted)
    kernel(a.view(torch.int32), (w_sf if a_sf is None else a_sf).view(-1), w.view(torch.int32),
           w_sf.view(-1), alpha, out_global_scale, out, out_sf.view(torch.uint8).view(-1))
