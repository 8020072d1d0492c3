"""Registers and CTAs per SM of every default small-M config on the suites' shapes (CPU,
compile only): run it before and after a main-loop change to see whether a config crossed an
occupancy step (``tests/test_small_m_occupancy.py`` checks five of them in CI).

    PYTHONPATH=. python tools/small_m_registers.py [--packed]

One line per distinct compile: the point that first needs it, the config, x_tokens, splits,
registers, CTAs per SM by registers (shared memory aside). Permuted W4A4 words (the models'
layout) unless --packed."""

import sys

from cute_kernels.bench.nvfp4_gemm_suite import SHAPES as GEMM_SHAPES
from cute_kernels.bench.swiglu_suite import SHAPES as SWIGLU_SHAPES
from cute_kernels.nvfp4_gemm import (PLAIN_STAGE_BYTES, PLAIN_X_SMEM_TOKENS, small_m_config,
                                     staged_tokens)
from cute_kernels.nvfp4_gemm_small_m import compile_nvfp4_gemm_small_m
from cute_kernels.nvfp4_gemm_small_m_split import (compile_nvfp4_gemm_small_m_split,
                                                   config_splits)
from cute_kernels.nvfp4_gemm_swiglu_quant import (compile_nvfp4_gemm_swiglu_quant_small_m,
                                                  swiglu_small_m_config)
from cute_kernels.testing import compile_only, ctas_per_sm, kernel_registers

MS = (1, 2, 4, 8, 16)


def compiles(permuted: bool):
    """(label, compile fn, args, warps), each distinct compile once."""
    seen = set()
    for n, k in GEMM_SHAPES:
        for m in MS:
            c = small_m_config(m, n, k, True, permuted)
            x = staged_tokens(m, c, k, PLAIN_X_SMEM_TOKENS, PLAIN_STAGE_BYTES)
            s = config_splits(c)
            if s > 1:
                fn, args = compile_nvfp4_gemm_small_m_split, (n, k, "fp4", "torch.bfloat16",
                                                              *c[:4], x, s, permuted)
            else:
                fn, args = compile_nvfp4_gemm_small_m, (n, k, "fp4", "torch.bfloat16", *c[:4],
                                                        x, permuted)
            if (fn, args) not in seen:
                seen.add((fn, args))
                yield f"gemm {n}x{k} M={m}", fn, args, c[2]
    for two_i, k in SWIGLU_SHAPES:
        for m in MS:
            c = swiglu_small_m_config(m, two_i // 2, k, permuted)
            args = (two_i // 2, k, "fp4", *c[:4], staged_tokens(m, c, k), config_splits(c),
                    permuted)
            fn = compile_nvfp4_gemm_swiglu_quant_small_m
            if (fn, args) not in seen:
                seen.add((fn, args))
                yield f"fused {two_i}x{k} M={m}", fn, args, c[2]


if __name__ == "__main__":
    for label, fn, args, warps in compiles("--packed" not in sys.argv):
        regs = max(kernel_registers(compile_only(fn, *args)))
        print(f"{label:28s} {args} regs {regs} ctas/SM {ctas_per_sm(regs, warps)}", flush=True)
