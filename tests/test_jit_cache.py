"""The compile-per-shape cache: memory, disk, corruption, threads, processes, switches."""

import json
import os
import pathlib
import subprocess
import sys
import threading

import pytest
import torch

from cute_kernels import jit

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUTE_KERNELS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CUTE_KERNELS_CACHE", raising=False)
    jit.clear_cache(memory=True, disk=False)
    for k in jit.stats:
        jit.stats[k] = 0
    yield tmp_path
    jit.clear_cache(memory=True, disk=False)


def _probe(value=1.0):
    from tests.cache_probe import compile_add

    return compile_add(value)


def _run_probe(cache_dir, value=1.0, extra_env=None):
    env = dict(os.environ, CUTE_KERNELS_CACHE_DIR=str(cache_dir), PYTHONPATH=str(ROOT))
    env.update(extra_env or {})
    out = subprocess.run([sys.executable, "-m", "tests.cache_probe", str(value)], env=env,
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_memory_then_disk(cache):
    f1 = _probe()
    f2 = _probe()
    assert f1 is f2
    assert jit.stats["compiled"] == 1 and jit.stats["memory_hits"] == 1
    entries = jit.cache_entries()
    assert len(entries) == 1 and "compile_add" in entries[0]["key"]
    assert entries[0]["bytes"] > 0 and "sm_90a" in entries[0]["key"]


def test_new_process_reuses_disk_entry(cache):
    first = _run_probe(cache)
    second = _run_probe(cache)
    assert first["compiled"] == 1 and first["disk_hits"] == 0
    assert second["compiled"] == 0 and second["disk_hits"] == 1 and second["callable"]


def test_loaded_entry_is_a_working_tvm_ffi_function(cache):
    _probe()
    jit.clear_cache(memory=True, disk=False)
    fn = _probe()
    assert jit.stats["disk_hits"] == 1
    # Without a GPU the call stops at TVM-FFI's argument check, which proves the signature loaded.
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="cuda"):
            fn(torch.zeros(4), torch.zeros(4))


@pytest.mark.parametrize("damage", ["truncate", "garbage", "drop_object", "drop_meta"])
def test_damaged_entry_is_rebuilt(cache, damage):
    _probe()
    obj = next(cache.glob("*.o"))
    meta = obj.with_suffix(".json")
    if damage == "truncate":
        obj.write_bytes(obj.read_bytes()[: obj.stat().st_size // 3])
    elif damage == "garbage":
        obj.write_bytes(b"\x7fELF" + os.urandom(512))
    elif damage == "drop_object":
        obj.unlink()
    else:
        meta.unlink()
    jit.clear_cache(memory=True, disk=False)
    fn = _probe()
    assert callable(fn)
    assert jit.stats["compiled"] == 2
    # and the rebuilt entry is whole again
    jit.clear_cache(memory=True, disk=False)
    _probe()
    assert jit.stats["disk_hits"] == 1


def test_eight_threads_compile_once(cache):
    results = []
    barrier = threading.Barrier(8)

    def ask():
        barrier.wait()
        results.append(_probe(2.0))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8 and all(r is results[0] for r in results)
    assert jit.stats["compiled"] == 1


def test_two_processes_compile_once(cache):
    env = dict(os.environ, CUTE_KERNELS_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-m", "tests.cache_probe", "3.0"], env=env,
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-1000:] for o in outs]
    stats = [json.loads(o[0].strip().splitlines()[-1]) for o in outs]
    assert sorted(s["compiled"] for s in stats) == [0, 1]
    assert sorted(s["disk_hits"] for s in stats) == [0, 1]


def test_disk_layer_off(cache, monkeypatch):
    monkeypatch.setenv("CUTE_KERNELS_CACHE", "0")
    _probe()
    assert list(cache.iterdir()) == []
    assert jit.stats["compiled"] == 1


def test_cache_dir_env_and_clear(cache, tmp_path_factory, monkeypatch):
    other = tmp_path_factory.mktemp("other-cache")
    monkeypatch.setenv("CUTE_KERNELS_CACHE_DIR", str(other))
    _probe(4.0)
    assert len(list(other.glob("*.o"))) == 1 and not list(cache.glob("*.o"))
    assert jit.clear_cache() >= 2
    assert jit.cache_entries() == []


def test_different_scalars_are_different_entries(cache):
    assert _probe(5.0) is not _probe(6.0)
    assert len(jit.cache_entries()) == 2


def test_key_rejects_non_scalars(cache):
    from tests.cache_probe import compile_add

    with pytest.raises(TypeError, match="scalars"):
        compile_add([1.0])


def test_cli_lists_and_clears(cache):
    _probe()
    env = dict(os.environ, CUTE_KERNELS_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "cute_kernels.jit", "list"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "1 entries" in out.stdout and "compile_add" in out.stdout
    out = subprocess.run([sys.executable, "-m", "cute_kernels.jit", "clear"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and not list(cache.glob("*.o"))


def test_pdl_switch_is_part_of_the_key(monkeypatch):
    """CUTE_KERNELS_DISABLE_PDL changes the generated launches, so it must change the key."""
    from cute_kernels.arch import PDL_ENV, pdl_enabled
    from tests.cache_probe import compile_add

    monkeypatch.delenv(PDL_ENV, raising=False)
    assert pdl_enabled()
    on = jit._key_of(compile_add, (1.0,))
    monkeypatch.setenv(PDL_ENV, "1")
    assert not pdl_enabled()
    assert jit._key_of(compile_add, (1.0,)) != on
