"""``cute_kernels.bench.moved``: rows of a new run against the last earlier run of each row
(synthetic suite JSON files, so each side of the threshold is checked)."""

import json

import pytest

from cute_kernels.bench import moved
from tests.conftest import TOOLS

H200 = {"copy_tbs": 4.2, "device": "NVIDIA H200"}
H100 = {"copy_tbs": 3.0, "device": "NVIDIA H100 80GB HBM3"}


def _write(path, ceilings, rows):
    payload = {"title": "nvfp4_gemm", "ceilings": ceilings, "rows": [
        {"suite": "nvfp4_gemm", "name": name, "shape": shape, "us": us, "comparators": {}}
        for name, shape, us in rows]}
    path.write_text(json.dumps(payload))
    return str(path)


def test_moved_rows_either_way_past_the_threshold():
    new = {("s", "a", "M=1"): (7.5, "new"), ("s", "b", "M=1"): (9.5, "new"),
           ("s", "c", "M=1"): (10.3, "new"), ("s", "d", "M=1"): (1.0, "new")}
    old = {("s", "a", "M=1"): (3.8, "old"), ("s", "b", "M=1"): (10.0, "old"),
           ("s", "c", "M=1"): (10.0, "old")}
    got = moved.moved(new, old, 0.04)
    assert [(key[1], round(r, 2)) for key, _, _, r in got] == [("a", 1.97), ("b", 0.95)]
    assert moved.moved(new, old, 0.5) == got[:1]


def test_command_line_takes_the_last_earlier_run_on_the_device(tmp_path, capsys):
    row = ("nvfp4_gemm W4A4 permuted", "M=1 N=7168 K=2048")
    raw = tmp_path / "raw"
    raw.mkdir()
    _write(raw / "s9-gemm.json", H200, [(*row, 9.0)])
    _write(raw / "s44-gemm.json", H200, [(*row, 3.79)])  # s44 after s9: the earlier run
    _write(raw / "s85-h100-gemm.json", H100, [(*row, 5.0)])  # another card
    new = _write(raw / "s86-gemm.json", H200, [(*row, 7.53), ("other", "M=1", 2.0)])
    assert moved.main([new, "--against", str(raw), "--device", "H200"]) == 0
    out = capsys.readouterr().out
    assert "3.79 ->      7.53 us  x1.99 slower" in out and "s44-gemm.json" in out
    assert "1 of 1 rows run before moved more than 4% (1 new rows)" in out
    # the new file in the folder named by --against is not its own earlier run
    assert moved.main([new, "--against", new]) == 0
    assert "0 of 0 rows run before" in capsys.readouterr().out


def test_bad_threshold_is_an_error(tmp_path):
    new = _write(tmp_path / "new.json", H200, [("a", "M=1", 1.0)])
    with pytest.raises(SystemExit):
        moved.main([new, "--against", new, "--threshold", "-1"])


def test_saved_rows_read_back_as_the_earlier_run(tmp_path, capsys):
    """``--save`` keeps each row's last time and its run; ``--against`` reads the file back."""
    row = ("nvfp4_gemm W4A4 permuted", "M=1 N=7168 K=2048")
    raw = tmp_path / "raw"
    raw.mkdir()
    _write(raw / "s44-gemm.json", H200, [(*row, 3.79), ("b", "M=4", 2.0)])
    _write(raw / "s45-gemm.json", H100, [(*row, 5.0)])
    saved = str(tmp_path / "rows.json")
    with pytest.raises(SystemExit):  # one card's rows only
        moved.main(["--against", str(raw), "--save", saved])
    assert moved.main(["--against", str(raw), "--device", "H200", "--save", saved]) == 0
    new = _write(tmp_path / "s86-gemm.json", H200, [(*row, 7.53)])
    capsys.readouterr()
    assert moved.main([new, "--against", saved, "--device", "H200"]) == 0
    out = capsys.readouterr().out
    assert "3.79 ->      7.53 us  x1.99 slower  (was " in out and "s44-gemm.json)" in out
    with pytest.raises(SystemExit):  # neither new files nor --save
        moved.main(["--against", saved])


def test_the_committed_h200_rows_are_a_suite_of_that_card():
    """``tools/h200_latest_rows.json``, which the device scripts compare new runs against."""
    path = TOOLS / "h200_latest_rows.json"
    payload = json.loads(path.read_text())
    assert "H200" in payload["ceilings"]["device"] and len(payload["rows"]) > 100
