import pytest
import torch


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def poisoned(*shape, dtype, device="cuda"):
    """An output buffer full of NaN (or 0xFF bytes), so unwritten elements cannot pass."""
    t = torch.empty(*shape, dtype=dtype, device=device)
    if dtype.is_floating_point and dtype.itemsize > 1:
        t.fill_(float("nan"))
    else:
        t.view(torch.uint8).fill_(0xFF)
    return t
