"""Where the time of issue 5's stream-K points goes (M = 16..64 on the big weights): the public
route against the same launches with parts taken out, to size the DSMEM reduce-scatter
(``nvfp4-gemm-next.md``, item 000000000) before it is built. Forms, graph us per call:

* "public": ``nvfp4_gemm`` as routed, its activation pass included;
* "alone": the same launches on activations made before (no pass, ``public_and_alone``);
* "nofix": every wgmma launch with ``stream_k_fixup`` taken out (each cut piece runs the
  epilogue on its own partial sums: wrong outputs, no workspace store, fence, atomic or
  read-back); the time it saves bounds what any cheaper fix-up can gain;
* "cap1": every piece's main loop cut to one k-tile (producer and consumers alike; weights
  before the PDL wait off): the launch's fixed part, fix-up included;
* "cap1nofix": both: the fixed part without the fix-up.

One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import cutlass
import cutlass.cute as cute
import torch
from probe_inputs import (fp4_gemm_operands, launches_compiled_by, print_forms,
                          public_and_alone, replaced, replaced_call)

from cute_kernels import jit
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.stream_k import CONSUMER_THREADS

PLAIN = importlib.import_module("cute_kernels.nvfp4_gemm")
LARGE_M = importlib.import_module("cute_kernels.nvfp4_gemm_large_m")
POINTS = [(9216, 7168, 16), (5120, 17408, 16), (7168, 18432, 16), (7168, 18432, 64),
          (9216, 7168, 64), (7168, 18432, 32)]
CAP = 1


@cute.jit
def no_fixup(acc: cute.Tensor, tile, u, k_tiles: cutlass.Constexpr, tiles, ctid,
             mWork: cute.Tensor, mCount: cute.Tensor, sFlag: cute.Tensor, counter,
             threads: cutlass.Constexpr = CONSUMER_THREADS,
             head_check: cutlass.Constexpr = True):
    """``stream_k_fixup`` taken out: every piece is its tile's last."""
    return cutlass.Boolean(True)


_mainloop = NVFP4GemmLargeM._mainloop
_produce_piece = NVFP4GemmLargeM._produce_piece


@cute.jit
def capped_mainloop(self, mainloop, tiled_mma, acc, tCrB, decode, frags, read, release, count):
    return _mainloop(self, mainloop, tiled_mma, acc, tCrB, decode, frags, read, release,
                     cutlass.min(count, CAP))


@cute.jit
def capped_produce_piece(self, mainloop, tma_act, tAs, tAg, tma_w, tWs, tWg, tma_sf, tSs, tSg,
                         state, row_tile, tok_tile, kt0, count):
    return _produce_piece(self, mainloop, tma_act, tAs, tAg, tma_w, tWs, tWg, tma_sf, tSs, tSg,
                          state, row_tile, tok_tile, kt0, cutlass.min(count, CAP))


CAPPED = {"_mainloop": capped_mainloop, "_produce_piece": capped_produce_piece,
          "WEIGHTS_BEFORE_WAIT": 0}
# (without the fix-up: with ``ASYNC_FIXUP`` off, so that ``stream_k_fixup`` takes every tile)
SYNC = {"ASYNC_FIXUP": False}
FORMS = {"nofix": (SYNC, True), "cap1": (CAPPED, False), "cap1nofix": (CAPPED | SYNC, True)}


@jit.cached
def compile_form(name: str, *args):
    """``compile_nvfp4_gemm_large_m(*args)`` in form ``name``."""
    attrs, nofix = FORMS[name]
    with replaced(NVFP4GemmLargeM, attrs), \
            replaced(LARGE_M, {"stream_k_fixup": no_fixup} if nofix else {}):
        return compile_nvfp4_gemm_large_m.uncached(*args)


def forced(name: str) -> dict:
    """``nvfp4_gemm``'s ``launch_large_m`` with every launch compiled in form ``name``."""
    return launches_compiled_by(PLAIN, lambda *c: compile_form(name, *c))


alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    calls = public_and_alone(a, a_sf, alpha, out, weights)
    for name in FORMS:
        calls[name] = replaced_call(calls["public"], PLAIN, forced(name))
    print_forms(f"gemm {n}x{k} M={m} plan {PLAIN.plain_plan(m, n, k)}", calls, weights)
    del weights, calls
