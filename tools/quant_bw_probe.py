"""Quantization bandwidth, old against new kernel configs, as % of the copy bandwidth measured
in the same run (torch ``copy_`` of a 256 MiB buffer, graph-timed; bytes read + written).

Variants (encode, vecs, warps, CTAs per SM, launch bound min_ctas[, prefetch[, ring]]):
  plain  old       fma 4 4 16  0       the default before session 10
         cmp8      cmp 4 4  8  0       the default (best of the session 10 runs)
         cmp8v2p   cmp 2 4  8  0 p     the next item's loads in flight (56 registers)
         cmp6p     cmp 4 4  6  0 p     the same with 4 loads a lane (80 registers)
         cmp8r2    cmp 4 4  8  0 - 2   2 items in flight through a shared-memory ring (cp.async)
         cmp8v2r4  cmp 2 4  8  0 - 4   4 items of 2 loads a lane in the ring
  fused  old       fma 4 4  8  0
         cmp12v2   cmp 2 4 12 12       the default: 2 loads per lane, 40 registers
         cmp8v2p   cmp 2 4  8  0 p     the next item's loads in flight (64 registers)
         cmp4p     cmp 4 4  4  0 p     the same with 4 loads a lane (104 registers)
         cmp8v2r2  cmp 2 4  8  0 - 2   2 items in flight through the ring
         cmp6v2r3  cmp 2 4  6  0 - 3   3 items (28 KB of shared memory a CTA)
The kernel is latency-bound at M = 4096 (each warp alternates its loads and its arithmetic;
session 10: 69-75% of copy at K = 5120 / 7168 with 11.4 instructions per element): the
prefetch variants keep a second item in flight in registers, the ring variants one or more in
shared memory. (Before the threshold encode, prefetch measured 2-8% slower; the registers it
costs are fewer now.)
Session 10 (H200, 2026-11-30) also measured cmp16v2 (plain, 2 4 16 16), cmp6w8 (plain,
4 8 6 6), cmp12 (plain, 4 4 12 12), cmp8 (fused, 4 4 8 8), cmp5 (fused, 4 4 5 0) and the
first item's loads issued before the table fill (plain +-1.5%, fused spilling at 40
registers: half the bandwidth): none ahead, the last removed (``notes/quant-bw.md``).
Shapes: M = 4096 and 16384 for K (I) in {5120, 7168, 17408, 18432}, then M = 1, 8, 64 (old
and the default). Every variant's outputs are compared with the old kernel's (must be equal:
both are exact). ``CUTE_KERNELS_BENCH_WARM=1`` only compiles; ``CUTE_KERNELS_BENCH_SHAPES``
picks shape indices (the device script warms them in parallel)."""

from __future__ import annotations

import torch

from cute_kernels import reference
from cute_kernels.arch import sm_count
from cute_kernels.bench.ceilings import copy_bandwidth_tbs
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us, warm_only
from cute_kernels.nvfp4_quant import compile_nvfp4_quant

KS = (5120, 7168, 17408, 18432)
PLAIN = {"old": ("fma", 4, 4, 16, 0), "cmp8": ("cmp", 4, 4, 8, 0),
         "cmp8v2p": ("cmp", 2, 4, 8, 0, True), "cmp6p": ("cmp", 4, 4, 6, 0, True),
         "cmp8r2": ("cmp", 4, 4, 8, 0, False, 2), "cmp8v2r4": ("cmp", 2, 4, 8, 0, False, 4)}
FUSED = {"old": ("fma", 4, 4, 8, 0), "cmp12v2": ("cmp", 2, 4, 12, 12),
         "cmp8v2p": ("cmp", 2, 4, 8, 0, True), "cmp4p": ("cmp", 4, 4, 4, 0, True),
         "cmp8v2r2": ("cmp", 2, 4, 8, 0, False, 2), "cmp6v2r3": ("cmp", 2, 4, 6, 0, False, 3)}
DEFAULT = {False: "cmp8", True: "cmp12v2"}
SHAPES = [(m, k, fused) for fused in (False, True) for m in (4096, 16384) for k in KS]
SHAPES += [(m, k, fused) for fused in (False, True) for m in (1, 8, 64) for k in KS[:2]]


def _sf_bytes(m: int, k: int) -> int:
    return -(-m // 128) * 128 * -(-(k // 16) // 4) * 4


def _fn(k, fused, variant):
    encode, vecs, warps, per_sm, min_ctas, prefetch, ring = variant + (False, 0)[len(variant) - 5:]
    return compile_nvfp4_quant(k, str(torch.bfloat16), fused, False, vecs, warps,
                               per_sm * sm_count(), prefetch, False, encode, min_ctas, ring)


def main():
    shapes = select_shapes(SHAPES)
    copy = None if warm_only() else copy_bandwidth_tbs(256 << 20, "torch")
    if copy:
        print(f"torch copy_ 256 MiB: {copy:.3f} TB/s", flush=True)
    rows = []
    for m, k, fused in shapes:
        width = 2 * k if fused else k
        variants = FUSED if fused else PLAIN
        if m < 4096:
            variants = {n: variants[n] for n in ("old", DEFAULT[fused])}
        nbytes = m * width * 2 + m * k // 2 + _sf_bytes(m, k)
        n_in = 2 if m >= 4096 else 8
        xs = [(torch.randn(m, width, device="cuda") * torch.rand(m, 1, device="cuda") * 4
               ).to(torch.bfloat16) for _ in range(n_in)]
        g = reference.nvfp4_global_scale(reference.silu_mul(xs[0]) if fused else xs[0]
                                         ).reshape(1)
        mask = torch.zeros(1, dtype=torch.int32, device="cuda")
        outs = {}
        calls = {}
        for name, variant in variants.items():
            fn = _fn(k, fused, variant)
            q = torch.full((m, k // 2), 0xFF, dtype=torch.uint8, device="cuda")
            sf = torch.full((_sf_bytes(m, k),), 0xFF, dtype=torch.uint8, device="cuda")
            fn(xs[0], g, mask, q, sf)
            outs[name] = (q.clone(), sf.clone())
            calls[name] = [lambda x=x, fn=fn, q=q, sf=sf: fn(x, g, mask, q, sf) for x in xs]
        # the variants' graphs replayed in turn: the M = 16384 points drifted by up to 13
        # points between separately timed runs (session 10)
        times = dict(zip(calls, time_graphs_interleaved_us(list(calls.values()),
                                                           calls_per_graph=20)))
        if warm_only():
            continue
        base = outs["old"]
        line = f"{'fused' if fused else 'plain'} M={m:<5} K={k:<5}"
        for name, t in times.items():
            same = torch.equal(outs[name][0], base[0]) and torch.equal(outs[name][1], base[1])
            tbps = nbytes / t / 1e6
            line += f" | {name} {t:8.2f} us {tbps / copy:6.1%}{'' if same else ' MISMATCH'}"
            rows.append((fused, m, k, name, t, tbps / copy, same))
        print(line, flush=True)
        del xs
    if warm_only() or not rows:
        return
    print(f"\n== summary (% of copy {copy:.2f} TB/s; M >= 4096 target 85%) ==")
    for fused in (False, True):
        names = list((FUSED if fused else PLAIN))
        print(f"{'fused' if fused else 'plain'}: M K | " + " | ".join(names))
        for m, k in sorted({(r[1], r[2]) for r in rows if r[0] == fused}):
            cells = []
            for n in names:
                hit = [r for r in rows if r[0] == fused and r[1] == m and r[2] == k and r[3] == n]
                cells.append("-" if not hit else (f"{hit[0][5]:.1%}" if m >= 4096
                                                   else f"{hit[0][4]:.2f}us")
                             + ("" if not hit or hit[0][6] else "!"))
            print(f"  {m} {k} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
