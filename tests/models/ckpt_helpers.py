"""Helpers of the model-layer tests: the synthetic checkpoints (``models.synthetic``), an fp64
MLP written independently of the library, error measures."""

from __future__ import annotations

import torch

from cute_kernels import reference
from models.synthetic import (E4M3xE2M1, fp32, mlp_checkpoint, nvfp4_entry,  # noqa: F401
                              nvfp4_weight_fp64, random_mlp_weights)


def fp64_mlp(x: torch.Tensor, gate: torch.Tensor, up: torch.Tensor, down: torch.Tensor):
    """silu(x Wg^T) * (x Wu^T) @ Wd^T, all in fp64 (written independently of the library)."""
    x = x.double()
    g, u = x @ gate.double().T, x @ up.double().T
    return (g * torch.sigmoid(g) * u) @ down.double().T


def rel_err(y: torch.Tensor, ref: torch.Tensor) -> float:
    return float((y.double() - ref).norm() / ref.norm())


def activation_fp4_noise(x: torch.Tensor, gate: torch.Tensor, up: torch.Tensor,
                         down: torch.Tensor, input_scale: torch.Tensor) -> float:
    """Relative error of the fp64 MLP's output that NVFP4-quantizing its activation h (with
    G = 1 / input_scale) alone causes, ||(h_q - h) Wd^T|| / ||h Wd^T||: the floor for any MLP
    whose down projection takes NVFP4 input. (Not ||h_q - h|| / ||h||: through the down
    weight that ratio varies by ~1/sqrt(outputs), at M = 1 by more than the 1 % margin the
    tests allow on top of the floor.)"""
    x = x.double()
    g = x @ gate.double().T
    h = g * torch.sigmoid(g) * (x @ up.double().T)
    gs = torch.reciprocal(input_scale.float())
    q, sf = reference.nvfp4_quantize(h.float(), gs, swizzle=False)
    hq = reference.nvfp4_dequantize(q, sf, gs, swizzled=False).double()
    wd = down.double().T
    return float(((hq - h) @ wd).norm() / (h @ wd).norm())
