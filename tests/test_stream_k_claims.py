"""The stream-K arrival counter's rules (``cute_kernels.stream_k``), as a model on the CPU: in
every order the pieces of a tile can take, exactly one CTA runs the tile's epilogue, and the
counter ends at zero for the next launch.

A tile of ``pieces`` pieces: the head (the last piece of its CTA's range) and the others.
- Without deferred tails (``stream_k_fixup``): every piece adds one and reads the old count;
  the one that reads ``pieces - 1`` is last and resets the counter. With the head check the
  head first reads the counter and, at ``pieces - 1``, is last without adding.
- With deferred tails (``DEFER_TAILS``): the other pieces add without reading
  (``arrive_tail``) and, after their CTA's range, claim by compare-and-swap of ``pieces`` for
  0 (``settle_tail``); the head checks, else adds and, having completed the tile, claims by
  the same compare-and-swap.
Each CTA's steps keep their program order; the interleavings are all of them."""

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


def _run(pieces: int, deferred: bool, order) -> tuple[int, int]:
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
            seen["old"] = count
            count += 1
            if not deferred and seen["old"] == pieces - 1:
                count, claims = 0, claims + 1
        elif step == "claim":  # deferred: the head that completed the tile, CAS pieces -> 0
            if not seen.get("done") and seen["old"] == pieces - 1 and count == pieces:
                count, claims = 0, claims + 1
        elif step == "red":  # a deferred arrival: add, read nothing
            count += 1
        elif step == "settle":  # CAS pieces -> 0
            if count == pieces:
                count, claims = 0, claims + 1
    return claims, count


def _programs(pieces: int, deferred: bool, head_check: bool):
    head = (["check"] if head_check else []) + ["add"] + (["claim"] if deferred else [])
    others = [["red", "settle"] if deferred else ["add"] for _ in range(pieces - 1)]
    return [head] + others


@pytest.mark.parametrize("pieces", [2, 3, 4])
@pytest.mark.parametrize("deferred,head_check", [(False, False), (False, True), (True, True)])
def test_exactly_one_cta_runs_each_tile_and_the_counter_ends_at_zero(pieces, deferred,
                                                                    head_check):
    seen = 0
    for order in _interleavings(_programs(pieces, deferred, head_check)):
        claims, count = _run(pieces, deferred, order)
        assert (claims, count) == (1, 0), (pieces, deferred, head_check, order)
        seen += 1
    assert seen == len(set(map(tuple, _interleavings(_programs(pieces, deferred,
                                                                head_check)))))


def test_a_settle_before_the_last_arrival_leaves_the_tile_to_it():
    """Two deferred pieces and a head that added early: the first settle finds the tile
    incomplete, the second piece's settle claims it."""
    order = [(0, "check"), (0, "add"), (0, "claim"), (1, "red"), (1, "settle"), (2, "red"),
             (2, "settle")]
    assert _run(3, True, order) == (1, 0)


def test_the_model_counts_every_interleaving():
    """3 + 2 steps (a checked head and one deferred piece) merge in C(5, 2) = 10 ways."""
    assert len(list(_interleavings(_programs(2, True, True)))) == 10
    assert len(list(itertools.islice(_interleavings([["a"], ["b"], ["c"]]), 10))) == 6
