"""A pytest plugin for refactors of the kernels: every ``cute_kernels.testing.compile_only`` call
of the tests run writes its kernel's SASS (nvdisasm, ``quant_sass_count.disassemble``) into
``$SASS_DIR``, one file per test and call. Run the same tests on two trees and compare the
folders: byte-identical SASS means the change moved no instruction (session 105 split the
large-M kernel's files this way: 268 kernels of 25 test files, all the same). A kernel's
symbol names its class's module, so a class moved to another file changes that name alone:
compare with ``sed -E 's/kernel_cutlass_kernel_[A-Za-z0-9_]*/KERNEL/g'`` over both sides.

    SASS_DIR=/tmp/sass-before PYTHONPATH=.:tools CUTE_DSL_ARCH=sm_90a CUTE_KERNELS_CACHE=0 \\
        python -m pytest -q -p sass_snapshot_plugin tests/test_nvfp4_gemm_large_m.py ...
    diff -r /tmp/sass-before /tmp/sass-after

Needs nvdisasm (``NVDISASM``, as ``quant_sass_count``). A kernel whose SASS cannot be read
gets a file starting with ``ERROR``.
"""

from __future__ import annotations

import hashlib
import os
import re

import cute_kernels.testing as testing

_current = {"test": "outside-a-test", "calls": 0}
_compile_only = testing.compile_only


def pytest_configure(config):
    os.makedirs(os.environ["SASS_DIR"], exist_ok=True)


def pytest_runtest_setup(item):
    # (the id's tail, readable, and a hash of all of it: two long ids may share a tail)
    digest = hashlib.sha1(item.nodeid.encode()).hexdigest()[:10]
    _current["test"] = re.sub(r"[^A-Za-z0-9_.-]", "_", item.nodeid)[-140:] + "-" + digest
    _current["calls"] = 0


def _compile_and_snapshot(compile_fn, *args, **kwargs):
    from quant_sass_count import disassemble

    compiled = _compile_only(compile_fn, *args, **kwargs)
    _current["calls"] += 1
    try:
        sass = disassemble(compiled)[0]
    except Exception as error:  # (a snapshot must not fail the test it watches)
        sass = f"ERROR {type(error).__name__}: {error}"
    name = f"{_current['test']}#{_current['calls']}.sass"
    with open(os.path.join(os.environ["SASS_DIR"], name), "w") as out:
        out.write(sass)
    return compiled


# (the tests import compile_only by name, so this must run before they are collected: -p)
testing.compile_only = _compile_and_snapshot
