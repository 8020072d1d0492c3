"""The example notebooks (examples/*.ipynb) are valid and their cells run.

No Jupyter needed: each notebook is read with the stdlib json module and its code cells are
exec()'d in order in one namespace, as a kernel would run them. Cells whose first line is
``# gpu`` are skipped on the CPU run (they also guard themselves with
``torch.cuda.is_available()``) and run in the `gpu` test. matplotlib, where installed, is forced
to the non-interactive Agg backend.
"""

from __future__ import annotations

import json
import pathlib

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
EXPECTED = ["01_scale_factor_layouts.ipynb", "02_gemv_variant.ipynb", "03_nvfp4_mlp.ipynb"]


def _load(path: pathlib.Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    src = cell["source"]
    return "".join(src) if isinstance(src, list) else src


def _is_gpu_cell(src: str) -> bool:
    first = src.lstrip().split("\n", 1)[0].strip()
    return first == "# gpu" or first.startswith("# gpu:")


def test_the_three_notebooks_exist():
    assert [p.name for p in NOTEBOOKS] == EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_nbformat4_without_outputs(path):
    nb = _load(path)
    assert nb["nbformat"] == 4 and isinstance(nb["nbformat_minor"], int)
    assert isinstance(nb["metadata"], dict) and nb["cells"]
    ids = set()
    for cell in nb["cells"]:
        assert cell["cell_type"] in ("markdown", "code"), cell["cell_type"]
        assert isinstance(cell["metadata"], dict)
        assert isinstance(cell["source"], (list, str))
        if isinstance(cell["source"], list):
            assert all(isinstance(s, str) for s in cell["source"])
        if "id" in cell:
            assert cell["id"] not in ids
            ids.add(cell["id"])
        if cell["cell_type"] == "code":
            # Committed empty: outputs (plots, timings) would bloat the repository.
            assert cell["outputs"] == [] and cell["execution_count"] is None
        else:
            assert "outputs" not in cell and "execution_count" not in cell
    # Each notebook alternates explanation and code: it starts with a markdown title.
    assert nb["cells"][0]["cell_type"] == "markdown"
    assert _source(nb["cells"][0]).startswith("# ")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_code_cell_compiles(path):
    """Syntax check of all code cells, the GPU cells included (they only run on a GPU)."""
    for i, cell in enumerate(_load(path)["cells"]):
        if cell["cell_type"] == "code":
            compile(_source(cell), f"{path.name} [cell {i}]", "exec")


def _run(path: pathlib.Path, monkeypatch, tmp_path, gpu_cells: bool) -> dict:
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("CUTE_KERNELS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CUTE_KERNELS_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    try:
        import matplotlib

        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
    namespace: dict = {"__name__": "__main__"}
    ran = 0
    try:
        for i, cell in enumerate(_load(path)["cells"]):
            src = _source(cell)
            if cell["cell_type"] != "code" or (_is_gpu_cell(src) and not gpu_cells):
                continue
            exec(compile(src, f"{path.name} [cell {i}]", "exec"), namespace)
            ran += 1
    finally:
        if plt is not None:
            plt.close("all")
    assert ran > 0
    return namespace


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_cpu_cells_run(path, monkeypatch, tmp_path):
    _run(path, monkeypatch, tmp_path, gpu_cells=False)


@pytest.mark.gpu
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_all_cells_run_on_gpu(path, monkeypatch, tmp_path):
    _run(path, monkeypatch, tmp_path, gpu_cells=True)


def test_gpu_cells_are_marked_and_guarded():
    """Every cell that touches CUDA is marked ``# gpu`` and guarded, so it is a no-op on a CPU
    in Jupyter too."""
    for path in NOTEBOOKS:
        for cell in _load(path)["cells"]:
            src = _source(cell)
            if cell["cell_type"] != "code":
                continue
            touches_cuda = '"cuda"' in src or ".cuda()" in src or "time_graph_us(" in src
            if _is_gpu_cell(src) or touches_cuda:
                assert _is_gpu_cell(src) and "if torch.cuda.is_available():" in src, \
                    f"{path.name}: unmarked or unguarded GPU cell:\n{src[:200]}"
