"""Qwen3.8-27B (``qwen3_5_text``) pieces on the kernels: the dense MLP and the Gated-DeltaNet
input projection.

Every op goes through ``models.ops`` (CuTe DSL kernels on CUDA tensors, the reference on the
CPU). Weights come from ``models.checkpoint`` as ``Bf16Linear`` or ``NVFP4Linear``.

MLP, per weight format:
* bf16: ``gate_up = linear(x, W_gu)``; ``h = bf16(silu(gate) * up)``; ``y = linear(h, W_down)``.
* NVFP4: ``gate_up = nvfp4_gemm(x_bf16, W_gu)`` (W4A16, alpha = weight_scale_2), then
  - fused (default): ``(h_fp4, h_sf) = silu_mul_nvfp4_quant(gate_up, G = 1 / down.input_scale)``,
    ``y = nvfp4_gemm(h_fp4, h_sf, W_down, alpha = down.input_scale * down.weight_scale_2)``;
  - unfused (env ``CUTE_KERNELS_DISABLE_SILU_FP4_QUANT_FUSION=1``): ``h = silu_mul(gate_up)``
    in bf16, then ``nvfp4_quantize(h, G)``, then the same GEMM. Same math in two steps: the
    fused kernel rounds h to bf16 in registers exactly as ``silu_mul`` does, so both paths are
    bitwise equal (on the reference path by construction, on the GPU by the kernels'
    bit-exactness with the reference).
  The fusion applies only when both projections are NVFP4. Mixed formats work unfused: a bf16
  down takes bf16 h; an NVFP4 down behind a bf16 gate_up quantizes h first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

import torch

from . import ops
from .checkpoint import MLPShapes, NVFP4Linear, Projection, load_gdn_in_proj, load_mlp
from .env import env_flag

__all__ = ["Qwen3_8Config", "Qwen3_8MLP", "GatedDeltaNetInProj", "FUSION_ENV",
           "silu_fp4_fusion_enabled"]

FUSION_ENV = "CUTE_KERNELS_DISABLE_SILU_FP4_QUANT_FUSION"


def silu_fp4_fusion_enabled() -> bool:
    """False when ``CUTE_KERNELS_DISABLE_SILU_FP4_QUANT_FUSION`` is set to a true value
    (``1``, ``true``, ``yes``, ``on``); read at every call, so it can be flipped at run time."""
    return not env_flag(FUSION_ENV, default=False)


@dataclass(frozen=True)
class Qwen3_8Config:
    """Qwen3.8-27B text config (same as Qwen3.5/3.6-27B); field names follow the HF config."""
    hidden_size: int = 5120
    intermediate_size: int = 17408
    num_hidden_layers: int = 64
    full_attention_interval: int = 4          # 16 x [3 Gated-DeltaNet, 1 full attention]
    num_attention_heads: int = 24
    num_key_value_heads: int = 4
    head_dim: int = 256
    attn_output_gate: bool = True
    linear_num_key_heads: int = 16
    linear_num_value_heads: int = 48
    linear_key_head_dim: int = 128
    linear_value_head_dim: int = 128
    linear_conv_kernel_dim: int = 4
    vocab_size: int = 248320

    def __post_init__(self):
        if self.linear_num_value_heads % self.linear_num_key_heads:
            raise ValueError(f"linear_num_value_heads = {self.linear_num_value_heads} must be a "
                             f"multiple of linear_num_key_heads = {self.linear_num_key_heads}")

    # derived projection sizes (N of y = x @ W^T)
    @property
    def gdn_ratio(self) -> int:
        return self.linear_num_value_heads // self.linear_num_key_heads

    @property
    def gdn_key_dim(self) -> int:
        return self.linear_num_key_heads * self.linear_key_head_dim

    @property
    def gdn_value_dim(self) -> int:
        return self.linear_num_value_heads * self.linear_value_head_dim

    @property
    def gdn_qkvz_size(self) -> int:
        return 2 * self.gdn_key_dim + 2 * self.gdn_value_dim

    @property
    def gdn_qkv_size(self) -> int:
        return 2 * self.gdn_key_dim + self.gdn_value_dim

    @property
    def gdn_ba_size(self) -> int:
        return 2 * self.linear_num_value_heads

    @property
    def attn_qkv_size(self) -> int:
        """q (with the output gate: twice the q width) + k + v."""
        q = self.num_attention_heads * self.head_dim * (2 if self.attn_output_gate else 1)
        return q + 2 * self.num_key_value_heads * self.head_dim

    @property
    def attn_o_k(self) -> int:
        return self.num_attention_heads * self.head_dim

    @property
    def layer_types(self) -> Tuple[str, ...]:
        return tuple("full_attention" if (i + 1) % self.full_attention_interval == 0
                     else "linear_attention" for i in range(self.num_hidden_layers))

    @classmethod
    def tiny(cls, **overrides) -> "Qwen3_8Config":
        """A small config of the same structure (GDN ratio 3) for CPU tests."""
        base = dict(hidden_size=256, intermediate_size=512, num_hidden_layers=4,
                    num_attention_heads=4, num_key_value_heads=2, head_dim=64,
                    linear_num_key_heads=2, linear_num_value_heads=6, linear_key_head_dim=32,
                    linear_value_head_dim=32, vocab_size=1024)
        base.update(overrides)
        return cls(**base)


def _rows(x: torch.Tensor, k: int, name: str) -> torch.Tensor:
    if x.dim() < 1 or x.shape[-1] != k:
        raise ValueError(f"{name}: expected [..., {k}], got shape {tuple(x.shape)}")
    return x.reshape(-1, k).contiguous()


class Qwen3_8MLP(MLPShapes):
    """Dense SwiGLU MLP: ``y = down(silu(gate) * up)``, gate_up = [gate; up] in one GEMM."""

    def __init__(self, gate_up: Projection, down: Projection):
        if gate_up.n != 2 * down.k:
            raise ValueError(f"gate_up: {gate_up.n} rows, expected 2 x down's K = {2 * down.k}")
        if gate_up.k != down.n:
            raise ValueError(f"gate_up: K = {gate_up.k}, expected down's N = {down.n}")
        self.gate_up, self.down = gate_up, down

    @classmethod
    def from_checkpoint(cls, source, prefix: str, config: Qwen3_8Config | None = None,
                        device=None) -> "Qwen3_8MLP":
        h = i = None
        if config is not None:
            h, i = config.hidden_size, config.intermediate_size
        return cls(*load_mlp(source, prefix, h, i, device))

    @property
    def nvfp4(self) -> bool:
        return isinstance(self.gate_up, NVFP4Linear) and isinstance(self.down, NVFP4Linear)

    def fused(self) -> bool:
        """Whether the next call takes ``silu_mul_nvfp4_quant`` straight into the down GEMM."""
        return self.nvfp4 and silu_fp4_fusion_enabled()

    def to(self, device) -> "Qwen3_8MLP":
        return Qwen3_8MLP(self.gate_up.to(device), self.down.to(device))

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        """x bf16 [..., hidden] -> bf16 [..., hidden]."""
        lead = x.shape[:-1]
        x2 = _rows(x, self.hidden_size, "x")
        gate_up = self.gate_up(x2)                                    # [M, 2I] bf16
        if self.fused():
            h_fp4, h_sf = ops.silu_mul_nvfp4_quant(gate_up, self.down.input_global_scale)
            y = self.down.quantized(h_fp4, h_sf, out_dtype=x.dtype)
        else:
            h = ops.silu_mul(gate_up)                                 # [M, I] bf16
            if isinstance(self.down, NVFP4Linear):
                y = self.down.quantized(*self.down.quantize_input(h), out_dtype=x.dtype)
            else:
                y = self.down(h)
        return y.reshape(*lead, self.hidden_size)


class GatedDeltaNetInProj:
    """Gated-DeltaNet input projection: ``in_proj_qkvz``, ``in_proj_ba``, then
    ``gdn_qkvzba_split`` (contiguous layout) -> (mixed_qkv [T, 2*Hk*Dk + Hv*Dv], z [T, Hv, Dv],
    b [T, Hv], a [T, Hv])."""

    layout = "contiguous"

    def __init__(self, config: Qwen3_8Config, in_proj_qkvz: Projection, in_proj_ba: Projection):
        h = config.hidden_size
        for name, proj, n in (("in_proj_qkvz", in_proj_qkvz, config.gdn_qkvz_size),
                              ("in_proj_ba", in_proj_ba, config.gdn_ba_size)):
            if (proj.n, proj.k) != (n, h):
                raise ValueError(f"{name}: expected [{n}, {h}], got [{proj.n}, {proj.k}]")
        self.config, self.in_proj_qkvz, self.in_proj_ba = config, in_proj_qkvz, in_proj_ba

    @classmethod
    def from_checkpoint(cls, source, prefix: str, config: Qwen3_8Config,
                        device=None) -> "GatedDeltaNetInProj":
        return cls(config, *load_gdn_in_proj(source, prefix, config.hidden_size,
                                             config.gdn_qkvz_size, config.gdn_ba_size, device))

    def to(self, device) -> "GatedDeltaNetInProj":
        return GatedDeltaNetInProj(self.config, self.in_proj_qkvz.to(device),
                                   self.in_proj_ba.to(device))

    def __call__(self, x: torch.Tensor
                 ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """x bf16 [T, hidden] (or [..., hidden], flattened to T rows)."""
        c = self.config
        x2 = _rows(x, c.hidden_size, "x")
        qkvz = self.in_proj_qkvz(x2)
        ba = self.in_proj_ba(x2)
        return ops.gdn_qkvzba_split(qkvz, ba, c.linear_num_key_heads, c.linear_num_value_heads,
                                    c.linear_key_head_dim, c.linear_value_head_dim, self.layout)
