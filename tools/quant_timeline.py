"""Where plain ``nvfp4_quantize``'s time goes at M = 4096 (issue 4), from stamps inside the
kernel (``NVFP4Quant(stamps=True)``): each warp's CTA start, the end of its PDL wait and the
end of its last item, in ``%globaltimer`` ns (one clock for every SM), and its SM.

Why: at M = 4096 K = 5120 / 7168 the public launch reaches 74-78% of the H200's copy, 85%
asked (89-91% on the H100). Session 26's fit puts it at a copy-like rate plus ~2.8 us a call
fixed (a copy's: 0.8), and session 77's ncu (H100) had the SMs empty 16% of the kernel at
M = 4096 against 8% at M = 16384. Claims, grids that are not persistent, fewer instructions
and more bytes in flight all lost (``notes/quant-bw.md``). The stamps say where the empty
SM time sits: CTAs that start late (the block scheduler's ramp), SMs whose warps finish
early (a static share on unequal memory service), or the start before the first item.

``CALLS`` calls back to back, each on its own input copy (rotated past the L2) and stamp
buffer, four times over in a CUDA graph (PDL as the public op); after the graph's replays
the buffers hold the last ``CALLS`` calls, of which the middle ones are read. Per
point, means over those calls of:
- period: one call's first wait release to the next call's;
- span: the first release to the last warp's end;
- early: how long before the release the CTAs started (median; PDL lets them in as the
  previous grid's CTAs exit), and late: CTAs that started after it (count, latest);
- warp ends (p10 / p50 / p90 / last) and, per SM, its last warp's end (first / median /
  last SM): the span left idle by SMs done early is ``1 - mean(SM end) / span``;
- warp slots busy: the warps' summed (end - max(start, release)) over SMs x warp slots x
  span.
Beside them the unstamped public launch's graph us (the stamps should not move it) and the
same launch's outputs compared bit for bit. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import math
import statistics

import cutlass
import torch

from cute_kernels import reference
from cute_kernels.bench.timing import (rotations_for, select_shapes, time_graphs_interleaved_us,
                                       warm_only)
from cute_kernels.nvfp4_quant import (CLAIM_WORDS, STAMP_WORDS, NVFP4Quant, compile_nvfp4_quant,
                                      launch_config, stamps_offset)
from cute_kernels.probe_stamps import TIMER_WRAP, timer_ns
from layouts import sf_padded_shape

# (M, K, fused); the first two are issue 4's open points
POINTS = [(4096, 5120, False), (4096, 7168, False), (16384, 5120, False), (4096, 5120, True)]
CALLS = 6


def sf_bytes(m: int, k: int) -> int:
    """The swizzled scale buffer's bytes (``layouts.sf_padded_shape``)."""
    return math.prod(sf_padded_shape(m, k // 16))


def grid_warps(m: int, k: int, fused: bool, config) -> int:
    """The launch's warps: its work items (the scale padding rows' included) over the warps
    of at most ``max_ctas`` CTAs (``NVFP4Quant.__call__``'s grid)."""
    vecs, warps, max_ctas = config[:3]
    kernel = NVFP4Quant(k, cutlass.BFloat16, fused, False, vecs, warps)
    items = m * kernel.chunks + kernel.pad_items(m)
    return min(-(-items // warps), max_ctas) * warps


def counters_buffer(claim: int, device) -> torch.Tensor:
    """The ``masked_m`` argument of a dense launch: its zeroed claim counters (``claim``)."""
    return torch.zeros(CLAIM_WORDS if claim else 1, dtype=torch.int32, device=device)


def stamp_buffer(warps: int, claim: int, device) -> torch.Tensor:
    """A stamped launch's ``masked_m``: the zeroed claim counters (``claim``), then -1 in
    each warp's STAMP_WORDS."""
    stamps = torch.full((warps * STAMP_WORDS,), -1, dtype=torch.int32, device=device)
    return torch.cat([counters_buffer(claim, device)[:stamps_offset(claim)], stamps])


def read_call(stamps: torch.Tensor) -> dict:
    """One call's stamps as int64 ns relative to its first release, and the SMs, on the
    host (a few thousand numbers)."""
    w = stamps.cpu().view(-1, STAMP_WORDS).to(torch.int64) & (TIMER_WRAP - 1)
    base = int(w[:, 1].min())
    return {"start": timer_ns(w[:, 0], base), "waited": timer_ns(w[:, 1], base),
            "end": timer_ns(w[:, 2], base), "sm": w[:, 3], "base": base}


def call_figures(call: dict, warps_per_cta: int) -> dict:
    start, waited, end, sm = call["start"], call["waited"], call["end"], call["sm"]
    span = float(end.max())
    cta_start = start[::warps_per_cta]
    sms = torch.unique(sm)
    sm_end = torch.stack([end[sm == s].max() for s in sms]).to(torch.float64)
    slots = len(start) / len(sms)  # warps an SM
    busy = (end - torch.maximum(start, waited)).clamp(min=0).to(torch.float64).sum()
    q = torch.quantile(end.to(torch.float64), torch.tensor([0.1, 0.5, 0.9], dtype=torch.float64))
    late = cta_start[cta_start > 0]
    return {"span": span, "early": -float(cta_start.to(torch.float64).median()),
            "late": len(late), "latest": float(late.max()) if len(late) else 0.0,
            "release": float(waited.max()), "p10": float(q[0]), "p50": float(q[1]),
            "p90": float(q[2]), "sm_first": float(sm_end.min()),
            "sm_median": float(sm_end.median()), "sm_idle": 1 - float(sm_end.mean()) / span,
            "busy": float(busy) / (len(sms) * slots * span), "sms": len(sms)}


def point(m: int, k: int, fused: bool) -> None:
    width = 2 * k if fused else k
    dev = torch.device("cuda")
    config = launch_config(k, fused, dev, m)
    plain = compile_nvfp4_quant(k, str(torch.bfloat16), fused, False, *config)
    stamped = compile_nvfp4_quant(k, str(torch.bfloat16), fused, False, *config, True)
    nbytes = m * width * 2 + m * k // 2 + sf_bytes(m, k)
    copies = max(CALLS, rotations_for(m * width * 2))
    xs = [(torch.randn(m, width, device=dev) * torch.rand(m, 1, device=dev) * 4
           ).to(torch.bfloat16) for _ in range(copies)]
    g = reference.nvfp4_global_scale(reference.silu_mul(xs[0]) if fused else xs[0]).reshape(1)
    warps = grid_warps(m, k, fused, config)
    stamps = [stamp_buffer(warps, config[-1], dev) for _ in range(CALLS)]
    mask = counters_buffer(config[-1], dev)
    outs = []
    for fn, buf in ((plain, mask), (stamped, stamps[0])):
        q = torch.full((m, k // 2), 0xFF, dtype=torch.uint8, device=dev)
        sf = torch.full((sf_bytes(m, k),), 0xFF, dtype=torch.uint8, device=dev)
        fn(xs[0], g, buf, q, sf)
        outs.append((q, sf))
    same = all(torch.equal(a, b) for a, b in zip(*outs))
    q, sf = outs[0]
    plain_calls = [lambda x=x: plain(x, g, mask, q, sf) for x in xs]
    # the stamped calls: call i on input i and stamp buffer i; a graph cycles through them
    # four times, so the buffers end with the last cycle's consecutive calls
    stamped_calls = [lambda x=x, s=s: stamped(x, g, s, q, sf) for x, s in zip(xs, stamps)]
    t_plain, t_stamped = time_graphs_interleaved_us([plain_calls, stamped_calls],
                                                    calls_per_graph=4 * CALLS)
    if warm_only():
        return
    torch.cuda.synchronize()
    calls = [read_call(s[stamps_offset(config[-1]):]) for s in stamps]
    figures = [call_figures(c, config[1]) for c in calls[1:-1]]
    periods = [(calls[i + 1]["base"] - calls[i]["base"]) % TIMER_WRAP
               for i in range(1, CALLS - 2)]
    mean = {key: statistics.mean(f[key] for f in figures) for key in figures[0]}
    label = f"{'fused' if fused else 'plain'} M={m} {'I' if fused else 'K'}={k}"
    print(f"{label}: {warps} warps on {mean['sms']:.0f} SMs ({warps / mean['sms']:.0f} an SM), "
          f"{nbytes / 1e6:.1f} MB; graph us public {t_plain:.2f}, stamped {t_stamped:.2f}; "
          f"outputs {'equal' if same else 'MISMATCH'}")
    print(f"  period {statistics.mean(periods):.0f} ns, span {mean['span']:.0f}; CTAs started "
          f"{mean['early']:.0f} ns before the release (median), {mean['late']:.1f} after it "
          f"(latest +{mean['latest']:.0f}); last release +{mean['release']:.0f}")
    print(f"  warp ends p10 / p50 / p90 / last: {mean['p10']:.0f} / {mean['p50']:.0f} / "
          f"{mean['p90']:.0f} / {mean['span']:.0f}; SM ends first / median / last: "
          f"{mean['sm_first']:.0f} / {mean['sm_median']:.0f} / {mean['span']:.0f}")
    print(f"  span left idle by SMs done early {mean['sm_idle']:.1%}; warp slots busy "
          f"{mean['busy']:.1%}", flush=True)


def main():
    for m, k, fused in select_shapes(POINTS):
        point(m, k, fused)


if __name__ == "__main__":
    main()
