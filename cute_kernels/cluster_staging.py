"""Staging one token once a cluster: the CTAs of a cluster split the token's blocks, each loads
and decodes its share and stores it into every CTA's shared memory (its own, then its peers'
through ``st.async`` completing on their mbarrier). Probe-only
(``NVFP4GemmOneTokenBalanced.STAGING_CLUSTER``).

Why: every CTA of the balanced one-token launch stages the whole token after the PDL wait, all
at once, from the few L2 slices that hold it; the stamps (H200 2026-12-06, session 94) give
that 1.15 us at 9216x7168 (8, 3), 396 CTAs, 1.47 at (4, 4), 528, 2.05 at 5120x17408, against
0.1 without it. A cluster of C CTAs reads the token C times less often and decodes a C-th of
it a CTA, for C - 1 shared-memory copies of the decoded share over the cluster's network.

The order: before the PDL wait thread 0 initializes the mbarrier and every thread arrives on
the cluster's barrier (relaxed); after the wait ``cluster_wait`` (the peers' mbarriers are
initialized before any store reaches them); the staging; thread 0 expects the peers' bytes;
the CTA's barrier (its own stores) and the mbarrier's phase 0 (its peers'). A CTA leaves only
after its peers' stores have landed in it, so none stores into a CTA that has left.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.memory import SmemAllocator

from .nvfp4_gemm_small_m import STAGING_BATCH

STAGED_BLOCK_BYTES = 32  # a decoded 16-element block: 8 bf16x2 words


class ClusterStaging:
    """For ``NVFP4GemmSmallM`` subclasses whose CTAs all stage the same token and K steps
    (token 0, step 0: the balanced one-token launch); ``self.cluster`` CTAs a cluster along
    the grid's y (the launch's CTA index)."""

    def cluster_smem_bytes(self) -> int:
        """Shared memory the cluster staging adds: the mbarrier (its scratch words are
        ``staging_scratch_bytes``, as ``_stage_around``'s)."""
        return 16 if self.cluster > 1 else 0

    def cluster_dims(self) -> dict:
        """The launch's cluster argument (none where the staging is the CTA's own)."""
        return {"cluster": [1, self.cluster, 1]} if self.cluster > 1 else {}

    @cute.jit
    def _cluster_start(self):
        """Before the PDL wait: the staging's mbarrier (one arrival, thread 0's expect),
        initialized and fenced, and this CTA's arrival at the cluster's barrier; returns the
        mbarrier (None without a cluster)."""
        bar = None
        if cutlass.const_expr(self.cluster > 1):
            bar = SmemAllocator().allocate_tensor(cutlass.Int64, cute.make_layout(1),
                                                  byte_alignment=8).iterator
            if cute.arch.thread_idx()[0] == 0:
                cute.arch.mbarrier_init(bar, 1)
            cute.arch.mbarrier_init_fence()
            cute.arch.cluster_arrive_relaxed()
        return bar

    @cute.jit
    def _cluster_ready(self):
        """After the PDL wait: every peer's mbarrier is initialized (a no-op without a
        cluster)."""
        if cutlass.const_expr(self.cluster > 1):
            cute.arch.cluster_wait()

    @cute.jit
    def _stage_cluster(self, mA, mASF, a_sf_layout, m, bar, between=None):
        """``_stage_activations`` of token 0 from step 0 (same shared memory and layout), the
        blocks split over the cluster: rank r takes blocks r, r + C, ..., each thread one in
        each of its slots (loads out together, ``between`` once they are, then the decodes);
        a block goes into the CTA's own staged words (a slot past the share: its warp's
        scratch words, so that no load or decode sits in a branch) and into each peer's."""
        smem, sX, sXw, table = self._staged_buffers()
        tid = cute.arch.thread_idx()[0]
        own_scratch = self._warp_scratch(smem, tid)

        c = self.cluster
        rank = cute.arch.block_idx_in_cluster()
        total = self.x_tokens * self.split_steps * 16
        threads = self.cta_threads()
        largest_share = -(-total // c)
        slots = -(-largest_share // threads)
        assert slots <= STAGING_BATCH, "the cluster's share takes one pass"
        share = (total - rank + c - 1) // c  # this rank's blocks
        words = 2 if self.a_fp4 else 8
        rQ = cute.make_rmem_tensor(cute.make_ordered_layout((slots, words), order=(1, 0)),
                                   cutlass.Int32)
        rS = cute.make_rmem_tensor((slots, 1), mASF.element_type)
        pairs = cute.make_rmem_tensor((8,), cutlass.Uint32)
        pairs32 = cute.recast_tensor(pairs, cutlass.Int32)
        for r in cutlass.range_constexpr(slots):
            i = cutlass.min(tid + r * threads, share - 1) * c + rank
            self._load_staged_block(mA, mASF, a_sf_layout, m, 0, 0, words, i, rQ[r, None],
                                    rS[r, None])
        if cutlass.const_expr(between is not None):
            between()
        for r in cutlass.range_constexpr(slots):
            j = tid + r * threads
            i = cutlass.min(j, share - 1) * c + rank
            tok, step, b, q = self._decode_staged_block(m, 0, 0, i, rQ[r, None], rS[r, None],
                                                        pairs)
            mine = sX[tok, step, b, q, None].iterator.toint()
            dst = cutlass.select_(j < share, mine, own_scratch)
            self._store_staged(pairs, dst)
            if j < share:
                for d in cutlass.range_constexpr(1, c):
                    peer = (rank + d) % c
                    for h in cutlass.range_constexpr(2):
                        at = cute.make_ptr(cutlass.Int32, mine + 16 * h, cute.AddressSpace.smem,
                                           assumed_align=16)
                        cute.arch.store_async_dsmem(
                            at, (pairs32[4 * h], pairs32[4 * h + 1], pairs32[4 * h + 2],
                                 pairs32[4 * h + 3]), bar, peer)
        if tid == 0:
            cute.arch.mbarrier_arrive_and_expect_tx(bar, STAGED_BLOCK_BYTES * (total - share))
        cute.arch.sync_threads()
        cute.arch.mbarrier_wait(bar, 0)
        return sX, sXw, table
