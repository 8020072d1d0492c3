"""Compile-only checks: build a kernel for sm_90a on a machine without a GPU.

CI has no GPU, so each kernel family's compile function is exercised here at a few shapes; a
compile error (bad layout algebra, wrong types, an op the arch lacks) fails CI before any
device time is spent.
"""

from __future__ import annotations

import os
import tempfile

from .arch import compile_options, target_arch


def compile_only(compile_fn, *args):
    """Run the uncached compile of ``compile_fn(*args)`` for the target arch (sm_90a without a
    GPU) and export it to an object file, which proves the whole path to a loadable binary.
    Returns the compiled function."""
    compile_options()  # pins the DSL's arch before tracing
    raw = getattr(compile_fn, "uncached", compile_fn)
    compiled = raw(*args)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernel.o")
        compiled.export_to_c(path, function_name="compile_only_probe")
        if os.path.getsize(path) == 0:
            raise RuntimeError(f"{raw.__qualname__}{args}: exported an empty object for {target_arch()}")
    return compiled
