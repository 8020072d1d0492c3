"""Why a launch with a nearly empty last token tile runs slower than with a full one (session
24's ``fused_route_probe``: 9216x7168 on 128-token stream-K tiles 80 us at M = 129, 55 at
M = 256, the same units; the pair and the plain GEMM alike): the wgmma kernels (plain "gemm",
fused "fused") on one launch with the activations as they are ("exact": M rows, the TMA
filling the tail with zeros), padded to the tile with zero rows ("pad0") and with random rows
("padR"), the outputs padded alike. Permuted words, kernels alone (bf16 activations),
interleaved graphs, two rounds, graph us; one point per CUTE_KERNELS_BENCH_SHAPES index."""

import torch
from probe_inputs import fused_operands, gate_up_words

from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us
from cute_kernels.large_m_plans import fused_stream_k_options, plain_launch_options
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_gemm
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
from layouts import sf_padded_shape

POINTS = [(9216, 7168, 129, 128), (9216, 7168, 256, 128), (4096, 7168, 129, 128),
          (9216, 7168, 129, 64)]

for two_i, k, m, tile_m in select_shapes(POINTS):
    mp = -(-m // tile_m) * tile_m
    ops = fused_operands(two_i, k, mp, True)
    x_pad0 = ops["x16"].clone()
    x_pad0[m:] = 0
    xs = {"exact": ops["x16"][:m].clone(), "pad0": x_pad0, "padR": ops["x16"]}
    words = gate_up_words(two_i, k, True)
    alpha = torch.full((1,), 0.5, device="cuda")
    gs = torch.full((1,), 30.0, device="cuda")
    stream_k = tile_m == 128
    variants = {}
    for name, x in xs.items():
        rows = x.shape[0]
        out = torch.empty(rows, two_i, device="cuda", dtype=torch.bfloat16)
        q = torch.empty(rows, two_i // 4, device="cuda", dtype=torch.uint8)
        sf = torch.empty(sf_padded_shape(rows, two_i // 32), device="cuda",
                         dtype=torch.uint8).view(-1)
        variants[f"gemm_{name}"] = [lambda w=w, x=x, out=out: launch_gemm(
            x, w[0], w[1], alpha, out, (tile_m, 0), stream_k=stream_k,
            **plain_launch_options(rows, two_i, k, tile_m, stream_k)) for w in words]
        fused_options = fused_stream_k_options(rows, two_i, k, tile_m) if stream_k else {}
        variants[f"fused_{name}"] = [lambda w=w, x=x, q=q, sf=sf: launch_fused(
            x, w[0], w[1], alpha, gs, q, sf, (tile_m, 0), stream_k=stream_k, **fused_options)
            for w in words]
    names = list(variants)
    for _ in range(2):
        times = time_graphs_interleaved_us([variants[v] for v in names], 20)
        print(f"{two_i}x{k} M={m} tile {tile_m}{' sk' if stream_k else ''}: "
              + " ".join(f"{v}={t:.2f}" for v, t in zip(names, times)), flush=True)
