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
