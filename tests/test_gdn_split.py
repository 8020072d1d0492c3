"""Gated-DeltaNet qkvzba split: compile-only and the kernel's index math on CPU; on a GPU,
bitwise equality with the reference for both layouts, ratios 1-8, tails, T = 0/1, streams,
graphs and torch.compile; bad input raises before launch."""

import pytest
import torch

import cutlass
from cute_kernels import gdn_split, reference
from cute_kernels.gdn_split import (GdnQkvzbaSplit, compile_gdn_qkvzba_split, gdn_qkvzba_split,
                                    split_views, vectors_per_thread_for)
from cute_kernels.testing import compile_only
from tests.conftest import poisoned

LAYOUTS = ["contiguous", "interleaved"]
QWEN38 = (16, 48, 128, 128)  # Qwen3.8-27B: Hk, Hv, Dk, Dv (r = 3)
# (Hk, Hv) per ratio r = Hv / Hk, head dims 128 (Qwen3-Next-80B is r = 2: 16, 32).
HEADS_BY_RATIO = {1: (16, 16), 2: (16, 32), 3: (16, 48), 4: (8, 32), 8: (2, 16)}


def _width(hk, hv, dk, dv):
    return 2 * hk * dk + 2 * hv * dv


# ---------------------------------------------------------------------------- CPU

@pytest.mark.parametrize("layout,shape,dtype,u", [
    ("contiguous", QWEN38, "torch.bfloat16", 8),
    ("contiguous", (4, 12, 128, 128), "torch.float16", 1),   # Qwen3.8 at tp = 4
    ("interleaved", (16, 32, 128, 128), "torch.bfloat16", 8),  # Qwen3-Next-80B
    ("interleaved", (2, 16, 64, 32), "torch.float32", 2),    # r = 8, unequal dims, fp32
])
def test_compiles_for_sm90a(layout, shape, dtype, u):
    assert compile_only(compile_gdn_qkvzba_split, *shape, layout, dtype, u) is not None


_INT_OF = {cutlass.BFloat16: torch.int16, cutlass.Float32: torch.int32}


def _emulate(cfg: GdnQkvzbaSplit, qkvz: torch.Tensor, ba: torch.Tensor):
    """Run the kernel's grid and index math (its own ``grid``, ``qkvz_destination`` and
    ``ba_destination``, with ``torch.where`` as the select) on CPU; every store lands in a
    poisoned output, and no destination may be written twice."""
    t = qkvz.shape[0]
    src = qkvz.reshape(t, cfg.in_v, cfg.vec)
    poison = torch.iinfo(qkvz.dtype).min
    qkv = torch.full((t, cfg.qkv_v, cfg.vec), poison, dtype=qkvz.dtype)
    z = torch.full((t, cfg.z_v, cfg.vec), poison, dtype=qkvz.dtype)
    b = torch.full((t, cfg.hv), poison, dtype=qkvz.dtype)
    a = b.clone()
    bidx = torch.arange(cfg.grid(t))[:, None, None]
    tidx = torch.arange(cfg.threads)[None, None, :]
    # vectors: i = bidx * chunk + u * threads + tidx, stored if i < T * in_v
    i = (bidx * cfg.chunk + torch.arange(cfg.unroll)[None, :, None] * cfg.threads + tidx).flatten()
    i = i[i < t * cfg.in_v]
    assert torch.equal(i.sort().values, torch.arange(t * cfg.in_v)), "every vector exactly once"
    row = i // cfg.in_v
    col = i - row * cfg.in_v
    is_z, dst = cfg.qkvz_destination(col, torch.where)
    keys = torch.where(is_z, cfg.qkv_v + dst, dst) + row * cfg.in_v
    assert keys.unique().numel() == keys.numel(), "two vectors stored to one place"
    qkv[row[~is_z], dst[~is_z]] = src[row[~is_z], col[~is_z]]
    z[row[is_z], dst[is_z]] = src[row[is_z], col[is_z]]
    # ba: local = s * threads + tidx < ba_per_cta, j = bidx * ba_per_cta + local < T * 2Hv
    local = torch.arange(cfg.ba_steps)[None, :, None] * cfg.threads + tidx
    j = bidx * cfg.ba_per_cta + local
    j = j[(local < cfg.ba_per_cta) & (j < t * cfg.ba)]
    assert torch.equal(j.sort().values, torch.arange(t * cfg.ba)), "every ba element exactly once"
    row = j // cfg.ba
    e = j - row * cfg.ba
    is_a, dst = cfg.ba_destination(e, torch.where)
    a[row[is_a], dst[is_a]] = ba[row[is_a], e[is_a]]
    b[row[~is_a], dst[~is_a]] = ba[row[~is_a], e[~is_a]]
    return qkv.reshape(t, -1), z.reshape(t, cfg.hv, -1), b, a


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("r", sorted(HEADS_BY_RATIO))
@pytest.mark.parametrize("dims,cdtype", [((128, 128), cutlass.BFloat16),
                                         ((32, 64), cutlass.BFloat16), ((8, 4), cutlass.Float32)])
@pytest.mark.parametrize("threads,u", [(256, 8), (256, 1), (32, 2)])
def test_index_math_matches_reference(layout, r, dims, cdtype, threads, u):
    """The kernel's formulas, emulated on unique integer data, reproduce the reference split."""
    hk, hv = HEADS_BY_RATIO[r]
    if dims != (128, 128):
        hk, hv = 2, 2 * r  # small tp-like head counts with other head dims
    dk, dv = dims
    cfg = GdnQkvzbaSplit(hk, hv, dk, dv, layout == "interleaved", cdtype, u, threads)
    itype = _INT_OF[cdtype]
    for t in (1, 3, 33):
        w = _width(hk, hv, dk, dv)
        qkvz = torch.arange(t * w, dtype=itype).reshape(t, w)
        ba = -1 - torch.arange(t * 2 * hv, dtype=itype).reshape(t, 2 * hv)
        got = _emulate(cfg, qkvz, ba)
        want = reference.gdn_qkvzba_split(qkvz, ba, hk, hv, dk, dv, layout)
        for g, wnt in zip(got, want):
            assert torch.equal(g, wnt)


def test_t1_contiguous_views_on_cpu():
    hk, hv, dk, dv = QWEN38
    qkvz = torch.randn(1, _width(*QWEN38), dtype=torch.bfloat16)
    ba = torch.randn(1, 2 * hv, dtype=torch.bfloat16)
    got = split_views(qkvz, ba, hk, hv, dk, dv)
    want = reference.gdn_qkvzba_split(qkvz, ba, hk, hv, dk, dv)
    item = qkvz.element_size()
    offsets = [0, (2 * hk * dk + hv * dv) * item, 0, hv * item]
    for g, wnt, base, off in zip(got, want, (qkvz, qkvz, ba, ba), offsets):
        assert g.shape == wnt.shape and g.is_contiguous() and torch.equal(g, wnt)
        assert g.data_ptr() == base.data_ptr() + off  # a view: no copy
    qkvz[0, 0] = 42.0  # aliasing is the contract of a view
    assert got[0][0, 0] == 42.0
    with pytest.raises(ValueError, match="T = 1"):
        split_views(torch.cat([qkvz, qkvz]), torch.cat([ba, ba]), hk, hv, dk, dv)


def test_head_counts_accept_numpy_ints_and_reject_bools():
    np = pytest.importorskip("numpy")
    hk, hv, dk, dv = QWEN38
    q = torch.randn(2, _width(*QWEN38), dtype=torch.bfloat16)
    ba = torch.randn(2, 2 * hv, dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="CUDA"):  # every other check passed
        gdn_qkvzba_split(q, ba, np.int64(hk), np.int32(hv), dk, dv)
    with pytest.raises(ValueError, match="num_k_heads"):
        gdn_qkvzba_split(q, ba, True, hv, dk, dv)


def test_one_row_tensors_get_compact_strides():
    """A [1, W] tensor may carry any row stride (torch calls it contiguous); the launch path
    hands the compiled function [1, W]:(W, 1) over the same memory."""
    x = torch.randn(10, 1).T
    assert x.is_contiguous() and x.stride() == (1, 1)
    y = gdn_split._compact(x)
    assert y.stride() == (10, 1) and y.data_ptr() == x.data_ptr() and torch.equal(x, y)
    x = torch.randn(3, 10)
    assert gdn_split._compact(x) is x


def test_vectors_per_thread_heuristic():
    in_v = _width(*QWEN38) // 8  # 2048 vectors a row
    assert vectors_per_thread_for(1 * in_v, 132) == 1
    assert vectors_per_thread_for(64 * in_v, 132) == 1
    assert vectors_per_thread_for(256 * in_v, 132) == 4
    assert vectors_per_thread_for(4096 * in_v, 132) == 8


def test_fake_impl_shapes_for_torch_compile():
    from torch._subclasses.fake_tensor import FakeTensorMode

    hk, hv, dk, dv = QWEN38
    with FakeTensorMode():
        qkvz = torch.empty(7, _width(*QWEN38), dtype=torch.bfloat16, device="cuda")
        ba = torch.empty(7, 2 * hv, dtype=torch.bfloat16, device="cuda")
        out = torch.ops.cute_kernels.gdn_qkvzba_split(qkvz, ba, hk, hv, dk, dv, "interleaved")
        assert [tuple(o.shape) for o in out] == [(7, 2 * hk * dk + hv * dv), (7, hv, dv),
                                                 (7, hv), (7, hv)]
        assert all(o.dtype == torch.bfloat16 and o.device.type == "cuda" for o in out)


def test_bad_input_raises_before_launch():
    hk, hv, dk, dv = QWEN38
    w = _width(*QWEN38)
    q = torch.randn(4, w, dtype=torch.bfloat16)
    ba = torch.randn(4, 2 * hv, dtype=torch.bfloat16)
    split = gdn_qkvzba_split
    with pytest.raises(ValueError, match="num_v_heads"):
        split(q, ba, 16, 40, dk, dv)  # 40 % 16
    with pytest.raises(ValueError, match="num_k_heads"):
        split(q, ba, 0, hv, dk, dv)
    with pytest.raises(ValueError, match="head_k_dim"):
        split(q, ba, hk, hv, 128.0, dv)
    with pytest.raises(ValueError, match="layout"):
        split(q, ba, hk, hv, dk, dv, layout="grouped")
    with pytest.raises(TypeError, match="mixed_qkvz"):
        split(q.to(torch.int16), ba, hk, hv, dk, dv)
    with pytest.raises(TypeError, match="mixed_qkvz"):
        split([1, 2], ba, hk, hv, dk, dv)
    with pytest.raises(TypeError, match="mixed_ba"):
        split(q, ba.half(), hk, hv, dk, dv)
    with pytest.raises(ValueError, match="mixed_qkvz"):
        split(q[:, :-8], ba, hk, hv, dk, dv)  # width mismatch
    with pytest.raises(ValueError, match="mixed_qkvz"):
        split(q, ba, hk, hv, dk, 64)  # head counts do not describe this width
    with pytest.raises(ValueError, match="mixed_qkvz"):
        split(q.reshape(2, 2, w), ba, hk, hv, dk, dv)
    with pytest.raises(ValueError, match="mixed_ba"):
        split(q, ba[:3], hk, hv, dk, dv)  # T mismatch
    with pytest.raises(ValueError, match="mixed_ba"):
        split(q, ba[:, :hv], hk, hv, dk, dv)
    # 16-byte vectors: Dk = 4 bf16 elements is 8 bytes
    w4 = _width(hk, hv, 4, dv)
    with pytest.raises(ValueError, match="head_k_dim"):
        split(torch.randn(4, w4, dtype=torch.bfloat16), ba, hk, hv, 4, dv)
    with pytest.raises(ValueError, match="head_v_dim"):
        split(torch.randn(4, _width(hk, hv, dk, 12), dtype=torch.bfloat16), ba, hk, hv, dk, 12)
    # layout of the storage
    with pytest.raises(ValueError, match="mixed_qkvz.*contiguous"):
        split(torch.randn(2 * w, 4, dtype=torch.bfloat16)[::2].T, ba, hk, hv, dk, dv)
    with pytest.raises(ValueError, match="mixed_qkvz.*aligned"):
        split(torch.randn(4 * w + 1, dtype=torch.bfloat16)[1:].view(4, w), ba, hk, hv, dk, dv)
    with pytest.raises(ValueError, match="mixed_ba.*contiguous"):
        split(q, torch.randn(4, 4 * hv, dtype=torch.bfloat16)[:, ::2], hk, hv, dk, dv)
    # out buffers
    good = [torch.empty(4, 2 * hk * dk + hv * dv, dtype=torch.bfloat16),
            torch.empty(4, hv, dv, dtype=torch.bfloat16), torch.empty(4, hv, dtype=torch.bfloat16),
            torch.empty(4, hv, dtype=torch.bfloat16)]
    with pytest.raises(ValueError, match="out"):
        split(q, ba, hk, hv, dk, dv, out=good[:3])
    for k, bad in enumerate([torch.empty(4, 10, dtype=torch.bfloat16),
                             torch.empty(4, hv * dv, dtype=torch.bfloat16),
                             torch.empty(4, hv, dtype=torch.float16),
                             torch.empty(hv, 4, dtype=torch.bfloat16).T]):
        name = ("mixed_qkv", "z", "b", "a")[k]
        with pytest.raises(ValueError, match=rf"out \({name}\)"):
            split(q, ba, hk, hv, dk, dv, out=good[:k] + [bad] + good[k + 1:])
    # device last: everything else about these inputs is fine
    with pytest.raises(ValueError, match="mixed_qkvz.*CUDA"):
        split(q, ba, hk, hv, dk, dv)
    with pytest.raises(ValueError, match="mixed_qkvz.*CUDA"):
        split(q[:1], ba[:1], hk, hv, dk, dv)  # T = 1 views need CUDA inputs too
    with pytest.raises(ValueError, match="mixed_qkvz.*CUDA"):
        split(q, ba, hk, hv, dk, dv, out=good)
    if torch.cuda.is_available():
        with pytest.raises(ValueError, match="mixed_ba"):
            split(q.cuda(), ba, hk, hv, dk, dv)


# ---------------------------------------------------------------------------- GPU

def _inputs(t, hk, hv, dk, dv, dtype=torch.bfloat16):
    """Fresh random data each run (never zero); no NaN, so equality is a plain comparison."""
    qkvz = torch.randn(t, _width(hk, hv, dk, dv), device="cuda", dtype=dtype) * 3 + 0.5
    ba = torch.randn(t, 2 * hv, device="cuda", dtype=dtype) * 3 + 0.5
    return qkvz, ba


def _out(t, hk, hv, dk, dv, dtype=torch.bfloat16):
    return (poisoned(t, 2 * hk * dk + hv * dv, dtype=dtype), poisoned(t, hv, dv, dtype=dtype),
            poisoned(t, hv, dtype=dtype), poisoned(t, hv, dtype=dtype))


def _assert_bitwise(got, want):
    assert len(got) == 4
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype and g.is_contiguous()
        assert not torch.isnan(g).any()
        bits = {2: torch.int16, 4: torch.int32}[g.element_size()]
        assert torch.equal(g.view(bits), w.view(bits))


@pytest.mark.gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("r", sorted(HEADS_BY_RATIO))
@pytest.mark.parametrize("t", [1, 33, 4096])
def test_bitwise_equal_to_reference(layout, r, t):
    hk, hv = HEADS_BY_RATIO[r]
    qkvz, ba = _inputs(t, hk, hv, 128, 128)
    want = reference.gdn_qkvzba_split(qkvz, ba, hk, hv, 128, 128, layout)
    out = _out(t, hk, hv, 128, 128)
    got = gdn_qkvzba_split(qkvz, ba, hk, hv, 128, 128, layout, out=out)
    assert all(g.data_ptr() == o.data_ptr() for g, o in zip(got, out))
    _assert_bitwise(got, want)
    _assert_bitwise(gdn_qkvzba_split(qkvz, ba, hk, hv, 128, 128, layout), want)  # allocating


@pytest.mark.gpu
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape,dtype", [
    ((4, 12, 128, 128), torch.bfloat16),   # Qwen3.8-27B at tp = 4
    ((2, 6, 128, 128), torch.float16),     # tp = 8
    ((8, 16, 128, 128), torch.bfloat16),   # Qwen3-Next-80B at tp = 2
    ((1, 3, 64, 128), torch.bfloat16),     # one key head, unequal dims
    ((3, 9, 8, 16), torch.float16),        # tiny heads: rows not a multiple of anything
    ((2, 16, 4, 8), torch.float32),        # r = 8 in fp32
])
@pytest.mark.parametrize("t", [1, 7, 1000])
def test_tp_slices_dims_and_dtypes(layout, shape, dtype, t):
    qkvz, ba = _inputs(t, *shape, dtype=dtype)
    got = gdn_qkvzba_split(qkvz, ba, *shape, layout, out=_out(t, *shape, dtype=dtype))
    _assert_bitwise(got, reference.gdn_qkvzba_split(qkvz, ba, *shape, layout))


@pytest.mark.gpu
@pytest.mark.parametrize("u", [1, 2, 4, 8])
def test_every_vectors_per_thread_variant(u):
    t = 777
    for layout in LAYOUTS:
        qkvz, ba = _inputs(t, *QWEN38)
        out = _out(t, *QWEN38)
        gdn_split._launch(qkvz, ba, out, *QWEN38, layout, vectors_per_thread=u)
        _assert_bitwise(out, reference.gdn_qkvzba_split(qkvz, ba, *QWEN38, layout))


@pytest.mark.gpu
def test_t1_contiguous_returns_views_and_out_forces_a_copy():
    qkvz, ba = _inputs(1, *QWEN38)
    want = reference.gdn_qkvzba_split(qkvz, ba, *QWEN38)
    got = gdn_qkvzba_split(qkvz, ba, *QWEN38)
    _assert_bitwise(got, want)
    assert got[0].data_ptr() == qkvz.data_ptr() and got[2].data_ptr() == ba.data_ptr()
    out = _out(1, *QWEN38)
    got = gdn_qkvzba_split(qkvz, ba, *QWEN38, out=out)
    assert got[0].data_ptr() == out[0].data_ptr()
    _assert_bitwise(got, want)
    # the interleaved layout has no views: fresh memory
    got = gdn_qkvzba_split(qkvz, ba, *QWEN38, "interleaved")
    assert got[0].untyped_storage().data_ptr() != qkvz.untyped_storage().data_ptr()
    _assert_bitwise(got, reference.gdn_qkvzba_split(qkvz, ba, *QWEN38, "interleaved"))


@pytest.mark.gpu
@pytest.mark.parametrize("layout", LAYOUTS)
def test_zero_tokens(layout):
    qkvz, ba = _inputs(0, *QWEN38)
    got = gdn_qkvzba_split(qkvz, ba, *QWEN38, layout)
    assert [tuple(g.shape) for g in got] == [(0, 10240), (0, 48, 128), (0, 48), (0, 48)]


@pytest.mark.gpu
def test_row_slices_when_int32_would_overflow(monkeypatch):
    """Force several launches (one per row slice) and check the seams."""
    monkeypatch.setattr(gdn_split, "MAX_ELEMENTS_PER_LAUNCH", 10 * _width(*QWEN38) + 5)
    for layout in LAYOUTS:
        qkvz, ba = _inputs(33, *QWEN38)
        got = gdn_qkvzba_split(qkvz, ba, *QWEN38, layout, out=_out(33, *QWEN38))
        _assert_bitwise(got, reference.gdn_qkvzba_split(qkvz, ba, *QWEN38, layout))


@pytest.mark.gpu
def test_non_default_stream():
    for layout in LAYOUTS:
        qkvz, ba = _inputs(513, *QWEN38)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            out = _out(513, *QWEN38)
            got = gdn_qkvzba_split(qkvz, ba, *QWEN38, layout, out=out)
        s.synchronize()
        _assert_bitwise(got, reference.gdn_qkvzba_split(qkvz, ba, *QWEN38, layout))


@pytest.mark.gpu
@pytest.mark.parametrize("t", [1, 64, 4096])
def test_cuda_graph_capture(t):
    for layout in LAYOUTS:
        qkvz, ba = _inputs(t, *QWEN38)
        out = _out(t, *QWEN38)
        gdn_qkvzba_split(qkvz, ba, *QWEN38, layout, out=out)  # compile outside the capture
        for o in out:
            o.fill_(float("nan"))
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            gdn_qkvzba_split(qkvz, ba, *QWEN38, layout, out=out)
        qkvz.copy_(torch.randn_like(qkvz))
        ba.copy_(torch.randn_like(ba))
        g.replay()
        torch.cuda.synchronize()
        _assert_bitwise(out, reference.gdn_qkvzba_split(qkvz, ba, *QWEN38, layout))


@pytest.mark.gpu
def test_torch_compile():
    f = torch.compile(
        lambda q, ba, layout: [x * 1 for x in gdn_qkvzba_split(q, ba, *QWEN38, layout)],
        fullgraph=True)
    for layout in LAYOUTS:
        for t in (1, 40):
            qkvz, ba = _inputs(t, *QWEN38)
            _assert_bitwise(f(qkvz, ba, layout),
                            reference.gdn_qkvzba_split(qkvz, ba, *QWEN38, layout))


@pytest.mark.gpu
def test_bad_device_input_raises():
    qkvz, ba = _inputs(4, *QWEN38)
    with pytest.raises(ValueError, match="mixed_ba"):
        gdn_qkvzba_split(qkvz, ba.cpu(), *QWEN38)
    out = list(_out(4, *QWEN38))
    out[1] = torch.empty(4 * 48 * 128 + 1, device="cuda", dtype=torch.bfloat16)[1:].view(4, 48, 128)
    with pytest.raises(ValueError, match=r"out \(z\).*aligned"):
        gdn_qkvzba_split(qkvz, ba, *QWEN38, out=out)
