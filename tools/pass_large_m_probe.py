"""The activations' decode pass alone at large M (session 46): issue 6's 1024x7168 trails
cuBLAS + silu at M = 4096 / 16384 by the pass (21.0 / 77.0 us for 75 / 300 MB, 3.6 / 3.9 TB/s;
the fused kernel alone is even with cuBLAS there). The pass launches ``units_per_thread`` = 4
on as many CTAs an SM as fit (``bf16_activations`` without ``spread``): at M = 4096, K = 7168
that is 1792 CTAs of 256 threads, 1.7 waves of 8 an SM. Variants ``u{units}c{ctas an SM}``
(c0: as many as fit) against a torch copy of the same bytes (read + written), permuted-K
kernel (the models' permuted words), interleaved graphs, two rounds, graph us and TB/s.
Points: M = 1024 / 4096 / 16384 at K = 7168, 4096 at K = 5120, by CUTE_KERNELS_BENCH_SHAPES
index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us
from cute_kernels.nvfp4_dequant import compile_nvfp4_dequant_permuted_k

POINTS = [(4096, 7168), (16384, 7168), (1024, 7168), (4096, 5120)]
VARIANTS = [(4, 0), (2, 0), (6, 0), (8, 0), (8, 4), (16, 4), (4, 4)]

for m, k in select_shapes(POINTS):
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       9.0)
    out = torch.empty(m, k, dtype=torch.bfloat16, device="cuda")
    words, sf = a.view(torch.int32).view(-1, 8), a_sf.view(-1)
    out32 = out.view(torch.int32).view(-1, 32)
    nbytes = a.numel() + a_sf.numel() + out.numel() * 2
    src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    calls = {"copy": lambda: dst.copy_(src)}
    want = None
    for units, ctas in VARIANTS:
        kernel = compile_nvfp4_dequant_permuted_k(k, ctas, units)
        out.fill_(float("nan"))
        kernel(words, sf, out32)
        got = out.clone()
        if want is None:
            want = got
        elif not torch.equal(got.view(torch.int16), want.view(torch.int16)):
            print(f"  u{units}c{ctas}: output differs from u4c0's")
        calls[f"u{units}c{ctas}"] = lambda kernel=kernel: kernel(words, sf, out32)
    names = list(calls)
    for _ in range(2):
        times = time_graphs_interleaved_us([[calls[n]] for n in names], 20)
        print(f"pass M={m} K={k} ({nbytes / 1e6:.1f} MB): " + " ".join(
            f"{n}={t:.2f} ({nbytes / t / 1e6:.2f})" for n, t in zip(names, times)), flush=True)
