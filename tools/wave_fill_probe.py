"""Launch shapes of the wgmma kernel at the M >= 256 points issue 5 misses by little
(4096x7168 M = 1024: 0.89x cuBLAS against 0.9x, ~1 us short) or by more (the M = 256 points,
7168x2048 M = 1024), beyond the planned launch: stream-K and the hybrid at 128- and 256-token
tiles, whole tiles of the other width, and fewer stages. Session 22 (2026-11-30): the plans'
stream-K measurements (``large_m_plans``) were on packed weights; these are on permuted words.
Interleaved graphs, two rounds, the dequantization included; one point per
CUTE_KERNELS_BENCH_SHAPES index. skT / hyT / wT = stream-K / hybrid / whole tiles of T tokens,
sS = S stages."""

from probe_inputs import fits, planned, time_wgmma_variants

from cute_kernels.bench.timing import select_shapes

# (kind, N, K, M, alternatives to the planned launch)
POINTS = [("gemm", 4096, 7168, 1024, ("sk128", "sk256", "hy256", "s5")),
          ("gemm", 7168, 2048, 1024, ("sk128", "sk256", "hy128", "s5")),
          ("gemm", 9216, 7168, 256, ("w128", "sk256", "s5")),
          ("gemm", 4096, 7168, 256, ("w128", "w256", "sk256")),
          ("gemm", 7168, 2048, 256, ("sk128", "w256")),
          ("gemm", 5120, 17408, 256, ("sk256", "s5"))]
FORMS = {"w": {}, "sk": dict(stream_k=True), "hy": dict(stream_k=True, hybrid=True)}


def variants(kind, n, k, m, names):
    """name -> launch keywords: the planned launch, then each of ``names`` that constructs."""
    launch = planned(kind, n, k, m)
    out = {"auto": launch}
    for name in names:
        if name.startswith("s") and not name.startswith("sk"):
            v = dict(launch, config=(launch["config"][0], int(name[1:])))
        else:
            form = name.rstrip("0123456789")
            v = dict(dict(splits=1, stream_k=False, hybrid=False), **FORMS[form],
                     config=(int(name[len(form):]), 0))
        if fits(kind, n, k, v):
            out[name] = v
    return out


for kind, n, k, m, names in select_shapes(POINTS):
    found = variants(kind, n, k, m, names)
    print(f"{kind} {n}x{k} M={m}: auto = {found['auto']}", flush=True)
    time_wgmma_variants(kind, n, k, m, found)
