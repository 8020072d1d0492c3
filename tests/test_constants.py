"""The cached constant tensors (``cute_kernels.constants``): float scales become one tensor per
value instead of a fill per call, and a tensor filled inside a CUDA-graph capture never serves
eager calls."""

import pytest
import torch

from cute_kernels.constants import constant
from cute_kernels.validate import as_scale_tensor


def test_float_scale_is_one_cached_tensor_per_value():
    a = as_scale_tensor("alpha", 0.375, torch.device("cpu"))
    assert a.dtype == torch.float32 and a.shape == (1,) and a.item() == 0.375
    assert as_scale_tensor("alpha", 0.375, torch.device("cpu")) is a
    assert as_scale_tensor("alpha", 0.5, torch.device("cpu")) is not a
    assert constant(3, torch.int32, torch.device("cpu"), 7).tolist() == [7, 7, 7]


@pytest.mark.gpu
def test_float_scale_inside_a_graph_capture():
    """A value first seen during capture gets a graph-only tensor: the graph's calls share it,
    eager calls get their own (filled at once), and replays see the right value."""
    dev = torch.device("cuda")
    value = 0.8125  # not used by any other test
    x = torch.ones(4, device=dev)
    out = torch.empty(4, device=dev)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.stream(stream):
        with torch.cuda.graph(graph, stream=stream):
            captured = as_scale_tensor("alpha", value, dev)
            assert as_scale_tensor("alpha", value, dev) is captured
            torch.mul(x, captured, out=out)
    torch.cuda.current_stream().wait_stream(stream)
    eager = as_scale_tensor("alpha", value, dev)
    assert eager.data_ptr() != captured.data_ptr() and eager.item() == value
    assert as_scale_tensor("alpha", value, dev) is eager
    out.fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    assert out.tolist() == [value] * 4
