"""Checkpoint loading: ModelOpt NVFP4 and bf16 projections into the model layer's weight objects.

A checkpoint is a flat ``{name: tensor}`` dict (``read_tensors`` also opens a ``.safetensors``
file when the ``safetensors`` package is installed; it is not a dependency). A projection
``P`` is NVFP4 when ``P.weight`` is uint8 or any NVFP4 scale of ``P`` is present, else bf16:

* NVFP4 (ModelOpt): ``P.weight`` uint8 [N, K/2] (two e2m1 codes per byte, element 2i in the
  low nibble), ``P.weight_scale`` float8_e4m3fn [N, K/16], ``P.weight_scale_2`` fp32 scalar,
  ``P.input_scale`` fp32 scalar.
* bf16: ``P.weight`` bf16 [N, K].

Projections stored in parts (``gate_proj`` + ``up_proj``; the Gated-DeltaNet ``in_proj_qkv`` +
``in_proj_z``, ``in_proj_b`` + ``in_proj_a``) are concatenated along N ([gate; up], ...). NVFP4
parts must share ``weight_scale_2`` and ``input_scale`` (one alpha and one activation scale
for the merged GEMM); the raw [N, K/16] scales are concatenated, then swizzled once
(``layouts.swizzle_sf``) into the padded 128x4 layout ``nvfp4_gemm`` reads.

Anything malformed (a missing key, a wrong dtype or shape, parts that disagree) raises
``CheckpointError`` naming the tensor.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence, Tuple, Union

import torch

from cute_kernels import prepare_nvfp4_weight
from cute_kernels.permuted_fp4 import packed_form, weight_dims
from layouts import swizzle_sf

from . import ops
from .env import env_flag

__all__ = ["CheckpointError", "Bf16Linear", "NVFP4Linear", "Projection", "read_tensors",
           "load_projection", "load_merged_projection", "load_mlp", "load_gdn_in_proj"]

FP4_BLOCK = 16


class CheckpointError(ValueError):
    """A checkpoint tensor is missing or malformed (the message names the tensor)."""


# ----------------------------------------------------------------------------- weight objects

class MLPShapes:
    """Sizes of an MLP read off its projections (``gate_up`` [2I, H], ``down`` [H, I])."""

    @property
    def hidden_size(self) -> int:
        return self.down.n

    @property
    def intermediate_size(self) -> int:
        """I of this module's weights (a tensor-parallel shard's I for a sharded MLP)."""
        return self.down.k


@dataclass
class Bf16Linear:
    """``y = x @ weight^T``; weight bf16 [N, K]."""
    weight: torch.Tensor

    @property
    def n(self) -> int:
        return self.weight.shape[0]

    @property
    def k(self) -> int:
        return self.weight.shape[1]

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return ops.linear(x, self.weight)

    def to(self, device) -> "Bf16Linear":
        return Bf16Linear(self.weight.to(device))


PERMUTED_WEIGHTS_ENV = "CUTE_KERNELS_PERMUTED_WEIGHTS"


@dataclass
class NVFP4Linear:
    """An NVFP4 projection ready for ``nvfp4_gemm``.

    weight uint8 [N, K/2]; weight_scale e4m3 swizzled [pad128(N), pad4(K/16)];
    weight_scale_2 and input_scale fp32 [1]. The dequantized weight is
    ``e2m1(weight) * weight_scale * weight_scale_2``. On CUDA the weight is kept as
    ``prepare_nvfp4_weight``'s permuted int32 words [N, K/8] (the GEMMs decode them faster;
    ``CUTE_KERNELS_PERMUTED_WEIGHTS=0`` at construction keeps uint8); ``packed`` is always the
    uint8 form.
    """
    weight: torch.Tensor
    weight_scale: torch.Tensor
    weight_scale_2: torch.Tensor
    input_scale: torch.Tensor

    @property
    def n(self) -> int:
        return self.weight.shape[0]

    @property
    def k(self) -> int:
        return weight_dims(self.weight)[1]

    @property
    def packed(self) -> torch.Tensor:
        """The weight as packed uint8 [N, K/2], whichever form it is held in."""
        return packed_form(self.weight)

    def __post_init__(self):
        if self.weight.is_cuda and env_flag(PERMUTED_WEIGHTS_ENV, True):
            if self.weight.dtype == torch.uint8:
                self.weight = prepare_nvfp4_weight(self.weight)
        else:
            self.weight = packed_form(self.weight)
        # Computed once: a decode step then launches no scalar kernels (each is a graph node
        # of ~2 us next to a 30-50 us GEMM).
        self._alpha = self.input_scale * self.weight_scale_2
        self._input_global_scale = torch.reciprocal(self.input_scale)

    @property
    def alpha(self) -> torch.Tensor:
        """``input_scale * weight_scale_2`` (fp32): the GEMM scale for an NVFP4-quantized input."""
        return self._alpha

    @property
    def input_global_scale(self) -> torch.Tensor:
        """``1 / input_scale`` (fp32): the global scale G that quantizes this projection's input."""
        return self._input_global_scale

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        """W4A16: bf16 x [M, K] times the NVFP4 weight; alpha = weight_scale_2."""
        return ops.nvfp4_gemm(x, None, self.weight, self.weight_scale, self.weight_scale_2,
                              out_dtype=x.dtype)

    def quantized(self, a: torch.Tensor, a_sf: torch.Tensor,
                  out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
        """Pre-quantized input (packed [M, K/2], swizzled scales, quantized with
        ``input_global_scale``); alpha = input_scale * weight_scale_2."""
        return ops.nvfp4_gemm(a, a_sf, self.weight, self.weight_scale, self.alpha,
                              out_dtype=out_dtype)

    def quantize_input(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """NVFP4-quantize a bf16 input [M, K] with G = 1 / input_scale (swizzled scales)."""
        return ops.nvfp4_quantize(x, self.input_global_scale)

    def to(self, device) -> "NVFP4Linear":
        return NVFP4Linear(*(t.to(device) for t in (self.weight, self.weight_scale,
                                                    self.weight_scale_2, self.input_scale)))


Projection = Union[Bf16Linear, NVFP4Linear]


# ----------------------------------------------------------------------------- reading

def read_tensors(source: Union[Mapping[str, torch.Tensor], str, os.PathLike]
                 ) -> Mapping[str, torch.Tensor]:
    """A dict of tensors as is, or a `.safetensors` file's tensors (needs `safetensors`)."""
    if isinstance(source, Mapping):
        return source
    try:
        from safetensors.torch import load_file
    except ImportError as exc:  # not a dependency of this package
        raise ImportError(f"reading {os.fspath(source)!r} needs the 'safetensors' package; "
                          f"pass a dict of tensors instead") from exc
    return load_file(os.fspath(source))


def _get(tensors: Mapping[str, torch.Tensor], name: str) -> torch.Tensor:
    if name not in tensors:
        raise CheckpointError(f"{name}: missing from the checkpoint")
    t = tensors[name]
    if not isinstance(t, torch.Tensor):
        raise CheckpointError(f"{name}: expected a tensor, got {type(t).__name__}")
    return t


def _expect(name: str, t: torch.Tensor, dtype: torch.dtype, shape: Optional[tuple]) -> None:
    if t.dtype != dtype:
        raise CheckpointError(f"{name}: expected dtype {dtype}, got {t.dtype}")
    if shape is not None and tuple(t.shape) != tuple(shape):
        raise CheckpointError(f"{name}: expected shape {list(shape)}, got {list(t.shape)}")


def _scalar(tensors, name: str) -> torch.Tensor:
    t = _get(tensors, name)
    if t.dtype != torch.float32:
        raise CheckpointError(f"{name}: expected dtype torch.float32, got {t.dtype}")
    if t.numel() != 1:
        raise CheckpointError(f"{name}: expected a scalar, got shape {list(t.shape)}")
    v = float(t.reshape(()))
    if not (v > 0 and v < float("inf")):
        raise CheckpointError(f"{name}: expected a positive finite scale, got {v}")
    return t.reshape(1).clone()


def _is_nvfp4(tensors, prefix: str) -> bool:
    """NVFP4 if the packed uint8 weight or any of the NVFP4 scales is there."""
    w = tensors.get(f"{prefix}.weight")
    return (isinstance(w, torch.Tensor) and w.dtype == torch.uint8) or any(
        f"{prefix}.{s}" in tensors for s in ("weight_scale", "weight_scale_2", "input_scale"))


def _read_raw(tensors, prefix: str, k: Optional[int], n: Optional[int]) -> dict:
    """One projection, unswizzled: {'format', 'weight', ...}; k / n are checked when given."""
    wname = f"{prefix}.weight"
    w = _get(tensors, wname)
    if not _is_nvfp4(tensors, prefix):
        if w.dim() != 2:
            raise CheckpointError(f"{wname}: expected a 2-D [N, K] tensor, got {list(w.shape)}")
        _expect(wname, w, torch.bfloat16, (n if n is not None else w.shape[0],
                                            k if k is not None else w.shape[1]))
        return {"format": "bf16", "weight": w}
    if w.dtype != torch.uint8:
        raise CheckpointError(f"{wname}: expected dtype torch.uint8 (packed e2m1), got {w.dtype}")
    if w.dim() != 2:
        raise CheckpointError(f"{wname}: expected a 2-D [N, K/2] tensor, got {list(w.shape)}")
    rows, kk = w.shape[0], w.shape[1] * 2
    if k is not None and kk != k:
        raise CheckpointError(f"{wname}: expected shape {[rows if n is None else n, k // 2]} "
                              f"(K = {k}), got {list(w.shape)}")
    if n is not None and rows != n:
        raise CheckpointError(f"{wname}: expected {n} rows, got shape {list(w.shape)}")
    if kk % FP4_BLOCK:
        raise CheckpointError(f"{wname}: K = {kk} is not a multiple of {FP4_BLOCK}")
    sname = f"{prefix}.weight_scale"
    _expect(sname, _get(tensors, sname), torch.float8_e4m3fn, (rows, kk // FP4_BLOCK))
    return {"format": "nvfp4", "weight": w, "weight_scale": tensors[sname],
            "weight_scale_2": _scalar(tensors, f"{prefix}.weight_scale_2"),
            "input_scale": _scalar(tensors, f"{prefix}.input_scale")}


def _finish(raw: dict, device) -> Projection:
    if raw["format"] == "bf16":
        return Bf16Linear(raw["weight"].to(device).contiguous())
    sf = swizzle_sf(raw["weight_scale"].view(torch.uint8)).contiguous()
    return NVFP4Linear(raw["weight"].to(device).contiguous(),
                       sf.view(torch.float8_e4m3fn).to(device),
                       raw["weight_scale_2"].to(device), raw["input_scale"].to(device))


def load_projection(source, prefix: str, k: Optional[int] = None, n: Optional[int] = None,
                    device=None) -> Projection:
    """Load projection ``prefix`` (NVFP4 or bf16, detected as the module docstring says)."""
    return _finish(_read_raw(read_tensors(source), prefix, k, n), device)


def load_merged_projection(source, prefixes: Sequence[str], k: Optional[int] = None,
                           ns: Optional[Sequence[Optional[int]]] = None, device=None
                           ) -> Projection:
    """Load the parts ``prefixes`` (same format, same K) and concatenate them along N."""
    tensors = read_tensors(source)
    ns = list(ns) if ns is not None else [None] * len(prefixes)
    parts = [_read_raw(tensors, p, k, n) for p, n in zip(prefixes, ns)]
    first = parts[0]
    k0 = first["weight"].shape[1]
    for p, raw in zip(prefixes[1:], parts[1:]):
        if raw["format"] != first["format"]:
            raise CheckpointError(f"{p}.weight: {raw['format']}, but {prefixes[0]}.weight is "
                                  f"{first['format']}; parts of one projection must share a format")
        if raw["weight"].shape[1] != k0:
            raise CheckpointError(f"{p}.weight: shape {list(raw['weight'].shape)} does not match "
                                  f"{prefixes[0]}.weight {list(first['weight'].shape)} along K")
        if raw["format"] == "nvfp4":
            for key in ("weight_scale_2", "input_scale"):
                if not torch.equal(raw[key], first[key]):
                    raise CheckpointError(
                        f"{p}.{key}: {float(raw[key])} differs from {prefixes[0]}.{key} = "
                        f"{float(first[key])}; merged parts need one shared scale")
    merged = dict(first)
    merged["weight"] = torch.cat([r["weight"] for r in parts], dim=0)
    if first["format"] == "nvfp4":
        merged["weight_scale"] = torch.cat([r["weight_scale"].view(torch.uint8) for r in parts],
                                           dim=0).view(torch.float8_e4m3fn)
    return _finish(merged, device)


def load_mlp(source, prefix: str, hidden_size: Optional[int] = None,
             intermediate_size: Optional[int] = None, device=None
             ) -> Tuple[Projection, Projection]:
    """``(gate_up, down)`` of the MLP under ``prefix`` (e.g. ``model.layers.0.mlp``).

    gate_up = [gate_proj; up_proj] ([2I, H]); down = down_proj ([H, I]). If the checkpoint
    already holds a merged ``gate_up_proj`` it is used as is.
    """
    tensors = read_tensors(source)
    h, i = hidden_size, intermediate_size
    if f"{prefix}.gate_up_proj.weight" in tensors:
        gate_up = load_projection(tensors, f"{prefix}.gate_up_proj", h,
                                  None if i is None else 2 * i, device)
    else:
        gate_up = load_merged_projection(tensors, [f"{prefix}.gate_proj", f"{prefix}.up_proj"],
                                         h, [i, i], device)
    if gate_up.n % 2:
        raise CheckpointError(f"{prefix}.gate_up_proj: {gate_up.n} rows, expected an even 2I")
    down = load_projection(tensors, f"{prefix}.down_proj", gate_up.n // 2, h, device)
    return gate_up, down


def load_gdn_in_proj(source, prefix: str, hidden_size: Optional[int] = None,
                     qkvz_size: Optional[int] = None, ba_size: Optional[int] = None, device=None
                     ) -> Tuple[Projection, Projection]:
    """``(in_proj_qkvz, in_proj_ba)`` of a Gated-DeltaNet layer under ``prefix``
    (e.g. ``model.layers.0.linear_attn``), contiguous layout.

    Uses ``in_proj_qkvz`` / ``in_proj_ba`` when present, else merges the Qwen3.5-style parts
    ``[in_proj_qkv; in_proj_z]`` and ``[in_proj_b; in_proj_a]``.
    """
    tensors = read_tensors(source)
    out = []
    for merged, parts, size in (("in_proj_qkvz", ("in_proj_qkv", "in_proj_z"), qkvz_size),
                                ("in_proj_ba", ("in_proj_b", "in_proj_a"), ba_size)):
        if f"{prefix}.{merged}.weight" in tensors or f"{prefix}.{parts[0]}.weight" not in tensors:
            proj = load_projection(tensors, f"{prefix}.{merged}", hidden_size, size, device)
        else:
            proj = load_merged_projection(tensors, [f"{prefix}.{p}" for p in parts],
                                          hidden_size, None, device)
            if size is not None and proj.n != size:
                raise CheckpointError(f"{prefix}.{'+'.join(parts)}: {proj.n} rows in all, "
                                      f"expected {size}")
        out.append(proj)
    return out[0], out[1]
