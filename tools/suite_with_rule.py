"""A benchmark suite with a candidate rule: class or module attributes set before
``python -m cute_kernels.bench`` runs, so an H200 call can time a rule's suite rows in the same
call as the probe that decides it.

    python tools/suite_with_rule.py MODULE:ATTR=VALUE [...] -- SUITE ... --out DIR

ATTR may be dotted (``NVFP4GemmOneTokenBalanced.UNDER_STAGING_MIN_WALK``); VALUE is a Python
literal. Give the run a kernel cache of its own (``CUTE_KERNELS_CACHE_DIR``): the cache keys
see the sources, not attributes set at run time. Its rows are the candidate's, not the
library's: keep them out of ``notes/raw`` unless the rule lands as timed."""

import ast
import importlib
import sys

from cute_kernels.bench.__main__ import main


def set_attribute(spec: str) -> None:
    """``MODULE:ATTR=VALUE``: ATTR (dotted through the module's classes) set to VALUE."""
    target, value = spec.split("=", 1)
    module_name, path = target.split(":", 1)
    owner = importlib.import_module(module_name)
    *outer, name = path.split(".")
    for part in outer:
        owner = getattr(owner, part)
    if not hasattr(owner, name):
        raise SystemExit(f"{target}: no such attribute")
    setattr(owner, name, ast.literal_eval(value))
    print(f"rule: {target} = {value}", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    split = args.index("--") if "--" in args else len(args)
    for spec in args[:split]:
        set_attribute(spec)
    sys.exit(main(args[split + 1:]))
