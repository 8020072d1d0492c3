"""``NVFP4GemmLargeM.LATE_PIECES`` (a stream-K piece that is its CTA's whole range goes to a
late region that the head's consumers read themselves, ``stream_k``'s late pieces) against
the default asynchronous fix-up (store, flag, poll, bulk copy), the stream-K launch alone as
the plans launch it (bf16 activations made once, outside the timing), at issue 5's points.

Why: the 16-token timeline (H100 2026-12-07, session 98) puts the head's last fix-up at
1.3-1.7 us after its main loop even with no loads, of which one round trip is unavoidable;
session 49's late form lost 1-6 us by waiting for each word in turn (``stream_k``'s comment).

Graph us, interleaved, two rounds; outputs compared (the same bits expected). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

from probe_inputs import compare_stream_k_forms, replaced_call, switched_compiler

import cute_kernels.nvfp4_gemm_large_m as large_m
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

# (N, K, M, token tile, K groups): issue 5's open M <= 64 rows
POINTS = [(9216, 7168, 16, 16, 2), (5120, 17408, 16, 16, 2), (9216, 7168, 8, 8, 2),
          (5120, 17408, 8, 8, 2), (7168, 18432, 16, 16, 2), (7168, 18432, 32, 32, 2),
          (7168, 18432, 64, 64, 1), (9216, 7168, 64, 64, 1)]
COMPILERS = {"default": compile_nvfp4_gemm_large_m,
             "late": switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                                       {"LATE_PIECES": True}, "compile_large_m_late")}
# (the late form's counters go on with the late region)
LATE_BUFFERS = {"stream_k_buffers": functools.partial(large_m.stream_k_buffers, late=True)}

compare_stream_k_forms(POINTS, COMPILERS, "fix-up default / late",
                       {"late": lambda call: replaced_call(call, large_m, LATE_BUFFERS)})
