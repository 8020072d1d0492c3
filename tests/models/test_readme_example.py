"""The README's quick-start snippet runs as written: on the CPU it must compile and import
only public names; on a GPU it runs one MLP step on a synthetic ModelOpt checkpoint and lands
within the activation's FP4 noise of an fp64 MLP."""

import ast
import pathlib
import re

import pytest
import torch

from ckpt_helpers import activation_fp4_noise, fp64_mlp, mlp_checkpoint, rel_err

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def _snippet() -> str:
    """The first ```python block after the "Quick start" heading."""
    text = README.read_text()
    start = text.index("## Quick start")
    return re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)


def test_snippet_compiles_and_imports_public_names():
    tree = ast.parse(_snippet(), "README.md")
    imports = [node for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert {node.module for node in imports} == {"layouts", "cute_kernels"}
    for node in imports:  # every imported name exists
        exec(ast.unparse(node), {})  # noqa: S102


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 130])
def test_snippet_runs_one_mlp_step(m):
    hidden, inter, p = 512, 256, "mlp"
    t, (gate, up, down) = mlp_checkpoint(p, hidden, inter, "nvfp4",
                                         seed=torch.seed() % 2**31)
    dev = "cuda"
    g, u, d = (f"{p}.{n}_proj" for n in ("gate", "up", "down"))
    names = {
        "gu_weight": torch.cat([t[f"{g}.weight"], t[f"{u}.weight"]]).to(dev),
        "gu_weight_scale": torch.cat([t[f"{g}.weight_scale"], t[f"{u}.weight_scale"]]).to(dev),
        "gu_weight_scale_2": t[f"{g}.weight_scale_2"].to(dev),
        "dn_weight": t[f"{d}.weight"].to(dev),
        "dn_weight_scale": t[f"{d}.weight_scale"].to(dev),
        "dn_weight_scale_2": t[f"{d}.weight_scale_2"].to(dev),
        "dn_input_scale": t[f"{d}.input_scale"].to(dev),
        "x": torch.randn(m, hidden, device=dev).bfloat16(),
    }
    exec(compile(_snippet(), "README.md", "exec"), names)  # noqa: S102
    y = names["y"]
    assert y.shape == (m, hidden) and y.dtype == torch.bfloat16
    x = names["x"].cpu()
    floor = activation_fp4_noise(x, gate, up, down, t[f"{d}.input_scale"])
    assert rel_err(y.cpu(), fp64_mlp(x, gate, up, down)) < floor + 1e-2
