"""The quantizer's claimed work items (``NVFP4Quant``'s ``claim`` != 0; ``nvfp4_quant``'s
``CLAIM_SHARE`` for the public launches of many rounds): a warp's last rounds of items are
claimed one at a time from counters instead of handed out grid-stride, so the SMs drain
together. The counters are ``CLAIM_WORDS`` int32 words of the ``masked_m`` buffer, zero before
the launch and zero again after it. A mixin of ``NVFP4Quant``.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass._mlir.dialects import nvvm
from cutlass.cutlass_dsl import dsl_user_op

# Claims go to CLAIM_SHARDS counters (a warp's by its index), CLAIM_SPACING int32 words (one
# 128-byte line) apart: CLAIM_WORDS zeroed words in all. One counter for every warp
# serialized the claims at the L2 at ~2 ns each (session 77).
CLAIM_SHARDS = 32
CLAIM_SPACING = 32
CLAIM_WORDS = CLAIM_SHARDS * CLAIM_SPACING


@dsl_user_op
def atomic_inc(ptr, last: cutlass.Uint32, *, loc=None, ip=None) -> cutlass.Uint32:
    """``atom.global.inc.u32`` (gpu scope, relaxed): the old value; the word becomes old + 1,
    or 0 where old >= ``last``."""
    old = nvvm.atomicrmw(op=nvvm.AtomicOpKind.INC, ptr=ptr.to_llvm_ptr(loc=loc, ip=ip),
                         a=last.ir_value(loc=loc, ip=ip), syncscope=nvvm.MemScopeKind.GPU,
                         loc=loc, ip=ip)
    return cutlass.Uint32(old)


class ClaimedItems:
    """The claim methods of ``NVFP4Quant`` (it sets ``claim`` and gives the item's
    ``_load_item`` and ``_process_item``)."""

    @cute.jit
    def _first_claim(self, mCount, first, end, stride, lane):
        """The claim loop's state: (start, shards, shard, its counter, the counter's last
        value before it wraps, the claim for the item after ``first``, unread)."""
        start = stride * self.handed_rounds(end // stride, self.claim)
        shards = cutlass.min(stride, CLAIM_SHARDS)
        shard = first % shards
        last = self._claims_on_shard(start, end, stride, shards, shard) - 1
        counter = cute.recast_ptr(mCount.iterator + shard * CLAIM_SPACING, dtype=cutlass.Uint32)
        return (start, shards, shard, counter, last,
                self._claim(counter, last, first + stride, start, lane))

    @cute.jit
    def _claim_loop(self, mX, mQ, sSF, mSFWords, g, table, ex, m, row_items, first, end,
                    stride, loaded, lane, cur, nxt, claims):
        """The prefetch loop where the items from ``start`` on (the last ``claim`` rounds; the
        first round is always handed out) are claimed one at a time. Warp ``first`` claims
        from shard ``s = first % S`` (S: CLAIM_SHARDS, or the grid's warps where fewer), whose
        c-th claim is item ``start + c S + s``: each shard's warps, spread over the SMs, share
        its items. The claim of the item after next goes out before this item is computed and
        is read after it, so its round trip hides behind the arithmetic like the loads' (the
        first one's behind the table fill: ``_first_claim``).

        Each warp claims until two claims come back past the end (one if it has no item), so
        a launch makes a known number of claims on each shard (``_claims_on_shard``), and the
        counters wrap to zero on the last (``atom.inc``): no arrival count, no fence and no
        zeroing at the end, which session 78's form paid in the drain. (The counters are
        touched only after ``griddepcontrol.wait``, as a kernel sharing the stream's
        ``arrival_counters`` must.)"""
        start, shards, shard, counter, last, raw = claims
        w = first
        n = self._claimed(start, first + stride, shards, shard, raw)
        while w < end:
            self._load_item(mX, ex, n, n < loaded, lane, nxt)
            raw = self._claim(counter, last, n + stride, start, lane)
            self._process_item(mQ, sSF, mSFWords, g, table, ex, m, row_items, w, lane, lane & 1,
                               cur)
            for c, x in zip(cur, nxt):
                c.store(x.load())
            w, n = n, self._claimed(start, n + stride, shards, shard, raw)

    @staticmethod
    def handed_rounds(whole, claim: int):
        """Of ``whole`` rounds of items, those handed out grid-stride (at least the first):
        all but the last ``claim``, or for ``claim`` < 0 the last ``whole // -claim``, at
        least one."""
        claimed = claim if claim > 0 else cutlass.max(whole // -claim, 1)
        return cutlass.max(whole - claimed, 1)

    @staticmethod
    def _claims_on_shard(start, end, stride, shards, shard):
        """The claims one launch makes on ``shard``: its items from ``start`` on, two past the
        end for each of its warps with an item, one for each without (the grid's warps are
        0..stride-1; a shard's are those equal to it modulo ``shards``)."""
        def count(upto):  # i in [0, upto) with i % shards == shard (items: i = item - start)
            return cutlass.max(upto - shard + shards - 1, 0) // shards
        return count(end - start) + count(cutlass.min(end, stride)) + count(stride)

    @cute.jit
    def _claim(self, counter, last, after, start, lane):
        """Lane 0's claim where item ``after`` is past ``start`` (else 0), unread: the
        counter's old value, which then wraps to 0 after ``last``. ptxas turns an integer
        ``atom.add`` into a warp-aggregated one whose result broadcast sits right after it
        (the warp would wait out the round trip there); ``atom.inc`` stays one plain
        atomic."""
        raw = cutlass.Uint32(0)
        if (after >= start) & (lane == 0):
            raw = atomic_inc(counter, cutlass.Uint32(last))
        return raw

    @cute.jit
    def _claimed(self, start, after, shards, shard, raw):
        """The warp's next item: ``after`` before ``start``, else the one lane 0 claimed."""
        raw = cute.arch.shuffle_sync(raw, 0)
        n = after
        if after >= start:
            n = start + cutlass.Int32(raw) * shards + shard
        return n
