"""The quantizer's claimed items (``NVFP4Quant(claim=)``) on the CPU: the kernel's claim loop
replayed in Python under random warp interleavings, with ``atom.inc``'s wrap. Every item is
computed once, and each shard's counter is back at zero after the launch, so the next
launch (of any shape) finds it zero."""

import random

import pytest
import torch

from cute_kernels import nvfp4_quant
from cute_kernels.nvfp4_quant import NVFP4Quant, launch_config
from cute_kernels.quant_claims import CLAIM_SHARDS


def _launch(end: int, stride: int, claim: int, counters: list[int], rng: random.Random
            ) -> list[int]:
    """The items each warp computes, the warps advancing in random order. Mirrors
    ``_claim_loop``: (w, n) start at (first, first + stride or its claim); each step loads n,
    claims for the item after n, computes w, then moves on."""
    start = stride * NVFP4Quant.handed_rounds(end // stride, claim)
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
    (26 * 3168 // 4, 3168, -4),  # the public launches: the last rounds // 4, at least one
    (4133 * 5 * 4, 3168, -4),
    (100, 3168, -4),
])
def test_every_item_once_and_counters_back_at_zero(end, stride, claim):
    rng = random.Random(end * 7 + stride + claim)
    counters = [0] * CLAIM_SHARDS
    for _ in range(3):
        done = _launch(end, stride, claim, counters, rng)
        assert sorted(done) == list(range(end))
        assert counters == [0] * CLAIM_SHARDS


@pytest.mark.parametrize("handed,whole,claim", [(4, 6, 2), (1, 6, 9), (5, 6, -4), (20, 26, -4),
                                                (1, 1, -4), (1, 2, -4), (1, 0, 1)])
def test_handed_rounds(handed, whole, claim):
    assert NVFP4Quant.handed_rounds(whole, claim) == handed


def test_public_launches_claim_where_a_warp_has_many_rounds(monkeypatch):
    """Claims at plain M = 4096 K = 5120 (6.5 rounds a warp at 132 SMs) and up, and fused
    M = 4096; not at M = 2048 K = 7168 (4.5 rounds, slower on the H100), at small M, past the
    prefetch bound or on the experts."""
    monkeypatch.setattr(nvfp4_quant, "sm_count", lambda index: 132)
    dev = torch.device("cpu")

    def claim(k, silu, rows, **kw):
        return launch_config(k, silu, dev, rows, **kw)[-1]
    assert claim(5120, False, 4096) == claim(7168, True, 4096) == -nvfp4_quant.CLAIM_SHARE
    assert claim(7168, False, 2048) == claim(5120, False, 64) == claim(5120, True, 1) == 0
    assert claim(18432, False, 16384) == claim(5120, True, 4096, experts=True) == 0
    monkeypatch.setattr(nvfp4_quant, "CLAIM_SHARE", 0)
    assert claim(5120, False, 4096) == 0
