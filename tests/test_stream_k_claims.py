"""The stream-K arrival counter's rules (``cute_kernels.stream_k.stream_k_fixup``), as a model
on the CPU: in every order the pieces of a tile can take, exactly one CTA runs the tile's
epilogue, and the counter ends at zero for the next launch.

A tile of ``pieces`` pieces: the head (the last piece of its CTA's range) and the others.
Every piece adds one and reads the old count; the one that reads ``pieces - 1`` is last and
resets the counter. With the head check the head first reads the counter and, at
``pieces - 1``, is last without adding. Each CTA's steps keep their program order; the
interleavings are all of them."""

import itertools

import pytest


def _interleavings(programs):
    """Every merge of the step lists in ``programs`` that keeps each list's order."""
    if all(not p for p in programs):
        yield []
        return
    for i, p in enumerate(programs):
        if p:
            rest = programs[:i] + [p[1:]] + programs[i + 1:]
            for tail in _interleavings(rest):
                yield [(i, p[0])] + tail


def _run(pieces: int, order) -> tuple[int, int]:
    """(CTAs that ran the epilogue, the counter at the end) for one interleaving."""
    count = 0
    claims = 0
    state = {}  # per CTA: what its earlier steps saw
    for cta, step in order:
        seen = state.setdefault(cta, {})
        if step == "check":  # the head: acquire load of the counter
            seen["done"] = count == pieces - 1
            if seen["done"]:
                claims += 1
                count = 0  # its reset after the sum (nobody adds any more)
        elif step == "add":  # an arrival that reads the old count
            if seen.get("done"):
                continue
            old = count
            count += 1
            if old == pieces - 1:
                count, claims = 0, claims + 1
    return claims, count


def _programs(pieces: int, head_check: bool):
    head = (["check"] if head_check else []) + ["add"]
    return [head] + [["add"] for _ in range(pieces - 1)]


@pytest.mark.parametrize("pieces", [2, 3, 4])
@pytest.mark.parametrize("head_check", [False, True])
def test_exactly_one_cta_runs_each_tile_and_the_counter_ends_at_zero(pieces, head_check):
    seen = 0
    for order in _interleavings(_programs(pieces, head_check)):
        claims, count = _run(pieces, order)
        assert (claims, count) == (1, 0), (pieces, head_check, order)
        seen += 1
    assert seen == len(set(map(tuple, _interleavings(_programs(pieces, head_check)))))


def test_the_model_counts_every_interleaving():
    """2 + 1 steps (a checked head and one other piece) merge in C(3, 1) = 3 ways."""
    assert len(list(_interleavings(_programs(2, True)))) == 3
    assert len(list(itertools.islice(_interleavings([["a"], ["b"], ["c"]]), 10))) == 6
