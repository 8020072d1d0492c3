"""``python -m cute_kernels.bench.targets DIR_OR_JSON ... [--open] [--latest] [--device NAME]``

The project's performance targets (issues 4, 5 and 6) checked against the JSON the bench
suites write (``python -m cute_kernels.bench ... --out DIR``), or the tables they print (a
run's log; ``--latest`` over many runs, named oldest first, keeps each row's last): one line a
target and row, with the measured figure, the bar and whether it is met, then a count per
issue. Figures come from the suites' own rows, so every ratio is against comparators timed in
the same run and every "% copy" against the copy bandwidth measured in it (a log's as printed:
ratios to 0.01, so a bar met by less than that reads from the JSON). A report, not a test: it
exits 0 whatever it finds (``--strict``: 1 where a target is open).

The issues set their bars on the H200; a run on another card (the device tool may lend an
H100) measures its own copy bandwidth and comparators, so its checks are its own: each check
carries the suite's device, ``--latest`` keeps the last run per device, the counts are per
device where there are several, and ``--device H200`` keeps one card's runs.

The bars, as the issues state them:

- Issue 5 (``nvfp4_gemm``): at M = 1, shapes with at least 32 MB (decimal) of packed weights
  at >= 75% of the DRAM roofline (the suite's "% copy": packed weights, scales, activations
  and output over the measured copy bandwidth), smaller shapes >= 2x cuBLAS bf16; M = 2..16
  >= 60% on the same big shapes; M <= 64 >= 1.5x QuACK ``gemm_w4a16``; M >= 256 >= 0.9x
  cuBLAS bf16 (settled, and the sustained rows against sustained cuBLAS).
- Issue 6 (``nvfp4_gemm_swiglu_quant``): M = 1 as issue 5 but against cuBLAS + silu for the
  small shapes; every M no slower than the unfused pair; M <= 64 >= 1.5x QuACK + silu +
  quantization; M >= 256 at least as fast as cuBLAS + silu (W4A16 rows and sustained rows
  too).
- Issue 4: ``nvfp4_quantize`` and ``silu_mul_nvfp4_quant`` at M >= 4096 and K or I in
  {5120, 7168, 17408, 18432}, and ``gdn_qkvzba_split`` at T >= 4096, at >= 85% of the copy
  bandwidth; at M <= 64 faster than the unfused torch sequence.

The models' weights are ``prepare_nvfp4_weight``'s permuted words, so the GEMM rows checked
by default are the permuted ones, with NVFP4 activations and with bf16 ones (W4A16: the issue
names both forms of ``a`` and sets its bars on neither alone); ``--all-forms`` adds the
packed-byte rows.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pathlib
import re
import sys

BIG_WEIGHT_BYTES = 32 * 10**6  # "shapes with >= 32 MB of packed weights" (issue 5 / 6)
QUANT_WIDTHS = (5120, 7168, 17408, 18432)
LARGE_M = 4096
GEMM_FORMS = ("nvfp4_gemm W4A4 permuted", "nvfp4_gemm W4A16 permuted")
GEMM_PACKED_FORMS = ("nvfp4_gemm W4A4", "nvfp4_gemm W4A16")
FUSED_FORMS = ("nvfp4_gemm_swiglu_quant permuted", "fused W4A16 permuted")
FUSED_PACKED_FORMS = ("nvfp4_gemm_swiglu_quant",)


@dataclasses.dataclass(frozen=True)
class Check:
    issue: int
    target: str   # the bar in words
    row: str      # the suite row: name and shape
    value: float  # "% copy" or a time ratio (comparator us / ours)
    bar: float
    unit: str     # "% copy" or "x <comparator>"
    source: str = ""  # the file the row came from (``load_payloads``)
    device: str = ""  # the suite's GPU, as its title or ceilings name it

    @property
    def met(self) -> bool:
        return self.value >= self.bar

    def line(self) -> str:
        if self.unit == "% copy":
            figure, bar = f"{self.value:6.1f}%", f"{self.bar:g}% copy"
        else:
            figure, bar = f"{self.value:6.2f}x", f"{self.bar:g}{self.unit}"
        state = "met " if self.met else "OPEN"
        where = ", ".join(w for w in (self.device, self.source) if w)
        where = f"  ({where})" if where else ""
        return (f"issue {self.issue}  {state}  {figure} (>= {bar})  {self.row}  [{self.target}]"
                f"{where}")


def shape_fields(shape: str) -> dict[str, int]:
    """``"M=1 N=9216 K=7168"`` -> {"M": 1, "N": 9216, "K": 7168}; other words are skipped."""
    fields = {}
    for word in shape.split():
        key, sep, value = word.partition("=")
        if sep and value.isdigit():
            fields[key] = int(value)
    return fields


def _ratio(row: dict, comparator: str) -> float | None:
    if comparator in row.get("ratios", {}):  # a printed table's own ratio (``parse_log``)
        return row["ratios"][comparator]
    us = row.get("comparators", {}).get(comparator)
    return us / row["us"] if us and row.get("us") else None


def _percent_copy(row: dict, ceilings: dict) -> float | None:
    if "percent_copy" in row:  # a printed table's figure (``parse_log``)
        return row["percent_copy"]
    if not row.get("bytes") or not row.get("us"):
        return None
    return 100 * row["bytes"] / (row["us"] * 1e-6) / 1e12 / ceilings["copy_tbs"]


class _Collector:
    def __init__(self, payload: dict):
        self.ceilings = payload["ceilings"]
        self.source = payload.get("source", "")
        self.device = self.ceilings.get("device", "")
        self.checks: list[Check] = []

    def ratio(self, issue, target, row, comparator, bar):
        value = _ratio(row, comparator)
        if value is not None:
            self.checks.append(Check(issue, target, _label(row), value, bar, f"x {comparator}",
                                     self.source, self.device))

    def copy(self, issue, target, row, bar):
        value = _percent_copy(row, self.ceilings)
        if value is not None:
            self.checks.append(Check(issue, target, _label(row), value, bar, "% copy",
                                     self.source, self.device))


def _label(row: dict) -> str:
    return f"{row['name']} {row['shape']}"


def _weight_row(c: _Collector, row: dict, issue: int, rows_key: str, forms, cublas: tuple,
                sustained: tuple) -> tuple[int, bool] | None:
    """Issue 5's and 6's shared part: the sustained row's bar (``sustained``: its name, its
    comparator, the bar), and for a row of ``forms`` the M = 1 bar (the roofline on weights of
    at least 32 MB, else 2x ``cublas``: (words, comparator)); then (M, whether the weights
    hold 32 MB) for the caller's bars, None for other rows."""
    f = shape_fields(row["shape"])
    m, rows, k = f.get("M"), f.get(rows_key), f.get("K")
    if m is None or rows is None or k is None:
        return None
    words, comparator = cublas
    name, sustained_comparator, bar = sustained
    if row["name"] == name:
        c.ratio(issue, f"M >= 256: >= {bar:g}x {words} (sustained)", row, sustained_comparator,
                bar)
        return None
    if row["name"] not in forms:
        return None
    big = rows * k // 2 >= BIG_WEIGHT_BYTES
    if m == 1 and big:
        c.copy(issue, "M = 1, >= 32 MB of weights: >= 75% of the roofline", row, 75)
    elif m == 1:
        c.ratio(issue, f"M = 1, < 32 MB of weights: >= 2x {words}", row, comparator, 2.0)
    return m, big


def _gemm_checks(c: _Collector, row: dict, forms) -> None:
    got = _weight_row(c, row, 5, "N", forms, ("cuBLAS bf16", "cuBLAS bf16"),
                      ("W4A4 permuted sustained", "cuBLAS bf16 sustained", 0.9))
    if got is None:
        return
    m, big = got
    if 1 < m <= 16 and big:
        c.copy(5, "M <= 16, >= 32 MB of weights: >= 60% of the roofline", row, 60)
    if m <= 64:
        c.ratio(5, "M <= 64: >= 1.5x QuACK gemm_w4a16", row, "QuACK w4a16", 1.5)
    if m >= 256:
        c.ratio(5, "M >= 256: >= 0.9x cuBLAS bf16", row, "cuBLAS bf16", 0.9)


def _fused_checks(c: _Collector, row: dict, forms) -> None:
    got = _weight_row(c, row, 6, "2I", forms, ("cuBLAS + silu", "cuBLAS+silu"),
                      ("fused permuted sustained", "cuBLAS+silu sustained", 1.0))
    if got is None:
        return
    m = got[0]
    c.ratio(6, "every M: no slower than the unfused pair", row, "unfused pair", 1.0)
    if m <= 64:
        c.ratio(6, "M <= 64: >= 1.5x QuACK + silu + quant", row, "QuACK+silu+quant", 1.5)
    if m >= 256:
        c.ratio(6, "M >= 256: >= 1x cuBLAS + silu", row, "cuBLAS+silu", 1.0)


def _quant_checks(c: _Collector, row: dict) -> None:
    f = shape_fields(row["shape"])
    name, m = row["name"], f.get("M")
    width = f.get("K", f.get("I"))
    if name == "gdn_qkvzba_split":
        t = f.get("T")
        if t is not None and t >= LARGE_M:
            c.copy(4, "gdn split, T >= 4096: >= 85% of the copy", row, 85)
        return
    unfused = {"nvfp4_quantize": "torch ops (eager)",
               "silu_mul_nvfp4_quant": "torch silu_mul + ours"}.get(name)
    if unfused is None or m is None:
        return
    if m >= LARGE_M and width in QUANT_WIDTHS:
        c.copy(4, "M >= 4096: >= 85% of the copy", row, 85)
    if m <= 64:
        c.ratio(4, "M <= 64: faster than the unfused torch sequence", row, unfused, 1.0)


def evaluate(payloads: list[dict], all_forms: bool = False) -> list[Check]:
    """The checks of every suite payload (``report.emit``'s JSON: title, ceilings, rows)."""
    gemm_forms = GEMM_FORMS + (GEMM_PACKED_FORMS if all_forms else ())
    fused_forms = FUSED_FORMS + (FUSED_PACKED_FORMS if all_forms else ())
    checks = []
    for payload in payloads:
        c = _Collector(payload)
        for row in payload["rows"]:
            suite = row.get("suite")
            if suite == "nvfp4_gemm":
                _gemm_checks(c, row, gemm_forms)
            elif suite == "swiglu":
                _fused_checks(c, row, fused_forms)
            elif suite in ("quant", "gdn"):
                _quant_checks(c, row)
        checks += c.checks
    return checks


# ``report.emit``'s printed table: its title line, a header, then rows of name, shape (words
# "X=n"), graph us, eager us, rate, comparators ("name 12.3us (1.23x)", two spaces apart)
_TITLE = re.compile(r"^(\S+) on (.*): copy (\d+(?:\.\d+)?) TB/s")
_HEADER = re.compile(r"^kernel\s+shape\s+graph us")
_NUMBER = r"\d+(?:\.\d+)?"
_ROW = re.compile(rf"^(?P<name>.+?)\s+(?P<shape>[A-Za-z0-9]+=\d+(?: \S+)*?)\s+(?P<us>{_NUMBER})\s+"
                  rf"(?:{_NUMBER}|-)\s+(?P<rate>.*)$")
_PERCENT_COPY = re.compile(rf"({_NUMBER})% copy")
_COMPARATOR = re.compile(rf"^(.+) ({_NUMBER})us \(({_NUMBER})x\)$")  # one field


def parse_log(text: str) -> list[dict]:
    """The suite tables a bench run printed (its log), as payloads like the JSON's: rows with
    name, shape, us, comparators, their printed ratios (``ratios``: the times are printed
    rounded, the ratios were taken before) and the printed "% copy" (``percent_copy``). A
    table is its title, its header and the rows right after them; any other line ends it
    (rows timed NaN, as a warm-up run prints them, are not rows)."""
    payloads, current = [], None
    for line in text.splitlines():
        title = _TITLE.match(line)
        if title:
            current = {"title": title.group(1), "rows": [], "ceilings": {
                "copy_tbs": float(title.group(3)), "device": title.group(2)}}
            payloads.append(current)
            continue
        if current is None or _HEADER.match(line):
            continue
        row = _ROW.match(line)
        if row is None:
            current = None  # the table ended
            continue
        fields = [_COMPARATOR.match(f) for f in re.split(r"\s{2,}", row.group("rate"))]
        entry = {"suite": current["title"], "name": row.group("name").strip(),
                 "shape": row.group("shape"), "us": float(row.group("us")),
                 "comparators": {f.group(1): float(f.group(2)) for f in fields if f},
                 "ratios": {f.group(1): float(f.group(3)) for f in fields if f}}
        copy = _PERCENT_COPY.search(row.group("rate"))
        if copy:
            entry["percent_copy"] = float(copy.group(1))
        current["rows"].append(entry)
    return payloads


def load_payloads(paths: list[str]) -> list[dict]:
    """The suites in the JSON files and logs (``*.json``, ``*.log``, ``*.txt``) named, or
    found (recursively) under the folders named: in the order given, each folder's files in
    path order with digit runs as numbers (so that ``notes/raw/s9-*`` .. ``s50-*`` come
    oldest first; a log holds no date). ``latest`` keeps the last, so name the newest run
    last. Files that are not a suite's JSON or log add nothing."""
    payloads = []
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            files = sorted((f for f in p.rglob("*") if f.suffix in (".json", ".log", ".txt")),
                           key=lambda f: _natural(str(f)))
        elif p.is_file():
            files = [p]
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
        for f in files:
            payloads += [dict(data, source=str(f)) for data in _suites_in(f)]
    return payloads


def _suites_in(path: pathlib.Path) -> list[dict]:
    text = path.read_text(errors="replace")
    if path.suffix != ".json":
        return parse_log(text)
    try:
        data = json.loads(text)
    except ValueError:  # not JSON after all
        return []
    return [data] if isinstance(data, dict) and "rows" in data and "ceilings" in data else []


def _natural(path: str) -> list:
    """``path`` with its digit runs as numbers, so that run s9 sorts before s10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path)]


def latest(checks: list[Check]) -> list[Check]:
    """Each (device, issue, target, row) once: its last check (``evaluate`` keeps the
    payloads' order, so with ``load_payloads`` the newest run's), in the order of first
    appearance. A run on another card does not stand in for the H200's."""
    last = {}
    for ch in checks:
        last[(ch.device, ch.issue, ch.target, ch.row)] = ch
    return list(last.values())


def on_device(payloads: list[dict], name: str) -> list[dict]:
    """The payloads whose device names ``name`` (case-insensitive: ``H200``, ``H100``)."""
    return [p for p in payloads if name.lower() in p["ceilings"].get("device", "").lower()]


def summary(checks: list[Check]) -> list[str]:
    """One count per issue, per issue and device where the checks come from several."""
    devices = sorted({ch.device for ch in checks})
    lines = []
    for issue in sorted({ch.issue for ch in checks}):
        for device in devices:
            mine = [ch for ch in checks if ch.issue == issue and ch.device == device]
            if not mine:
                continue
            open_ = sum(not ch.met for ch in mine)
            on = f" on {device or '?'}" if len(devices) > 1 else ""
            lines.append(f"issue {issue}{on}: {len(mine) - open_} of {len(mine)} checks met, "
                         f"{open_} open")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cute_kernels.bench.targets")
    parser.add_argument("paths", nargs="+",
                        help="suite JSON files, logs or folders holding them, oldest first")
    parser.add_argument("--open", action="store_true", help="print the open checks only")
    parser.add_argument("--all-forms", action="store_true",
                        help="the packed-byte GEMM rows too (default: permuted words)")
    parser.add_argument("--latest", action="store_true",
                        help="each target and row once, from the last run holding it")
    parser.add_argument("--strict", action="store_true", help="exit 1 where a check is open")
    parser.add_argument("--device", metavar="NAME",
                        help="only runs on that GPU (a part of its name: H200, H100)")
    ns = parser.parse_args(argv)
    payloads = load_payloads(ns.paths)
    if ns.device:
        payloads = on_device(payloads, ns.device)
    checks = evaluate(payloads, ns.all_forms)
    if ns.latest:
        checks = latest(checks)
    if not checks:
        print("no suite rows with a target found")
        return 0
    for ch in checks:
        if ch.met and ns.open:
            continue
        print(ch.line())
    print("\n".join(summary(checks)))
    return int(ns.strict and any(not ch.met for ch in checks))


if __name__ == "__main__":
    sys.exit(main())
