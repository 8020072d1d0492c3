"""NVFP4 dequantize: ours vs the same arithmetic in torch ops, on weight- and activation-sized inputs."""

from __future__ import annotations

import torch

from .. import reference
from ..nvfp4_dequant import nvfp4_dequantize
from .report import Row
from .timing import rotations_for, time_eager_us, time_graph_us

SHAPES = [(7168, 18432), (36864, 7168), (34816, 5120), (4096, 7168)]


def _inputs(m: int, k: int):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16) * torch.rand(m, 1, device="cuda") * 4
    g = 448 * 6 / x.abs().amax().float()
    q, sf = reference.nvfp4_quantize(x, g)
    return q, sf, g.reshape(1)


def run(quick: bool = False, **_) -> list[Row]:
    rows = []
    for m, k in SHAPES[:2] if quick else SHAPES:
        q, sf, g = _inputs(m, k)
        nbytes = q.numel() + sf.numel() + m * k * 2
        copies = [(q.clone(), sf.clone(), g.clone()) for _ in range(rotations_for(nbytes))]
        ours = [lambda c=c: nvfp4_dequantize(*c) for c in copies]
        torch_ops = [lambda c=c: reference.nvfp4_dequantize(c[0], c[1], c[2],
                                                             out_dtype=torch.bfloat16)
                     for c in copies[:2]]
        rows.append(Row("dequant", "nvfp4_dequantize", f"M={m} K={k}", time_graph_us(ours),
                        eager_us=time_eager_us(ours), bytes=nbytes,
                        # The torch path syncs on the host, so it cannot be captured: eager.
                        comparators={"torch ops (eager)": time_eager_us(torch_ops, repeats=10)}))
    return rows
