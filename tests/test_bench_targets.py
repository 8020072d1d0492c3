"""``cute_kernels.bench.targets``: the issues' bars applied to suite rows (synthetic payloads,
so each rule is checked on both sides of its bar), the printed-table parser on a table written
by ``report.emit`` itself, and the command line on files."""

import json

import pytest

from cute_kernels.bench import targets
from cute_kernels.bench.report import Row, emit

CEILINGS = {"copy_tbs": 4.0, "bf16_tflops": 800.0, "device": "test"}
# a printed suite table (``report.emit``'s): its title and header, and one row of it
LOG_TABLE_HEAD = (
    "nvfp4_gemm on NVIDIA H200: copy 4.25 TB/s (ours 3.13, torch copy_ 4.25), bf16 mma "
    "802 TFLOP/s  (ratio = comparator time / ours)\n"
    "kernel                 shape                       graph us eager us rate\n")
LOG_ROW_M1 = (
    "nvfp4_gemm W4A4 permuted M=1 N=9216 K=7168              12.25        -     3036 GB/s"
    "  71.5% copy  cuBLAS bf16 38.1us (3.11x)  QuACK w4a16 34.2us (2.79x)\n")


def _row(suite, name, shape, us, percent=None, **comparators):
    row = {"suite": suite, "name": name, "shape": shape, "us": us, "comparators": comparators}
    if percent is not None:
        row["percent_copy"] = percent
    return row


def _checks(*rows, all_forms=False):
    return targets.evaluate([{"ceilings": CEILINGS, "rows": list(rows)}], all_forms)


def _only(checks, target_words):
    found = [c for c in checks if target_words in c.target]
    assert len(found) == 1, [c.target for c in checks]
    return found[0]


@pytest.mark.parametrize("percent,met", [(74.9, False), (75.0, True)])
def test_one_token_big_weights_read_the_roofline(percent, met):
    row = _row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", "M=1 N=9216 K=7168", 12.0, percent,
               **{"cuBLAS bf16": 38.0, "QuACK w4a16": 34.0})
    checks = _checks(row)
    assert _only(checks, ">= 75%").met is met
    assert _only(checks, "QuACK").value == pytest.approx(34.0 / 12.0)
    assert not [c for c in checks if "2x cuBLAS" in c.target]  # big weights: not that bar


def test_one_token_small_weights_read_cublas():
    """4096x7168 holds 14.7 MB of packed weights: 2x cuBLAS bf16 is its M = 1 bar."""
    row = _row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", "M=1 N=4096 K=7168", 8.0, 50.0,
               **{"cuBLAS bf16": 15.9, "QuACK w4a16": 14.0})
    checks = _checks(row)
    assert not _only(checks, "2x cuBLAS").met
    assert not [c for c in checks if "roofline" in c.target]


def test_the_32_mb_line_is_decimal():
    """9216x7168's 33.0 MB (31.5 MiB) of packed weights take the roofline bar."""
    assert 9216 * 7168 // 2 >= targets.BIG_WEIGHT_BYTES > 4096 * 7168 // 2


def test_sixteen_tokens_and_large_m():
    rows = [_row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", "M=16 N=9216 K=7168", 17.3, 61.0,
                 **{"QuACK w4a16": 25.0}),
            _row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", "M=256 N=9216 K=7168", 50.0,
                 **{"cuBLAS bf16": 44.0}),
            _row("nvfp4_gemm", "W4A4 permuted sustained", "M=256 N=9216 K=7168", 50.0,
                 **{"cuBLAS bf16 sustained": 45.0})]
    checks = _checks(*rows)
    assert _only(checks, ">= 60%").met
    assert not _only(checks, "QuACK").met  # 25 / 17.3 = 1.45x
    large = [c for c in checks if "M >= 256" in c.target]
    assert [(c.met, "sustained" in c.target) for c in large] == [(False, False), (True, True)]


def test_packed_rows_only_with_all_forms():
    row = _row("nvfp4_gemm", "nvfp4_gemm W4A4", "M=1 N=9216 K=7168", 14.0, 62.4,
               **{"QuACK w4a16": 34.0})
    assert _checks(row) == []
    assert {c.target for c in _checks(row, all_forms=True)} >= {
        "M = 1, >= 32 MB of weights: >= 75% of the roofline"}


def test_fused_bars():
    rows = [_row("swiglu", "nvfp4_gemm_swiglu_quant permuted", "M=1 2I=1024 K=7168", 6.3, 20.0,
                 **{"unfused pair": 6.2, "cuBLAS+silu": 13.2, "QuACK+silu+quant": 13.7}),
            _row("swiglu", "fused W4A16 permuted", "M=1024 2I=1024 K=7168", 30.0,
                 **{"cuBLAS+silu": 29.8})]
    checks = _checks(*rows)
    assert _only(checks, "2x cuBLAS + silu").met          # 13.2 / 6.3
    assert not _only(checks, "unfused pair").met          # 6.2 / 6.3
    assert _only(checks, "QuACK + silu").met              # 13.7 / 6.3
    assert not _only(checks, "M >= 256").met              # 29.8 / 30.0


def test_quant_bars():
    rows = [_row("quant", "nvfp4_quantize", "M=4096 K=5120", 16.68, 75.8,
                 **{"torch ops (eager)": 1463.7}),
            _row("quant", "silu_mul_nvfp4_quant", "M=16384 I=18432", 100.0, 92.0),
            _row("quant", "silu_mul_nvfp4_quant", "M=64 I=5120", 3.49, 10.2,
                 **{"torch silu_mul + ours": 18.8}),
            _row("quant", "silu_mul_nvfp4_quant", "M=4096 I=2048", 10.0, 50.0),  # not a bar K
            _row("gdn", "gdn_qkvzba_split", "T=4096 contig", 20.0, 86.0)]
    checks = _checks(*rows)
    assert [(c.row.split()[0], c.met) for c in checks] == [
        ("nvfp4_quantize", False), ("silu_mul_nvfp4_quant", True),
        ("silu_mul_nvfp4_quant", True), ("gdn_qkvzba_split", True)]


def test_percent_copy_from_bytes():
    """JSON rows carry bytes and us, not the printed figure."""
    row = {"suite": "quant", "name": "nvfp4_quantize", "shape": "M=4096 K=7168", "us": 20.0,
           "bytes": 68_000_000, "comparators": {}}
    check, = _checks(row)
    assert check.value == pytest.approx(100 * 68e6 / 20e-6 / 1e12 / 4.0)


def test_parse_log_reads_emits_table(tmp_path, capsys):
    rows = [Row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", "M=1 N=9216 K=7168", 12.25,
                bytes=35_100_000, comparators={"cuBLAS bf16": 38.1, "QuACK w4a16": 34.2}),
            Row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", "M=1024 N=9216 K=7168", 180.0,
                flops=2 * 1024 * 9216 * 7168, comparators={"cuBLAS bf16": 177.1}),
            Row("quant", "nvfp4_quantize", "M=4096 K=5120", 16.68, eager_us=40.1,
                bytes=53_700_000, comparators={"torch ops (eager)": 1463.7,
                                               "copy, same bytes": 14.5})]
    emit(rows, CEILINGS, tmp_path, "nvfp4_gemm")
    payload, = targets.parse_log(capsys.readouterr().out)
    assert payload["title"] == "nvfp4_gemm" and payload["ceilings"]["copy_tbs"] == 4.0
    got = [(r["name"], r["shape"], r["us"], r["comparators"], r.get("percent_copy"))
           for r in payload["rows"]]
    assert got == [
        ("nvfp4_gemm W4A4 permuted", "M=1 N=9216 K=7168", 12.25,
         {"cuBLAS bf16": 38.1, "QuACK w4a16": 34.2}, pytest.approx(71.6, abs=0.05)),
        ("nvfp4_gemm W4A4 permuted", "M=1024 N=9216 K=7168", 180.0, {"cuBLAS bf16": 177.1},
         None),
        ("nvfp4_quantize", "M=4096 K=5120", 16.68,
         {"torch ops (eager)": 1463.7, "copy, same bytes": 14.5}, pytest.approx(80.5, abs=0.05))]
    # the ratios as printed (taken before the times were rounded), which the checks prefer
    assert payload["rows"][0]["ratios"] == {"cuBLAS bf16": 3.11, "QuACK w4a16": 2.79}
    check = _only(targets.evaluate([payload]), "QuACK")
    assert check.value == 2.79


def test_parse_log_keeps_to_its_tables():
    """A table is its title, header and the rows right after them: odd numbers do not stop
    the parse, and row-like lines after the table are not filed under it."""
    log = (
        LOG_TABLE_HEAD + LOG_ROW_M1 +
        "nvfp4_gemm W4A4 permuted M=4 N=9216 K=7168           1.2.3        -     nan\n"
        "nvfp4_gemm W4A4 permuted M=16 N=9216 K=7168              17.32        -     2166 GB/s"
        "  51.0% copy\n")
    payload, = targets.parse_log(log)
    assert [r["shape"] for r in payload["rows"]] == ["M=1 N=9216 K=7168"]


def test_latest_keeps_the_last_run(tmp_path):
    """Files in path order, digit runs as numbers (s9 before s10); the newest check wins."""
    for session, percent in (("s9", 60.0), ("s10", 76.0)):
        payload = {"title": "nvfp4_gemm", "ceilings": CEILINGS, "rows": [
            _row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", "M=1 N=9216 K=7168", 12.0,
                 percent)]}
        (tmp_path / f"{session}-gemm.json").write_text(json.dumps(payload))
    checks = targets.evaluate(targets.load_payloads([str(tmp_path)]))
    assert [c.value for c in checks] == [60.0, 76.0]
    last, = targets.latest(checks)
    assert last.met and last.source.endswith("s10-gemm.json")
    # folders named count in the order given: the last one's run is the newest
    new = tmp_path / "bench_out"
    new.mkdir()
    (new / "nvfp4_gemm.json").write_text((tmp_path / "s9-gemm.json").read_text())
    (new / "broken.json").write_text("{not json")  # files that are not a suite's add nothing
    last, = targets.latest(targets.evaluate(targets.load_payloads(
        [str(tmp_path / "s10-gemm.json"), str(new)])))
    assert last.value == 60.0 and last.source.endswith("nvfp4_gemm.json")


def test_command_line(tmp_path, capsys):
    log = tmp_path / "run.log"
    log.write_text(LOG_TABLE_HEAD + LOG_ROW_M1)
    assert targets.main([str(log), "--open"]) == 0
    out = capsys.readouterr().out
    assert "OPEN" in out and "71.5%" in out and "2.79x" not in out  # --open: the met one left
    assert "issue 5: 1 of 2 checks met, 1 open" in out
    assert targets.main([str(log), "--strict"]) == 1
    with pytest.raises(FileNotFoundError, match="no such file"):
        targets.main([str(tmp_path / "missing")])


def test_bench_prints_the_targets_of_its_run(tmp_path, capsys, monkeypatch):
    """``python -m cute_kernels.bench nvfp4_gemm --targets``: after the suite's table, the
    targets against the rows just measured (the suite and the ceilings stubbed: no GPU)."""
    import sys
    import types

    import torch

    from cute_kernels.bench import __main__ as bench
    from cute_kernels.bench import ceilings

    suite = types.ModuleType("stub_suite")
    suite.run = lambda **_: [Row("nvfp4_gemm", "nvfp4_gemm W4A4 permuted", "M=1 N=9216 K=7168",
                                 12.25, bytes=35_100_000,
                                 comparators={"cuBLAS bf16": 38.1, "QuACK w4a16": 34.2})]
    monkeypatch.setitem(sys.modules, "stub_suite", suite)
    monkeypatch.setitem(bench.SUITES, "nvfp4_gemm", "stub_suite")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(ceilings, "measure", lambda: CEILINGS)
    assert bench.main(["nvfp4_gemm", "--out", str(tmp_path), "--targets"]) == 0
    out = capsys.readouterr().out
    assert "issue 5  OPEN    71.6% (>= 75% copy)" in out
    assert "issue 5: 1 of 2 checks met, 1 open" in out
    # the log of such a run reads back as the same rows, the target lines skipped
    payload, = targets.parse_log(out)
    assert [r["name"] for r in payload["rows"]] == ["nvfp4_gemm W4A4 permuted"]


def test_runs_on_other_cards_keep_their_own_checks(tmp_path, capsys):
    """A run on an H100 (its own copy bandwidth and comparators) neither replaces the H200's
    latest check nor joins its count; ``--device`` keeps one card's runs."""
    h100 = LOG_TABLE_HEAD.replace("NVIDIA H200", "NVIDIA H100 80GB HBM3").replace(
        "4.25 TB/s (ours", "3.01 TB/s (ours")
    (tmp_path / "s1-h200.log").write_text(LOG_TABLE_HEAD + LOG_ROW_M1)
    (tmp_path / "s2-h100.log").write_text(h100 + LOG_ROW_M1.replace("71.5%", "81.9%"))
    payloads = targets.load_payloads([str(tmp_path)])
    assert [p["ceilings"]["device"] for p in payloads] == ["NVIDIA H200",
                                                           "NVIDIA H100 80GB HBM3"]
    last = targets.latest(targets.evaluate(payloads))
    copy = [(c.device, c.value) for c in last if c.unit == "% copy"]
    assert copy == [("NVIDIA H200", 71.5), ("NVIDIA H100 80GB HBM3", 81.9)]
    assert targets.summary(last) == [
        "issue 5 on NVIDIA H100 80GB HBM3: 2 of 2 checks met, 0 open",
        "issue 5 on NVIDIA H200: 1 of 2 checks met, 1 open"]
    assert targets.main([str(tmp_path), "--latest", "--device", "h200"]) == 0
    out = capsys.readouterr().out
    assert "81.9%" not in out and "71.5%" in out and "(NVIDIA H200, " in out
    assert "issue 5: 1 of 2 checks met, 1 open" in out
