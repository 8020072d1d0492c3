"""Synthetic ModelOpt-format checkpoints for the model-layer tests (CPU, tiny shapes)."""

from __future__ import annotations

import torch

from cute_kernels import reference

E4M3xE2M1 = 448.0 * 6.0


def fp32(v) -> torch.Tensor:
    return torch.as_tensor(v, dtype=torch.float32).reshape(())


def nvfp4_entry(prefix: str, w: torch.Tensor, input_scale: float, weight_scale_2=None) -> dict:
    """Quantize w [N, K] like ModelOpt: weight_scale_2 = amax / (448*6), G = 1 / weight_scale_2."""
    ws2 = fp32(w.abs().max() / E4M3xE2M1) if weight_scale_2 is None else fp32(weight_scale_2)
    packed, sf = reference.nvfp4_quantize(w.float(), torch.reciprocal(ws2), swizzle=False)
    return {f"{prefix}.weight": packed, f"{prefix}.weight_scale": sf,
            f"{prefix}.weight_scale_2": ws2, f"{prefix}.input_scale": fp32(input_scale)}


def nvfp4_weight_fp64(tensors: dict, prefix: str) -> torch.Tensor:
    """The dequantized weight ``e2m1 * weight_scale * weight_scale_2`` in fp64, from the raw
    (unswizzled) checkpoint tensors."""
    raw = reference.nvfp4_raw_values(tensors[f"{prefix}.weight"], tensors[f"{prefix}.weight_scale"],
                                     swizzled=False).double()
    return raw * tensors[f"{prefix}.weight_scale_2"].double()


def random_mlp_weights(hidden: int, inter: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    gate = torch.randn(inter, hidden, generator=g) / hidden ** 0.5
    up = torch.randn(inter, hidden, generator=g) / hidden ** 0.5
    down = torch.randn(hidden, inter, generator=g) / inter ** 0.5
    return gate, up, down


def fp64_mlp(x: torch.Tensor, gate: torch.Tensor, up: torch.Tensor, down: torch.Tensor):
    """silu(x Wg^T) * (x Wu^T) @ Wd^T, all in fp64 (written independently of the library)."""
    x = x.double()
    g, u = x @ gate.double().T, x @ up.double().T
    return (g * torch.sigmoid(g) * u) @ down.double().T


def mlp_checkpoint(prefix: str, hidden: int, inter: int, fmt: str, seed: int = 0):
    """(tensors, fp64 weights gate/up/down) for one MLP; NVFP4 input scales calibrated on a
    random batch (amax / (448*6)), gate and up sharing weight_scale_2 and input_scale."""
    gate, up, down = random_mlp_weights(hidden, inter, seed)
    if fmt == "bf16":
        t = {f"{prefix}.gate_proj.weight": gate.bfloat16(),
             f"{prefix}.up_proj.weight": up.bfloat16(),
             f"{prefix}.down_proj.weight": down.bfloat16()}
        return t, tuple(t[f"{prefix}.{p}_proj.weight"].double() for p in ("gate", "up", "down"))
    calib = torch.randn(64, hidden, generator=torch.Generator().manual_seed(seed + 1))
    calib = calib.bfloat16()
    in_gu = float(calib.float().abs().max()) / E4M3xE2M1
    ws2_gu = fp32(torch.cat([gate, up]).abs().max() / E4M3xE2M1)
    t = {}
    t.update(nvfp4_entry(f"{prefix}.gate_proj", gate, in_gu, ws2_gu))
    t.update(nvfp4_entry(f"{prefix}.up_proj", up, in_gu, ws2_gu))
    gq, uq = nvfp4_weight_fp64(t, f"{prefix}.gate_proj"), nvfp4_weight_fp64(t, f"{prefix}.up_proj")
    g = calib.double() @ gq.T
    h = g * torch.sigmoid(g) * (calib.double() @ uq.T)
    t.update(nvfp4_entry(f"{prefix}.down_proj", down, float(h.abs().max()) / E4M3xE2M1))
    return t, (gq, uq, nvfp4_weight_fp64(t, f"{prefix}.down_proj"))


def rel_err(y: torch.Tensor, ref: torch.Tensor) -> float:
    return float((y.double() - ref).norm() / ref.norm())


def activation_fp4_noise(x: torch.Tensor, gate: torch.Tensor, up: torch.Tensor,
                         input_scale: torch.Tensor) -> float:
    """Relative error that NVFP4-quantizing the fp64 activation h (with G = 1 / input_scale)
    alone causes: the floor for any MLP whose down projection takes NVFP4 input. Through a
    random down weight ||(h_q - h) Wd^T|| / ||h Wd^T|| is about ||h_q - h|| / ||h||."""
    x = x.double()
    g = x @ gate.double().T
    h = g * torch.sigmoid(g) * (x @ up.double().T)
    gs = torch.reciprocal(input_scale.float())
    q, sf = reference.nvfp4_quantize(h.float(), gs, swizzle=False)
    hq = reference.nvfp4_dequantize(q, sf, gs, swizzled=False).double()
    return float((hq - h).norm() / h.norm())
