"""Where the 16-token stream-K launch's time goes (issue 5's M <= 16 rows: 9216x7168 and
5120x17408 at 53.6-59.4% of the H200's copy, 60% asked), from stamps inside the launch
(``NVFP4GemmLargeM.PROBE_STAMPS``, ``probe_stamps.SK_*``): each CTA's start, its producer's
PDL release and last TMA issue, its consumers' release, the end of their first and last
pieces' main loops and fix-ups, and their finish, in ``%globaltimer`` ns (relative to the
call's first consumer release, the end of the previous launch).

Why: session 80 (H200, ``tools/stream_parts_probe.py``) timed 9216x7168 M = 16 at 16.2 us
real, 13.3 with the consumers stubbed and 7.1 with no loads at all (the bare launch:
pipeline, fix-up, epilogue), against a 60% bar of ~14.7. The stamps split the launch into
its parts per CTA, for the real consumers and the stubbed ones: how long the CTAs wait for
the release, the first piece's loop, the fix-up (the head waits for the pieces of the CTAs
after it), the last piece, and the spread of the CTAs' finishes.

Forms (stamps on each): ``real`` (the launch as the public op makes it: permuted words, the
PDL trigger), ``stub`` (``STUB_CONSUMERS``: consumers release each stage at once; outputs
wrong), ``bare`` (stubbed, no TMA at all), ``late`` (``LATE_PIECES``: the pieces that are
their CTA's whole range read by the head's consumers; the same bits), and ``unstamped``
(the public launch's kernel on the same workspaces: graph us only). ``CALLS`` calls back
to back in a CUDA graph, each on its own weight copy and workspace (made
``stamp_words(CTAs)`` longer, made before the capture: no fill between the launches); the
graph replayed three times, the middle calls read. Per form, means over those calls: the
period (one call's first consumer release to the next's), the span (that release to the
last finish), then over CTAs, median / 90th percentile, ns: start (before the release), the
consumers' release, the producer's stream start, the first loop, first fix-up, last loop,
last fix-up, the finish after it, when the producer issued its last TMA and when the CTA
finished; last the replays' graph us a call. The stamps are not free: session 100 (H100,
9216x7168 M = 16) had ``unstamped`` 18.32, ``real`` 20.55 and ``late`` 18.63 graph us, so
compare the parts of forms alike, not the stamped default with the real launch. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import statistics

import torch

import cute_kernels.nvfp4_gemm_large_m as large_m
from cute_kernels.bench.timing import select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.probe_stamps import (SK_CONSUMER_WAITED, SK_FINISHED, SK_FIRST_FIXED,
                                       SK_FIRST_LOOP, SK_LAST_FIXED, SK_LAST_LOOP,
                                       SK_PRODUCER_DONE, SK_PRODUCER_STARTS, SK_START, UNSET,
                                       median_p90, read_stamps, stamp_words, timer_ns)
from cute_kernels.testing import switched_compiler

# (N, K, M, token tile, K groups): the M <= 16 launches of issue 5's open rows
POINTS = [(9216, 7168, 16, 16, 2), (5120, 17408, 16, 16, 2), (9216, 7168, 8, 8, 2)]
FORMS = {"real": {}, "stub": {"STUB_CONSUMERS": True},
         "bare": {"STUB_CONSUMERS": True, "STUB_SKIP": ("act", "weights", "scales")},
         "late": {"LATE_PIECES": True}}
CALLS = 8


def compilers() -> dict:
    """The stamped forms, then ``unstamped`` (the public launch's kernel, no stamps) on the
    same workspaces: its graph us against ``real``'s is what the stamps cost."""
    fns = {name: switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                                   {"PROBE_STAMPS": True, **attrs},
                                   f"compile_stream_k_stamped_{name}")
           for name, attrs in FORMS.items()}
    fns["unstamped"] = compile_nvfp4_gemm_large_m
    return fns


class StampedWorkspaces:
    """A stand-in for ``launch_large_m``'s stream-K buffers: launch i gets workspace
    i % ``calls``, made ``stamp_words(CTAs)`` words longer and filled with -1 (``UNSET`` as
    read: a slot no thread stamped, as a CTA of one piece leaves its last piece's) the first
    time (outside the capture), handed back as it is after that. So no fill kernel sits
    between the captured launches: each follows the one before under PDL, as the public op's
    do. ``made``: (workspace, CTAs) by call."""

    def __init__(self, calls: int):
        self.calls, self.made, self.launches = calls, [], 0
        self.plain = large_m.stream_k_buffers

    def __call__(self, m, n, tile_m, ctas, device, tile_n=large_m.TILE_N):
        # (the counters with the late region for every form: ``late`` reads it)
        work, counters = self.plain(m, n, tile_m, ctas, device, tile_n, late=True)
        i = self.launches % self.calls
        self.launches += 1
        if i == len(self.made):
            longer = torch.full((work.numel() + stamp_words(ctas),), -1, dtype=torch.int32,
                                device=device).view(torch.float32)
            self.made.append((longer, ctas))
        return self.made[i][0], counters


def read_tail(work: torch.Tensor, ctas: int) -> torch.Tensor:
    """[CTA, slot, (timer, SM)] (``read_stamps``) of the workspace's last
    ``stamp_words(ctas)`` words, on the host."""
    return read_stamps(work, work.numel() - stamp_words(ctas), ctas).cpu()


def call_figures(s: torch.Tensor, base: int) -> dict:
    """One call's figures, ns relative to ``base`` (unwrapped); per CTA lists."""
    timer = s[..., 0]
    unset = timer == UNSET
    t = timer_ns(timer, base)
    t0 = int(t[:, SK_CONSUMER_WAITED].min())

    def part(a, b):  # per CTA b - a where both were stamped
        ok = ~(unset[:, a] | unset[:, b])
        return (t[ok, b] - t[ok, a]).tolist()
    # a CTA of one piece stamps only the first piece's slots
    last_fixed = torch.where(unset[:, SK_LAST_FIXED], t[:, SK_FIRST_FIXED], t[:, SK_LAST_FIXED])
    return {"t0": t0, "span": int(t[:, SK_FINISHED].max()) - t0,
            "start": (t0 - t[:, SK_START]).tolist(),
            "release": (t[:, SK_CONSUMER_WAITED] - t0).tolist(),
            "producer_starts": (t[:, SK_PRODUCER_STARTS] - t0).tolist(),
            "first_loop": part(SK_CONSUMER_WAITED, SK_FIRST_LOOP),
            "first_fixup": part(SK_FIRST_LOOP, SK_FIRST_FIXED),
            # (the later pieces' loops: one piece at these points' 60-80 units a CTA)
            "last_loop": part(SK_FIRST_FIXED, SK_LAST_LOOP),
            "last_fixup": part(SK_LAST_LOOP, SK_LAST_FIXED),
            "finish": (t[:, SK_FINISHED] - last_fixed).tolist(),
            "producer_done": (t[:, SK_PRODUCER_DONE] - t0).tolist(),
            "end": (t[:, SK_FINISHED] - t0).tolist()}


def form_line(label: str, form: str, stamps: list) -> str:
    base = int(stamps[0][:, SK_CONSUMER_WAITED, 0].min())
    calls = [call_figures(s, base) for s in stamps]
    middle = calls[2:-2]
    period = statistics.mean(b["t0"] - a["t0"] for a, b in zip(middle, middle[1:]))
    keys = ("start", "release", "producer_starts", "first_loop", "first_fixup", "last_loop",
            "last_fixup", "finish", "producer_done", "end")
    pooled = {key: [v for c in middle for v in c[key]] for key in keys}
    return (f"{label} {form}: period={period:.0f} "
            f"span={statistics.mean(c['span'] for c in middle):.0f} "
            + " ".join(f"{key}={median_p90(v)}" for key, v in pooled.items()))


def run_point(n, k, m, tile_m, groups, fns) -> None:
    from probe_inputs import launch_alone_inputs, replaced, replayed_graph  # (here: the
    # tests load this file alone, without the tools folder on the path)

    words, x, alpha = launch_alone_inputs(n, k, m, tile_m)
    label = f"gemm {n}x{k} M={m} {tile_m}-token stream-K, {groups} K groups"
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    for form, fn in fns.items():
        workspaces = StampedWorkspaces(CALLS)
        calls = [lambda w=words[i % len(words)], fn=fn: large_m.launch_large_m(
            x, w[0], w[1], alpha, out, (tile_m, 0), stream_k=True, k_groups=groups,
            k_order=KOrder.PERMUTED, pdl_trigger=True, compile_fn=fn)
            for i in range(CALLS)]
        with replaced(large_m, {"stream_k_buffers": workspaces}):
            us = replayed_graph(calls)
        if us is None:
            continue
        if form == "unstamped":
            print(f"{label} unstamped: graph_us={us:.2f}", flush=True)
            continue
        stamps = [read_tail(work, ctas) for work, ctas in workspaces.made]
        print(f"{form_line(label, form, stamps)} graph_us={us:.2f}", flush=True)


def main():
    fns = compilers()
    for point in select_shapes(POINTS):
        run_point(*point, fns)


if __name__ == "__main__":
    main()
