"""Issue 5's stream-K points on 64-row tiles (``wg_k_split``: both consumer warpgroups on one
64-row tile, each on one K group of a stage) instead of 128-row ones: twice the tiles, so
each tile is cut into about half as many pieces, and fewer of them are a CTA's whole range
(the pieces the asynchronous fix-up still waits for after the head's main loop). Forms,
graph us per call: "public" (the route: 128-row tiles, the asynchronous fix-up), "wgk" (the
same plan with ``wg_k_split`` and two K groups a stage; there warpgroup 0's 128 threads hold
the asynchronous fix-up's pieces) and "wgksync" ("wgk" with ``stream_k_fixup``,
``ASYNC_FIXUP`` off). The outputs of "public" and "wgk" differ by the sums' order only
(printed: the largest difference relative to the output's largest value); "wgk" and
"wgksync" should be equal. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (fp4_gemm_operands, launches_compiled_by, print_forms, replaced_call,
                          switched_compiler)

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

PLAIN = importlib.import_module("cute_kernels.nvfp4_gemm")
POINTS = [(9216, 7168, 16), (5120, 17408, 16), (7168, 18432, 16), (7168, 18432, 32),
          (7168, 18432, 64)]
planned = PLAIN.planned_launch


def planned_on_64_rows(m, n, k, plan, wg_k_split=False):
    """``planned_launch`` with stream-K plans on 64-row tiles of two K groups a stage."""
    tile_m, splits, options = planned(m, n, k, plan, wg_k_split)
    if plan[2]:
        options = options | {"k_groups": 2, "wg_k_split": True, "ctas_per_sm": 1}
    return tile_m, splits, options


# ``compile_nvfp4_gemm_large_m`` with ``stream_k_fixup`` alone
compile_sync = switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                                 {"ASYNC_FIXUP": False}, "compile_sync")
ON_64_ROWS = {"planned_launch": planned_on_64_rows}
SYNC_64 = ON_64_ROWS | launches_compiled_by(PLAIN, compile_sync)
alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    calls = {"public": public, "wgk": replaced_call(public, PLAIN, ON_64_ROWS),
             "wgksync": replaced_call(public, PLAIN, SYNC_64)}
    results = []
    for call in calls.values():
        out.zero_()
        call(weights[0])
        torch.cuda.synchronize()
        results.append(out.float().clone())
    if not warm_only():
        diff = (results[1] - results[0]).abs().max() / results[0].abs().max()
        same = torch.equal(results[1], results[2])
        print(f"gemm {n}x{k} M={m}: wgk relative difference {diff:.2e}, wgksync same: {same}")
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, calls
