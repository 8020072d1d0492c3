"""Probe-only timestamps inside a launch: where a one-token launch's time goes.

A stamped kernel (``NVFP4GemmOneTokenBalanced.PROBE_STAMPS``) writes, at fixed points, the
low words of ``%globaltimer`` (ns, one clock for every SM) and ``%clock`` (the SM's cycles)
into ``STAMP_WORDS`` int32 words a CTA, past the end of its fp32 workspace: the probe passes
a workspace ``stamp_words(ctas)`` words longer (``tools/one_token_timeline.py``); the
stream-K wgmma launch (``NVFP4GemmLargeM.PROBE_STAMPS``) writes the timer and its SM at the
end of its workspace (``stamp_tail``, ``tools/stream_k_timeline.py``). Stamps of a point the
CTA never reaches stay as the probe filled them.
"""

import statistics

import cutlass
import cutlass.cute as cute
import torch

# slots (two words each: timer, clock)
START, WAITED, STAGED, FINISHED, FIXED_UP = range(5)
LOOP_DONE = 5  # + the K warp: the end of its walk
MAX_WARPS = 32  # a CTA's K warps (at most 31 with the fix-up warp)
STAMP_WORDS = 2 * (LOOP_DONE + MAX_WARPS)


def stamp_words(ctas: int) -> int:
    """Words the stamps of ``ctas`` CTAs take past the workspace."""
    return ctas * STAMP_WORDS


TIMER_WRAP = 1 << 32  # the low timer word wraps every 4.3 s
UNSET = TIMER_WRAP - 1  # a word as read where the probe filled -1 and nothing stamped


def timer_ns(words: torch.Tensor, base: int) -> torch.Tensor:
    """ns relative to ``base`` of low timer words (int64), across one wrap either way."""
    return (words - base + TIMER_WRAP // 2) % TIMER_WRAP - TIMER_WRAP // 2


def median_p90(values) -> str:
    """"median/p90" of a list of ns ("-" if empty)."""
    v = sorted(values)
    return f"{statistics.median(v):.0f}/{v[int(0.9 * (len(v) - 1))]:.0f}" if v else "-"


def read_stamps(workspace: torch.Tensor, own_words: int, ctas: int) -> torch.Tensor:
    """[CTA, slot, (timer, clock)] as int64 (the low 32 bits as written) from a workspace of
    ``own_words`` words followed by the stamps."""
    words = workspace[own_words:].view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    return words.view(ctas, STAMP_WORDS // 2, 2)


@cute.jit
def stamp(workspace: cute.Tensor, base: cutlass.Constexpr, ctas: cutlass.Constexpr, cta,
          slot):
    """Slot ``slot`` of CTA ``cta``: the timer and the clock, now. ``base``: the workspace's
    own words (the stamps follow them)."""
    words = cute.make_tensor(cute.recast_ptr(workspace.iterator, dtype=cutlass.Int32),
                             cute.make_layout(base + stamp_words(ctas)))
    at = base + cta * STAMP_WORDS + 2 * slot
    words[at] = cute.arch.globaltimer_lo()
    words[at + 1] = cute.arch.clock()


# The stream-K wgmma launch's slots (``NVFP4GemmLargeM.PROBE_STAMPS``; words: timer, SM id),
# stamped at the end of a workspace made ``stamp_words(grid CTAs)`` words longer (its own
# length is a launch's, not a compile's: ``tools/stream_k_timeline.py``)
(SK_START, SK_PRODUCER_STARTS, SK_PRODUCER_DONE, SK_CONSUMER_WAITED, SK_FIRST_LOOP,
 SK_FIRST_FIXED, SK_LAST_LOOP, SK_LAST_FIXED, SK_FINISHED) = range(9)


@cute.jit
def stamp_tail(workspace: cute.Tensor, slot):
    """Slot ``slot`` (may be dynamic) of this CTA in the last ``stamp_words(grid CTAs)`` words
    of ``workspace``: the timer, now, and the SM."""
    size = cute.size(workspace)
    words = cute.make_tensor(cute.recast_ptr(workspace.iterator, dtype=cutlass.Int32),
                             cute.make_layout(size))
    at = (size - (cute.arch.grid_dim()[0] - cute.arch.block_idx()[0]) * STAMP_WORDS
          + 2 * slot)
    words[at] = cute.arch.globaltimer_lo()
    words[at + 1] = cute.arch.smid()
