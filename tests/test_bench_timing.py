"""The benchmark timing helpers run and return per-call microseconds (no timed assertions:
only that the numbers are finite, positive and in proportion to the work)."""

import math

import pytest
import torch

from cute_kernels.bench import timing


@pytest.mark.gpu
def test_settled_and_sustained_timings_scale_with_the_work(monkeypatch):
    monkeypatch.setattr(timing, "SUSTAIN_WARM_MS", 5.0)
    monkeypatch.setattr(timing, "SUSTAIN_TIMED_MS", 5.0)
    a = torch.randn(2048, 2048, device="cuda", dtype=torch.bfloat16)
    one = [lambda: a @ a]
    four = [lambda: (a @ a, a @ a, a @ a, a @ a)]
    settled = timing.time_graphs_interleaved_us([one, four], calls_per_graph=4, replays=3)
    sustained = timing.time_sustained_us([one, four], calls_per_graph=4, rounds=1)
    for us in settled + sustained:
        assert math.isfinite(us) and us > 0
    assert settled[1] > 2 * settled[0] and sustained[1] > 2 * sustained[0]


def test_shape_and_token_selection_from_the_environment(monkeypatch):
    monkeypatch.delenv("CUTE_KERNELS_BENCH_SHAPES", raising=False)
    monkeypatch.delenv("CUTE_KERNELS_BENCH_MS", raising=False)
    assert timing.select_shapes([(1, 2), (3, 4), (5, 6)]) == [(1, 2), (3, 4), (5, 6)]
    assert timing.select_ms([1, 4, 16]) == [1, 4, 16]
    monkeypatch.setenv("CUTE_KERNELS_BENCH_SHAPES", "2,0")
    monkeypatch.setenv("CUTE_KERNELS_BENCH_MS", "16,1,7")
    assert timing.select_shapes([(1, 2), (3, 4), (5, 6)]) == [(5, 6), (1, 2)]
    assert timing.select_ms([1, 4, 16]) == [1, 16]  # the suite's order; 7 is not a row
