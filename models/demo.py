"""The main job: ``python -m models.demo [--plot] [--m 1 8 64]``.

1. The kernel demo (``cute_kernels.demo``): every kernel family compiled, or on a GPU checked
   against the reference and timed.
2. The MLPs: Qwen3.8-27B (hidden 5120, intermediate 17408) and DeepSeek-V3 dense (7168, 18432)
   with random weights in ModelOpt's format, one decode step per M through every path
   (Qwen: bf16, NVFP4 with and without the fused SiLU*mul quantization; DeepSeek: NVFP4 with
   and without the fused gate_up GEMM + SwiGLU + quantization), each checked against an fp64
   MLP on the same (dequantized) weights. On a GPU at the real sizes, timed under CUDA-graph
   replay against torch bf16 (cuBLAS ``linear`` + ``silu * up`` + ``linear``) with the
   weight-bandwidth bound beside; ``--plot`` draws the table. Without a GPU: tiny sizes on the
   reference path, no timings.
"""

from __future__ import annotations

import argparse
import contextlib
import os

import torch
import torch.nn.functional as F

from cute_kernels import demo as kernel_demo
from cute_kernels.arch import has_gpu

from .deepseek import SWIGLU_FUSION_ENV, DeepSeekConfig, DeepSeekMLP
from .qwen3_8 import FUSION_ENV as QWEN_FUSION_OFF_ENV
from .qwen3_8 import Qwen3_8Config, Qwen3_8MLP
from .synthetic import mlp_checkpoint

P = "model.layers.0.mlp"
COPY_TBPS = 4.27  # DESIGN.md's device copy bandwidth, for the bound column


@contextlib.contextmanager
def _env(name: str, value: str | None):
    old = os.environ.get(name)
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = old


# (model, path, checkpoint format, environment switch) -- every path of both MLPs
PATHS = [
    ("Qwen3.8-27B", "bf16", "bf16", (QWEN_FUSION_OFF_ENV, None)),
    ("Qwen3.8-27B", "NVFP4 fused silu_mul_quant", "nvfp4", (QWEN_FUSION_OFF_ENV, None)),
    ("Qwen3.8-27B", "NVFP4 unfused", "nvfp4", (QWEN_FUSION_OFF_ENV, "1")),
    ("DeepSeek-V3 dense", "NVFP4 fused gemm_swiglu_quant", "nvfp4", (SWIGLU_FUSION_ENV, None)),
    ("DeepSeek-V3 dense", "NVFP4 unfused", "nvfp4", (SWIGLU_FUSION_ENV, "0")),
]


def _sizes(model: str, tiny: bool) -> tuple[int, int]:
    cfg = (Qwen3_8Config.tiny() if tiny else Qwen3_8Config()) if model.startswith("Qwen") \
        else (DeepSeekConfig.tiny() if tiny else DeepSeekConfig())
    return cfg.hidden_size, cfg.intermediate_size


def _build(model: str, fmt: str, seed: int, device, tiny: bool):
    hidden, inter = _sizes(model, tiny)
    t, weights = mlp_checkpoint(P, hidden, inter, fmt, seed=seed, device=device)
    if model.startswith("Qwen"):
        mlp = Qwen3_8MLP.from_checkpoint(t, P, device=device)
    else:
        mlp = DeepSeekMLP.from_checkpoint(t, P, device=device)
    return mlp, weights


def _fp64_mlp(x, gate, up, down):
    x = x.double()
    g = x @ gate.T
    return (g * torch.sigmoid(g) * (x @ up.T)) @ down.T


def _rel(y, want) -> float:
    return float((y.double() - want).norm() / want.norm())


def _time(calls) -> tuple[float, str]:
    """Graph-replay us, or eager us where the path cannot be captured (a host sync)."""
    from cute_kernels.bench.timing import time_eager_us, time_graph_us

    try:
        return time_graph_us(calls, calls_per_graph=50), "graph"
    except Exception:  # noqa: BLE001 - capture refused: report the eager time instead
        torch.cuda.synchronize()
        return time_eager_us(calls), "eager"


def _weight_bytes(mlp) -> int:
    return sum(p.weight.numel() * p.weight.element_size()
               + (p.weight_scale.numel() if hasattr(p, "weight_scale") else 0)
               for p in (mlp.gate_up, mlp.down))


def run_mlps(ms, tiny: bool) -> list[dict]:
    device = "cuda" if not tiny else "cpu"
    rows, built = [], {}
    for model, path, fmt, (env, value) in PATHS:
        key = (model, fmt)
        if key not in built:
            copies = 1 if tiny else 2  # two weight copies: the rotation exceeds the 60 MB L2
            built[key] = [_build(model, fmt, seed, device, tiny) for seed in range(copies)]
        mlps = built[key]
        hidden, inter = _sizes(model, tiny)
        for m in ms:
            # drawn on the CPU: a refused graph capture must not touch the CUDA generator
            x = torch.randn(m, hidden, dtype=torch.bfloat16).to(device)
            with _env(env, value):
                mlp, weights = mlps[0]
                err = _rel(mlp(x), _fp64_mlp(x, *weights))
                row = {"model": model, "path": path, "m": m, "rel_err_vs_fp64": err}
                if not tiny:
                    row["us"], row["timing"] = _time([lambda mm=mm: mm(x) for mm, _ in mlps])
                    row["bound_us"] = _weight_bytes(mlp) / COPY_TBPS / 1e6
            if not tiny:
                row["torch_bf16_us"] = _torch_bf16_us(model, x, inter)
            rows.append(row)
            _print_row(row, tiny)
    return rows


_TORCH_WEIGHTS: dict = {}
_TORCH_US: dict = {}


def _torch_bf16_us(model: str, x, inter: int) -> float:
    """torch bf16 MLP (cuBLAS) on weights of the same shapes, two copies rotated (measured
    once per model and M)."""
    from cute_kernels.bench.timing import time_graph_us

    if (model, x.shape[0]) in _TORCH_US:
        return _TORCH_US[model, x.shape[0]]
    hidden = x.shape[1]
    ws = _TORCH_WEIGHTS.get(model)
    if ws is None:
        ws = _TORCH_WEIGHTS[model] = [
            (torch.randn(2 * inter, hidden, device="cuda", dtype=torch.bfloat16),
             torch.randn(hidden, inter, device="cuda", dtype=torch.bfloat16)) for _ in range(2)]

    def step(w_gu, w_d):
        gu = F.linear(x, w_gu)
        return F.linear(F.silu(gu[:, :inter]) * gu[:, inter:], w_d)
    us = _TORCH_US[model, x.shape[0]] = time_graph_us([lambda w=w: step(*w) for w in ws],
                                                      calls_per_graph=50)
    return us


def _print_row(row: dict, tiny: bool) -> None:
    head = f"{row['model']:<18} {row['path']:<30} M={row['m']:<4} err {row['rel_err_vs_fp64']:.4f}"
    if tiny:
        print(head)
        return
    print(f"{head}  ours {row['us']:8.1f} us ({row['timing']})  torch bf16 "
          f"{row['torch_bf16_us']:8.1f} us  {row['torch_bf16_us'] / row['us']:5.2f}x  "
          f"bound {row['bound_us']:6.1f} us ({row['bound_us'] / row['us']:.0%})", flush=True)


def _plot(rows: list[dict], path: str) -> None:
    try:
        import matplotlib
    except ImportError:
        print("--plot: matplotlib is not installed (pip install -e .[bench])")
        return

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r['model'].split()[0]} {r['path']} M={r['m']}" for r in rows]
    fig, ax = plt.subplots(figsize=(10, 0.35 * len(rows) + 1))
    y = range(len(rows))
    ax.barh([i + 0.2 for i in y], [r["us"] for r in rows], 0.4, label="ours")
    ax.barh([i - 0.2 for i in y], [r["torch_bf16_us"] for r in rows], 0.4, label="torch bf16")
    ax.set_yticks(list(y), labels, fontsize=7)
    ax.set_xlabel("us per MLP decode step (CUDA graph)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"plot: {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.demo", description=__doc__)
    parser.add_argument("--plot", default=None, nargs="?", const="demo_mlp.png",
                        help="draw the GPU table to this PNG (default demo_mlp.png)")
    parser.add_argument("--m", type=int, nargs="+", default=[1, 8, 64], help="tokens per step")
    ns = parser.parse_args(argv)
    rc = kernel_demo.main([])
    tiny = not has_gpu()
    print("\nMLP decode steps" + (" (no GPU: tiny sizes, reference path, no timings)" if tiny
                                  else " at the real sizes, CUDA-graph times"))
    rows = run_mlps(ns.m, tiny)
    bad = [r for r in rows if not r["rel_err_vs_fp64"] < 0.15]
    if bad:
        print(f"FAILED: {len(bad)} paths off the fp64 MLP by more than the NVFP4 noise")
        rc = rc or 1
    if ns.plot and not tiny:
        _plot(rows, ns.plot)
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
