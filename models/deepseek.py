"""DeepSeek-V3 / Kimi-K2.5 dense and shared-expert MLPs on the kernels, tensor-parallel slices.

Shapes (DESIGN.md): hidden 7168, dense intermediate 18432, shared-expert intermediate 2048.
A TP shard ``tp_rank`` of ``tp_size`` holds intermediate columns ``[r*Is, (r+1)*Is)``,
``Is = I / tp_size``: the gate and up rows of that range and the down columns of that range.
Each shard returns a partial sum; the all-reduce (sum over ranks) is the caller's.

NVFP4 (both projections NVFP4, ModelOpt): after loading, the gate_up weight is prepared ONCE
with ``prepare_gate_up_weight`` (rows ``interleave([up; gate], 64)``, swizzled scales of those
rows); ``restore()`` undoes it bit-exactly (``restore_gate_up_weight``). Both paths read the
prepared weight (the interleaved rows are a valid ``nvfp4_gemm`` B operand):

* fused (default): ``(h_fp4, h_sf) = gemm_swiglu_quant(x, W_gu_prepared, alpha =
  gate_up.weight_scale_2, G = 1 / down.input_scale)``, ``h = (alpha*up) * silu(alpha*gate)``
  computed in fp64 and rounded once to fp32 (``reference.gemm_swiglu_quant``), then the down
  ``nvfp4_gemm``. On the CPU this is ``reference.gemm_swiglu_quant``; on CUDA the kernel
  ``cute_kernels.nvfp4_gemm_swiglu_quant`` (h in fp32 on the accumulators, never in memory).
* unfused (env ``CUTE_KERNELS_ENABLE_NVFP4_GEMM_SWIGLU_FUSION=0``): the kernel pair the fused
  op replaces. gate_up ``nvfp4_gemm`` (bf16 x, W4A16, alpha = weight_scale_2) to bf16 [M, 2Is]
  (interleaved rows, so the columns come out in groups of 64 up, 64 gate), regrouped to
  [gate | up], then ``silu_mul_nvfp4_quant(gate_up, G = 1 / down.input_scale)``
  (``h = bf16(silu(gate) * up)``, FlashInfer's convention) -> down ``nvfp4_gemm``. Every step
  is a kernel on CUDA (CUDA-graph safe) and the reference on the CPU.
  Difference to the fused path: gate, up and h are rounded to bf16 here; the fused path keeps
  them in fp32 (h rounded once). The FP4 codes agree except where those roundings move h across
  an e2m1 rounding boundary (one step; measured by the tests).

bf16 checkpoints: ``gate_up = linear(x)``, ``h = silu_mul`` (bf16), ``y = linear(h)``; nothing
to prepare. Mixed formats are rejected.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Tuple

import torch

from cute_kernels import reference
from cute_kernels.gate_up_weight import prepare_gate_up_weight, restore_gate_up_weight
from layouts import swizzle_sf, unswizzle_sf

from . import ops
from .checkpoint import (FP4_BLOCK, CheckpointError, MLPShapes, NVFP4Linear, Projection,
                         _read_raw, load_mlp, read_tensors)
from .env import env_flag

__all__ = ["DeepSeekConfig", "DeepSeekMLP", "SWIGLU_FUSION_ENV", "swiglu_fusion_enabled",
           "shard_mlp_checkpoint"]

SWIGLU_FUSION_ENV = "CUTE_KERNELS_ENABLE_NVFP4_GEMM_SWIGLU_FUSION"
GROUP = 64  # gate/up interleave group of the prepared weight


def swiglu_fusion_enabled() -> bool:
    """False when ``CUTE_KERNELS_ENABLE_NVFP4_GEMM_SWIGLU_FUSION`` is ``0``/``false``/``no``/
    ``off``; default (unset or anything else) True. Read at every call."""
    return env_flag(SWIGLU_FUSION_ENV, default=True)


@dataclass(frozen=True)
class DeepSeekConfig:
    hidden_size: int = 7168
    intermediate_size: int = 18432
    shared_expert_intermediate_size: int = 2048
    tp_size: int = 1
    tp_rank: int = 0

    def __post_init__(self):
        if self.tp_size < 1 or not 0 <= self.tp_rank < self.tp_size:
            raise ValueError(f"tp_rank = {self.tp_rank} must be in [0, tp_size = {self.tp_size})")
        for name in ("intermediate_size", "shared_expert_intermediate_size"):
            if getattr(self, name) % self.tp_size:
                raise ValueError(f"{name} = {getattr(self, name)} is not divisible by "
                                 f"tp_size = {self.tp_size}")

    def mlp_intermediate(self, kind: str = "dense") -> int:
        """Full (unsharded) intermediate size of ``kind`` = "dense" or "shared_expert"."""
        if kind == "dense":
            return self.intermediate_size
        if kind == "shared_expert":
            return self.shared_expert_intermediate_size
        raise ValueError(f"kind: expected 'dense' or 'shared_expert', got {kind!r}")

    def shard_intermediate(self, kind: str = "dense") -> int:
        return self.mlp_intermediate(kind) // self.tp_size

    @classmethod
    def tiny(cls, **overrides) -> "DeepSeekConfig":
        """Small sizes of the same structure (shards stay multiples of 64 up to tp_size 2)."""
        base = dict(hidden_size=256, intermediate_size=512, shared_expert_intermediate_size=256)
        base.update(overrides)
        return cls(**base)


# ----------------------------------------------------------------------------- TP slicing

def shard_mlp_checkpoint(source, prefix: str, hidden_size: Optional[int], intermediate_size:
                         Optional[int], tp_size: int, tp_rank: int) -> Mapping[str, torch.Tensor]:
    """The shard ``tp_rank`` of the full MLP checkpoint under ``prefix``, as a new ModelOpt-style
    dict (``gate_proj`` / ``up_proj`` rows and ``down_proj`` columns of the shard; NVFP4 scales
    sliced with them, scalars shared). Validates the full tensors first (``CheckpointError``)."""
    tensors = read_tensors(source)
    h, i = hidden_size, intermediate_size
    if f"{prefix}.gate_up_proj.weight" in tensors:
        gu = _read_raw(tensors, f"{prefix}.gate_up_proj", h, None if i is None else 2 * i)
        rows = gu["weight"].shape[0]
        if rows % 2:
            raise CheckpointError(f"{prefix}.gate_up_proj.weight: {rows} rows, expected even 2I")
        half = rows // 2
        parts = {"gate_proj": _slice_rows(gu, 0, half), "up_proj": _slice_rows(gu, half, rows)}
    else:
        parts = {p: _read_raw(tensors, f"{prefix}.{p}", h, i) for p in ("gate_proj", "up_proj")}
    i_full = parts["gate_proj"]["weight"].shape[0]
    down = _read_raw(tensors, f"{prefix}.down_proj", i_full, h)
    if i_full % tp_size:
        raise CheckpointError(f"{prefix}.gate_proj.weight: intermediate {i_full} is not "
                              f"divisible by tp_size = {tp_size}")
    ish = i_full // tp_size
    lo, hi = tp_rank * ish, (tp_rank + 1) * ish
    nvfp4 = down["format"] == "nvfp4"
    if nvfp4 and ish % FP4_BLOCK:
        raise CheckpointError(f"{prefix}.down_proj.weight: shard width {ish} is not a multiple "
                              f"of the NVFP4 block {FP4_BLOCK}")
    out = {}
    for p, raw in parts.items():
        out.update(_entries(f"{prefix}.{p}", _slice_rows(raw, lo, hi)))
    dn = dict(down)
    if nvfp4:
        dn["weight"] = down["weight"][:, lo // 2:hi // 2]
        dn["weight_scale"] = down["weight_scale"][:, lo // FP4_BLOCK:hi // FP4_BLOCK]
    else:
        dn["weight"] = down["weight"][:, lo:hi]
    out.update(_entries(f"{prefix}.down_proj", dn))
    return out


def _slice_rows(raw: dict, lo: int, hi: int) -> dict:
    r = dict(raw)
    r["weight"] = raw["weight"][lo:hi]
    if raw["format"] == "nvfp4":
        r["weight_scale"] = raw["weight_scale"][lo:hi]
    return r


def _entries(prefix: str, raw: dict) -> dict:
    keys = ("weight",) if raw["format"] == "bf16" else (
        "weight", "weight_scale", "weight_scale_2", "input_scale")
    return {f"{prefix}.{k}": raw[k].contiguous() for k in keys}


def _rows(x: torch.Tensor, k: int, name: str) -> torch.Tensor:
    if not isinstance(x, torch.Tensor) or x.dim() < 1 or x.shape[-1] != k:
        raise ValueError(f"{name}: expected [..., {k}], got "
                         f"{tuple(x.shape) if isinstance(x, torch.Tensor) else type(x).__name__}")
    return x.reshape(-1, k).contiguous()


# ----------------------------------------------------------------------------- MLP

class DeepSeekMLP(MLPShapes):
    """SwiGLU MLP (dense or shared expert), one TP shard: ``y_r = down_r(silu(gate_r) * up_r)``.

    Build with ``from_checkpoint`` (slices the shard out of a full checkpoint) or from shard
    projections (``gate_up`` = [gate; up] in ModelOpt layout, ``down``). NVFP4 weights are
    prepared on construction (``prepared`` is True); ``restore()`` gives them back.
    """

    def __init__(self, gate_up: Projection, down: Projection, prepare: bool = True):
        if gate_up.n != 2 * down.k:
            raise ValueError(f"gate_up: {gate_up.n} rows, expected 2 x down's K = {2 * down.k}")
        if gate_up.k != down.n:
            raise ValueError(f"gate_up: K = {gate_up.k}, expected down's N = {down.n}")
        if isinstance(gate_up, NVFP4Linear) != isinstance(down, NVFP4Linear):
            raise CheckpointError("gate_up and down_proj must both be NVFP4 or both bf16")
        self.gate_up, self.down = gate_up, down
        self.prepared = False
        if prepare and self.nvfp4:
            self.prepare()

    @classmethod
    def from_checkpoint(cls, source, prefix: str, config: Optional[DeepSeekConfig] = None,
                        kind: str = "dense", tp_size: Optional[int] = None,
                        tp_rank: Optional[int] = None, device=None) -> "DeepSeekMLP":
        """Load the shard (config's tp_size / tp_rank unless given) of the MLP under ``prefix``
        from a full ModelOpt (or bf16) checkpoint; ``kind`` picks the config's intermediate
        size ("dense" or "shared_expert") for shape checks."""
        h = i = None
        ts, tr = 1, 0
        if config is not None:
            h, i = config.hidden_size, config.mlp_intermediate(kind)
            ts, tr = config.tp_size, config.tp_rank
        ts = ts if tp_size is None else tp_size
        tr = tr if tp_rank is None else tp_rank
        if ts < 1 or not 0 <= tr < ts:
            raise ValueError(f"tp_rank = {tr} must be in [0, tp_size = {ts})")
        shard = shard_mlp_checkpoint(source, prefix, h, i, ts, tr)
        gate_up, down = load_mlp(shard, prefix, h, None if i is None else i // ts, device)
        return cls(gate_up, down)

    @property
    def nvfp4(self) -> bool:
        return isinstance(self.gate_up, NVFP4Linear)

    def fused(self) -> bool:
        return self.nvfp4 and swiglu_fusion_enabled()

    # ---- weight preparation
    def prepare(self) -> None:
        """ModelOpt [gate; up] -> interleaved [up; gate] rows + swizzled scales (once)."""
        if self.prepared or not self.nvfp4:
            return
        gu = self.gate_up
        raw_sf = unswizzle_sf(gu.weight_scale, gu.n, gu.k // FP4_BLOCK)
        w_i, sf_i = prepare_gate_up_weight(gu.packed, raw_sf)
        self.gate_up = NVFP4Linear(w_i, sf_i, gu.weight_scale_2, gu.input_scale)
        self.prepared = True

    def restore(self) -> NVFP4Linear:
        """Undo ``prepare``: the gate_up projection in the loader's layout ([gate; up] rows,
        swizzled scales), bit-identical to what was loaded; the MLP keeps it (unprepared;
        the next call prepares again)."""
        if not self.nvfp4:
            raise ValueError("restore(): only NVFP4 weights are prepared")
        if self.prepared:
            gu = self.gate_up
            w, sf = restore_gate_up_weight(gu.weight, gu.weight_scale)
            self.gate_up = NVFP4Linear(w, swizzle_sf(sf).contiguous(), gu.weight_scale_2,
                                       gu.input_scale)
            self.prepared = False
        return self.gate_up

    def to(self, device) -> "DeepSeekMLP":
        m = DeepSeekMLP(self.gate_up.to(device), self.down.to(device), prepare=False)
        m.prepared = self.prepared
        return m

    # ---- forward
    def gate_up_unfused(self, x2: torch.Tensor) -> torch.Tensor:
        """bf16 [M, 2Is] = [gate | up] of the unfused path: the gate_up GEMM on the prepared
        (interleaved) weight, its column groups put back in order."""
        self.prepare()
        gu = self.gate_up
        acc = ops.nvfp4_gemm(x2, None, gu.weight, gu.weight_scale, gu.weight_scale_2,
                             out_dtype=torch.bfloat16)               # [M, 2Is], interleaved
        v = acc.view(acc.shape[0], -1, 2, GROUP)                      # [M, Is/64, (up, gate), 64]
        return torch.cat([v[:, :, 1].reshape(acc.shape[0], -1),
                          v[:, :, 0].reshape(acc.shape[0], -1)], dim=1)

    def quantized_activation(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """NVFP4 h of the current path: (packed [M, Is/2], swizzled scales)."""
        if not self.nvfp4:
            raise ValueError("quantized_activation: only for NVFP4 weights")
        x2 = _rows(x, self.hidden_size, "x")
        self.prepare()
        g = self.down.input_global_scale
        if self.fused():
            gu = self.gate_up
            fused = ops.nvfp4_gemm_swiglu_quant if ops.on_gpu(x2) else reference.gemm_swiglu_quant
            return fused(x2, None, gu.weight, gu.weight_scale, gu.weight_scale_2, g)
        return ops.silu_mul_nvfp4_quant(self.gate_up_unfused(x2), g)

    def __call__(self, x: torch.Tensor, out_dtype: Optional[torch.dtype] = None) -> torch.Tensor:
        """x bf16 [..., hidden] -> this shard's partial y [..., hidden] in ``out_dtype``
        (default x's dtype)."""
        lead = x.shape[:-1] if isinstance(x, torch.Tensor) else ()
        x2 = _rows(x, self.hidden_size, "x")
        out_dtype = out_dtype or x.dtype
        if self.nvfp4:
            y = self.down.quantized(*self.quantized_activation(x2), out_dtype=out_dtype)
        else:
            h = ops.silu_mul(self.gate_up(x2))
            y = self.down(h).to(out_dtype)
        return y.reshape(*lead, self.hidden_size)
