"""The fp32 split route of ``nvfp4_gemm_swiglu_quant``, for shapes whose fused wgmma grid starves
or where the plain GEMM's launch takes narrower token tiles than the fused kernel can.

The fused wgmma kernel needed whole sums in its epilogue, so it could not split K: 2I x K =
1024x7168 at M = 256 is 8 CTAs of 128 weight rows on 132 SMs (58.7 us on the H200 against 33.0
for the unfused pair, whose GEMM splits K). This route keeps the fused op's numerics and still
splits (since session 30 the fused kernel itself takes split-K pieces, the "pieces" route of
``large_m_route``, on the small weights where this route ran before):

1. the wgmma GEMM on the prepared [2I, K] weight, K split over CTAs (``large_m_plan``), writes
   the fp32 pre-activations ``alpha * acc`` [M, 2I] (the pieces added in the launch);
2. ``NVFP4Quant`` in its fp32, interleaved-columns variant forms ``h = up * silu(gate)`` in fp32
   (``silu_mul_fast``, as both fused epilogues) and quantizes it with the output global scale.

h is never rounded to bf16 (the unfused pair rounds gate, up and h), so codes and scales follow
the same rule as the fused kernels'. The cost over the fused kernel is the fp32 round trip of
[M, 2I] and one more launch. ``nvfp4_gemm_swiglu_quant`` took it wherever ``split_route_plan``
applied until session 30 (``tools/swiglu_split_probe.py``, H200 2026-11-30: 1024x7168 M = 256
30.7 us against 55.3 fused and 30.7 for the pair; 4096x7168 M = 128 36.4 against 54.9 and
36.1); bigger weights still take it where ``large_m_route`` finds no other launch.

The same two steps also serve where ``nvfp4_gemm``'s own launch (``plain_plan``) has narrower
token tiles than the fused kernel's (which needs 64 and keeps 256 where the plain GEMM cuts
finer): step 1 is then that launch, stream-K included (``fp32_route_plan``;
``tools/fused_route_overhead_probe.py``, H200 2026-11-30, permuted words, us, this route /
the fused kernel's route: 9216x7168 M = 256 59.6 / 63.9, 1024x7168 M = 1024 37.7 / 39.9).

(Session 33 also sent it wherever ``nvfp4_gemm`` runs 64-row tiles on the [2I, K] weight; the
fused kernel on half interleave groups replaced that in session 34, ``half_group_route``.)
"""

from __future__ import annotations

import torch

from .constants import constant
from .large_m_plans import large_m_plan, plain_plan_before_lanes_128
from .nvfp4_gemm import launch_planned
from .nvfp4_quant import compile_nvfp4_quant, launch_config
from .permuted_fp4 import weight_dims


def split_route_plan(m: int, i: int, k: int) -> tuple[int, int, bool, bool] | None:
    """(tile_m, splits, False, False), in ``plain_plan``'s form, for the [2I, K] GEMM where
    ``large_m_plan`` splits K (its grid fills less than one wave), else None (the fused wgmma
    kernel keeps the shape)."""
    tile_m, splits = large_m_plan(m, 2 * i, k)
    return (tile_m, splits, False, False) if splits > 1 else None


def fp32_route_plan(m: int, i: int, k: int,
                    fused_tile: int) -> tuple[int, int, bool, bool] | None:
    """``nvfp4_gemm``'s plan on the [2I, K] weight where its token tile is narrower than
    ``fused_tile`` (the fused kernel's), else None: the plan before its 128-token lanes
    (``plain_plan_before_lanes_128``; the fused kernel takes lanes on its own 128-token
    tiles, and the rule was measured before them)."""
    plan = plain_plan_before_lanes_128(m, 2 * i, k)
    return plan if plan[0] < fused_tile else None


def launch_split_route(a, a_sf, w, w_sf, alpha: torch.Tensor, out_global_scale: torch.Tensor,
                       out: torch.Tensor, out_sf: torch.Tensor,
                       plan: tuple[int, int, bool, bool]) -> None:
    """The route on validated operands (as ``nvfp4_gemm_swiglu_quant`` passes them to its
    kernels): ``out`` uint8 [M, I/2], ``out_sf`` the scale bytes [pad128(M), pad4(I/16)],
    alpha and out_global_scale one-element fp32 tensors, ``plan`` the GEMM's launch in
    ``plain_plan``'s form (tile_m, splits, stream_k, hybrid)."""
    m, i = a.shape[0], weight_dims(w)[0] // 2
    pre = torch.empty((m, 2 * i), dtype=torch.float32, device=w.device)
    # (untriggered: the trigger is measured on nvfp4_gemm's launches only, and lost on the
    # fused op's own)
    launch_planned(a, a_sf, w, w_sf, alpha, pre, plan, pdl_trigger=False)
    quant = compile_nvfp4_quant(i, "torch.float32", True, False,
                                *launch_config(i, True, w.device, m, fp32_input=True))
    quant(pre, out_global_scale, constant(1, torch.int32, w.device), out,
          out_sf.view(torch.uint8).view(-1))  # the mask argument is not read
