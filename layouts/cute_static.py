"""Static CuTe layouts on the host, and their torch.as_strided form.

The layout builders in this package are ordinary CuTe DSL code: kernels call
them while being traced. The host needs the same layouts as plain integers, so
`static_layout` traces a tiny `@cute.jit` function that calls the builder and
records the (shape, stride) of what it returns, as nested tuples of Python ints.
The torch helpers below turn such a pair into `torch.as_strided` arguments, so
the bytes the host moves are decided by the layout, not by a second formula.
"""

from __future__ import annotations

import functools
import math
import threading
from typing import Callable

import cutlass.cute as cute
import torch

IntTuple = int | tuple  # nested tuples of ints

# Tracing touches global MLIR state; one trace at a time.
_TRACE_LOCK = threading.Lock()


def _check_static(value: IntTuple, what: str) -> IntTuple:
    if isinstance(value, tuple):
        return tuple(_check_static(v, what) for v in value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is not static (got {type(value).__name__}); "
                        "pass Python ints to the layout builder")
    return value


@functools.lru_cache(maxsize=None)
def static_layout(builder: Callable[..., "cute.Layout"], *args) -> tuple[IntTuple, IntTuple]:
    """(shape, stride) of `builder(*args)` as nested tuples of Python ints.

    `builder` is any function that returns a `cute.Layout` when called during a
    trace (the builders of this package); `args` must be hashable Python values.
    Results are cached, so each distinct layout is traced once (~0.04 s).
    A builder that CuTe rejects (e.g. a composition that is not a layout)
    raises ValueError.
    """
    found = {}

    @cute.jit
    def _trace():
        layout = builder(*args)
        found["shape"], found["stride"] = layout.shape, layout.stride

    name = getattr(builder, "__name__", repr(builder))
    with _TRACE_LOCK:
        try:
            cute.compile(_trace)
        except Exception as exc:  # the DSL raises MLIRError and friends
            raise ValueError(f"{name}{args} is not a valid CuTe layout: "
                             f"{str(exc).splitlines()[-1] if str(exc) else exc!r}") from exc
    return (_check_static(found["shape"], f"{name}{args} shape"),
            _check_static(found["stride"], f"{name}{args} stride"))


def flatten(t: IntTuple) -> tuple[int, ...]:
    """Leaves of a nested int tuple, left to right (CuTe's `flatten`)."""
    if isinstance(t, int):
        return (t,)
    return tuple(x for sub in t for x in flatten(sub))


def modes(shape: IntTuple, stride: IntTuple) -> list[tuple[IntTuple, IntTuple]]:
    """Top-level modes; an int shape is one mode."""
    if isinstance(shape, int):
        return [(shape, stride)]
    return list(zip(shape, stride))


def cosize(shape: IntTuple, stride: IntTuple) -> int:
    """1 + the largest offset the layout produces (its codomain size)."""
    return 1 + sum((s - 1) * abs(d) for s, d in zip(flatten(shape), flatten(stride)))


def mode_geometry(shape: IntTuple, stride: IntTuple) -> tuple[list[int], list[int]]:
    """as_strided sizes/strides covering a layout as ONE logical index.

    CuTe orders coordinates colexicographically (first sub-mode fastest); torch
    is row-major (last dim fastest). Reversing the flattened sub-modes makes
    torch's row-major order over the sizes equal CuTe's 1-D index.
    """
    return list(reversed(flatten(shape))), list(reversed(flatten(stride)))


def torch_geometry(shape: IntTuple, stride: IntTuple):
    """(sizes, strides, logical_shape): one logical torch dim per top-level mode.

    `buf.as_strided(sizes, strides).reshape(logical_shape)[c0, c1, ...]` is the
    element at byte/element offset `layout((c0, c1, ...))`.
    """
    sizes, strides, logical = [], [], []
    for s, d in modes(shape, stride):
        ms, md = mode_geometry(s, d)
        sizes += ms
        strides += md
        logical.append(math.prod(ms))
    return sizes, strides, logical


def flat_base(buf: torch.Tensor) -> torch.Tensor:
    """Contiguous 1-D view of `buf` (a copy only if `buf` is not contiguous)."""
    return buf.contiguous().view(-1)


def strided(buf: torch.Tensor, sizes, strides) -> torch.Tensor:
    """as_strided over the contiguous storage of `buf`, honouring its offset."""
    base = flat_base(buf)
    return base.as_strided(tuple(sizes), tuple(strides), base.storage_offset())


def layout_offsets(shape: IntTuple, stride: IntTuple) -> torch.Tensor:
    """int64 tensor of the layout evaluated at every coordinate.

    Shape is one dim per top-level mode; built by as_strided over an arange,
    so it goes through the same geometry as the data movers.
    """
    sizes, strides, logical = torch_geometry(shape, stride)
    offsets = torch.arange(cosize(shape, stride), dtype=torch.int64)
    return offsets.as_strided(sizes, strides).reshape(logical)


def as_bytes(t: torch.Tensor) -> torch.Tensor:
    """View 1-byte dtypes (e4m3, e8m0, int8, ...) as uint8 so only plain byte
    moves are used; wider dtypes are moved as they are."""
    if t.element_size() == 1 and t.dtype != torch.uint8 and t.dtype != torch.bool:
        return t.view(torch.uint8)
    return t
