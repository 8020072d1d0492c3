"""The device scripts in tools/ only run on the lent GPU, so CI at least parses them: every
Python probe compiles, every shell script (tools/sessions/ too) passes ``bash -n`` and the
files it sources next to itself exist."""

import pathlib
import re
import subprocess

import pytest

TOOLS = pathlib.Path(__file__).resolve().parent.parent / "tools"


@pytest.mark.parametrize("path", sorted(TOOLS.glob("*.py")), ids=lambda p: p.name)
def test_python_probe_compiles(path):
    compile(path.read_text(), str(path), "exec")


@pytest.mark.parametrize("path", sorted(TOOLS.rglob("*.sh")), ids=lambda p: p.name)
def test_shell_script_parses(path):
    result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for sourced in re.findall(r'\$\(dirname "\$0"\)/([^" ;]+)', path.read_text()):
        assert (path.parent / sourced).exists(), sourced
