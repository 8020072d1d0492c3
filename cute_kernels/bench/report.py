"""Benchmark rows -> a printed table, a JSON file and (with matplotlib) a PNG."""

from __future__ import annotations

import dataclasses
import datetime
import json
import pathlib


@dataclasses.dataclass
class Row:
    suite: str
    name: str           # kernel or path measured
    shape: str          # e.g. "M=1 N=36864 K=7168"
    us: float           # graph-replay microseconds per call
    eager_us: float | None = None
    bytes: int = 0      # fewest bytes the op must move
    flops: int = 0
    comparators: dict = dataclasses.field(default_factory=dict)  # name -> graph us

    def tbs(self) -> float:
        return self.bytes / (self.us * 1e-6) / 1e12 if self.bytes else 0.0

    def tflops(self) -> float:
        return self.flops / (self.us * 1e-6) / 1e12 if self.flops else 0.0


def _fmt_row(r: Row, ceilings: dict) -> str:
    if not (r.bytes or r.flops):
        rate = f"{'(host time)':>24}"
    elif r.bytes >= r.flops / 200:
        rate = f"{r.tbs() * 1e3:8.0f} GB/s {100 * r.tbs() / ceilings['copy_tbs']:5.1f}% copy"
    else:
        rate = f"{r.tflops():8.1f} TF/s {100 * r.tflops() / ceilings['bf16_tflops']:5.1f}% mma"
    eager = f"{r.eager_us:8.1f}" if r.eager_us is not None else "       -"
    comps = "  ".join(f"{name} {us:.1f}us ({us / r.us:.2f}x)" for name, us in r.comparators.items())
    return f"{r.name:<22} {r.shape:<26} {r.us:9.2f} {eager} {rate}  {comps}"


def emit(rows: list[Row], ceilings: dict, out_dir: str | pathlib.Path, title: str) -> pathlib.Path:
    """Print the table; write ``<title>.json`` and ``<title>.png`` under ``out_dir``."""
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    print(f"\n{title} on {ceilings.get('device', '?')}: copy {ceilings['copy_tbs']:.2f} TB/s "
          f"(ours {ceilings.get('our_copy_tbs', float('nan')):.2f}, "
          f"torch copy_ {ceilings.get('torch_copy_tbs', float('nan')):.2f}), "
          f"bf16 mma {ceilings['bf16_tflops']:.0f} TFLOP/s  (ratio = comparator time / ours)")
    print(f"{'kernel':<22} {'shape':<26} {'graph us':>9} {'eager us':>8} rate")
    for r in rows:
        print(_fmt_row(r, ceilings))
    payload = {"title": title, "date": datetime.date.today().isoformat(), "ceilings": ceilings,
               "rows": [dict(dataclasses.asdict(r), tbs=r.tbs(), tflops=r.tflops()) for r in rows]}
    path = out / f"{title}.json"
    path.write_text(json.dumps(payload, indent=1))
    _plot(rows, ceilings, out / f"{title}.png", title)
    return path


def _plot(rows: list[Row], ceilings: dict, path: pathlib.Path, title: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not installed: no PNG)")
        return
    labels = [f"{r.name}\n{r.shape}" for r in rows]
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(rows)), 4))
    x = range(len(rows))
    ax.bar([i - 0.2 for i in x], [r.us for r in rows], width=0.4, label="ours")
    comp_names = sorted({c for r in rows for c in r.comparators})
    for j, c in enumerate(comp_names):
        ax.bar([i + 0.2 + 0.4 * j / max(1, len(comp_names)) for i in x],
               [r.comparators.get(c, 0) for r in rows], width=0.4 / max(1, len(comp_names)),
               label=c)
    ax.set_xticks(list(x), labels, fontsize=6, rotation=30, ha="right")
    ax.set_ylabel("us per call (CUDA graph)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
