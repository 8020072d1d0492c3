"""The device scripts in tools/ only run on the lent GPU, so CI at least parses them: every
Python probe compiles, every shell script (tools/sessions/ too) passes ``bash -n`` and the
files it sources next to itself exist, and every call of a ``jit.cached`` compile function
fits its signature (session 46 found the quant sanitizer probe stopped at a TypeError since an
option it passed had been removed)."""

import ast
import re
import subprocess

import pytest

from tests.conftest import TOOLS

KERNELS = TOOLS.parent / "cute_kernels"


def _cached_signatures() -> dict:
    """Name -> (parameter names, has *args) of every ``@jit.cached`` function in the package."""
    found = {}
    for path in KERNELS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and any(
                    ast.unparse(d) in ("jit.cached", "cached") for d in node.decorator_list):
                found[node.name] = ([a.arg for a in node.args.args], node.args.vararg is not None)
    return found


CACHED = _cached_signatures()


def _cached_calls(tree: ast.AST):
    """(call, function name, uncached) for each call of a cached compile function."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func, uncached = node.func, False
        if isinstance(func, ast.Attribute) and func.attr == "uncached":
            func, uncached = func.value, True
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in CACHED:
            yield node, name, uncached


@pytest.mark.parametrize("path", sorted(TOOLS.glob("*.py")), ids=lambda p: p.name)
def test_python_probe_compiles(path):
    compile(path.read_text(), str(path), "exec")


@pytest.mark.parametrize("path", sorted(TOOLS.rglob("*.sh")), ids=lambda p: p.name)
def test_shell_script_parses(path):
    result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for sourced in re.findall(r'\$\(dirname "\$0"\)/([^" ;]+)', path.read_text()):
        assert (path.parent / sourced).exists(), sourced


def test_cached_compile_functions_are_found():
    assert {"compile_nvfp4_quant", "compile_nvfp4_gemm_large_m"} <= set(CACHED)


@pytest.mark.parametrize("path", sorted(TOOLS.glob("*.py")), ids=lambda p: p.name)
def test_cached_compile_calls_fit_their_signatures(path):
    """The cached wrapper takes positional arguments only (its key); no more of them than the
    function has parameters, and keywords (``.uncached`` only) that name one."""
    for call, name, uncached in _cached_calls(ast.parse(path.read_text())):
        params, varargs = CACHED[name]
        where = f"{path.name}:{call.lineno} {name}"
        assert uncached or not call.keywords, f"{where}: keywords reach jit.cached's wrapper"
        starred = any(isinstance(a, ast.Starred) for a in call.args)
        if not (starred or varargs):
            assert len(call.args) <= len(params), f"{where}: {len(call.args)} positional"
        for kw in call.keywords:
            assert kw.arg is None or kw.arg in params, f"{where}: no parameter {kw.arg}"
