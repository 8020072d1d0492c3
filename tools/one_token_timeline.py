"""Where the balanced one-token launch's time goes, from stamps inside the kernel
(``NVFP4GemmOneTokenBalanced.PROBE_STAMPS``, ``cute_kernels.probe_stamps``): each CTA's
start, the end of its PDL wait, of its staging, of each K warp's walk, of its block's
epilogue and of its fix-up, in ``%globaltimer`` ns (one clock for all SMs) and SM cycles.

Why: staging the token costs the launch ~1.25 us at 9216x7168 M = 1 (H100, session 90,
``tools/staging_cost_probe.py`` "nostage", from DRAM and from L2), more than the round trip to
L2 it needs; neither the second step under the staging (from L2) nor a branch-free pass
(session 94) took it back. The stamps say which part grows: the wait, the staging, the walks,
or the last CTAs.

Forms, each with the stamps on: "default" (the public launch), "nostage"
(``PROBE_NO_STAGING``: outputs wrong), "under" (``NEXT_STEP_UNDER_STAGING``). ``CALLS`` calls
back to back in a CUDA graph (PDL as the public op), each on its own weight copy and stamp
buffer; the graph replayed three times, the last replay's middle calls read. Per form, the
means over those calls of: the period (one call's start to the next's), the call's span
(first start to last stamp), the wait's release after the previous call's last stamp, and
over CTAs (median / 90th percentile) the wait, the staging, the walks (median warp and the
CTA's last), the epilogue and the fix-up; ns, and the staging in cycles. ``PROBE_L2=1``: one
weight copy (from L2). Points with a launch of their own (row groups on fewer CTAs: fewer
copies of the token read from L2) are then timed unstamped against the public launch (graph
us, two rounds). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools
import statistics

import torch
from probe_inputs import (permuted_weight_copies, print_forms, replayed_graph,
                          switched_compiler)

from cute_kernels import reference
from cute_kernels.arch import sm_count
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced, balanced_buffers,
                                              balanced_shape, balanced_workspace_words,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced, public_balanced_launch)
from cute_kernels.probe_stamps import (FINISHED, FIXED_UP, LOOP_DONE, STAGED, START, WAITED,
                                       median_p90, read_stamps, stamp_words)

# M = 1, NVFP4 tokens: (N, K, K warps, CTAs an SM, row groups); None: the public launch
POINTS = [(9216, 7168, None), (5120, 17408, None), (9216, 7168, (24, 1, 3)),
          (5120, 17408, (24, 1, 2)), (9216, 7168, (4, 4, 1)), (9216, 7168, (18, 1, 3))]
FORMS = {"default": {}, "nostage": {"PROBE_NO_STAGING": True},
         "under": {"NEXT_STEP_UNDER_STAGING": True}}
CALLS = 8
alpha = torch.full((1,), 0.5, device="cuda")


def compilers() -> dict:
    """Each form's stamped compile function."""
    return {name: switched_compiler(compile_nvfp4_gemm_one_token_balanced,
                                    NVFP4GemmOneTokenBalanced, {"PROBE_STAMPS": True, **attrs},
                                    f"compile_balanced_stamped_{name}")
            for name, attrs in FORMS.items()}


def call_summary(s: torch.Tensor, warps: int, has_fixup: bool, prev_end: int) -> dict:
    """One call's figures (ns relative to ``s``'s timer words, already unwrapped)."""
    timer, clock = s[..., 0], s[..., 1]
    loops = timer[:, LOOP_DONE:LOOP_DONE + warps]
    ends = [timer[:, FINISHED].max().item(), loops.max().item()]
    if has_fixup:
        ends.append(timer[:, FIXED_UP].max().item())
    start = timer[:, START].min().item()
    staged = timer[:, STAGED]
    return {"start": start, "end": max(ends),
            "release": timer[:, WAITED].min().item() - prev_end,
            "wait": (timer[:, WAITED] - timer[:, START]).tolist(),
            "staging": (staged - timer[:, WAITED]).tolist(),
            "staging_cycles": ((clock[:, STAGED] - clock[:, WAITED]) & 0xFFFFFFFF).tolist(),
            "walk": (loops - staged[:, None]).median(dim=1).values.tolist(),
            "last_walk": (loops.max(dim=1).values - staged).tolist(),
            "epilogue": (timer[:, FINISHED] - loops.max(dim=1).values).tolist(),
            "fixup": ((timer[:, FIXED_UP] - loops.max(dim=1).values).tolist()
                      if has_fixup else [0])}


def form_line(label: str, form: str, stamps: list, warps: int, has_fixup: bool) -> str:
    """The form's means over the middle calls."""
    base = min(s[:, START, 0].min().item() for s in stamps)
    unwrapped = []
    for s in stamps:
        u = s.clone()
        u[..., 0] = (u[..., 0] - base) & 0xFFFFFFFF
        unwrapped.append(u)
    calls, prev_end = [], 0
    for s in unwrapped:
        calls.append(call_summary(s, warps, has_fixup, prev_end))
        prev_end = calls[-1]["end"]
    middle = calls[2:-2]
    period = statistics.mean(b["start"] - a["start"] for a, b in zip(middle, middle[1:]))
    pooled = {key: [v for c in middle for v in c[key]]
              for key in ("wait", "staging", "staging_cycles", "walk", "last_walk", "epilogue",
                          "fixup")}
    return (f"{label} {form}: period={period:.0f} "
            f"span={statistics.mean(c['end'] - c['start'] for c in middle):.0f} "
            f"release={statistics.mean(c['release'] for c in middle):.0f} "
            + " ".join(f"{key}={median_p90(v)}" for key, v in pooled.items()))


def run_point(n: int, k: int, launch, fns: dict, a, a_sf, copies: list) -> None:
    warps, per_sm, rg = launch or (*public_balanced_launch(True, 1, n, k, True, True,
                                                            a.device), 1)
    ctas = per_sm * sm_count(a.device.index or 0)
    own = balanced_workspace_words(n, ctas, 16 * rg)
    label = f"gemm {n}x{k} M=1 ({warps}, {per_sm}, rg {rg})"
    for form, fn in fns.items():
        bufs = [balanced_buffers(n, ctas, a.device, 16 * rg, stamp_words(ctas))
                for _ in range(CALLS)]
        out = torch.empty(1, n, device="cuda", dtype=torch.float32)
        calls = [functools.partial(launch_one_token_balanced, a, a_sf, *copies[i % len(copies)],
                                   alpha, out, warps, per_sm, compile_fn=fn,
                                   buffers=(ws, counters), row_groups=rg)
                 for i, (ws, counters) in enumerate(bufs)]
        if replayed_graph(calls) is None:
            continue
        stamps = [read_stamps(ws, own, ctas).cpu() for ws, _ in bufs]
        has_fixup = balanced_shape(n, ctas, 16 * rg)[0] > 0
        print(form_line(label, form, stamps, warps, has_fixup), flush=True)


def time_against_public(n: int, k: int, launch, a, a_sf, copies: list) -> None:
    """A point's launch (unstamped) against the public one, graph us, two rounds."""
    public = public_balanced_launch(True, 1, n, k, True, True, a.device)
    warps, per_sm, rg = launch
    out = torch.empty(1, n, device="cuda", dtype=torch.float32)
    calls = {"public": lambda w: launch_one_token_balanced(a, a_sf, *w, alpha, out, *public),
             "this": lambda w: launch_one_token_balanced(a, a_sf, *w, alpha, out, warps, per_sm,
                                                         row_groups=rg)}
    print_forms(f"timed {n}x{k} M=1 ({warps}, {per_sm}, rg {rg})", calls, copies)


fns = compilers()
for n, k, launch in select_shapes(POINTS):
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    copies = permuted_weight_copies(n, k)
    run_point(n, k, launch, fns, a, a_sf, copies)
    if launch is not None:
        time_against_public(n, k, launch, a, a_sf, copies)
