"""Rows of a new suite run that moved against the last earlier run of the same row: every
kernel, form and token count the suites print, not only the rows an issue checks.

Why: the targets report reads the issues' rows only. Session 86's H200 suite found 7168x2048
at one token on permuted words twice as slow as session 44's (the balanced launch taken on a
K too short for it); only its ratio to cuBLAS happened to be checked. Run it over every new
device run against ``notes/raw``:

    python -m cute_kernels.bench.moved notes/raw/s86-call10-* --against notes/raw --device H200

A row is (suite, kernel name, shape); the earlier time is the last one in ``--against``
(oldest first, ``targets.load_payloads``'s order) on the same device, the new one the last in
the new files.

``--save FILE`` writes those earlier rows (each with the run it came from) as one suite JSON
that ``--against`` reads back: ``tools/h200_latest_rows.json`` travels to the device, where
``notes/raw`` does not, so a device script can print what moved in the same call."""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from .targets import load_payloads, on_device


def row_times(payloads: list[dict]) -> dict[tuple[str, str, str], tuple[float, str]]:
    """(suite, name, shape) -> (graph us, source) of each row's last run in ``payloads``."""
    times = {}
    for payload in payloads:
        for row in payload["rows"]:
            key = (row.get("suite", payload.get("title", "")), row["name"], row["shape"])
            times[key] = (row["us"], row.get("source", payload.get("source", "")))
    return times


def save_rows(path: str, times: dict, device: str) -> None:
    """``times`` (``row_times``') as one suite payload at ``path``: each row keeps its run."""
    rows = [{"suite": suite, "name": name, "shape": shape, "us": us, "source": source,
             "comparators": {}} for (suite, name, shape), (us, source) in times.items()]
    payload = {"title": "latest rows", "ceilings": {"device": device}, "rows": rows}
    pathlib.Path(path).write_text(json.dumps(payload, indent=0) + "\n")


def moved(new: dict, old: dict, threshold: float) -> list[tuple]:
    """(key, old us, new us, new / old) of the rows in both whose time moved by more than
    ``threshold`` (a fraction: 0.04 is 4%) either way, the slowest-grown first."""
    out = []
    for key, (us, _) in new.items():
        if key not in old:
            continue
        before = old[key][0]
        ratio = us / before if before > 0 else float("inf")
        if abs(ratio - 1) > threshold:
            out.append((key, before, us, ratio))
    return sorted(out, key=lambda m: -m[3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cute_kernels.bench.moved")
    parser.add_argument("new", nargs="*", help="the new run's suite logs / JSON / folders")
    parser.add_argument("--against", nargs="+", required=True,
                        help="earlier runs (files or folders), oldest first; the new files "
                             "are left out of them")
    parser.add_argument("--device", metavar="NAME",
                        help="only runs on that GPU (a part of its name: H200, H100)")
    parser.add_argument("--threshold", type=float, default=4.0,
                        help="percent a time must move to be printed (default 4)")
    parser.add_argument("--save", metavar="FILE",
                        help="write the --against rows' latest times to FILE (needs --device)")
    ns = parser.parse_args(argv)
    if ns.threshold < 0:
        parser.error(f"--threshold must be >= 0 percent; got {ns.threshold}")
    if ns.save:
        if not ns.device:
            parser.error("--save needs --device: one card's rows")
        olds = on_device(load_payloads(ns.against), ns.device)
        if not olds:
            parser.error(f"no suite rows on {ns.device} in --against")
        times = row_times(olds)
        save_rows(ns.save, times, olds[-1]["ceilings"]["device"])
        print(f"{ns.save}: {len(times)} rows")
        return 0
    if not ns.new:
        parser.error("name the new run's files (or --save FILE)")
    new_payloads = load_payloads(ns.new)
    new_sources = {p["source"] for p in new_payloads}
    old_payloads = [p for p in load_payloads(ns.against) if p["source"] not in new_sources]
    if ns.device:
        new_payloads = on_device(new_payloads, ns.device)
        old_payloads = on_device(old_payloads, ns.device)
    new, old = row_times(new_payloads), row_times(old_payloads)
    if not new:
        print("no suite rows in the new files")
        return 0
    rows = moved(new, old, ns.threshold / 100)
    shared = sum(key in old for key in new)
    for (suite, name, shape), before, us, ratio in rows:
        word = "slower" if ratio > 1 else "faster"
        print(f"{suite:12s} {name:36s} {shape:24s} {before:9.2f} -> {us:9.2f} us  "
              f"x{ratio:.2f} {word}  (was {old[(suite, name, shape)][1]})")
    print(f"{len(rows)} of {shared} rows run before moved more than {ns.threshold:g}% "
          f"({len(new) - shared} new rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
