"""``wg_k_split`` (64-row CTA tiles, the two consumer warpgroups on the two K groups of each
stage, summed in shared memory) against the public route, on issue 5's M <= 64 points of the
small weights, where 128-row tiles leave SMs idle (7168x2048 at 33..64 tokens: 56 CTAs) or
need K pieces summed through global memory (4096x7168: four pieces a tile). Graph us with
the activations' dequantization, QuACK ``gemm_w4a16`` (bf16 activations) in the same
interleaved run. Variants: "plan" (the public route's wgmma launch), "public" (the public
function, small-M kernel where it routes there), "wgk{t}" (whole 64-row tiles of ``t``
tokens), "wgk{t}p{s}" (each tile in ``s`` K pieces added in the launch), "wgk{t}sk"
(stream-K on the default grid), at 129..256 tokens also "wgk128" / "wgk128p2" and cuBLAS
bf16; with ``CUTE_KERNELS_PROBE_ALONE=1`` only "public", "wgk" (the public route's launch
and "alone", the same launch on activations dequantized outside the timing: the pass's
share); with ``CUTE_KERNELS_PROBE_PAIRS=1`` also "wgk{t}pair" (``pair_pieces``: two CTAs a
tile in a cluster, summed through distributed shared memory) instead of "wgk{t}sk"; with
``CUTE_KERNELS_PROBE_TWO_CTAS=1`` instead of "plan" and
"wgk{t}sk": "wgk{t}p{s}c2", two CTAs an SM past one wave (t the token tile or half of it). One
point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import os

import torch
from probe_inputs import planned, weight_copies

from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight, reference
from cute_kernels.bench.nvfp4_gemm_suite import _quack
from cute_kernels.bench.timing import (rotations_for, select_shapes, time_graphs_interleaved_us,
                                       warm_only)
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, launch_large_m

POINTS = [(7168, 2048, 64), (7168, 2048, 32), (7168, 2048, 48), (7168, 2048, 16),
          (4096, 7168, 64), (4096, 7168, 32), (4096, 7168, 17), (7168, 2048, 128),
          (4096, 7168, 128), (7168, 18432, 64), (9216, 7168, 64), (7168, 2048, 96),
          # session 33 call 6: issue 5's M = 256 (0.9x cuBLAS) on the small weights
          (7168, 2048, 256), (4096, 7168, 256),
          # call 7: 128-token 64-row tiles in one wave at 129..256 tokens (public against
          # "wgk128" only)
          (4096, 7168, 129), (4096, 7168, 160), (4096, 7168, 192), (4096, 7168, 224)]
MID = range(14, 18)


def variants(n: int, k: int, m: int) -> dict:
    if alone():  # session 34: the route's GEMM without the activations' dequantization
        from cute_kernels.large_m_plans import wg_k_split_plan

        tile, splits = wg_k_split_plan(m, n, k)
        wgk = dict(config=(tile, 0), k_groups=2, wg_k_split=True, splits=splits)
        return {"public": None, "wgk": wgk, "alone": dict(wgk, alone=True)}
    if POINTS.index((n, k, m)) in MID:
        return {"public": None, "wgk128": dict(config=(128, 0), k_groups=2, wg_k_split=True)}
    tile = next(t for t in (16, 32, 64, 128, 256) if m <= t)
    tiles = -(-m // tile) * -(-n // 64)
    out = {"plan": planned("gemm", n, k, m), "public": None}
    wgk = dict(config=(tile, 0), k_groups=2, wg_k_split=True)
    out[f"wgk{tile}"] = wgk
    for s in (2, 3, 4):
        if tiles * s <= H200_SMS and (k // 128) % s == 0:
            out[f"wgk{tile}p{s}"] = dict(wgk, splits=s)
    out[f"wgk{tile}sk"] = dict(wgk, stream_k=True)
    if pairs():  # session 34: two CTAs a tile, summed through distributed shared memory
        del out[f"wgk{tile}sk"]
        if (k // 128) % 2 == 0:
            out[f"wgk{tile}pair"] = dict(wgk, pair_pieces=True)
    if tile == 256:  # 128-token tiles too
        out["wgk128"] = dict(wgk, config=(128, 0))
        if 2 * -(-n // 64) * -(-m // 128) <= H200_SMS:
            out["wgk128p2"] = dict(wgk, config=(128, 0), splits=2)
    if two_ctas():  # session 33 call 5: two CTAs an SM (four warpgroup chains), past one wave
        del out["plan"], out[f"wgk{tile}sk"]
        for t in (tile, tile // 2) if tile >= 32 else (tile,):
            t_tiles = -(-m // t) * -(-n // 64)
            for s in (1, 2, 4):
                if H200_SMS < t_tiles * s <= 2 * H200_SMS and (k // 128) % s == 0:
                    out[f"wgk{t}p{s}c2"] = dict(wgk, config=(t, 0), splits=s, ctas_per_sm=2)
    return out


def alone() -> bool:
    return os.environ.get("CUTE_KERNELS_PROBE_ALONE") == "1"


def pairs() -> bool:
    return os.environ.get("CUTE_KERNELS_PROBE_PAIRS") == "1"


def two_ctas() -> bool:
    return os.environ.get("CUTE_KERNELS_PROBE_TWO_CTAS") == "1"


def quack_calls(copies, n, k, x):
    """QuACK ``gemm_w4a16`` of ``x`` on each weight copy (the nvfp4_gemm suite's comparator),
    or None where QuACK is not installed."""
    quack = _quack(copies, n, k)
    return None if quack is None else [lambda q=q: q(x) for q in quack]


for n, k, m in select_shapes(POINTS):
    copies = weight_copies(n, k)
    words = [(prepare_nvfp4_weight(b), s) for b, s in copies]
    alpha = torch.full((1,), 0.5, device="cuda")
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    vs = variants(n, k, m)

    ready = {}  # "alone" variants: the activations dequantized once, outside the timing

    def run(w, v):
        if v is None:
            return nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)
        v = dict(v)
        alone = v.pop("alone", False)
        rows = -(-m // v["config"][0]) * v["config"][0]
        if alone and rows not in ready:
            ready[rows] = bf16_activations(a, a_sf, True, rows)
        acts = ready[rows] if alone else bf16_activations(a, a_sf, True, rows)
        return launch_large_m(acts, w[0], w[1], alpha, out, **v)

    groups = [[lambda w=w, v=v: run(w, v) for w in words] for v in vs.values()]
    names = list(vs)
    quack = None if warm_only() else quack_calls(copies, n, k, x)
    if quack is not None:
        groups.append(quack)
        names.append("quack")
    if m > 128 and not warm_only():  # cuBLAS bf16 where issue 5 compares against it
        w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
               for _ in range(rotations_for(n * k * 2))]
        groups.append([lambda w=w: torch.nn.functional.linear(x, w) for w in w16])
        names.append("cublas")
    # every variant once: compiles, and a reference check of the new launches
    want = None
    for name, v in vs.items():
        run(words[0], v) if v is not None else None
        if v is not None and v.get("wg_k_split") and not warm_only():
            got = out.float()
            if want is None:
                want = reference.nvfp4_gemm_fp64(a, a_sf, copies[0][0], copies[0][1], 0.5)
            err = ((got.double() - want).norm() / want.norm()).item()
            assert err < 5e-3, (name, err)
    print(f"gemm {n}x{k} M={m}: plan {vs.get('plan')}", flush=True)
    if warm_only():
        continue
    for _ in range(2):
        times = time_graphs_interleaved_us(groups, 100)
        q = times[names.index("quack")] if quack is not None else None
        print(f"gemm {n}x{k} M={m}: " + " ".join(
            f"{name}={t:.2f}" + (f"({q / t:.2f}xQ)" if q and name != "quack" else "")
            for name, t in zip(names, times)), flush=True)
