"""Compile-only checks: build a kernel for sm_90a on a machine without a GPU.

CI has no GPU, so each kernel family's compile function is exercised here at a few shapes; a
compile error (bad layout algebra, wrong types, an op the arch lacks) fails CI before any
device time is spent. The same exported object gives each kernel's register count
(``kernel_registers``), and so the CTAs per SM it can reach (``ctas_per_sm``).
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
import tempfile

from . import jit
from .arch import compile_options, target_arch


def compile_only(compile_fn, *args, **kwargs):
    """Run the uncached compile of ``compile_fn(*args, **kwargs)`` for the target arch (sm_90a
    without a GPU) and export it to an object file, which proves the whole path to a loadable
    binary. Returns the compiled function."""
    compile_options()  # pins the DSL's arch before tracing
    raw = getattr(compile_fn, "uncached", compile_fn)
    compiled = raw(*args, **kwargs)
    if not _exported_object(compiled):
        raise RuntimeError(f"{raw.__qualname__}{args}{kwargs}: exported an empty object for "
                           f"{target_arch()}")
    return compiled


SERIALIZED_WGMMA = "wgmma.mma_async instructions are serialized"


def serialized_wgmmas(compile_fn, *args, **kwargs) -> list[str]:
    """``compile_only(compile_fn, *args, **kwargs)`` with ptxas's remarks on
    (``CUTE_KERNELS_PTXAS_REMARKS``): the lines in which ptxas says it serialized the kernel's
    wgmmas (C7510..C7515: a wait after each wgmma, no overlap of decode and tensor cores; its
    reason follows the code). Empty where the wgmma pipeline is whole. The DSL turns its
    remark collection on at a process's first compile only: call this in a process whose
    compiles all carry the remarks (``CUTE_KERNELS_PTXAS_REMARKS=1`` from its start; as
    ``tests/test_wgmma_pipelines.py`` does), else it may see none. The DSL prints the remarks
    to ``sys.stderr``; the process's file descriptors 1 and 2 are captured too."""
    saved = os.environ.get("CUTE_KERNELS_PTXAS_REMARKS")
    os.environ["CUTE_KERNELS_PTXAS_REMARKS"] = "1"
    printed = io.StringIO()
    with tempfile.TemporaryFile(mode="w+b") as sink:
        kept = [os.dup(1), os.dup(2)]
        try:
            for fd in (1, 2):
                os.dup2(sink.fileno(), fd)
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                compile_only(compile_fn, *args, **kwargs)
        finally:
            for fd, old_fd in zip((1, 2), kept):
                os.dup2(old_fd, fd)
                os.close(old_fd)
            if saved is None:
                del os.environ["CUTE_KERNELS_PTXAS_REMARKS"]
            else:
                os.environ["CUTE_KERNELS_PTXAS_REMARKS"] = saved
        sink.seek(0)
        text = sink.read().decode(errors="replace") + printed.getvalue()
    return [line for line in text.splitlines() if SERIALIZED_WGMMA in line]


def _exported_object(compiled) -> bytes:
    """The object file ``compiled.export_to_c`` writes (host code, the kernels' cubins in it)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernel.o")
        compiled.export_to_c(path, function_name="compile_only_probe")
        with open(path, "rb") as f:
            return f.read()


REGS_PER_SM = 65536
REG_ALLOC_UNIT = 256  # registers are allocated per warp in these steps


def ctas_per_sm(regs: int, warps: int) -> int:
    """CTAs of ``warps`` warps at ``regs`` registers per thread that fit an SM's register file
    (shared memory and the 32-CTA limit aside)."""
    per_warp = -(-regs * 32 // REG_ALLOC_UNIT) * REG_ALLOC_UNIT
    return REGS_PER_SM // (per_warp * warps)


# A cubin's .nv.info sections list attributes as (format, attribute[, size], value),
# EIATTR_REGCOUNT among them.
_EIFMT_HVAL = 0x03
_EIFMT_SVAL = 0x04
_EIATTR_REGCOUNT = 0x2F
_EIATTR_FRAME_SIZE = 0x11  # (function, bytes of local memory a thread): spills and local arrays


def kernel_registers(compiled) -> list[int]:
    """Registers per thread of each kernel in a ``compile_only`` result, read from the cubins
    its exported object embeds: what decides how many CTAs share an SM, which no compile error
    would flag."""
    return object_registers(_exported_object(compiled))


def object_registers(blob: bytes) -> list[int]:
    """Registers per thread of each kernel in the cubins an exported object file embeds."""
    return _object_attribute(blob, _EIATTR_REGCOUNT)


def kernel_frame_bytes(compiled) -> int:
    """The largest local-memory frame a thread of a ``compile_only`` result's functions has
    (0: no spills, no local arrays), read from its cubins like ``kernel_registers``."""
    return max(_object_attribute(_exported_object(compiled), _EIATTR_FRAME_SIZE), default=0)


def _object_attribute(blob: bytes, attribute: int) -> list[int]:
    found = []
    start = blob.find(b"\x7fELF", 1)  # offset 0 is the host object itself
    while start != -1:
        found += _cubin_attribute(blob, start, attribute)
        start = blob.find(b"\x7fELF", start + 1)
    return found


def _cubin_attribute(blob: bytes, base: int, attribute: int) -> list[int]:
    """The values of a per-function ``.nv.info`` attribute ((function, value) pairs)."""
    if blob[base + 4] != 2:  # 64-bit ELF only (cubins are)
        return []
    shoff, = struct.unpack_from("<Q", blob, base + 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", blob, base + 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", blob, base + shoff + i * shentsize)
                for i in range(shnum)]
    names_at = base + sections[shstrndx][4]
    counts = []
    for name_off, _, _, _, offset, size, *_ in sections:
        name = blob[names_at + name_off:blob.index(b"\0", names_at + name_off)]
        if not name.startswith(b".nv.info"):
            continue
        i, end = base + offset, base + offset + size
        while i < end:
            fmt, attr = blob[i], blob[i + 1]
            if fmt != _EIFMT_SVAL:  # no size field: 2 bytes (no value) or 4 (a half word)
                i += 4 if fmt == _EIFMT_HVAL else 2
                continue
            length, = struct.unpack_from("<H", blob, i + 2)
            if attr == attribute:
                counts.append(struct.unpack_from("<II", blob, i + 4)[1])
            i += 4 + length
    return counts


# ---- kernel variants under switches (probes and tests) -----------------------------------------
@contextlib.contextmanager
def replaced(cls, attrs: dict):
    """``cls`` with the attributes ``attrs`` names set to its values (methods of a kernel
    class, or its switches; or a module's functions, a plan forced), restored on exit:
    compile a probe's variant under its own ``jit.cached`` function, so that its cache key
    differs from the default's. Each name must exist already: a switch renamed or removed
    would otherwise be set on the side and the probe would time the default under its name."""
    missing = [name for name in attrs if not hasattr(cls, name)]
    if missing:
        raise AttributeError(f"{getattr(cls, '__name__', cls)} has no {', '.join(missing)}: "
                             "a probe switch that no longer exists")
    # a subclass's inherited attribute is deleted again on exit, not shadowed by a copy
    own = vars(cls)
    saved = {name: own[name] for name in attrs if name in own}
    for name, value in attrs.items():
        setattr(cls, name, value)
    try:
        yield
    finally:
        for name in attrs:
            if name in saved:
                setattr(cls, name, saved[name])
            else:
                delattr(cls, name)


def switched_compiler(fn, cls, attrs: dict, name: str):
    """``fn`` (a ``jit.cached`` compile function) compiling with ``cls``'s ``attrs`` replaced,
    cached under ``name`` (its own key, beside the default's)."""
    def compile_switched(*args):
        with replaced(cls, attrs):
            return fn.uncached(*args)
    compile_switched.__name__ = compile_switched.__qualname__ = name
    return jit.cached(compile_switched)
