"""The in-place decode of permuted words (``KOrder.PERMUTED_IDENTITY``, W4A16) at 256-token
tiles with its four scale splats a row and K group converted or looked up in the 256-entry
shared table (``NVFP4GemmLargeM.IN_PLACE_SCALE_TABLE``, the default since session 52's call 4),
on the public route's launch, beside the public function. Graph us, interleaved, two
rounds; one point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

from probe_inputs import planned, print_variant_rounds, switched_compiler, wgmma_point

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m

POINTS = [("fused", 1024, 7168, 4096), ("gemm", 4096, 7168, 1024), ("gemm", 5120, 17408, 1024),
          ("fused", 4096, 7168, 1024)]
CONVERT = {"IN_PLACE_SCALE_TABLE": False}
PLAIN_CONVERT = switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM, CONVERT,
                                  "compile_in_place_convert")
FUSED_CONVERT = switched_compiler(compile_nvfp4_gemm_swiglu_quant_large_m, NVFP4GemmLargeM,
                                  CONVERT, "compile_fused_in_place_convert")
ORDER = KOrder.PERMUTED_IDENTITY

for kind, n, k, m in select_shapes(POINTS):
    words, x, alpha, out, launch = wgmma_point(kind, n, k, m, permuted=True)
    if kind == "gemm":
        def public(w):
            nvfp4_gemm(x, None, w[0], w[1], alpha, out=out)
        fns = (PLAIN_CONVERT, compile_nvfp4_gemm_large_m)
    else:
        def public(w):
            nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], alpha, 30.0)
        fns = (FUSED_CONVERT, compile_nvfp4_gemm_swiglu_quant_large_m)
    calls = {"convert": (words, lambda w: launch(w, x, k_order=ORDER, compile_fn=fns[0])),
             "table": (words, lambda w: launch(w, x, k_order=ORDER, compile_fn=fns[1])),
             "public": (words, public)}
    print_variant_rounds(f"{kind} {n}x{k} M={m} W4A16 in place {planned(kind, n, k, m)}",
                         calls)
    del words
