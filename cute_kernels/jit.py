"""Compile-per-shape cache: an in-process dict in front of an on-disk cache of exported objects.

A kernel family exposes a tensor-free compile function taking only picklable scalars (dtypes,
static N/K, tile config) and returning what ``cute.compile(..., options="--enable-tvm-ffi")``
returns. Decorating it with :func:`cached` makes every call with the same scalars return the
same compiled function, compiling at most once per key across threads and processes:

* memory: a dict, guarded per key so 8 threads asking for one key compile it once;
* disk: ``<key>.o`` (from ``export_to_c``) plus ``<key>.json`` (what the key means and the
  object's sha256), written to temporary files and renamed into place under a file lock. An
  entry whose object is missing, truncated or stale fails the checksum and is rebuilt.

The key hashes the compile function's name, its arguments, the target arch and a fingerprint
of our sources and of the DSL/torch/TVM-FFI versions, so editing a kernel never loads an old
binary. ``CUTE_KERNELS_CACHE_DIR`` sets the folder (default ``~/.cache/cute-kernels``);
``CUTE_KERNELS_CACHE=0`` turns the disk layer off. ``python -m cute_kernels.jit list|clear``.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import importlib.metadata
import json
import os
import pathlib
import tempfile
import threading
import time
from typing import Any, Callable

from .arch import pdl_enabled, target_arch

_SCALAR_TYPES = (bool, int, float, str, type(None))

_memory: dict[str, Any] = {}
_key_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()
# How each lookup was served; tests and the demo read it.
stats = {"compiled": 0, "disk_hits": 0, "memory_hits": 0, "rebuilt_corrupt": 0}


def cache_dir() -> pathlib.Path:
    base = os.environ.get("CUTE_KERNELS_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "cute-kernels")
    return pathlib.Path(base)


def disk_enabled() -> bool:
    return os.environ.get("CUTE_KERNELS_CACHE", "1") != "0"


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """Hash of our package sources and the versions of what compiles them."""
    h = hashlib.sha256()
    root = pathlib.Path(__file__).resolve().parent.parent
    for package in ("cute_kernels", "layouts"):
        for path in sorted((root / package).rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    for dist in ("nvidia-cutlass-dsl", "torch", "apache-tvm-ffi"):
        try:
            h.update(f"{dist}={importlib.metadata.version(dist)}".encode())
        except importlib.metadata.PackageNotFoundError:
            h.update(f"{dist}=none".encode())
    return h.hexdigest()[:16]


def _normalize(arg: Any) -> Any:
    """Keys must be plain scalars so they hash, pickle and print the same in every process."""
    if isinstance(arg, _SCALAR_TYPES):
        return arg
    if isinstance(arg, tuple):
        return tuple(_normalize(a) for a in arg)
    if type(arg).__module__ == "torch" and type(arg).__name__ == "dtype":
        return str(arg)
    raise TypeError(
        f"compile-cache arguments must be scalars, tuples or torch dtypes, got {type(arg).__name__}"
    )


def _describe(compile_fn: Callable, args: tuple) -> str:
    name = f"{compile_fn.__module__}.{compile_fn.__qualname__}"
    return f"{name}{_normalize(args)!r} arch={target_arch()} pdl={pdl_enabled()} src={fingerprint()}"


def _lock_for(key: str) -> threading.Lock:
    with _guard:
        return _key_locks.setdefault(key, threading.Lock())


@contextlib.contextmanager
def _file_lock(path: pathlib.Path):
    with open(path, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _remove(*paths: pathlib.Path) -> None:
    for p in paths:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def _load(obj: pathlib.Path, meta: pathlib.Path, symbol: str):
    """The cached function, or None where the entry is absent or does not check out."""
    if not (obj.exists() and meta.exists()):
        return None
    try:
        info = json.loads(meta.read_text())
        if info.get("sha256") != _sha256(obj) or info.get("symbol") != symbol:
            raise ValueError("checksum or symbol mismatch")
        import cutlass.cute as cute

        module = cute.runtime.load_module(str(obj), enable_tvm_ffi=True)
        return getattr(module, symbol)
    except Exception:
        # A truncated, foreign or stale entry is rebuilt, never a crash.
        stats["rebuilt_corrupt"] += 1
        _remove(obj, meta)
        return None


def _store(compiled, obj: pathlib.Path, meta: pathlib.Path, symbol: str, description: str):
    fd, tmp = tempfile.mkstemp(dir=obj.parent, suffix=".o.tmp")
    os.close(fd)
    tmp_path = pathlib.Path(tmp)
    try:
        compiled.export_to_c(str(tmp_path), function_name=symbol)
        info = {"key": description, "symbol": symbol, "sha256": _sha256(tmp_path),
                "created": time.strftime("%Y-%m-%dT%H:%M:%S")}
        os.replace(tmp_path, obj)
        fd, tmp_meta = tempfile.mkstemp(dir=obj.parent, suffix=".json.tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(info, f)
        # The metadata lands last: an entry without it is incomplete and gets rebuilt.
        os.replace(tmp_meta, meta)
    finally:
        _remove(tmp_path)


def _key_of(compile_fn: Callable, args: tuple) -> str:
    return hashlib.sha256(_describe(compile_fn, args).encode()).hexdigest()[:32]


def get(compile_fn: Callable, args: tuple):
    """The compiled function for ``compile_fn(*args)``, from memory, disk or a fresh compile."""
    description = _describe(compile_fn, args)
    key = hashlib.sha256(description.encode()).hexdigest()[:32]
    hit = _memory.get(key)
    if hit is not None:
        stats["memory_hits"] += 1
        return hit
    with _lock_for(key):
        hit = _memory.get(key)
        if hit is not None:
            stats["memory_hits"] += 1
            return hit
        if disk_enabled():
            compiled = _get_from_disk(compile_fn, args, key, description)
        else:
            compiled = compile_fn(*args)
            stats["compiled"] += 1
        _memory[key] = compiled
        return compiled


def _get_from_disk(compile_fn, args, key, description):
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    obj, meta = folder / f"{key}.o", folder / f"{key}.json"
    symbol = f"ck_{key}"
    with _file_lock(folder / f"{key}.lock"):
        loaded = _load(obj, meta, symbol)
        if loaded is not None:
            stats["disk_hits"] += 1
            return loaded
        compiled = compile_fn(*args)
        stats["compiled"] += 1
        _store(compiled, obj, meta, symbol, description)
        return compiled


def cached(compile_fn: Callable) -> Callable:
    """Decorator: memoize a tensor-free compile function in memory and on disk."""

    # Per-process fast path keyed by the raw arguments: a hit costs one dict lookup, which
    # matters for decode kernels whose whole budget is a few microseconds of host time.
    fast: dict = {}

    @functools.wraps(compile_fn)
    def wrapper(*args):
        try:
            hit = fast.get(args)
        except TypeError:  # unhashable: get() explains what a key may hold
            hit = None
        if hit is not None and _memory.get(hit[0]) is hit[1]:
            stats["memory_hits"] += 1
            return hit[1]
        compiled = get(compile_fn, args)
        fast[args] = (_key_of(compile_fn, args), compiled)
        return compiled

    wrapper.uncached = compile_fn  # compile-only tests call this directly
    return wrapper


def cache_entries() -> list[dict]:
    """What is on disk: one dict per entry (key description, size, creation time, path)."""
    folder = cache_dir()
    entries = []
    for meta in sorted(folder.glob("*.json")) if folder.exists() else []:
        obj = meta.with_suffix(".o")
        try:
            info = json.loads(meta.read_text())
        except (OSError, ValueError):
            info = {"key": "<unreadable>"}
        info.update(path=str(obj), bytes=obj.stat().st_size if obj.exists() else 0)
        entries.append(info)
    return entries


def clear_cache(memory: bool = True, disk: bool = True) -> int:
    """Forget compiled kernels; returns the number of disk files removed."""
    if memory:
        with _guard:
            _memory.clear()
    removed = 0
    folder = cache_dir()
    if disk and folder.exists():
        for path in folder.iterdir():
            if path.suffix in (".o", ".json", ".lock", ".tmp"):
                _remove(path)
                removed += 1
    return removed


def _main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m cute_kernels.jit",
                                     description="List or clear the kernel cache.")
    parser.add_argument("command", choices=["list", "clear"])
    ns = parser.parse_args(argv)
    if ns.command == "list":
        entries = cache_entries()
        print(f"{cache_dir()}: {len(entries)} entries")
        for e in entries:
            print(f"  {e['bytes']:>9} B  {e.get('created', '?')}  {e['key']}")
    else:
        print(f"removed {clear_cache()} files from {cache_dir()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
