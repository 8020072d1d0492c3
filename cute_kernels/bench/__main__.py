"""``python -m cute_kernels.bench [suite ...] [--out DIR] [--quick] [--targets]``

Measures the copy bandwidth and bf16 matmul peak once, then each suite; prints a table and
writes ``DIR/<suite>.json`` and ``DIR/<suite>.png``; with ``--targets``, then the issues'
targets against this run's rows (``cute_kernels.bench.targets``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

SUITES = {"dequant": "cute_kernels.bench.dequant_suite", "gemv": "cute_kernels.bench.gemv_suite",
          "nvfp4_gemm": "cute_kernels.bench.nvfp4_gemm_suite",
          "quant": "cute_kernels.bench.quant_suite", "gdn": "cute_kernels.bench.gdn_suite",
          "swiglu": "cute_kernels.bench.swiglu_suite"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cute_kernels.bench")
    parser.add_argument("suites", nargs="*", help=f"which of {sorted(SUITES)} (default: all)")
    parser.add_argument("--out", default="bench_out", help="folder for JSON and PNG")
    parser.add_argument("--quick", action="store_true", help="fewer shapes")
    parser.add_argument("--sweep", action="store_true", help="time every tile config first")
    parser.add_argument("--targets", action="store_true",
                        help="then the issues' targets against this run (met / open)")
    ns = parser.parse_args(argv)
    unknown = [s for s in ns.suites if s not in SUITES]
    if unknown:
        parser.error(f"unknown suite(s) {unknown}; choose from {sorted(SUITES)}")
    import torch

    if not torch.cuda.is_available():
        print("No CUDA GPU found: the benchmarks need one (see README, 'Running on a GPU').")
        return 1
    from . import ceilings
    from .report import emit

    ceil = ceilings.measure()
    payloads = []
    for name in ns.suites or list(SUITES):
        rows = importlib.import_module(SUITES[name]).run(quick=ns.quick, sweep=ns.sweep)
        payloads.append(json.loads(emit(rows, ceil, ns.out, name).read_text()))
    if ns.targets:
        from . import targets

        checks = targets.evaluate(payloads)
        print("\n".join([c.line() for c in checks] + targets.summary(checks)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
