"""The device scripts in tools/ only run on the lent GPU, so CI at least parses them: every
Python probe compiles and every shell script passes ``bash -n``."""

import pathlib
import subprocess

import pytest

TOOLS = pathlib.Path(__file__).resolve().parent.parent / "tools"


@pytest.mark.parametrize("path", sorted(TOOLS.glob("*.py")), ids=lambda p: p.name)
def test_python_probe_compiles(path):
    compile(path.read_text(), str(path), "exec")


@pytest.mark.parametrize("path", sorted(TOOLS.glob("*.sh")), ids=lambda p: p.name)
def test_shell_script_parses(path):
    result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
