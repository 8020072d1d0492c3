"""Random MLP checkpoints in ModelOpt's format (NVFP4 or bf16), any size, any device: what the
demo, the notebooks and the tests load instead of a real model.

NVFP4 entries follow ModelOpt: ``weight`` uint8 [N, K/2], ``weight_scale`` e4m3 [N, K/16]
(unswizzled), ``weight_scale_2 = amax / (448 * 6)`` and ``input_scale = calibration amax /
(448 * 6)``; gate and up share ``weight_scale_2`` and ``input_scale`` (as ModelOpt exports a
fused gate_up).
"""

from __future__ import annotations

import torch

from cute_kernels import reference

__all__ = ["E4M3xE2M1", "fp32", "nvfp4_entry", "nvfp4_weight_fp64", "random_mlp_weights",
           "mlp_checkpoint"]

E4M3xE2M1 = 448.0 * 6.0


def fp32(v) -> torch.Tensor:
    return torch.as_tensor(v, dtype=torch.float32).reshape(())


def nvfp4_entry(prefix: str, w: torch.Tensor, input_scale, weight_scale_2=None) -> dict:
    """Quantize w [N, K] like ModelOpt: weight_scale_2 = amax / (448*6), G = 1 / weight_scale_2."""
    ws2 = fp32(w.abs().max() / E4M3xE2M1) if weight_scale_2 is None else fp32(weight_scale_2)
    ws2 = ws2.to(w.device)
    packed, sf = reference.nvfp4_quantize(w.float(), torch.reciprocal(ws2), swizzle=False)
    return {f"{prefix}.weight": packed, f"{prefix}.weight_scale": sf,
            f"{prefix}.weight_scale_2": ws2, f"{prefix}.input_scale": fp32(input_scale)}


def nvfp4_weight_fp64(tensors: dict, prefix: str) -> torch.Tensor:
    """The dequantized weight ``e2m1 * weight_scale * weight_scale_2`` in fp64, from the raw
    (unswizzled) checkpoint tensors."""
    raw = reference.nvfp4_raw_values(tensors[f"{prefix}.weight"], tensors[f"{prefix}.weight_scale"],
                                     swizzled=False).double()
    return raw * tensors[f"{prefix}.weight_scale_2"].double()


def random_mlp_weights(hidden: int, inter: int, seed: int, device="cpu"):
    """gate, up [inter, hidden] and down [hidden, inter], fp32, unit-variance outputs."""
    g = torch.Generator(device=device).manual_seed(seed)
    gate = torch.randn(inter, hidden, generator=g, device=device) / hidden ** 0.5
    up = torch.randn(inter, hidden, generator=g, device=device) / hidden ** 0.5
    down = torch.randn(hidden, inter, generator=g, device=device) / inter ** 0.5
    return gate, up, down


def mlp_checkpoint(prefix: str, hidden: int, inter: int, fmt: str, seed: int = 0,
                   device="cpu"):
    """(tensors, fp64 weights gate/up/down as the checkpoint holds them) for one MLP; NVFP4
    input scales calibrated on a random batch (amax / (448*6))."""
    gate, up, down = random_mlp_weights(hidden, inter, seed, device)
    if fmt == "bf16":
        t = {f"{prefix}.gate_proj.weight": gate.bfloat16(),
             f"{prefix}.up_proj.weight": up.bfloat16(),
             f"{prefix}.down_proj.weight": down.bfloat16()}
        return t, tuple(t[f"{prefix}.{p}_proj.weight"].double() for p in ("gate", "up", "down"))
    if fmt != "nvfp4":
        raise ValueError(f"fmt: expected 'bf16' or 'nvfp4', got {fmt!r}")
    calib = torch.randn(64, hidden, generator=torch.Generator(device=device).manual_seed(seed + 1),
                        device=device).bfloat16()
    in_gu = float(calib.float().abs().max()) / E4M3xE2M1
    ws2_gu = fp32(torch.maximum(gate.abs().max(), up.abs().max()) / E4M3xE2M1)
    t = {}
    t.update(nvfp4_entry(f"{prefix}.gate_proj", gate, in_gu, ws2_gu))
    t.update(nvfp4_entry(f"{prefix}.up_proj", up, in_gu, ws2_gu))
    del gate, up
    gq, uq = nvfp4_weight_fp64(t, f"{prefix}.gate_proj"), nvfp4_weight_fp64(t, f"{prefix}.up_proj")
    g = calib.double() @ gq.T
    h = g * torch.sigmoid(g) * (calib.double() @ uq.T)
    t.update(nvfp4_entry(f"{prefix}.down_proj", down, float(h.abs().max()) / E4M3xE2M1))
    return t, (gq, uq, nvfp4_weight_fp64(t, f"{prefix}.down_proj"))
