"""Quantization bandwidth, old against new kernel configs, as % of the copy bandwidth measured
in the same run (torch ``copy_`` of a 256 MiB buffer, graph-timed; bytes read + written).

Variants (encode, vecs, warps, CTAs per SM, launch bound min_ctas; options):
  plain  old       fma 4 4 16  0 trigger=False  the default before session 10
         cmp8      cmp 4 4  8  0 trigger=False  the default of sessions 10..24
         cmp9t     cmp 4 4  9  9                9 an SM (<= 56 registers) with the early PDL
                                                trigger: the default past PREFETCH_ELEMENTS
         cmp6tp    cmp 4 4  6  0 prefetch       the next item's loads in flight (80 registers):
                                                the default up to PREFETCH_ELEMENTS
         cmp7tp    cmp 4 4  7  7 prefetch       the same at <= 72 registers
         cmp8tp    cmp 4 4  8  8 prefetch       the same at <= 64 registers
         cmp6tpcN  cmp 4 4  6  0 prefetch claim  cmp6tp, the last N rounds of items claimed
                                                from 32 wrapping counters (1, 2, 3, 9)
         cmp6tpq4  cmp 4 4  6  6 prefetch claim  the last rounds // 4 claimed (at least one):
                                                the default from CLAIM_MIN_ROUNDS rounds a warp;
                                                cmp7tpq4 / cmp8tpq4 the same at 7 / 8 an SM
         cmp7tpcN  cmp 4 4  7  7 prefetch claim  cmp7tp, the last N rounds claimed (1, 2)
  fused  old       fma 4 4  8  0 trigger=False
         cmp12v2   cmp 2 4 12 12 trigger=False  the default of sessions 10..24 (40 registers)
         cmp12v2t  cmp 2 4 12 12                with the early trigger: the default past
                                                PREFETCH_ELEMENTS
         cmp8v2tp  cmp 2 4  8  8 prefetch       the next item's loads in flight (64 registers):
                                                the default up to PREFETCH_ELEMENTS
         cmp8v2tpcN cmp 2 4 8 8 prefetch claim  cmp8v2tp, the last N rounds claimed (1, 2, 3, 9)
         cmp8v2tpq4 cmp 2 4 8 8 prefetch claim  the last rounds // 4 (the default, as plain)
         cmp10v2t  cmp 2 4 10 10                10 an SM (48 registers): on fp16 inputs
                                                cmp12v2t spills an 8-byte frame, this does
                                                not: fp16's default past PREFETCH_ELEMENTS
                                                since session 76 (80 -> 94% of the copy)
  not persistent (session 85): "gN" = a grid of N work items a warp, the block scheduler
  balancing the SMs as CTAs exit (each CTA fills its own threshold table):
  plain  cmp9tg1 / cmp9tg2 (cmp9t's kernel), cmp9teg1 (its item's loads before the table
         fill), cmp6tpg2 / cmp6tpg3 (cmp6tp's at <= 80 registers);
  fused  cmp12v2tg1 (cmp12v2t's), cmp8v2tpg2 (cmp8v2tp's)
  H100 (session 85 call 1, % of that card's copy): plain M = 4096 K = 5120 cmp6tp 89.1 against
  78.8-85.6 (g3 best), K = 7168 91.3 against 82.1-89.8; M = 16384 K = 5120 95.3 against
  cmp6tpg3 97.1, cmp9tg2 96.8; fused M = 4096 I = 5120 91.0 against 91.5 / 91.4 (even).
The early trigger (``launch_dependents`` first thing) lets the next grid's CTAs take the SMs
as this one's exit: a grid of fewer CTAs an SM than fit then lands unevenly (session 25:
plain at 8 an SM with 56 registers lost 7-10 points), so every variant with it fills the SMs
exactly.
Beside them, a torch copy of the same bytes (half read, half written): the size's own ceiling
(session 11: 86% of the 256 MiB copy at plain M = 4096 K = 5120's 54 MB).
Session 10/11 (H200, 2026-11-30) also measured cmp16v2 (plain, 2 4 16 16), cmp6w8 (plain,
4 8 6 6), cmp12 (plain, 4 4 12 12), cmp8 (fused, 4 4 8 8), cmp5 (fused, 4 4 5 0), prefetch
at vecs 2 and the cp.async ring (``ring``; lost everywhere) without the early trigger: none
ahead (``notes/quant-bw.md``). Session 26 (with the trigger, % of the copy at plain M = 4096
K = 5120 / 7168, M = 16384 K = 5120, cmp6tp 74.3 / 78.2 / 84.9): the split tail (items left
after whole rounds as half items, ``split_tail``, removed since) 70.9 / 75.2 / 80.5; plain
half items with the prefetch at 9 / 10 / 12 an SM (56 / 48 / 40 registers, no spills) 64.7-
72.7 everywhere. Session 46 (H200, 2026-12-02) measured the ring filled by one
``cp.async.bulk`` an item part on a per-slot mbarrier (``bulk``; variants bulk3x6, bulk3x7,
bulk4x6, bulk2x8: ring 3 at 6 and 7 an SM, 4 at 6, 2 at 8; fused bulk3x7v2): below the
default cmp6tp (fused cmp8v2tp) at every shape, the best bulk2x8 (plain M = 4096 K = 5120
72.6 against 74.5); the option and its variants were removed (``notes/quant-bulk-ring.patch``).
Session 76 (H200, 2026-12-05) measured ``lean`` (session 75: the prefetch buffers swapping
roles, no zeroing, flat addresses, merge chains; 14% fewer SASS instructions an item): cmp6tpl
65.8 / 69.6% at plain M = 4096 K = 5120 / 7168 against cmp6tp 74.1 / 78.0, cmp9tl equal to
cmp9t, fused cmp8v2tpl 1.2 points below; removed (``notes/quant-lean.patch``).
Session 77 (H200, 2026-12-05) measured ``claim`` (the last 1 / 2 rounds of items claimed one
at a time from an f32 counter so the SMs drain together): cmp6tpc1 / c2 45.5 / 39.6% at plain
M = 4096 K = 5120 against cmp6tp 74.3, 75.8 / 72.2 at M = 16384 (86.5), fused cmp8v2tpc2 46.6
against 85.1; removed. Session 78 (H100, 2026-12-05) measured them again on 32 counters a
cache line apart (``CLAIM_SHARDS``): bit tests and memcheck clean, still 7-9 points down at
plain M = 4096 K = 5120 (cmp6tpc1 81.3 / cmp7tpc1 79.3 against cmp6tp 88.0% of that card's
copy), 1.5-8 at M = 16384, 3 fused; removed again (``notes/quant-claim.patch``, the sharded
form). Session 101 brought them back with counters that wrap to zero on a launch's last
claim (``atom.inc``), without the end-of-warp arrival (acq_rel) and zeroing.
Shapes: M = 4096 and 16384 for K (I) in {5120, 7168, 17408, 18432}, then M = 1, 8, 64 (old
the old default and the default). Every variant's outputs are compared with the old kernel's
(must be equal: both are exact). ``CUTE_KERNELS_BENCH_WARM=1`` only compiles;
``CUTE_KERNELS_BENCH_SHAPES`` picks shape indices (the device script warms them in parallel);
``QUANT_PROBE_VARIANTS`` (comma-separated names) keeps only those variants, beside "old"
(without it, M < 4096 runs "old", the old default and the default);
``QUANT_PROBE_DTYPE=fp16`` feeds fp16 inputs (of a smaller spread: SiLU*mul squares them)."""

from __future__ import annotations

import os

import cutlass
import torch

from cute_kernels import reference
from cute_kernels.arch import sm_count
from cute_kernels.bench.ceilings import copy_bandwidth_tbs
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us, warm_only
from cute_kernels.nvfp4_quant import CLAIM_WORDS, NVFP4Quant, compile_nvfp4_quant

KS = (5120, 7168, 17408, 18432)
# name: (encode, vecs, warps, CTAs per SM, min_ctas) and keyword options of compile_nvfp4_quant
PLAIN = {"old": (("fma", 4, 4, 16, 0), {"trigger": False}),
         "cmp8": (("cmp", 4, 4, 8, 0), {"trigger": False}),
         "cmp9t": (("cmp", 4, 4, 9, 9), {}),
         "cmp6tp": (("cmp", 4, 4, 6, 0), {"prefetch": True}),
         "cmp7tp": (("cmp", 4, 4, 7, 7), {"prefetch": True}),
         "cmp8tp": (("cmp", 4, 4, 8, 8), {"prefetch": True}),
         # not persistent: a grid of one (two, three) items a warp, so the block scheduler
         # balances the SMs as CTAs finish (session 85; the persistent grid leaves SMs empty
         # 16% of the run at M = 4096, ncu session 77), each CTA filling its own table
         "cmp9tg1": (("cmp", 4, 4, 9, 9), {"items_per_warp": 1}),
         "cmp9tg2": (("cmp", 4, 4, 9, 9), {"items_per_warp": 2}),
         "cmp9teg1": (("cmp", 4, 4, 9, 9), {"items_per_warp": 1, "early_loads": True}),
         "cmp6tpg2": (("cmp", 4, 4, 6, 6), {"prefetch": True, "items_per_warp": 2}),
         "cmp6tpg3": (("cmp", 4, 4, 6, 6), {"prefetch": True, "items_per_warp": 3}),
         "cmp6tpc1": (("cmp", 4, 4, 6, 0), {"prefetch": True, "claim": 1}),
         "cmp6tpc2": (("cmp", 4, 4, 6, 0), {"prefetch": True, "claim": 2}),
         "cmp6tpc3": (("cmp", 4, 4, 6, 0), {"prefetch": True, "claim": 3}),
         "cmp6tpc9": (("cmp", 4, 4, 6, 0), {"prefetch": True, "claim": 9}),
         "cmp6tpq4": (("cmp", 4, 4, 6, 6), {"prefetch": True, "claim": -4}),
         "cmp7tpq4": (("cmp", 4, 4, 7, 7), {"prefetch": True, "claim": -4}),
         "cmp8tpq4": (("cmp", 4, 4, 8, 8), {"prefetch": True, "claim": -4}),
         "cmp7tpc1": (("cmp", 4, 4, 7, 7), {"prefetch": True, "claim": 1}),
         "cmp7tpc2": (("cmp", 4, 4, 7, 7), {"prefetch": True, "claim": 2})}
FUSED = {"old": (("fma", 4, 4, 8, 0), {"trigger": False}),
         "cmp12v2": (("cmp", 2, 4, 12, 12), {"trigger": False}),
         "cmp12v2t": (("cmp", 2, 4, 12, 12), {}),
         "cmp8v2tp": (("cmp", 2, 4, 8, 8), {"prefetch": True}),
         "cmp10v2t": (("cmp", 2, 4, 10, 10), {}),
         "cmp12v2tg1": (("cmp", 2, 4, 12, 12), {"items_per_warp": 1}),
         "cmp8v2tpg2": (("cmp", 2, 4, 8, 8), {"prefetch": True, "items_per_warp": 2}),
         "cmp8v2tpc1": (("cmp", 2, 4, 8, 8), {"prefetch": True, "claim": 1}),
         "cmp8v2tpc2": (("cmp", 2, 4, 8, 8), {"prefetch": True, "claim": 2}),
         "cmp8v2tpc3": (("cmp", 2, 4, 8, 8), {"prefetch": True, "claim": 3}),
         "cmp8v2tpc9": (("cmp", 2, 4, 8, 8), {"prefetch": True, "claim": 9}),
         "cmp8v2tpq4": (("cmp", 2, 4, 8, 8), {"prefetch": True, "claim": -4})}
DEFAULT = {False: "cmp6tp", True: "cmp8v2tp"}
SHAPES = [(m, k, fused) for fused in (False, True) for m in (4096, 16384) for k in KS]
SHAPES += [(m, k, fused) for fused in (False, True) for m in (1, 8, 64) for k in KS[:2]]
# a few rounds of items a warp (claimed forms, session 101)
SHAPES += [(1024, 5120, False), (1024, 5120, True), (2048, 7168, False)]


def _sf_bytes(m: int, k: int) -> int:
    return -(-m // 128) * 128 * -(-(k // 16) // 4) * 4


def _dtype() -> torch.dtype:
    name = os.environ.get("QUANT_PROBE_DTYPE", "bf16")
    if name not in ("bf16", "fp16"):
        raise ValueError(f"QUANT_PROBE_DTYPE must be bf16 or fp16, got {name!r}")
    return torch.float16 if name == "fp16" else torch.bfloat16


def _max_ctas(m, k, fused, vecs, warps, per_sm, items_per_warp):
    """The grid's CTA cap: ``per_sm`` an SM (persistent), or with ``items_per_warp`` as many
    CTAs as give each warp that many work items (the kernel's items a row x M; M a multiple
    of 128, so no padding items)."""
    if not items_per_warp:
        return per_sm * sm_count()
    items = m * NVFP4Quant(k, cutlass.BFloat16, fused, False, vecs, warps).chunks
    return -(-items // (warps * items_per_warp))


def _fn(m, k, fused, variant):
    (encode, vecs, warps, per_sm, min_ctas), options = variant
    max_ctas = _max_ctas(m, k, fused, vecs, warps, per_sm, options.get("items_per_warp", 0))
    # (compile_nvfp4_quant is a cached compile: positional arguments only)
    return compile_nvfp4_quant(k, str(_dtype()), fused, False, vecs, warps,
                               max_ctas, options.get("prefetch", False), False,
                               encode, min_ctas, 0, options.get("early_loads", False),
                               options.get("trigger", True), options.get("claim", 0))


def main():
    shapes = select_shapes(SHAPES)
    copy = None if warm_only() else copy_bandwidth_tbs(256 << 20, "torch")
    if copy:
        print(f"torch copy_ 256 MiB: {copy:.3f} TB/s", flush=True)
    rows = []
    for m, k, fused in shapes:
        width = 2 * k if fused else k
        variants = FUSED if fused else PLAIN
        if os.environ.get("QUANT_PROBE_VARIANTS"):
            keep = {"old", *os.environ["QUANT_PROBE_VARIANTS"].split(",")}
            variants = {n: v for n, v in variants.items() if n in keep}
        elif m < 4096:
            variants = {n: variants[n] for n in ("old", "cmp12v2" if fused else "cmp8",
                                                 DEFAULT[fused])}
        nbytes = m * width * 2 + m * k // 2 + _sf_bytes(m, k)
        n_in = 2 if m >= 4096 else 8
        spread = 4 if _dtype() == torch.bfloat16 else 0.7
        xs = [(torch.randn(m, width, device="cuda") * torch.rand(m, 1, device="cuda") * spread
               ).to(_dtype()) for _ in range(n_in)]
        g = reference.nvfp4_global_scale(reference.silu_mul(xs[0]) if fused else xs[0]
                                         ).reshape(1)
        mask = torch.zeros(1, dtype=torch.int32, device="cuda")
        counters = torch.zeros(CLAIM_WORDS, dtype=torch.int32, device="cuda")  # `claim`: left zero
        outs = {}
        calls = {}
        # a copy moving the same bytes (half read, half written): this size's own ceiling
        src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        calls["copy"] = [lambda: dst.copy_(src)]
        for name, variant in variants.items():
            fn = _fn(m, k, fused, variant)
            q = torch.full((m, k // 2), 0xFF, dtype=torch.uint8, device="cuda")
            sf = torch.full((_sf_bytes(m, k),), 0xFF, dtype=torch.uint8, device="cuda")
            count = counters if variant[1].get("claim") else mask
            fn(xs[0], g, count, q, sf)
            outs[name] = (q.clone(), sf.clone())
            calls[name] = [lambda x=x, fn=fn, q=q, sf=sf, c=count: fn(x, g, c, q, sf)
                           for x in xs]
        # the variants' graphs replayed in turn: the M = 16384 points drifted by up to 13
        # points between separately timed runs (session 10)
        times = dict(zip(calls, time_graphs_interleaved_us(list(calls.values()),
                                                           calls_per_graph=20)))
        if warm_only():
            continue
        base = outs["old"]
        line = f"{'fused' if fused else 'plain'} {_dtype()} M={m:<5} K={k:<5}"
        for name, t in times.items():
            if name == "copy":
                line += f" | same-size copy {t:8.2f} us {nbytes / t / 1e6 / copy:6.1%}"
                continue
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
