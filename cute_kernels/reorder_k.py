"""bf16 activations into ``PERMUTED_K_ORDER`` in one kernel: the W4A16 path's copy, for
permuted words and packed bytes (``KOrder.PAIRS``) alike.

``order_k`` does it as a strided torch copy of a 7-dimensional view, which cost ~4-5 us at
M = 64, K = 7168 on the H200 (``tools/w4a16_order_probe.py``, session 28: more than a cheaper
decode saved on one-CTA launches). Here a thread's unit is (64-element group, k16 block kb):
it writes the group's output chunks 2 kb and 2 kb + 1 (32 contiguous bytes; the group's 4
threads write its 128) from 8 input words (bf16 pairs): output word (kb, half, q) takes bf16
``half`` of input words a and a + 2, a = 8 q + 4 (kb // 2) + kb % 2 (one ``prmt``).

Rows past the input (``rows``: whole token tiles for the wgmma kernels' TMA) are written as
zeros. It launches with PDL and lets the GEMM launch at once, as the dequantize kernels do, and
where the GEMM before it triggers early it launches under that one spread over the SMs as they
do (``unit_grid.spread_launch``; unspread, W4A16 4096x7168 on packed bytes at M = 32 / 64 went
from 14.1 / 16.0 us to 16.7 / 21.1 with session 35's trigger).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from . import jit
from .arch import compile_options
from .device_mma import prmt
from .unit_grid import UnitGridKernel


class ReorderK(UnitGridKernel):
    """Static K (a multiple of 64); dynamic M. Input and output as int32 [groups, 32] (a
    group: 64 bf16 of one row); the output may have more groups (zero rows). ``threads``,
    ``ctas_per_sm`` and ``units_per_thread``: ``UnitGridKernel``'s."""

    def __init__(self, k: int, threads: int = 256, ctas_per_sm: int = 0,
                 units_per_thread: int = 4):
        assert k % 64 == 0
        super().__init__(threads, ctas_per_sm, units_per_thread)
        self.k = k

    @cute.jit
    def __call__(self, mX: cute.Tensor, mOut: cute.Tensor, stream):
        units = mX.shape[0] * 4
        out_units = mOut.shape[0] * 4
        self.kernel(mX, mOut, units, out_units).launch(**self.launch_options(out_units, stream))

    @cute.kernel
    def kernel(self, mX: cute.Tensor, mOut: cute.Tensor, units: cutlass.Int32,
               out_units: cutlass.Int32):
        first = self.first_unit()
        words = [cute.make_rmem_tensor((8,), cutlass.Int32)
                 for _ in range(self.units_per_thread)]
        for j in cutlass.range_constexpr(self.units_per_thread):  # all loads first
            u = first + j * self.threads
            if u < units:
                self._load(mX, u // 4, u % 4, words[j])
        for j in cutlass.range_constexpr(self.units_per_thread):
            u = first + j * self.threads
            if u < out_units:
                for half in cutlass.range_constexpr(2):
                    chunk = cute.make_rmem_tensor((1, 4), cutlass.Int32)
                    chunk.fill(0)
                    if u < units:
                        for q in cutlass.range_constexpr(4):
                            chunk[0, q] = self._out_word(words[j], q, half)
                    cute.autovec_copy(chunk, cute.local_tile(mOut, (1, 4),
                                                             (u // 4, 2 * (u % 4) + half)))

    @cute.jit
    def _load(self, mX: cute.Tensor, g, kb, words):
        """The 8 input words block ``kb`` of group ``g`` needs, in ``_out_word``'s order."""
        for q in cutlass.range_constexpr(4):
            a = 8 * q + 4 * (kb // 2) + kb % 2
            words[2 * q] = mX[g, a]
            words[2 * q + 1] = mX[g, a + 2]

    def _out_word(self, words, q: int, half: int):
        """Output word (kb, half, q) from the unit's words."""
        return cutlass.Int32(prmt(words[2 * q], words[2 * q + 1],
                                  0x5410 if half == 0 else 0x7632))


@jit.cached
def compile_reorder_k(k: int, ctas_per_sm: int = 0, units_per_thread: int = 4):
    """Tensor-free compile of ``ReorderK``: static K, dynamic M; ``ctas_per_sm`` and
    ``units_per_thread`` as its."""
    x = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), 32), stride_order=(1, 0),
                                 assumed_align=16)
    out = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), 32), stride_order=(1, 0),
                                   assumed_align=16)
    return cute.compile(ReorderK(k, ctas_per_sm=ctas_per_sm, units_per_thread=units_per_thread),
                        x, out, make_fake_stream(use_tvm_ffi_env_stream=True),
                        options=compile_options())


def reorder_k(x: torch.Tensor, rows: int | None = None, launch: tuple = ()) -> torch.Tensor:
    """``order_k(x, KOrder.PERMUTED, rows)`` of contiguous bf16 ``x`` [M, K] (K a multiple of
    64, M * K < 2^31) on the GPU: one launch, zero rows past M up to ``rows``; ``launch``:
    ``compile_reorder_k``'s (ctas_per_sm, units_per_thread), the default's where empty."""
    m, k = x.shape
    out = torch.empty((max(m, rows or 0), k), dtype=torch.bfloat16, device=x.device)
    if out.shape[0]:
        compile_reorder_k(k, *launch)(x.view(torch.int32).view(-1, 32),
                                      out.view(torch.int32).view(-1, 32))
    return out
