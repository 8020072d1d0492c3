"""Device round for the GEMV issue: sweep tile configs on the shapes not yet tuned, then the full
GEMV benchmark (with those configs) into $OUT. ``python tools/gemv_round.py OUTDIR``"""
import sys

import torch

from cute_kernels.bench import ceilings, gemv_suite
from cute_kernels.bench.report import emit
from cute_kernels.linear import _TUNED, _TUNED_FP8

new = [s for s in gemv_suite.SHAPES[:12] if s not in _TUNED]
_TUNED.update(gemv_suite.sweep_configs(new))
new8 = [s for s in gemv_suite.SHAPES[:12] if s not in _TUNED_FP8]
_TUNED_FP8.update(gemv_suite.sweep_configs(new8, torch.float8_e4m3fn))
print("tuned bf16", {s: _TUNED[s] for s in new}, "fp8", {s: _TUNED_FP8[s] for s in new8})
emit(gemv_suite.run(), ceilings.measure(), sys.argv[1], "gemv")
