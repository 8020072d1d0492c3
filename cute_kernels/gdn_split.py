"""Gated-DeltaNet ``qkvzba`` split: the two input projections -> (mixed_qkv, z, b, a), one launch.

The spec is ``reference.gdn_qkvzba_split``. With r = Hv / Hk, per token (row):

* ``layout="contiguous"`` (Qwen3.5/3.8): ``mixed_qkvz = [q (Hk*Dk) | k (Hk*Dk) | v (Hv*Dv) | z
  (Hv*Dv)]``, ``mixed_ba = [b (Hv) | a (Hv)]``.
* ``layout="interleaved"`` (Qwen3-Next): per key-head group g, ``mixed_qkvz`` holds
  ``[q_g (Dk) | k_g (Dk) | v (r*Dv) | z (r*Dv)]`` and ``mixed_ba`` holds ``[b (r) | a (r)]``.
* Output (both layouts): ``mixed_qkv [T, 2*Hk*Dk + Hv*Dv] = [q heads | k heads | v heads]``,
  ``z [T, Hv, Dv]``, ``b [T, Hv]``, ``a [T, Hv]``, all contiguous, input dtype, bitwise copies.

It is pure data movement, so the kernel is a copy whose destination is a function of the source
column. Because ``Dk * itemsize`` and ``Dv * itemsize`` are multiples of 16 bytes, every aligned
16-byte vector of a ``mixed_qkvz`` row lands, whole, in one aligned 16-byte vector of
``mixed_qkv`` or ``z``. The kernel walks the flattened ``[T, W / vec]`` grid of source vectors:
CTA ``c`` owns vectors ``[c * C, (c + 1) * C)`` with ``C = threads * U``; thread ``t`` loads
vectors ``c*C + u*threads + t`` (u < U; consecutive lanes read consecutive 16 bytes, so loads
coalesce and every store run is at least ``Dk`` or ``Dv`` long), issues all ``U`` loads before the
first store, then maps each one (row, column) -> (output, column) with static divisions and
stores it. The small ``mixed_ba`` part (2*Hv elements a row, not vector-aligned when r is odd)
rides along element by element: CTA ``c`` also copies ba elements ``[c * Cb, (c + 1) * Cb)``
with ``Cb = ceil(C * 2Hv / (W / vec))``, which covers all ``T * 2Hv`` of them because the grid
has ``ceil(T * W / vec / C)`` CTAs.

Head counts and dims are static per compiled kernel (so the divisions are multiply-shifts);
T is dynamic. Index arithmetic is 32-bit: the public function launches once per slice of at
most ``(2**31 - 1) // W`` rows (131071 tokens at the Qwen3.8-27B shape), so nothing overflows.
"""

from __future__ import annotations

import numbers

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from . import jit
from .arch import compile_options, sm_count
from .dtypes import torch_to_cutlass
from .validate import check_contiguous, check_cuda, check_dtype

VECTOR_BYTES = 16
THREADS = 256
LAYOUTS = ("contiguous", "interleaved")
DTYPES = (torch.bfloat16, torch.float16, torch.float32)
# Largest element offset any launch may form with 32-bit index math (see the module docstring).
MAX_ELEMENTS_PER_LAUNCH = 2**31 - 1


def _select(cond, if_value, else_value):
    return cutlass.Int32(cutlass.select_(cond, if_value, else_value))


class GdnQkvzbaSplit:
    """Static configuration: head counts and dims, layout, dtype, CTA shape."""

    def __init__(self, num_k_heads: int, num_v_heads: int, head_k_dim: int, head_v_dim: int,
                 interleaved: bool, dtype: type[cutlass.Numeric], vectors_per_thread: int = 8,
                 threads: int = THREADS):
        self.dtype = dtype
        self.vec = VECTOR_BYTES * 8 // dtype.width  # elements per 16-byte vector
        assert head_k_dim % self.vec == 0 and head_v_dim % self.vec == 0
        self.hk, self.hv = num_k_heads, num_v_heads
        self.r = num_v_heads // num_k_heads
        self.interleaved = interleaved
        self.threads, self.unroll = threads, vectors_per_thread
        # Widths in 16-byte vectors (suffix v) and in elements.
        self.dkv, self.dvv = head_k_dim // self.vec, head_v_dim // self.vec
        self.qkv_v = 2 * self.hk * self.dkv + self.hv * self.dvv  # mixed_qkv row
        self.z_v = self.hv * self.dvv                             # z row
        self.in_v = self.qkv_v + self.z_v                         # mixed_qkvz row
        self.group_v = 2 * self.dkv + 2 * self.r * self.dvv       # interleaved group
        self.ba = 2 * self.hv                                     # mixed_ba row (elements)
        self.chunk = threads * vectors_per_thread                 # vectors per CTA
        self.ba_per_cta = -(-self.chunk * self.ba // self.in_v)   # ba elements per CTA
        self.ba_steps = -(-self.ba_per_cta // threads)

    @cute.jit
    def __call__(self, mQKVZ: cute.Tensor, mBA: cute.Tensor, mQKV: cute.Tensor, mZ: cute.Tensor,
                 mB: cute.Tensor, mA: cute.Tensor, stream):
        self.kernel(mQKVZ, mBA, mQKV, mZ, mB, mA).launch(
            grid=(self.grid(mQKVZ.shape[0]), 1, 1),
            block=(self.threads, 1, 1),
            stream=stream,
        )

    def grid(self, t):
        """CTAs for T rows: one per ``chunk`` source vectors. ``grid * ba_per_cta >= T * 2Hv``
        follows, so the ba elements are covered too."""
        return (t * self.in_v + self.chunk - 1) // self.chunk

    # The two index maps are plain arithmetic plus ``select(cond, a, b)``: the kernel passes
    # ``cutlass.select_`` (traced on Int32), the CPU tests pass ``torch.where`` on index tensors,
    # so the tests check the very formulas the kernel runs.
    def qkvz_destination(self, col, select):
        """Vector column ``col`` of a mixed_qkvz row -> (is_z, vector column in z or mixed_qkv)."""
        if self.interleaved:
            g = col // self.group_v
            o = col - g * self.group_v
            v0 = 2 * self.dkv                     # group offsets: q 0, k dkv, v v0, z z0
            z0 = v0 + self.r * self.dvv
            is_z = o >= z0
            q_or_k = select(o >= self.dkv, self.hk * self.dkv + g * self.dkv + (o - self.dkv),
                            g * self.dkv + o)
            qkv = select(o >= v0, 2 * self.hk * self.dkv + g * (self.r * self.dvv) + (o - v0),
                         q_or_k)
            return is_z, select(is_z, g * (self.r * self.dvv) + (o - z0), qkv)
        is_z = col >= self.qkv_v
        return is_z, select(is_z, col - self.qkv_v, col)

    def ba_destination(self, e, select):
        """Element ``e`` of a mixed_ba row -> (is_a, column in a or b)."""
        if self.interleaved:
            g = e // (2 * self.r)
            o = e - g * (2 * self.r)
            is_a = o >= self.r
            return is_a, g * self.r + select(is_a, o - self.r, o)
        is_a = e >= self.hv
        return is_a, select(is_a, e - self.hv, e)

    @cute.kernel
    def kernel(self, mQKVZ: cute.Tensor, mBA: cute.Tensor, mQKV: cute.Tensor, mZ: cute.Tensor,
               mB: cute.Tensor, mA: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        t = mQKVZ.shape[0]
        vectors = t * self.in_v
        first = bidx * self.chunk + tidx
        # 1. All U vector loads in flight first (past-the-end indices re-read the last vector
        #    and are not stored), then the ba elements of this CTA.
        rV = [cute.make_rmem_tensor((1, self.vec), self.dtype) for _ in range(self.unroll)]
        for u in cutlass.range_constexpr(self.unroll):
            i = cutlass.min(first + u * self.threads, vectors - 1)
            row = i // self.in_v
            cute.autovec_copy(cute.local_tile(mQKVZ, (1, self.vec), (row, i - row * self.in_v)),
                              rV[u])
        ba_total = t * self.ba
        rBA = cute.make_rmem_tensor((self.ba_steps,), self.dtype)
        for s in cutlass.range_constexpr(self.ba_steps):
            j = cutlass.min(bidx * self.ba_per_cta + s * self.threads + tidx, ba_total - 1)
            row = j // self.ba
            rBA[s] = mBA[row, j - row * self.ba]
        # 2. Stores.
        for u in cutlass.range_constexpr(self.unroll):
            i = first + u * self.threads
            if i < vectors:
                row = i // self.in_v
                is_z, col = self.qkvz_destination(i - row * self.in_v, _select)
                if is_z:
                    cute.autovec_copy(rV[u], cute.local_tile(mZ, (1, self.vec), (row, col)))
                else:
                    cute.autovec_copy(rV[u], cute.local_tile(mQKV, (1, self.vec), (row, col)))
        for s in cutlass.range_constexpr(self.ba_steps):
            local = s * self.threads + tidx
            j = bidx * self.ba_per_cta + local
            if local < self.ba_per_cta and j < ba_total:
                row = j // self.ba
                is_a, col = self.ba_destination(j - row * self.ba, _select)
                if is_a:
                    mA[row, col] = rBA[s]
                else:
                    mB[row, col] = rBA[s]


@jit.cached
def compile_gdn_qkvzba_split(num_k_heads: int, num_v_heads: int, head_k_dim: int,
                             head_v_dim: int, layout: str, dtype: str,
                             vectors_per_thread: int = 8, threads: int = THREADS):
    """Tensor-free compile: static heads, dims, layout and dtype; dynamic T. The compiled
    function takes (mixed_qkvz [T, W], mixed_ba [T, 2Hv], mixed_qkv [T, Wqkv], z [T, Hv*Dv],
    b [T, Hv], a [T, Hv]) as torch tensors and runs on the current stream."""
    cdtype = torch_to_cutlass(dtype)
    hk, hv, dk, dv = num_k_heads, num_v_heads, head_k_dim, head_v_dim
    kernel = GdnQkvzbaSplit(hk, hv, dk, dv, layout == "interleaved", cdtype, vectors_per_thread,
                            threads)
    t = cute.sym_int()

    def fake(width, align=None):
        return make_fake_compact_tensor(cdtype, (t, width), stride_order=(1, 0),
                                        assumed_align=align)

    return cute.compile(kernel, fake(2 * hk * dk + 2 * hv * dv, 16), fake(2 * hv),
                        fake(2 * hk * dk + hv * dv, 16), fake(hv * dv, 16), fake(hv), fake(hv),
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


# ---------------------------------------------------------------------------- public function

def _check_heads(num_k_heads, num_v_heads, head_k_dim, head_v_dim) -> tuple[int, ...]:
    """Positive integers (Python or numpy ints, not bools), Hv a multiple of Hk; as ints."""
    heads = []
    for name, val in (("num_k_heads", num_k_heads), ("num_v_heads", num_v_heads),
                      ("head_k_dim", head_k_dim), ("head_v_dim", head_v_dim)):
        if isinstance(val, bool) or not isinstance(val, numbers.Integral) or val <= 0:
            raise ValueError(f"{name}: expected a positive int, got {val!r}")
        heads.append(int(val))
    if heads[1] % heads[0]:
        raise ValueError(f"num_v_heads: {heads[1]} must be a multiple of num_k_heads = {heads[0]}")
    return tuple(heads)


def _check_inputs(mixed_qkvz, mixed_ba, num_k_heads, num_v_heads, head_k_dim, head_v_dim,
                  layout) -> int:
    """Dtype and shape checks (no storage or device needed, so fake tensors pass); returns T."""
    num_k_heads, num_v_heads, head_k_dim, head_v_dim = _check_heads(
        num_k_heads, num_v_heads, head_k_dim, head_v_dim)
    if layout not in LAYOUTS:
        raise ValueError(f"layout: expected 'contiguous' or 'interleaved', got {layout!r}")
    check_dtype("mixed_qkvz", mixed_qkvz, *DTYPES)
    check_dtype("mixed_ba", mixed_ba, mixed_qkvz.dtype)
    width = 2 * num_k_heads * head_k_dim + 2 * num_v_heads * head_v_dim
    if mixed_qkvz.dim() != 2 or mixed_qkvz.shape[1] != width:
        raise ValueError(f"mixed_qkvz: expected [T, {width}] (2*Hk*Dk + 2*Hv*Dv with Hk="
                         f"{num_k_heads}, Hv={num_v_heads}, Dk={head_k_dim}, Dv={head_v_dim}), "
                         f"got shape {tuple(mixed_qkvz.shape)}")
    t = mixed_qkvz.shape[0]
    if mixed_ba.dim() != 2 or tuple(mixed_ba.shape) != (t, 2 * num_v_heads):
        raise ValueError(f"mixed_ba: expected [{t}, {2 * num_v_heads}] (T of mixed_qkvz, 2*Hv), "
                         f"got shape {tuple(mixed_ba.shape)}")
    item = mixed_qkvz.element_size()
    for name, dim in (("head_k_dim", head_k_dim), ("head_v_dim", head_v_dim)):
        if dim * item % VECTOR_BYTES:
            raise ValueError(f"{name}: {dim} x {item} bytes is not a multiple of {VECTOR_BYTES} "
                             f"bytes (the kernel moves 16-byte vectors; need a multiple of "
                             f"{VECTOR_BYTES // item} for {mixed_qkvz.dtype})")
    return t


def _check_layout(mixed_qkvz, mixed_ba) -> None:
    check_contiguous("mixed_qkvz", mixed_qkvz)
    check_contiguous("mixed_ba", mixed_ba, align=mixed_ba.element_size())


def _check_device(mixed_qkvz, mixed_ba) -> None:
    check_cuda("mixed_qkvz", mixed_qkvz)
    check_cuda("mixed_ba", mixed_ba, like=mixed_qkvz)


def _out_shapes(t, num_k_heads, num_v_heads, head_k_dim, head_v_dim):
    return ((t, 2 * num_k_heads * head_k_dim + num_v_heads * head_v_dim),
            (t, num_v_heads, head_v_dim), (t, num_v_heads), (t, num_v_heads))


def _check_out(out, like: torch.Tensor, shapes) -> tuple:
    if not isinstance(out, (tuple, list)) or len(out) != 4:
        raise ValueError("out: expected a tuple of four tensors (mixed_qkv, z, b, a)")
    for name, buf, shape in zip(("mixed_qkv", "z", "b", "a"), out, shapes):
        if not isinstance(buf, torch.Tensor):
            raise TypeError(f"out ({name}): expected a torch.Tensor, got {type(buf).__name__}")
        if tuple(buf.shape) != shape or buf.dtype != like.dtype or buf.device != like.device:
            raise ValueError(f"out ({name}): expected {list(shape)} {like.dtype} on {like.device}, "
                             f"got {list(buf.shape)} {buf.dtype} on {buf.device}")
        check_contiguous(f"out ({name})", buf, align=16 if name in ("mixed_qkv", "z")
                         else buf.element_size())
    return tuple(out)


def split_views(mixed_qkvz: torch.Tensor, mixed_ba: torch.Tensor, num_k_heads: int,
                num_v_heads: int, head_k_dim: int, head_v_dim: int):
    """The ``layout="contiguous"``, T = 1 result as views of the inputs (no copy, no launch).

    With one row, every slice of a row is a contiguous tensor: mixed_qkv is the first
    ``2*Hk*Dk + Hv*Dv`` columns of ``mixed_qkvz``, z the rest (viewed [1, Hv, Dv]), b and a the
    halves of ``mixed_ba``. They share memory with the inputs: writing into either changes the
    other. Shapes are not checked here (the public function does that).
    """
    t = mixed_qkvz.shape[0]
    if t != 1:
        raise ValueError(f"mixed_qkvz: views need T = 1, got T = {t}")
    w_qkv = 2 * num_k_heads * head_k_dim + num_v_heads * head_v_dim
    z = mixed_qkvz[:, w_qkv:].view(1, num_v_heads, head_v_dim)
    return (mixed_qkvz[:, :w_qkv], z, mixed_ba[:, :num_v_heads], mixed_ba[:, num_v_heads:])


def vectors_per_thread_for(vectors: int, sms: int, threads: int = THREADS) -> int:
    """U (16-byte vectors per thread): the largest of 8, 4, 2 that still gives at least two CTAs
    per SM, else 1. Small T (decode) spreads over more CTAs; large T keeps 8 loads in flight."""
    for u in (8, 4, 2):
        if -(-vectors // (threads * u)) >= 2 * sms:
            return u
    return 1


def _compact(x: torch.Tensor) -> torch.Tensor:
    """x itself, or, for a one-row tensor whose (irrelevant) row stride is not its width, the same
    memory with compact strides, so the compiled function's layout check sees [T, W]:(W, 1)."""
    if x.shape[0] == 1 and x.stride(0) != x.shape[1]:
        return x.as_strided(x.shape, (x.shape[1], 1))
    return x


def _launch(mixed_qkvz, mixed_ba, outs, num_k_heads, num_v_heads, head_k_dim, head_v_dim,
            layout, vectors_per_thread: int | None = None) -> None:
    """Run the kernel (inputs already validated; T >= 1), in row slices that fit 32-bit math."""
    t, width = mixed_qkvz.shape
    mixed_qkv, z, b, a = outs
    z2 = z.view(t, -1)
    rows = max(1, MAX_ELEMENTS_PER_LAUNCH // width)
    if vectors_per_thread is None:
        vec = VECTOR_BYTES // mixed_qkvz.element_size()
        vectors_per_thread = vectors_per_thread_for(min(t, rows) * width // vec,
                                                    sm_count(mixed_qkvz.device.index or 0))
    fn = compile_gdn_qkvzba_split(num_k_heads, num_v_heads, head_k_dim, head_v_dim, layout,
                                  str(mixed_qkvz.dtype), vectors_per_thread)
    tensors = [_compact(x) for x in (mixed_qkvz, mixed_ba, mixed_qkv, z2, b, a)]
    for s in range(0, t, rows):
        fn(*(x[s:s + rows] for x in tensors))


def gdn_qkvzba_split(mixed_qkvz: torch.Tensor, mixed_ba: torch.Tensor, num_k_heads: int,
                     num_v_heads: int, head_k_dim: int, head_v_dim: int,
                     layout: str = "contiguous", *, out=None):
    """Split the Gated-DeltaNet input projections: returns ``(mixed_qkv [T, 2*Hk*Dk + Hv*Dv],
    z [T, Hv, Dv], b [T, Hv], a [T, Hv])``, bitwise equal to ``reference.gdn_qkvzba_split``.

    mixed_qkvz [T, 2*Hk*Dk + 2*Hv*Dv] and mixed_ba [T, 2*Hv]: contiguous CUDA tensors of one
    dtype (bf16, fp16 or fp32), mixed_qkvz 16-byte aligned. ``Dk`` and ``Dv`` times the element
    size must be multiples of 16 bytes (bf16/fp16: multiples of 8; fp32: of 4). Any integer
    ratio ``Hv / Hk``; per-rank head counts under tensor parallelism are just smaller Hk, Hv.
    ``layout``: ``"contiguous"`` (Qwen3.5/3.8) or ``"interleaved"`` (Qwen3-Next); see the module
    docstring.

    ``out``: optional ``(mixed_qkv, z, b, a)`` buffers of the result shapes (contiguous; the
    first two 16-byte aligned), filled and returned.

    Views: with ``layout="contiguous"``, T = 1 and no ``out``, nothing is launched and the four
    results are views into the inputs (see ``split_views``): they alias ``mixed_qkvz`` /
    ``mixed_ba``, so they change if the inputs are overwritten. Pass ``out`` for copies. Under
    ``torch.compile`` the call goes through the custom op ``cute_kernels::gdn_qkvzba_split``,
    which always returns fresh tensors (a custom op may not alias its inputs).
    T = 0 returns empty tensors without a launch.
    """
    if torch.compiler.is_compiling() and out is None:
        return torch.ops.cute_kernels.gdn_qkvzba_split(mixed_qkvz, mixed_ba, num_k_heads,
                                                       num_v_heads, head_k_dim, head_v_dim, layout)
    return _split(mixed_qkvz, mixed_ba, num_k_heads, num_v_heads, head_k_dim, head_v_dim, layout,
                  out, views=True)


def _split(mixed_qkvz, mixed_ba, num_k_heads, num_v_heads, head_k_dim, head_v_dim, layout, out,
           views: bool):
    """Validate everything, then views (T = 1, contiguous layout, ``views``), or fill ``out``
    (allocated if None) with one launch per row slice; T = 0 launches nothing."""
    t = _check_inputs(mixed_qkvz, mixed_ba, num_k_heads, num_v_heads, head_k_dim, head_v_dim,
                      layout)
    num_k_heads, num_v_heads, head_k_dim, head_v_dim = (
        int(num_k_heads), int(num_v_heads), int(head_k_dim), int(head_v_dim))
    _check_layout(mixed_qkvz, mixed_ba)
    shapes = _out_shapes(t, num_k_heads, num_v_heads, head_k_dim, head_v_dim)
    if out is not None:
        out = _check_out(out, mixed_qkvz, shapes)
    _check_device(mixed_qkvz, mixed_ba)
    if out is None:
        if views and t == 1 and layout == "contiguous":
            return split_views(mixed_qkvz, mixed_ba, num_k_heads, num_v_heads, head_k_dim,
                               head_v_dim)
        out = tuple(torch.empty(s, dtype=mixed_qkvz.dtype, device=mixed_qkvz.device)
                    for s in shapes)
    if t:
        _launch(mixed_qkvz, mixed_ba, out, num_k_heads, num_v_heads, head_k_dim, head_v_dim,
                layout)
    return out


# ---- torch.compile: a custom op (fresh outputs: custom ops may not return views of inputs) ----
@torch.library.custom_op("cute_kernels::gdn_qkvzba_split", mutates_args=())
def _gdn_qkvzba_split_op(mixed_qkvz: torch.Tensor, mixed_ba: torch.Tensor, num_k_heads: int,
                         num_v_heads: int, head_k_dim: int, head_v_dim: int, layout: str
                         ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    return _split(mixed_qkvz, mixed_ba, num_k_heads, num_v_heads, head_k_dim, head_v_dim, layout,
                  None, views=False)


@_gdn_qkvzba_split_op.register_fake
def _(mixed_qkvz, mixed_ba, num_k_heads, num_v_heads, head_k_dim, head_v_dim, layout):
    t = _check_inputs(mixed_qkvz, mixed_ba, num_k_heads, num_v_heads, head_k_dim, head_v_dim,
                      layout)
    return tuple(mixed_qkvz.new_empty(s)
                 for s in _out_shapes(t, num_k_heads, num_v_heads, head_k_dim, head_v_dim))
