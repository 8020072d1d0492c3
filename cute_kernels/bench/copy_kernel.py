"""A plain streaming copy in the CuTe DSL, one of the two copies the bandwidth ceiling is taken from.

``torch.Tensor.copy_`` is erratic on the H200 (4.22 TB/s read + write on 256 MiB buffers, 2.7
on 512 MiB and up); this kernel issues ``UNROLL`` independent 16-byte loads per thread before
storing them, the pattern our streaming kernels use, and measured 3.1-3.3 TB/s. Neither is the
true ceiling (our GDN split copies at 4.09 TB/s), so ``ceilings.measure`` takes the best of both.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from .. import jit
from ..arch import compile_options

VEC = 4       # fp32 elements per 16-byte vector
UNROLL = 8    # vectors in flight per thread
THREADS = 256
CHUNK = VEC * UNROLL * THREADS  # elements one CTA copies


class StreamCopy:
    @cute.jit
    def __call__(self, mSrc: cute.Tensor, mDst: cute.Tensor, stream):
        n = mSrc.shape[0]
        self.kernel(mSrc, mDst).launch(grid=(n // CHUNK, 1, 1), block=(THREADS, 1, 1),
                                       stream=stream)

    @cute.kernel
    def kernel(self, mSrc: cute.Tensor, mDst: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        r = cute.make_rmem_tensor((UNROLL, VEC), cutlass.Float32)
        # Consecutive threads take consecutive vectors, so every load instruction is coalesced.
        for u in cutlass.range_constexpr(UNROLL):
            v = (bidx * UNROLL + u) * THREADS + tidx
            cute.autovec_copy(cute.local_tile(mSrc, (VEC,), (v,)), r[u, None])
        for u in cutlass.range_constexpr(UNROLL):
            v = (bidx * UNROLL + u) * THREADS + tidx
            cute.autovec_copy(r[u, None], cute.local_tile(mDst, (VEC,), (v,)))


@jit.cached
def compile_stream_copy():
    n = cute.sym_int(divisibility=CHUNK)
    src = make_fake_compact_tensor(cutlass.Float32, (n,), assumed_align=16)
    dst = make_fake_compact_tensor(cutlass.Float32, (n,), assumed_align=16)
    return cute.compile(StreamCopy(), src, dst, make_fake_stream(use_tvm_ffi_env_stream=True),
                        options=compile_options())


def stream_copy(src: torch.Tensor, dst: torch.Tensor) -> None:
    """dst[:] = src for contiguous fp32 CUDA tensors whose size is a multiple of ``CHUNK``."""
    if src.dtype != torch.float32 or dst.shape != src.shape or src.numel() % CHUNK:
        raise ValueError(f"src/dst: expected equal fp32 shapes, size a multiple of {CHUNK}")
    compile_stream_copy()(src.view(-1), dst.view(-1))
