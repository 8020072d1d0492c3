import importlib.util
import pathlib

import pytest
import torch

# The device scripts and probes, which some CPU tests read or import.
TOOLS = pathlib.Path(__file__).resolve().parent.parent / "tools"


def load_tool(name: str):
    """``tools/<name>.py`` as a module (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def check_graph_replays_chain(chain, count, shape, dtype=torch.bfloat16):
    """``chain(outs)`` runs dependent kernels writing ``count`` outputs of ``shape``: the eager
    run, then three replays of its CUDA graph into NaN-poisoned buffers, must give the same
    bits (a kernel that read its input before the one before it finished would not); the last
    output finite and not all zero."""
    want = [torch.empty(shape, device="cuda", dtype=dtype) for _ in range(count)]
    chain(want)
    got = [poisoned(*shape, dtype=dtype) for _ in range(count)]
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        chain(got)
    for _ in range(3):
        for g in got:
            g.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        assert all(torch.equal(g, w) for g, w in zip(got, want))
    assert want[-1].isfinite().all() and want[-1].abs().max() > 0


def w4a16_chain(weights, x, alpha):
    """``check_graph_replays_chain``'s ``chain`` for ``nvfp4_gemm`` W4A16: each GEMM's bf16
    output is the next one's input (weights: (b, b_sf) pairs, square)."""
    from cute_kernels import nvfp4_gemm

    def chain(outs):
        y = x
        for (b, b_sf), out in zip(weights, outs):
            y = nvfp4_gemm(y, None, b, b_sf, alpha, out=out)
    return chain


@pytest.fixture
def without_fitted_tiles(monkeypatch):
    """``large_m_plans.plain_plan`` (and ``nvfp4_gemm`` through it) without session 65's fitted
    token tiles (``fitted_tiles.fitted_launch``): the tests of the rules before them, which the
    fitted tiles supersede at some of their points (``tests/test_fitted_tiles.py``)."""
    from cute_kernels import large_m_plans

    def clear():
        large_m_plans.plain_plan.cache_clear()
        large_m_plans.packed_plan.cache_clear()

    clear()
    monkeypatch.setattr(large_m_plans, "fitted_launch", lambda *args, **kwargs: None)
    yield
    monkeypatch.undo()
    clear()
