"""Why ``nvfp4_quantize`` through its public entry (fresh outputs per call, as the quant suite
and ``copy_size_probe.py`` time it) ran 23% slower at M = 4096, K = 17408 / 18432 than the
same kernel config in ``quant_bw_probe.py`` (one output buffer for every call; H200
2026-11-30: 62.69 against 50.90 us), while at K = 5120 / 7168 it ran as fast or faster. Same
kernel, timed side by side (graphs replayed in turn), per shape:

  fresh       the public function, new outputs each call (the graph pool's addresses)
  one-out     the public function writing one preallocated (packed, scales) pair every call
  rot-out     the same with as many preallocated pairs as the graph has calls
  fresh-rand  fresh outputs on plain randn input with G = 30 (copy_size_probe's data)

The first three use quant_bw_probe's input (randn scaled per row, G from the data)."""

import torch

from cute_kernels import nvfp4_quantize, reference
from cute_kernels.bench.timing import time_graphs_interleaved_us, warm_only

CALLS = 20


def sf_bytes(m: int, k: int) -> int:
    return -(-m // 128) * 128 * -(-(k // 16) // 4) * 4


def outs(m: int, k: int):
    return (torch.empty(m, k // 2, dtype=torch.uint8, device="cuda"),
            torch.empty(sf_bytes(m, k), dtype=torch.uint8, device="cuda"))


for m, k in [(4096, 5120), (4096, 17408), (4096, 18432), (16384, 5120)]:
    xs = [(torch.randn(m, k, device="cuda") * torch.rand(m, 1, device="cuda") * 4
           ).to(torch.bfloat16) for _ in range(2)]
    plain = [torch.randn(m, k, device="cuda", dtype=torch.bfloat16) for _ in range(2)]
    g = reference.nvfp4_global_scale(xs[0]).reshape(1)
    one = outs(m, k)
    many = [outs(m, k) for _ in range(CALLS)]
    calls = {
        "fresh": [lambda x=x: nvfp4_quantize(x, g) for x in xs],
        "one-out": [lambda x=x: nvfp4_quantize(x, g, out=one) for x in xs],
        # CALLS closures: the graph's i-th call takes pair i and input i % 2
        "rot-out": [lambda i=i: nvfp4_quantize(xs[i % 2], g, out=many[i]) for i in range(CALLS)],
        "fresh-rand": [lambda x=x: nvfp4_quantize(x, 30.0) for x in plain],
    }
    times = time_graphs_interleaved_us(list(calls.values()), CALLS)
    if warm_only():
        continue
    moved = 2 * m * k + m * k // 2 + sf_bytes(m, k)
    print(f"M={m} K={k}: " + " | ".join(f"{name} {us:.2f} us ({moved / us / 1e6:.2f} TB/s)"
                                       for name, us in zip(calls, times)), flush=True)
    del xs, plain, one, many
