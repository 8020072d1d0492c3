"""The activation pass's flag: the wgmma GEMM waits for its pass through a word in global
memory instead of the pass launch's end (``nvfp4_gemm.PASS_FLAG``, off by default).

Between two GEMMs of a chain, W4A16's reordering copy or NVFP4's dequantization is a kernel
of its own. The GEMM launches early (PDL) and ``griddepcontrol.wait`` holds it until the pass
launch has ended and its memory is flushed; that boundary measured 0.65-1.35 us on an H100
(session 87, ``tools/pass_boundary_probe.py``). Here the pass counts its CTAs in as their
stores are out and the last one raises the flag; the GEMM's producer warp (and its stream-K
fix-up warp) poll it, and nothing in the GEMM waits for the pass launch itself.

A flag is 64 int32 words: the pass's CTA count (word 0, reset by the last CTA) and, a 128-byte
line further so that the polls do not meet the count's atomics, the flag (word ``FLAG_AT``).
Each waiting warp of the GEMM counts itself in on the flag after seeing it raised; the last of
them lowers it, before that GEMM ends.

Consecutive flagged calls on a stream take a buffer's two flags in turn. Call i + 1's GEMM
launches as soon as its pass has started, which may be before call i's GEMM has lowered its
flag; but it never polls call i's flag. Call i + 2's GEMM polls call i's flag only after its
own pass saw the launch before it end, which in a chain of these calls comes after call i +
1's GEMM saw its flag, and so after call i's GEMM had ended. A graph capture gets its own
buffer, zeroed by a memset captured at its first use (as ``arrival_counters``), so a replay
starts from lowered flags.

No deadlock: the GEMM launches only once every pass CTA has let it (``launch_dependents``,
the pass's first instruction), so every CTA the flag needs is already resident."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor
from cutlass.experimental import primitives as prims

from .arrival_counters import capture_id

FLAG_WORDS = 64
FLAG_AT = 32  # the flag's word: its own 128-byte line
POLL_NS = 32  # the GEMM's sleep between polls (``NVFP4GemmLargeM.FLAG_POLL_NS``)

_eager: dict[tuple[int, int], list] = {}
_captured: dict[int, list] = {}


def pass_flag(device: torch.device) -> torch.Tensor:
    """The next flag (int32 [``FLAG_WORDS``], lowered) of the current stream's pair for one
    flagged pass and the GEMM after it."""
    stream = torch.cuda.current_stream(device)
    if torch.cuda.is_current_stream_capturing():
        cache, key = _captured, capture_id(stream)
    else:
        cache, key = _eager, (device.index or 0, stream.cuda_stream)
    entry = cache.get(key)
    if entry is None:
        entry = [torch.zeros(2 * FLAG_WORDS, dtype=torch.int32, device=device), 0]
        cache[key] = entry
    buf, turn = entry
    entry[1] = 1 - turn
    return buf[turn * FLAG_WORDS:(turn + 1) * FLAG_WORDS]


def fake_flag():
    """A flag as a compiled argument."""
    return make_fake_compact_tensor(cutlass.Int32, (FLAG_WORDS,), assumed_align=8)


@cute.jit
def raise_flag(mFlag: cute.Tensor):
    """In a flagged pass kernel, last: once every thread's stores are issued (the CTA barrier
    orders them before thread 0's release, which covers them, as ``stream_k``'s arrivals),
    the CTA counts itself in; the last CTA resets the count and raises the flag."""
    cute.arch.barrier()
    tidx, _, _ = cute.arch.thread_idx()
    if tidx == 0:
        ctas = cute.arch.grid_dim()[0]
        arrived = cute.arch.atomic_add(mFlag.iterator, cutlass.Int32(1), sem="acq_rel",
                                       scope="gpu")
        if arrived == ctas - 1:
            mFlag[0] = cutlass.Int32(0)
            cute.arch.store(mFlag.iterator + FLAG_AT, cutlass.Int32(1), sem="release",
                            scope="gpu")


@cute.jit
def wait_flag(mFlag: cute.Tensor, waiters, poll_ns: cutlass.Constexpr = POLL_NS):
    """In the GEMM, by a whole warp, before its first read of the pass's output: the warp
    polls the flag (acquire; its lanes' loads are one request), sleeping ``poll_ns`` between
    polls, then a proxy fence (the pass wrote through the generic proxy, the TMA reads
    through the async one); lane 0 counts the warp in, and the last of ``waiters`` warps
    lowers the flag."""
    flag = mFlag.iterator + FLAG_AT
    while cute.arch.load(flag, cutlass.Int32, sem="acquire", scope="gpu") == 0:
        prims.nanosleep(poll_ns)
    cute.arch.fence_proxy("async.global")
    if cute.arch.lane_idx() == 0:
        seen = cute.arch.atomic_add(flag, cutlass.Int32(1), scope="gpu")
        if seen == waiters:  # (the flag was 1: the last warp's add finds 1 + waiters - 1)
            mFlag[FLAG_AT] = cutlass.Int32(0)
