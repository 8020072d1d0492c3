"""``torch.compile`` on the NVFP4 path: ``nvfp4_gemm``, the three quantizers,
``nvfp4_dequantize`` and ``silu_mul`` trace as custom ops (``torch.ops.cute_kernels.*``).

CPU: each op's fake implementation gives the real outputs' shapes and dtypes. GPU: a
``fullgraph`` compile of each public function gives the eager bits."""

import pytest
import torch

from cute_kernels import (nvfp4_dequantize, nvfp4_gemm, nvfp4_quantize, prepare_nvfp4_weight,
                          reference, silu_mul, silu_mul_nvfp4_quant,
                          silu_mul_nvfp4_quant_experts)
from layouts import experts_sf_to_dense, unswizzle_sf

OPS = torch.ops.cute_kernels


def _fake_mode():
    from torch._subclasses.fake_tensor import FakeTensorMode
    return FakeTensorMode()


@pytest.mark.parametrize("a_fp4", [True, False])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float32])
def test_nvfp4_gemm_fake(a_fp4, out_dtype):
    with _fake_mode():
        m, n, k = 7, 384, 512
        a = torch.empty(m, k // 2, dtype=torch.uint8) if a_fp4 else torch.empty(
            m, k, dtype=torch.bfloat16)
        a_sf = torch.empty(128, k // 64, dtype=torch.float8_e4m3fn) if a_fp4 else None
        b = torch.empty(n, k // 8, dtype=torch.int32)
        b_sf = torch.empty(384, k // 16, dtype=torch.float8_e4m3fn)
        d = OPS.nvfp4_gemm(a, a_sf, b, b_sf, torch.empty(1), out_dtype)
        assert d.shape == (m, n) and d.dtype == out_dtype


@pytest.mark.parametrize("m", [1, 129])
def test_quantizer_fakes(m):
    with _fake_mode():
        x = torch.empty(m, 320, dtype=torch.bfloat16)
        g = torch.empty(1)
        for op, k in ((OPS.nvfp4_quantize, 320), (OPS.silu_mul_nvfp4_quant, 160)):
            q, sf = op(x, g)
            assert q.shape == (m, k // 2) and q.dtype == torch.uint8
            assert sf.shape == (-(-m // 128) * 128, -(-(k // 16) // 4) * 4)
            assert sf.dtype == torch.float8_e4m3fn
        q, sf = OPS.silu_mul_nvfp4_quant_experts(
            torch.empty(3, m, 2 * 2048, dtype=torch.bfloat16),
            torch.empty(3, dtype=torch.int32), torch.empty(3))
        assert q.shape == (3, m, 1024) and q.dtype == torch.uint8
        assert sf.shape == (3, -(-m // 128) * 128, 128) and sf.dtype == torch.uint8


def test_dequantize_and_silu_mul_fakes():
    with _fake_mode():
        out = OPS.nvfp4_dequantize(torch.empty(5, 48, dtype=torch.uint8),
                                   torch.empty(128, 8, dtype=torch.float8_e4m3fn),
                                   torch.empty(1), torch.float16)
        assert out.shape == (5, 96) and out.dtype == torch.float16
        h = OPS.silu_mul(torch.empty(5, 64, dtype=torch.bfloat16))
        assert h.shape == (5, 32) and h.dtype == torch.bfloat16


# ------------------------------------------------------------------------- GPU
def _compiled(fn):
    torch._dynamo.reset()
    return torch.compile(fn, fullgraph=True)


def _same(got, want):
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert got.shape == want.shape and got.dtype == want.dtype and got.stride() == want.stride()
    assert torch.equal(got.view(torch.uint8) if got.dtype.itemsize == 1 else got,
                       want.view(torch.uint8) if want.dtype.itemsize == 1 else want)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 300])
@pytest.mark.parametrize("a_fp4", [True, False])
def test_nvfp4_gemm_compiles(m, a_fp4):
    n, k = 512, 1024
    w = torch.randn(n, k, device="cuda")
    b, b_sf = reference.nvfp4_quantize(w, 2.0)
    b = prepare_nvfp4_weight(b)
    x = torch.randn(m, k, device="cuda").bfloat16()
    alpha = torch.full((1,), 0.25, device="cuda")
    if a_fp4:
        a, a_sf = nvfp4_quantize(x, torch.full((1,), 4.0, device="cuda"))
    else:
        a, a_sf = x, None
    want = nvfp4_gemm(a, a_sf, b, b_sf, alpha)
    got = _compiled(lambda a: nvfp4_gemm(a, a_sf, b, b_sf, alpha))(a)
    _same(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 130])
def test_quantizers_compile(m):
    g = torch.full((1,), 30.0, device="cuda")
    x = torch.randn(m, 2 * 1024, device="cuda").bfloat16()
    for fn in (nvfp4_quantize, silu_mul_nvfp4_quant):
        _same(_compiled(lambda x: fn(x, g))(x), fn(x, g))
    e = 3
    gu = torch.randn(e, m, 2 * 1024, device="cuda").bfloat16()
    mask = torch.tensor([0, m, m // 2], dtype=torch.int32, device="cuda")
    ge = torch.full((e,), 30.0, device="cuda")
    want_q, want_sf = silu_mul_nvfp4_quant_experts(gu, mask, ge)
    got_q, got_sf = _compiled(lambda gu: silu_mul_nvfp4_quant_experts(gu, mask, ge))(gu)
    assert got_q.shape == want_q.shape and got_q.stride() == want_q.stride()
    assert got_sf.shape == want_sf.shape
    dense_got, dense_want = experts_sf_to_dense(got_sf), experts_sf_to_dense(want_sf)
    # rows past masked_m are left unwritten: compare the rows each expert owns
    for ex in range(e):
        rows = int(mask[ex])
        assert torch.equal(got_q[:rows, :, ex], want_q[:rows, :, ex])
        # (the dense buffers are swizzled: their logical rows come from unswizzle_sf)
        got_rows, want_rows = (unswizzle_sf(d[ex].view(torch.uint8), m, 1024 // 16)[:rows]
                               for d in (dense_got, dense_want))
        assert torch.equal(got_rows, want_rows)


@pytest.mark.gpu
def test_dequantize_and_silu_mul_compile():
    x = torch.randn(129, 512, device="cuda").bfloat16()
    q, sf = nvfp4_quantize(x, 8.0)
    g = torch.full((1,), 8.0, device="cuda")
    _same(_compiled(lambda q: nvfp4_dequantize(q, sf, g))(q), nvfp4_dequantize(q, sf, g))
    _same(_compiled(lambda x: silu_mul(x))(x), silu_mul(x))


def test_experts_scale_view_traces_and_matches_the_layout():
    """The quantizer's 6-D scale view equals ``layouts.experts_sf_view``'s (sizes, strides of
    the dimensions longer than one, bytes), eager and traced whole by dynamo with a dynamic M
    (where it takes torch ops)."""
    from cute_kernels.nvfp4_quant import _experts_scales_view
    from layouts import experts_sf_view, sf_padded_shape

    torch._dynamo.reset()
    traced = torch.compile(lambda sf: _experts_scales_view(sf, *sf.shape), backend="eager",
                           fullgraph=True, dynamic=True)
    for e, m, i in ((3, 130, 2048), (1, 1, 64), (2, 300, 7168), (4, 129, 320)):
        mp, kbp = sf_padded_shape(m, i // 16)
        sf = torch.arange(e * mp * kbp, dtype=torch.int32).to(torch.uint8).view(e, mp, kbp)
        want = experts_sf_view(sf.view(torch.float8_e4m3fn), mp, kbp, e)
        for got in (_experts_scales_view(sf, e, mp, kbp), traced(sf)):
            assert got.shape == want.shape
            # (a dimension of one element may have any stride)
            assert all(a == b for a, b, n in zip(got.stride(), want.stride(), want.shape)
                       if n > 1)
            assert torch.equal(got.view(torch.uint8), want.view(torch.uint8))
