"""Gated-DeltaNet qkvzba split on the Qwen3.8-27B shape (Hk 16, Hv 48, Dk = Dv = 128), both
layouts: ours vs torch slicing + ``.contiguous()`` (``reference.gdn_qkvzba_split``), graph-timed.

Bytes are what the op must move: the inputs read plus the same number written. At T = 1 the
contiguous layout normally returns views (nothing to time), so that row passes ``out=`` buffers
to time the kernel itself. ``--sweep`` adds rows for every vectors-per-thread variant.
"""

from __future__ import annotations

import torch

from .. import reference
from ..gdn_split import _launch, gdn_qkvzba_split
from .report import Row
from .timing import rotations_for, time_eager_us, time_graph_us

SHAPE = (16, 48, 128, 128)  # num_k_heads, num_v_heads, head_k_dim, head_v_dim
TOKENS = [1, 64, 4096, 16384]
LAYOUTS = ["contiguous", "interleaved"]


def _inputs(t: int, dtype=torch.bfloat16):
    hk, hv, dk, dv = SHAPE
    qkvz = torch.randn(t, 2 * hk * dk + 2 * hv * dv, device="cuda", dtype=dtype)
    ba = torch.randn(t, 2 * hv, device="cuda", dtype=dtype)
    return qkvz, ba


def _outputs(t: int, dtype=torch.bfloat16):
    hk, hv, dk, dv = SHAPE
    return (torch.empty(t, 2 * hk * dk + hv * dv, device="cuda", dtype=dtype),
            torch.empty(t, hv, dv, device="cuda", dtype=dtype),
            torch.empty(t, hv, device="cuda", dtype=dtype),
            torch.empty(t, hv, device="cuda", dtype=dtype))


def run(quick: bool = False, sweep: bool = False, **_) -> list[Row]:
    rows = []
    tokens = [1, 4096] if quick else TOKENS
    for layout in LAYOUTS:
        for t in tokens:
            qkvz, ba = _inputs(t)
            nbytes = 2 * (qkvz.numel() + ba.numel()) * qkvz.element_size()
            copies = [(qkvz.clone(), ba.clone()) for _ in range(rotations_for(nbytes // 2))]
            del qkvz, ba
            views = t == 1 and layout == "contiguous"
            shape = f"T={t} {layout[:6]}" + (" out=" if views else "")
            if views:
                outs = [_outputs(t) for _ in copies]
                ours = [lambda c=c, o=o: gdn_qkvzba_split(*c, *SHAPE, layout, out=o)
                        for c, o in zip(copies, outs)]
            else:
                ours = [lambda c=c: gdn_qkvzba_split(*c, *SHAPE, layout) for c in copies]
            torch_ops = [lambda c=c: reference.gdn_qkvzba_split(*c, *SHAPE, layout)
                         for c in copies]
            rows.append(Row("gdn", "gdn_qkvzba_split", shape, time_graph_us(ours),
                            eager_us=time_eager_us(ours), bytes=nbytes,
                            comparators={"torch slicing": time_graph_us(torch_ops)}))
            if sweep and t >= 4096:
                outs = _outputs(t)
                for u in (1, 2, 4, 8):
                    calls = [lambda c=c, u=u: _launch(*c, outs, *SHAPE, layout, u)
                             for c in copies]
                    rows.append(Row("gdn", f"gdn_split U={u}", shape, time_graph_us(calls),
                                    bytes=nbytes))
            del copies
            torch.cuda.empty_cache()
    return rows
