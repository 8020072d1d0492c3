"""One-pass kernels over a flat range of units (the activations' dequantize and reordering
kernels): each CTA of ``threads`` threads takes ``threads * per_thread`` consecutive units,
thread t units t, t + threads, ...; the grid covers ``units``. Such a kernel launches with PDL
and lets the next kernel (the wgmma GEMM) launch at once: that one prefetches its first
weights to L2 and then waits for this kernel's output. Where the kernel before such a pass
triggers early, the pass launches under it on a spread grid (``spread_launch``)."""

import cutlass.cute as cute

from .arch import pdl_enabled


def unit_grid(units, threads: int, per_thread: int) -> tuple:
    """The launch grid covering ``units``."""
    per_cta = threads * per_thread
    return ((units + per_cta - 1) // per_cta, 1, 1)


def first_unit(pdl: bool, threads: int, per_thread: int):
    """In the kernel, first thing: with ``pdl``, let the next kernel launch and wait for the
    previous one's output (this kernel's input); then this thread's first unit."""
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    if pdl:
        cute.arch.griddepcontrol_launch_dependents()
        cute.arch.griddepcontrol_wait()
    return bidx * threads * per_thread + tidx


SM_SHARED_BYTES = 228 * 1024  # an sm_90 SM's shared memory
CTA_RESERVED_SHARED = 1024  # what the hardware keeps of it for each resident CTA
THREADS_CTAS_PER_SM = 8  # 256-thread CTAs an SM holds by its 2048 threads


def residency_smem(ctas_per_sm: int) -> int:
    """Dynamic shared memory a CTA asks for so that ``ctas_per_sm`` of them, not one more, fit
    on an SM: the SM's share of each, 128-byte granules, less the reserve."""
    share = SM_SHARED_BYTES // ctas_per_sm // 128 * 128
    assert (ctas_per_sm + 1) * share > SM_SHARED_BYTES
    return share - CTA_RESERVED_SHARED


# The spread pass's grid: about this many CTAs (units a thread 1..4), one an SM where it fits.
# ``tools/pass_shape_probe.py`` (H200 2026-12-01, session 36, public graph us under the routed
# trigger; 4 units a thread, at most ceil(CTAs / SMs) an SM / 2 units, one an SM / 1 unit, one
# an SM): fused 4096x7168 M = 64 (28 / 56 / 112 CTAs) 13.10 / 12.72 / 12.81, M = 32 (14 / 28
# / 56) 11.55 / 11.14 / 10.91; nvfp4_gemm 4096x7168 M = 64 11.90 / 11.63 / 11.75, M = 32 10.41
# / 9.98 / 9.92; 7168x2048 M = 64 (8 / 16 / 32) 7.92 / 7.62 / 7.70, M = 256 (32 / 64 / 128)
# 14.81 / 14.35 / 14.72. Fewer CTAs each take longer; more wait for SMs, and the next launch
# waits for all of them to start.
SPREAD_PASS_CTAS = 64


def spread_launch(out_rows: int, k: int, sms: int) -> tuple[int, int]:
    """(ctas_per_sm, units_per_thread) of a group kernel writing ``out_rows`` x ``k`` spread
    over the SMs: units a thread for about ``SPREAD_PASS_CTAS`` CTAs (1..4), and as few CTAs
    an SM as the grid then needs on ``sms`` SMs (0 where the threads cap it anyway). A launch
    under a running kernel (PDL) otherwise piles its CTAs onto the few SMs free at the time
    and onto the first that free up (H200 2026-12-01, ``tools/trigger_timeline.py``: the pass
    after a triggering GEMM at 4096x7168 M = 64 ran 6.4 us instead of 2.5)."""
    units = out_rows * k // 16
    per_thread = min(4, max(1, -(-units // (256 * SPREAD_PASS_CTAS))))
    ctas = -(-units // (256 * per_thread))
    cap = -(-ctas // sms)
    return (0 if cap >= THREADS_CTAS_PER_SM else cap), per_thread


class UnitGridKernel:
    """The launch shape such a kernel class shares: ``threads`` a CTA, ``units_per_thread``
    units a thread, PDL where enabled, and with ``ctas_per_sm`` (0: as many as fit) at most
    that many CTAs on one SM, by the dynamic shared memory each asks for (``residency_smem``;
    the kernel uses none)."""

    def __init__(self, threads: int, ctas_per_sm: int, units_per_thread: int):
        assert units_per_thread >= 1
        self.threads, self.units_per_thread = threads, units_per_thread
        self.pdl = pdl_enabled()
        self.smem = residency_smem(ctas_per_sm) if ctas_per_sm else None

    def launch_options(self, out_units, stream) -> dict:
        """The kernel's ``launch`` arguments for a grid covering ``out_units``."""
        return {"grid": unit_grid(out_units, self.threads, self.units_per_thread),
                "block": (self.threads, 1, 1), "smem": self.smem, "stream": stream,
                "use_pdl": self.pdl}

    def first_unit(self):
        """In the kernel, first thing: ``first_unit`` of this launch shape."""
        return first_unit(self.pdl, self.threads, self.units_per_thread)
