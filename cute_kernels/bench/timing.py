"""How we time kernels: the way engines run decode.

Many calls (rotating over several input copies so the 60 MB L2 does not serve the weights)
are captured into one CUDA graph; the replay time divided by the calls is the kernel's time,
free of CPU launch gaps. Eager times (events around one call) are reported beside it.

Power. Compute-bound graphs run the H200 into its power cap, and the cap's controller
remembers: replayed back to back, a graph inherits the clocks the one before it left
(session 26, ``tools/graph_order_probe.py``, nvidia-smi alongside: the SM clock fell from
1980 to ~1450-1650 MHz; our 5120x17408 M = 256 GEMM timed 83 us right after cuBLAS's graph
and 69 us after an idle gap, while cuBLAS, timed after ours, read 68 us against 78 in its
own steady state). So each timed replay first waits behind a spin kernel (``_settle``: the
clocks stay up, the power falls) for twice the graph's own time, at most ``SETTLE_MAX_MS``:
every graph starts from the same state ("settled" timing). ``time_sustained_us`` times the
other end, each graph in its own steady state after ``SUSTAIN_WARM_MS`` back to back.
"""

from __future__ import annotations

import math
import os
import statistics
from typing import Callable, Sequence

import torch

SETTLE_MAX_MS = 50.0  # 50 ms after idle restored every graph (session 26)
SPIN_CYCLES_PER_MS = 1.98e6  # the H200's boost clock: the spin's length need not be exact
SUSTAIN_WARM_MS, SUSTAIN_TIMED_MS = 300.0, 300.0
# the GEMM suites add sustained rows from this many tokens (compute-bound there)
SUSTAINED_MIN_M = 256


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


def select_ms(ms: list[int]) -> list[int]:
    """A suite's token counts ``ms``, or only those listed in ``CUTE_KERNELS_BENCH_MS`` ("1,16"):
    a short device call warms and times only the rows it needs (a cold machine compiles every
    M's launches otherwise)."""
    chosen = os.environ.get("CUTE_KERNELS_BENCH_MS")
    if not chosen:
        return list(ms)
    wanted = {int(m) for m in chosen.split(",")}
    return [m for m in ms if m in wanted]


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


def _settle(ms: float) -> None:
    """A spin kernel of about ``ms`` on the current stream: the next replay starts after it
    with the clocks up and the power cap's memory of the previous graph gone."""
    torch.cuda._sleep(int(ms * SPIN_CYCLES_PER_MS))


def time_graphs_interleaved_us(call_lists: Sequence[Sequence[Callable[[], None]]],
                               calls_per_graph: int = 200, replays: int = 15) -> list[float]:
    """``time_graph_us`` of each list, their graphs replayed in turn (A, B, A, B, ...), each
    replay settled first (``_settle``, twice the graph's time, at most ``SETTLE_MAX_MS``): a
    comparison that neither the clock and temperature drift of the run nor the power the
    graph before left behind can tilt."""
    if warm_only():
        return [_warm_up(calls) for calls in call_lists]
    graphs = [_capture(calls, calls_per_graph) for calls in call_lists]
    settle = [min(SETTLE_MAX_MS, 2 * _median_event_ms(g.replay, 1)[0]) for g in graphs]
    ms = [[] for _ in graphs]
    for _ in range(replays):
        for graph, times, settle_ms in zip(graphs, ms, settle):
            _settle(settle_ms)
            times += _median_event_ms(graph.replay, 1)
    return [statistics.median(times) * 1e3 / calls_per_graph for times in ms]


def time_sustained_us(call_lists: Sequence[Sequence[Callable[[], None]]],
                      calls_per_graph: int = 200, rounds: int = 2) -> list[float]:
    """Microseconds per call of each list in its own steady state under the power cap: its
    graph replayed back to back for ``SUSTAIN_WARM_MS``, then for about
    ``SUSTAIN_TIMED_MS`` timed as one span; the lists in turn, the median of ``rounds``."""
    if warm_only():
        return [_warm_up(calls) for calls in call_lists]
    graphs = [_capture(calls, calls_per_graph) for calls in call_lists]
    us = [[] for _ in graphs]
    for _ in range(rounds):
        for graph, times in zip(graphs, us):
            graph_ms = max(_median_event_ms(graph.replay, 1)[0], 1e-3)
            for _ in range(math.ceil(SUSTAIN_WARM_MS / graph_ms)):
                graph.replay()  # queued: the timed replays follow without a gap
            n = math.ceil(SUSTAIN_TIMED_MS / graph_ms)
            span = _median_event_ms(lambda: [graph.replay() for _ in range(n)], 1)[0]
            times.append(span * 1e3 / (n * calls_per_graph))
    return [statistics.median(t) for t in us]


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
