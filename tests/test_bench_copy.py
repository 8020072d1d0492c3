import pytest
import torch

from cute_kernels.bench.copy_kernel import CHUNK, compile_stream_copy, stream_copy
from cute_kernels.testing import compile_only


def test_stream_copy_compiles_for_sm90a():
    compile_only(compile_stream_copy)


@pytest.mark.gpu
def test_stream_copy_copies():
    src = torch.randn(3 * CHUNK, device="cuda")
    dst = torch.full_like(src, float("nan"))
    stream_copy(src, dst)
    assert torch.equal(src, dst)


def test_every_bench_suite_imports_and_has_run():
    """The benchmark programs only run on a GPU; CI at least imports each suite."""
    import importlib

    from cute_kernels.bench.__main__ import SUITES

    for name, module in SUITES.items():
        assert callable(importlib.import_module(module).run), name


def test_bench_without_gpu_says_so(capsys):
    from cute_kernels.bench.__main__ import main

    if torch.cuda.is_available():
        pytest.skip("has a GPU")
    assert main(["swiglu"]) == 1
    assert "No CUDA GPU" in capsys.readouterr().out
