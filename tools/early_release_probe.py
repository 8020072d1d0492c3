"""``NVFP4GemmLargeM.EARLY_RELEASE`` (a consumer releases a k-tile's stage once its wgmmas
retire, before it decodes the next k-tile) against the default release (after that decode),
the stream-K launch alone as the plans launch it (bf16 activations made once, outside the
timing), at issue 5's points: M = 4 / 8 (8-token tiles), 16 and 32 at two K groups, 64 at one.

Why: on the H200 the 16-token launches are bound by their consumers (session 80: 9216x7168
M = 16 16.2 us against 13.3 with them stubbed), which hold each stage through a decode, the
k-tile's wgmmas and the next decode; deeper rings did not pay on the H100.

Graph us, interleaved, two rounds; outputs compared (the same bits expected). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import compare_stream_k_forms, switched_compiler

from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

# (N, K, M, token tile, K groups)
POINTS = [(9216, 7168, 16, 16, 2), (5120, 17408, 16, 16, 2), (7168, 18432, 16, 16, 2),
          (9216, 7168, 8, 8, 2), (9216, 7168, 32, 32, 2), (7168, 18432, 64, 64, 1)]
COMPILERS = {"default": compile_nvfp4_gemm_large_m,
             "early": switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                                        {"EARLY_RELEASE": True}, "compile_large_m_early")}

compare_stream_k_forms(POINTS, COMPILERS, "release default / early")
