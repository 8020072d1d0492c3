"""Small device probe: copy ceiling at several sizes, GEMV host overhead, and QuACK gemm_w4a16
NVFP4 beside ours on 36864x7168 at M = 1 and 16. ``python tools/final_probe.py``"""
import torch

from cute_kernels.bench import ceilings, gemv_suite
from cute_kernels.bench.nvfp4_gemm_suite import _activations, _quack, _weights
from cute_kernels.bench.timing import time_graph_us
from cute_kernels.nvfp4_gemm import nvfp4_gemm

for mb in (256, 512, 2048):
    print(f"copy ceiling, {mb} MiB buffers: ours {ceilings.copy_bandwidth_tbs(mb << 20):.2f} TB/s, "
          f"torch copy_ {ceilings.copy_bandwidth_tbs(mb << 20, kernel='torch'):.2f} TB/s")
for r in gemv_suite._host_overhead_rows():
    lin = r.comparators["F.linear CPU"]
    print(f"host {r.name}: {r.us:.1f} us/call vs F.linear {lin:.1f} ({r.us / lin:.2f}x)")
n, k = 36864, 7168
copies = [_weights(n, k) for _ in range(2)]
quack = _quack(copies, n, k)
for m in (1, 16):
    x, a, a_sf = _activations(m, k)
    ours = time_graph_us([lambda b=b, s=s: nvfp4_gemm(x, None, b, s, 0.5) for b, s in copies])
    ours4 = time_graph_us([lambda b=b, s=s: nvfp4_gemm(a, a_sf, b, s, 0.5) for b, s in copies])
    q = time_graph_us([lambda f=f: f(x) for f in quack]) if quack else float("nan")
    print(f"{n}x{k} M={m}: ours W4A16 {ours:.1f} us, W4A4 {ours4:.1f} us, QuACK w4a16 {q:.1f} us")
