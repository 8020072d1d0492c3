"""Where the fused one-token op's extra time goes: the public fused launch (balanced (8, 2):
blocks of 32 rows, an up tile and its gate tile on two row groups of K warps) against the plain
GEMM on the same grid (the balanced launch with two row groups of plain tiles, the bf16 epilogue)
and the public plain launch (balanced (8, 3), 16-row blocks).

Why: session 89's L2 probe (H100, weights from L2) had the fused 9216x7168 M = 1 at 12.36 us
against the plain GEMM's 11.0 on the same bytes, and the fused (12, 2), whose warps walk as many
steps as the plain (8, 3)'s at about as many warps an SM, at 12.3: the grid shape alone does not
explain the 1.3 us. If "rg2" is near "fused", the 32-row blocks (the grid) are the cost; if it is
near "plain", the fused epilogue is.

Forms: "plain" (``nvfp4_gemm``), "rgWcC" the plain balanced launch of W K warps and C CTAs an SM
in two row groups, "fused" (``nvfp4_gemm_swiglu_quant``), and the fused launch with parts of its
epilogue left out (outputs wrong; timing only; the padding as the public op's): "nopad" without
the zeroed scale rows past M, "noquant" without the quantization (h's bits stored as codes),
"bare" with neither (h's bits);
and the fused launch with the epilogue's tail as before session 89 (``NVFP4GemmSwigluQuantSmallM``
switches off): "bytepad" (``PADDING_WORDS``: a byte a row), "divide" (``EPILOGUE_TABLE``: two
divisions), "old" (both), whose codes and whole scale buffers (padding included) are compared
with the public op's, byte for byte (H100, session 89 call 12, when the switches were still off
and these forms turned them on: 16.35 -> words 15.97, table 16.09, both 15.59). Graph us at
M = 1 (permuted words, NVFP4 activations), interleaved, two rounds; then "rg" forms' bf16
outputs against "plain"'s (relative norm of the difference: the same sums added in another
order). ``PROBE_L2=1``: one weight copy (read from L2). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream
from probe_inputs import gate_up_words, print_forms, switched_compiler

import cutlass
import cutlass.cute as cute
from cute_kernels import jit, nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.arch import compile_options, sm_count
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.device_fp4 import quantize_block_pair
from cute_kernels.device_silu import silu_mul_fast
from cute_kernels.dtypes import torch_to_cutlass
from cute_kernels.fused_scales import (scale_tile_at, zero_scale_padding,
                                       zero_scale_padding_words)
from cute_kernels.nvfp4_gemm_balanced import NVFP4GemmOneTokenBalanced, balanced_buffers
from cute_kernels.nvfp4_gemm_small_m import fake_operands
from cute_kernels.nvfp4_gemm_small_m_split import fake_split_buffers
from cute_kernels.swiglu_quant_balanced import (NVFP4GemmSwigluQuantBalanced,
                                                compile_nvfp4_gemm_swiglu_quant_balanced,
                                                launch_swiglu_quant_balanced)
from layouts import sf_padded_shape

# (2I, K, [(K warps, CTAs an SM) of the plain launch in two row groups])
POINTS = [(9216, 7168, [(8, 2), (12, 2)])]


@jit.cached
def compile_plain_balanced_row_groups(n: int, k: int, warps: int, ctas_per_sm: int, sms: int):
    """The plain balanced one-token launch on NVFP4 tokens and permuted words, bf16 out, in two
    row groups (blocks of 32 rows, as the fused launch's)."""
    m, a, a_sf, b, b_sf, alpha = fake_operands(n, k, True)
    d = make_fake_compact_tensor(torch_to_cutlass(torch.bfloat16), (m, n), stride_order=(1, 0),
                                 assumed_align=16)
    kernel = NVFP4GemmOneTokenBalanced(n, k, True, torch_to_cutlass(torch.bfloat16), warps,
                                       ctas_per_sm, sms, True, row_groups=2)
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d, *fake_split_buffers(),
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


def launch_row_groups(a, a_sf, w, w_sf, alpha, out, warps, per_sm):
    n, k = w.shape[0], w.shape[1] * 8
    sms = sm_count(out.device.index or 0)
    compile_plain_balanced_row_groups(n, k, warps, per_sm, sms)(
        a.view(torch.int32), a_sf.view(-1), w.view(torch.int32), w_sf.view(-1), alpha, out,
        *balanced_buffers(n, per_sm * sms, out.device, 32))


def fused_variant(pad: bool, quant: bool):
    """The fused balanced launch's compile function with its epilogue's padding and / or
    quantization left out (``NVFP4GemmSwigluQuantSmallM.epilogue`` otherwise, at one token
    tile; the padding as the public op's, ``PADDING_WORDS``), under a cache key of its own."""

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        mQ, mSF = outs
        alpha, gs = scalars[0][0], scalars[1][0]
        kb0 = block * self.half
        sSF, r0 = scale_tile_at(mSF, self.kb_out, tok0, kb0, 128)
        for t in cutlass.range_constexpr(self.half):
            for e in cutlass.range_constexpr(4):
                acc[t, 0, e] = silu_mul_fast(alpha * acc[t + self.half, 0, e],
                                             alpha * acc[t, 0, e])
            if cutlass.const_expr(quant):
                q = quantize_block_pair(acc[t, 0, 0], acc[t, 0, 1], acc[t, 0, 2],
                                        acc[t, 0, 3], g, gs)
            else:
                bits = [cutlass.Uint64(acc[t, 0, p].bitcast(cutlass.Uint32))
                        | (cutlass.Uint64(acc[t, 0, p + 2].bitcast(cutlass.Uint32))
                           << cutlass.Uint64(32)) for p in range(2)]
                q = (bits[0], bits[1], cutlass.Uint8(g), cutlass.Uint8(lane_q))
            for p in cutlass.range_constexpr(2):
                b = t * 2 + p
                tok = tok0 + lane_q * 2 + p
                if g == b % 8 and tok < m:
                    gQ = cute.recast_tensor(cute.local_tile(mQ, (1, 8), (tok, kb0 + t)),
                                            cutlass.Uint64)
                    gQ[0] = q[p]
                    sSF[r0 + lane_q * 2 + p, t] = q[2 + p]
        if cutlass.const_expr(pad):
            if tok0 + 8 >= m:
                padding = (zero_scale_padding_words if self.PADDING_WORDS
                           else zero_scale_padding)
                padding(mSF, self.kb_out, m, 4 * g + lane_q, kb0, self.half)

    return switched_compiler(compile_nvfp4_gemm_swiglu_quant_balanced,
                             NVFP4GemmSwigluQuantBalanced, {"epilogue": epilogue},
                             f"compile_fused_gap_p{int(pad)}q{int(quant)}")


VARIANTS = {"nopad": fused_variant(False, True), "noquant": fused_variant(True, False),
            "bare": fused_variant(False, False)}
SWITCHES = {"bytepad": {"PADDING_WORDS": False}, "divide": {"EPILOGUE_TABLE": False},
            "old": {"PADDING_WORDS": False, "EPILOGUE_TABLE": False}}
SWITCHED = {name: switched_compiler(compile_nvfp4_gemm_swiglu_quant_balanced,
                                    NVFP4GemmSwigluQuantBalanced, switches,
                                    f"compile_fused_gap_{name}")
            for name, switches in SWITCHES.items()}
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k, forms in select_shapes(POINTS):
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    # the gate_up weights as the fused op takes them; the plain forms read the same words
    weights = gate_up_words(two_i, k, True)
    outs = {"plain": torch.empty(1, two_i, device="cuda", dtype=torch.bfloat16)}
    calls = {"plain": lambda w, out=outs["plain"]: nvfp4_gemm(a, a_sf, w[0], w[1], alpha,
                                                              out=out)}
    for warps, per_sm in forms:
        name = f"rg{warps}c{per_sm}"
        outs[name] = torch.empty(1, two_i, device="cuda", dtype=torch.bfloat16)
        calls[name] = functools.partial(
            lambda w, out, warps, per_sm: launch_row_groups(a, a_sf, w[0], w[1], alpha, out,
                                                            warps, per_sm),
            out=outs[name], warps=warps, per_sm=per_sm)
    fused_outs = {}

    def buffers(name):
        """Codes and scales of a fused form, poisoned (the kernel writes every byte)."""
        fused_outs[name] = (torch.full((1, two_i // 4), 0xEE, device="cuda", dtype=torch.uint8),
                            torch.full(sf_padded_shape(1, two_i // 32), 0xEE, device="cuda",
                                       dtype=torch.uint8))
        return fused_outs[name]
    q, sf = buffers("fused")
    calls["fused"] = lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q,
                                                       out_sf=sf)
    for name, fn in VARIANTS.items():
        calls[name] = functools.partial(
            lambda w, fn: launch_swiglu_quant_balanced(a, a_sf, w[0], w[1], alpha, gs, q, sf,
                                                       8, 2, fn), fn=fn)
    for name, fn in SWITCHED.items():
        calls[name] = functools.partial(
            lambda w, fn, bufs: launch_swiglu_quant_balanced(a, a_sf, w[0], w[1], alpha, gs,
                                                             *bufs, 8, 2, fn),
            fn=fn, bufs=buffers(name))
    label = f"{two_i}x{k} M=1"
    print_forms(label, calls, weights)
    if warm_only():
        continue
    for name, (q_, sf_) in fused_outs.items():  # poisoned again: each writes every byte
        q_.fill_(0xEE)
        sf_.fill_(0xEE)
    for name in ["fused", *SWITCHED]:
        calls[name](weights[0])
    torch.cuda.synchronize()
    print(f"{label} codes / scales as the public op's: " + " ".join(
        f"{name}={torch.equal(fused_outs[name][0], q)}/{torch.equal(fused_outs[name][1], sf)}"
        for name in SWITCHED), flush=True)
    for call in calls.values():
        call(weights[0])
    want = outs["plain"].float()
    print(f"{label} against plain: " + " ".join(
        f"{name}={((o.float() - want).norm() / want.norm()).item():.1e}"
        for name, o in outs.items() if name != "plain"), flush=True)
