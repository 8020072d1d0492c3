"""NVFP4 dequantize kernel: compile-only on CPU, bit-exact against the reference on a GPU."""

import pytest
import torch

from cute_kernels import reference
from cute_kernels.nvfp4_dequant import (bf16_activations, compile_nvfp4_dequant,
                                        compile_nvfp4_dequant_permuted_k,
                                        compile_nvfp4_dequant_unit_scale, nvfp4_dequantize)
from cute_kernels.unit_grid import SM_SHARED_BYTES, residency_smem, spread_launch
from cute_kernels.testing import compile_only
from layouts import sf_padded_shape
from tests.conftest import poisoned


@pytest.mark.parametrize("k,dtype", [(7168, "torch.bfloat16"), (5120, "torch.float16"),
                                     (48, "torch.bfloat16")])
def test_compiles_for_sm90a(k, dtype):
    assert compile_only(compile_nvfp4_dequant, k, dtype) is not None


@pytest.mark.parametrize("k", [7168, 192, 64])
def test_unit_scale_kernel_compiles_for_sm90a(k):
    assert compile_only(compile_nvfp4_dequant_unit_scale, k) is not None


@pytest.mark.parametrize("fn", [compile_nvfp4_dequant_unit_scale, compile_nvfp4_dequant_permuted_k])
@pytest.mark.parametrize("ctas_per_sm,units", [(1, 1), (3, 2)])
def test_spread_group_kernels_compile_for_sm90a(fn, ctas_per_sm, units):
    assert compile_only(fn, 576, ctas_per_sm, units) is not None


@pytest.mark.parametrize("cap", range(1, 9))
def test_residency_smem_lets_exactly_cap_ctas_onto_an_sm(cap):
    reserved = residency_smem(cap) + 1024  # the hardware's 1 KB a CTA
    assert cap * reserved <= SM_SHARED_BYTES < (cap + 1) * reserved
    assert residency_smem(cap) <= 227 * 1024 and residency_smem(cap) % 128 == 0


def test_spread_launch_aims_at_its_grid_one_cta_an_sm():
    # (ctas_per_sm, units_per_thread); a CTA writes 256 threads x units x 16 elements
    assert spread_launch(32, 7168, 132) == (1, 1)  # 56 CTAs
    assert spread_launch(64, 7168, 132) == (1, 2)  # 56
    assert spread_launch(64, 2048, 132) == (1, 1)  # 32
    assert spread_launch(256, 2048, 132) == (1, 2)  # 64
    assert spread_launch(128, 7168, 132) == (1, 4)  # 56
    assert spread_launch(512, 7168, 132) == (2, 4)  # 224: two an SM
    assert spread_launch(1024, 7168, 132) == (4, 4)  # 448
    assert spread_launch(16384, 7168, 132) == (0, 4)  # the threads cap it at 8 anyway
    assert spread_launch(1, 64, 132) == (1, 1)


def _random_inputs(m, k, device):
    """Every code and every scale byte (NaN included) appear; fresh each run."""
    q = torch.randint(0, 256, (m, k // 2), dtype=torch.uint8, device=device)
    mp, kbp = sf_padded_shape(m, k // 16)
    sf = torch.randint(0, 256, (mp, kbp), dtype=torch.uint8, device=device).view(torch.float8_e4m3fn)
    g = torch.rand((), device=device) * 1000 + 1e-3
    return q, sf, g.float()


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 129, 1000])
@pytest.mark.parametrize("k", [16, 48, 7168])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16])
def test_bit_exact_with_reference(m, k, out_dtype):
    q, sf, g = _random_inputs(m, k, "cuda")
    got = nvfp4_dequantize(q, sf, g, out_dtype=out_dtype)
    want = reference.nvfp4_dequantize(q, sf, g, out_dtype=out_dtype)
    assert got.shape == (m, k) and got.dtype == out_dtype
    torch.testing.assert_close(got, want, rtol=0, atol=0, equal_nan=True)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 129, 1000, 2049])
@pytest.mark.parametrize("k", [16, 48, 64, 192, 7168])
def test_unit_scale_path_bit_exact(m, k):
    """Global scale 1.0 into bf16 (the unit-scale kernel where K is a multiple of 64, also
    ``bf16_activations``; the general kernel elsewhere): every code and scale byte, M*K/16
    units not a multiple of a CTA's 1024, the kernel's output poisoned."""
    q, sf, _ = _random_inputs(m, k, "cuda")
    want = reference.nvfp4_dequantize(q, sf, 1.0, out_dtype=torch.bfloat16)
    got = nvfp4_dequantize(q, sf, 1.0)
    torch.testing.assert_close(got, want, rtol=0, atol=0, equal_nan=True)
    torch.testing.assert_close(bf16_activations(q, sf), want, rtol=0, atol=0, equal_nan=True)
    if k % 64 == 0:  # the kernel itself, into a NaN-poisoned output
        out = poisoned(m, k, dtype=torch.bfloat16)
        compile_nvfp4_dequant_unit_scale(k)(q.view(torch.int32).view(-1, 8), sf.view(-1),
                                            out.view(torch.int32).view(-1, 32))
        torch.testing.assert_close(out, want, rtol=0, atol=0, equal_nan=True)
    # a tensor 1.0 takes the general kernel: the same values
    torch.testing.assert_close(nvfp4_dequantize(q, sf, torch.ones((), device="cuda")), want,
                               rtol=0, atol=0, equal_nan=True)


@pytest.mark.gpu
def test_round_trip_of_real_data_and_float_scale():
    x = torch.randn(300, 4096, device="cuda", dtype=torch.bfloat16)
    g = float(448 * 6 / x.abs().max())
    q, sf = reference.nvfp4_quantize(x, g)
    got = nvfp4_dequantize(q, sf, g)
    torch.testing.assert_close(got, reference.nvfp4_dequantize(q, sf, g, out_dtype=torch.bfloat16),
                               rtol=0, atol=0)
    assert (got.float() - x.float()).norm() / x.float().norm() < 0.15


@pytest.mark.gpu
def test_zero_rows():
    q, sf, g = _random_inputs(0, 64, "cuda")
    assert nvfp4_dequantize(q, sf, g).shape == (0, 64)


@pytest.mark.gpu
def test_non_default_stream():
    q, sf, g = _random_inputs(257, 256, "cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        got = nvfp4_dequantize(q, sf, g)
    s.synchronize()
    torch.testing.assert_close(got, reference.nvfp4_dequantize(q, sf, g, out_dtype=torch.bfloat16),
                               rtol=0, atol=0, equal_nan=True)


def test_bad_input_raises_before_launch():
    q, sf, g = _random_inputs(4, 64, "cpu")
    with pytest.raises(TypeError, match="packed"):
        nvfp4_dequantize(q.view(torch.int8), sf, g)
    with pytest.raises(ValueError, match="packed"):
        nvfp4_dequantize(q[:, :4], sf, g)  # K = 8
    with pytest.raises(TypeError, match="sf"):
        nvfp4_dequantize(q, sf.view(torch.uint8), g)
    with pytest.raises(ValueError, match="sf"):
        nvfp4_dequantize(q, sf.view(-1)[:100], g)
    with pytest.raises(TypeError, match="out_dtype"):
        nvfp4_dequantize(q, sf, g, out_dtype=torch.float32)
    with pytest.raises(ValueError, match="CUDA"):
        nvfp4_dequantize(q, sf, g)


def test_two_division_decode_is_exact_on_cpu():
    """The kernel's arithmetic (two divisions per block, power-of-two scaling per element)
    emulated in torch fp32 equals the reference's one division per element, for every code,
    every finite scale byte and random normal G."""
    codes = torch.arange(16, dtype=torch.uint8)
    sf = torch.arange(256, dtype=torch.uint8).view(torch.float8_e4m3fn).float()
    sf = sf[torch.isfinite(sf)]
    vals = reference.e2m1_values(codes)
    mag = (codes & 7).long()
    pow2 = torch.tensor([0, .5, 1, 1, 2, 2, 4, 4])[mag] * torch.where(codes >= 8, -1.0, 1.0)
    use3 = (mag % 2 == 1) & (mag > 1)
    for g in torch.cat([torch.rand(20) * 1e4, torch.tensor([1.0, 3.0, 448 * 6.0, 1e-3])]):
        g = g.float()
        want = (vals[None, :] * sf[:, None]) / g
        base1 = sf / g
        base3 = (sf * 1.5) / g
        got = torch.where(use3[None, :], base3[:, None], base1[:, None]) * pow2[None, :]
        assert torch.equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("permuted", [False, True])
def test_bf16_activations_padded_rows_are_zero(permuted):
    """``rows``: the wgmma kernels' activations padded to whole token tiles, the first M rows
    as without it, zeros after (the buffer's old contents poisoned first)."""
    m, k, rows = 129, 576, 256
    q, sf, _ = _random_inputs(m, k, "cuda")
    want = bf16_activations(q, sf, permuted)
    junk = poisoned(rows, k, dtype=torch.bfloat16)
    del junk  # its NaN block is likely the caching allocator's next one of this size
    got = bf16_activations(q, sf, permuted, rows)
    assert got.shape == (rows, k)
    torch.testing.assert_close(got[:m], want, rtol=0, atol=0, equal_nan=True)  # NaN scales
    assert torch.equal(got[m:], torch.zeros_like(got[m:]))


@pytest.mark.gpu
@pytest.mark.parametrize("permuted", [False, True])
@pytest.mark.parametrize("m,k,rows", [(64, 7168, 64), (129, 576, 256), (1000, 7168, 1024),
                                      (32, 7168, 32), (250, 2048, 256)])
def test_bf16_activations_spread_is_the_same(permuted, m, k, rows):
    """``spread`` changes only the grid (1, 2 or 4 units a thread here) and how many CTAs
    share an SM (dynamic shared memory, unused)."""
    q, sf, _ = _random_inputs(m, k, "cuda")
    want = bf16_activations(q, sf, permuted, rows)
    got = bf16_activations(q, sf, permuted, rows, spread=True)
    torch.testing.assert_close(got, want, rtol=0, atol=0, equal_nan=True)
