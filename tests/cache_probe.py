"""A tiny kernel whose compile function the cache tests key on (compiles on a CPU in ~0.3 s).

Run as a script it asks the cache once and prints what served it, for the multi-process tests.
"""

import json
import sys

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from cute_kernels import jit
from cute_kernels.arch import compile_options


@cute.kernel
def _add_kernel(a: cute.Tensor, b: cute.Tensor, value: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    i = bidx * 128 + tidx
    if i < a.shape[0]:
        b[i] = a[i] + value


@cute.jit
def _add(a: cute.Tensor, b: cute.Tensor, value: cutlass.Constexpr, stream):
    _add_kernel(a, b, value).launch(grid=((a.shape[0] + 127) // 128, 1, 1), block=(128, 1, 1),
                                    stream=stream)


@jit.cached
def compile_add(value: float):
    n = cute.sym_int()
    a = make_fake_compact_tensor(cutlass.Float32, (n,))
    b = make_fake_compact_tensor(cutlass.Float32, (n,))
    return cute.compile(_add, a, b, value, make_fake_stream(use_tvm_ffi_env_stream=True),
                        options=compile_options())


if __name__ == "__main__":
    fn = compile_add(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
    print(json.dumps(dict(jit.stats, callable=callable(fn))))
