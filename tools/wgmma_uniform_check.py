"""Whether the wgmma kernels' descriptors stay in uniform registers: for each launch form,
compiled for sm_90a (no GPU needed) and disassembled with nvdisasm, the HGMMAs with an R2UR
(a move from a per-thread register into a uniform one) among the four instructions before
them, and the kernel's R2UR count.

Why: session 100 found the late stream-K pieces 0.35-2.0 us slower on the H100 for a reason
outside the code they changed. The head's spin loop exited per thread, and that one divergent
loop inside the persistent loop made ptxas move the consumers' stage counters out of uniform
registers: two R2UR before every wgmma of the main loop (31 of 40 HGMMAs, R2UR 19 -> 99). A
warp vote on the loop's condition put them back. Run this on any change to the wgmma kernels'
loops or fix-ups. The defaults read 0 R2UR-fed HGMMAs in their main loops (a tile's last
k-tile may show one or two), except the bf16 weights' forms: 3-4 of 8, 18 R2UR, every
main-loop wgmma's descriptors moved (0 of 8 with ``--uniform-desc``, ``UNIFORM_WEIGHT_DESC``:
measured in session 103 and left off). ``wg_k_split`` read 12 of 16 (11-12 of 20 in four K
pieces) until session 103 made its K group and its K-piece holders warp-uniform
(``UNIFORM_K_GROUP``; ``--thread-group`` compiles the form before it).

    PYTHONPATH=.:tools python tools/wgmma_uniform_check.py [FORM ...] [--late] [--thread-group]
        [--uniform-desc] [--sass DIR]
"""

from __future__ import annotations

import argparse
import os

from quant_sass_count import disassemble

from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import compile_only, replaced


def plain(n: int, k: int, tile_m: int, stream_k: bool, groups: int, ctas_per_sm: int = 1,
          wg_k_split: bool = False, order: KOrder = KOrder.PERMUTED) -> tuple:
    """``compile_nvfp4_gemm_large_m``'s arguments as the public op compiles that launch
    (permuted words unless ``order``, the PDL trigger)."""
    return compile_nvfp4_gemm_large_m, (n, k, "torch.bfloat16", tile_m, 0, 132, 1, stream_k,
                                        False, order, ctas_per_sm, groups,
                                        wg_k_split, False, True)


FORMS = {
    "plain8": plain(9216, 7168, 8, True, 2),
    "plain16": plain(9216, 7168, 16, True, 2),
    "plain16_c2": plain(9216, 7168, 16, True, 2, ctas_per_sm=2),
    "plain32": plain(9216, 7168, 32, True, 2),
    "plain64": plain(9216, 7168, 64, True, 1),
    "plain128": plain(9216, 7168, 128, False, 1),
    "plain128_sk": plain(5120, 17408, 128, True, 1),
    "plain256": plain(9216, 7168, 256, False, 1),
    "wg_k_split": plain(7168, 2048, 64, False, 2, wg_k_split=True),
    "fused_wgk": (compile_nvfp4_gemm_swiglu_quant_large_m,
                  (2048, 7168, 64, 0, 132, False, False, KOrder.PERMUTED, 1, 2, 0, 1, True)),
    # four K pieces and the stream-K fix-up (2048x7168 at 4..128 tokens, fused I = 1024)
    "wg_k_split_s4": (compile_nvfp4_gemm_large_m,
                      (2048, 7168, "torch.bfloat16", 16, 0, 132, 4, True, False,
                       KOrder.PERMUTED, 1, 2, True, False, True)),
    "fused_wgk_s4": (compile_nvfp4_gemm_swiglu_quant_large_m,
                     (1024, 7168, 16, 0, 132, True, False, KOrder.PERMUTED, 1, 2, 0, 4, True)),
    # bf16 weights (``KOrder.BF16``: both operands from shared memory; fused W4A16 1024x7168
    # from 1536 tokens)
    "bf16w": plain(1024, 7168, 128, False, 1, order=KOrder.BF16),
    "fused_bf16w": (compile_nvfp4_gemm_swiglu_quant_large_m,
                    (512, 7168, 128, 0, 132, False, False, KOrder.BF16, 1, 1, 0, 1)),
    "fused16": (compile_nvfp4_gemm_swiglu_quant_large_m,
                (4608, 7168, 16, 0, 132, True, False, 1, 1, 2, 2)),
    "fused64": (compile_nvfp4_gemm_swiglu_quant_large_m,
                (4608, 7168, 64, 0, 132, True, False, 1, 1, 1, 2)),
    "fused128": (compile_nvfp4_gemm_swiglu_quant_large_m,
                 (18432, 7168, 128, 0, 132, False, False, 1, 1, 1, 2)),
}


def r2ur_fed(sass: str) -> tuple[int, int, int]:
    """(HGMMAs, those with an R2UR among the four instructions before, R2URs) of ``sass``."""
    lines = sass.splitlines()
    hgmma = [i for i, line in enumerate(lines) if "HGMMA" in line]
    fed = sum(any("R2UR" in lines[j] for j in range(max(0, i - 4), i)) for i in hgmma)
    return len(hgmma), fed, sum("R2UR" in line for line in lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("forms", nargs="*", metavar="FORM",
                        help=f"of {', '.join(FORMS)} (all by default)")
    parser.add_argument("--late", action="store_true",
                        help="with NVFP4GemmLargeM.LATE_PIECES on")
    parser.add_argument("--thread-group", action="store_true",
                        help="with NVFP4GemmLargeM.UNIFORM_K_GROUP off (before session 103)")
    parser.add_argument("--uniform-desc", action="store_true",
                        help="with NVFP4GemmLargeM.UNIFORM_WEIGHT_DESC on")
    parser.add_argument("--sass", help="a folder to write each form's SASS into")
    args = parser.parse_args()
    unknown = [name for name in args.forms if name not in FORMS]
    if unknown:
        parser.error(f"unknown forms {unknown}: expected some of {list(FORMS)}")
    for name in args.forms or FORMS:
        fn, fn_args = FORMS[name]
        with replaced(NVFP4GemmLargeM, {"LATE_PIECES": args.late,
                                        "UNIFORM_K_GROUP": not args.thread_group,
                                        "UNIFORM_WEIGHT_DESC": args.uniform_desc}):
            sass, _ = disassemble(compile_only(fn, *fn_args))
        if args.sass:
            os.makedirs(args.sass, exist_ok=True)
            open(os.path.join(args.sass, f"{name}.sass"), "w").write(sass)
        count, fed, r2ur = r2ur_fed(sass)
        print(f"{name}: {fed} of {count} HGMMAs R2UR-fed, {r2ur} R2UR", flush=True)


if __name__ == "__main__":
    main()
