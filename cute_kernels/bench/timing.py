"""How we time kernels: the way engines run decode.

Many calls (rotating over several input copies so the 60 MB L2 does not serve the weights)
are captured into one CUDA graph; the replay time divided by the calls is the kernel's time,
free of CPU launch gaps. Eager times (events around one call) are reported beside it.
"""

from __future__ import annotations

import os
import statistics
from typing import Callable, Sequence

import torch


def _median_event_ms(run: Callable[[], None], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return times


def warm_only() -> bool:
    """``CUTE_KERNELS_BENCH_WARM=1``: every timing call only runs its closures once (compiling
    into the disk cache) and returns NaN. Several such processes, one per shape
    (``select_shapes``), fill the cache in parallel before the timed run, whose compiles then
    are disk hits: on the lent H200 compiling, not timing, is most of a benchmark's time."""
    return os.environ.get("CUTE_KERNELS_BENCH_WARM") == "1"


def select_shapes(shapes: list) -> list:
    """``shapes``, or only those at the indices in ``CUTE_KERNELS_BENCH_SHAPES`` ("0,2")."""
    chosen = os.environ.get("CUTE_KERNELS_BENCH_SHAPES")
    if not chosen:
        return list(shapes)
    return [shapes[int(i)] for i in chosen.split(",")]


def _warm_up(calls: Sequence[Callable[[], None]]) -> float:
    """``warm_only`` mode: run each closure once (compiling into the disk cache); no timing."""
    for c in calls:
        c()
    torch.cuda.synchronize()
    return float("nan")


def _capture(calls: Sequence[Callable[[], None]], calls_per_graph: int) -> torch.cuda.CUDAGraph:
    """One CUDA graph of ``calls_per_graph`` calls cycling over ``calls``, replayed once."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for c in calls:  # warm up: compile, load modules, create handles outside the capture
            c()
    torch.cuda.current_stream().wait_stream(stream)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for i in range(calls_per_graph):
            calls[i % len(calls)]()
    graph.replay()
    torch.cuda.synchronize()
    return graph


def time_graph_us(calls: Sequence[Callable[[], None]], calls_per_graph: int = 200,
                  replays: int = 15) -> float:
    """Median microseconds per call, with ``calls_per_graph`` calls (cycling over ``calls``,
    one closure per rotated input copy) captured in one CUDA graph."""
    return time_graphs_interleaved_us([calls], calls_per_graph, replays)[0]


def time_graphs_interleaved_us(call_lists: Sequence[Sequence[Callable[[], None]]],
                               calls_per_graph: int = 200, replays: int = 15) -> list[float]:
    """``time_graph_us`` of each list, their graphs replayed in turn (A, B, A, B, ...): a
    comparison that clock and temperature drift during the run cannot tilt."""
    if warm_only():
        return [_warm_up(calls) for calls in call_lists]
    graphs = [_capture(calls, calls_per_graph) for calls in call_lists]
    ms = [[] for _ in graphs]
    for _ in range(replays):
        for graph, times in zip(graphs, ms):
            times += _median_event_ms(graph.replay, 1)
    return [statistics.median(times) * 1e3 / calls_per_graph for times in ms]


def time_eager_us(calls: Sequence[Callable[[], None]], repeats: int = 50) -> float:
    """Median microseconds of one eager call (launch overhead included)."""
    if warm_only():
        return _warm_up(calls)
    for c in calls:
        c()
    torch.cuda.synchronize()
    idx = iter(range(10**9))
    ms = _median_event_ms(lambda: calls[next(idx) % len(calls)](), repeats)
    return statistics.median(ms) * 1e3


def rotations_for(bytes_per_copy: int, l2_bytes: int = 60 << 20, at_least: int = 2,
                  at_most: int = 16) -> int:
    """How many input copies make a rotation several times larger than the L2."""
    need = -(-4 * l2_bytes // max(bytes_per_copy, 1))
    return max(at_least, min(at_most, need))
