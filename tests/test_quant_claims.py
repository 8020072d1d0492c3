"""The quantizer's claimed items (``NVFP4Quant(claim=)``) on the CPU: the kernel's claim loop
replayed in Python under random warp interleavings, with ``atom.inc``'s wrap. Every item is
computed once, and each shard's counter is back at zero after the launch, so the next
launch (of any shape) finds it zero."""

import random

import pytest

from cute_kernels.nvfp4_quant import CLAIM_SHARDS, NVFP4Quant


def _launch(end: int, stride: int, claim: int, counters: list[int], rng: random.Random
            ) -> list[int]:
    """The items each warp computes, the warps advancing in random order. Mirrors
    ``_claim_loop``: (w, n) start at (first, first + stride or its claim); each step loads n,
    claims for the item after n, computes w, then moves on."""
    rounds = max(end // stride - claim, 1)
    start = stride * rounds
    shards = min(stride, CLAIM_SHARDS)
    last = [NVFP4Quant._claims_on_shard(start, end, stride, shards, s) - 1
            for s in range(shards)]

    def claim_after(after, shard):
        if after < start:
            return after
        old = counters[shard]
        counters[shard] = 0 if old >= last[shard] else old + 1  # atom.inc
        return start + old * shards + shard

    warps = {first: (first, claim_after(first + stride, first % shards))
             for first in range(stride)}
    done = []
    while warps:
        first = rng.choice(list(warps))
        w, n = warps[first]
        if w >= end:
            del warps[first]
            continue
        nxt = claim_after(n + stride, first % shards)
        done.append(w)
        warps[first] = (n, nxt)
    return done


@pytest.mark.parametrize("end,stride,claim", [
    (26 * 3168 // 4, 3168, 1),  # plain M = 4096 K = 5120's 6.46 rounds, the last claimed
    (26 * 3168 // 4, 3168, 2),
    (4133 * 5, 3168, 9),        # more rounds asked than there are
    (100, 3168, 1),             # fewer items than warps
    (77, 20, 3),                # a 5-CTA grid: 20 warps, 20 shards
    (64, 64, 1),                # exactly one round
    (1, 4, 2),
])
def test_every_item_once_and_counters_back_at_zero(end, stride, claim):
    rng = random.Random(end * 7 + stride + claim)
    counters = [0] * CLAIM_SHARDS
    for _ in range(3):
        done = _launch(end, stride, claim, counters, rng)
        assert sorted(done) == list(range(end))
        assert counters == [0] * CLAIM_SHARDS
