"""One-pass kernels over a flat range of units (the activations' dequantize and reordering
kernels): each CTA of ``threads`` threads takes ``threads * per_thread`` consecutive units,
thread t units t, t + threads, ...; the grid covers ``units``. Such a kernel launches with PDL
and lets the next kernel (the wgmma GEMM) launch at once: that one prefetches its first
weights to L2 and then waits for this kernel's output."""

import cutlass.cute as cute


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
