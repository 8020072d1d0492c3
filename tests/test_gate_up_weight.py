"""prepare_gate_up_weight / restore_gate_up_weight: ModelOpt [gate; up] <-> fused SwiGLU layout."""

import pytest
import torch
from hypothesis import given, settings, strategies as st

from cute_kernels import reference as ref
from cute_kernels.gate_up_weight import prepare_gate_up_weight, restore_gate_up_weight
from layouts import (
    composes_with_sf_layout,
    interleaved_sf_layout,
    sf_padded_shape,
    static_layout,
    swizzle_sf,
    torch_geometry,
    unswizzle_sf,
)

FAST = settings(max_examples=25, deadline=None)
E4M3 = torch.float8_e4m3fn


def u8(t):
    return t.contiguous().view(torch.uint8)


def random_scales(rows, kb, gen=None, lo=1, hi=255):
    """Arbitrary e4m3 bytes (NaN encodings included: the layout code must move bits)."""
    return torch.randint(lo, hi + 1, (rows, kb), dtype=torch.uint8, generator=gen).view(E4M3)


def tame_scales(rows, kb, gen):
    """Positive e4m3 scales 2^-2 .. 7.5 (exponent field 5..9): every GEMM sum below is exact."""
    exp = torch.randint(5, 10, (rows, kb), dtype=torch.uint8, generator=gen)
    mant = torch.randint(0, 8, (rows, kb), dtype=torch.uint8, generator=gen)
    return (exp << 3 | mant).view(E4M3)


@st.composite
def checkpoints(draw, max_groups=4, max_kb=9):
    """ModelOpt gate_up tensors: I a multiple of 64, K a multiple of 16 (KB = K/16 also odd,
    so the swizzled scale columns get padding)."""
    i = 64 * draw(st.integers(1, max_groups))
    kb = draw(st.integers(1, max_kb))
    seed = draw(st.integers(0, 2**31 - 1))
    gen = torch.Generator().manual_seed(seed)
    weight = torch.randint(0, 256, (2 * i, kb * 8), dtype=torch.uint8, generator=gen)
    return weight, random_scales(2 * i, kb, gen), gen


def design_offset(m, kb, kb4):
    """DESIGN.md's byte offset of scale (row m, block kb) in the swizzled 128x4 layout.

    DESIGN.md writes the row-tile stride as ``KB4*512`` with "KB4 = KB padded to a multiple
    of 4"; read literally that is 4x too large. A row tile holds KB4/4 atoms of 512 bytes,
    so the stride is (KB4/4)*512 (what sf_tiled_layout and CUTLASS/FlashInfer use).
    """
    return (m // 128) * ((kb4 // 4) * 512) + (kb // 4) * 512 + (m % 32) * 16 \
        + ((m % 128) // 32) * 4 + (kb % 4)


def interleaved_source_rows(i):
    """Row r of interleave([up; gate], 64) -> row of [gate; up]: 64 up, 64 gate, 64 up, ..."""
    r = torch.arange(2 * i)
    g, is_gate, j = r // 128, (r // 64) % 2, r % 64
    return torch.where(is_gate == 1, 0, i) + 64 * g + j


# ---- layout and round trip ------------------------------------------------------------------

@FAST
@given(checkpoints())
def test_round_trip_is_bit_exact(case):
    weight, scale, _ = case
    weight_i, scale_i = prepare_gate_up_weight(weight, scale)
    back_w, back_s = restore_gate_up_weight(weight_i, scale_i)
    assert back_w.dtype == torch.uint8 and back_s.dtype == E4M3
    assert back_w.is_contiguous() and back_s.is_contiguous()
    assert torch.equal(back_w, weight)
    assert torch.equal(u8(back_s), u8(scale))
    # inputs untouched
    again_w, again_s = prepare_gate_up_weight(back_w, back_s)
    assert torch.equal(again_w, weight_i) and torch.equal(u8(again_s), u8(scale_i))


@FAST
@given(checkpoints())
def test_prepared_layout_is_the_documented_one(case):
    """Rows: 64 up, 64 gate, ... (up first); scales: those rows at DESIGN.md's swizzled
    offsets, padding zero; everything checked against formulas written out here."""
    weight, scale, _ = case
    rows, kb = scale.shape
    i = rows // 2
    weight_i, scale_i = prepare_gate_up_weight(weight, scale)
    mp, kb4 = sf_padded_shape(rows, kb)
    assert weight_i.shape == weight.shape and weight_i.dtype == torch.uint8
    assert tuple(scale_i.shape) == (mp, kb4) == (rows, -(-kb // 4) * 4)
    assert scale_i.dtype == E4M3 and scale_i.is_contiguous()

    src = interleaved_source_rows(i)
    assert torch.equal(weight_i, weight[src])
    assert torch.equal(weight_i[:64], weight[i:i + 64])  # up comes first
    assert torch.equal(weight_i[64:128], weight[:64])

    flat = u8(scale_i).flatten()
    m = torch.arange(rows).view(-1, 1)
    k = torch.arange(kb4).view(1, -1)
    off = design_offset(m, k, kb4)
    assert torch.equal(off.flatten().sort().values, torch.arange(mp * kb4))
    expect = torch.zeros(rows, kb4, dtype=torch.uint8)
    expect[:, :kb] = u8(scale)[src]
    assert torch.equal(flat[off], expect)


@FAST
@given(checkpoints())
def test_scales_agree_with_the_composed_cute_layout(case):
    """Where layouts can express it as one CuTe layout (I % 128 == 0 or I == 64), reading the
    swizzled [up; gate] scales through interleaved_sf_layout gives the prepared scale matrix."""
    weight, scale, _ = case
    rows, kb = scale.shape
    _, scale_i = prepare_gate_up_weight(weight, scale)
    kb4 = sf_padded_shape(rows, kb)[1]
    prepared = unswizzle_sf(u8(scale_i), rows, kb4)
    if not composes_with_sf_layout(rows):
        assert (rows // 2) % 128  # only I = 192, 320, ... (still supported by prepare)
        return
    old = swizzle_sf(torch.roll(u8(scale), rows // 2, dims=0)).flatten()
    sizes, strides, logical = torch_geometry(*static_layout(interleaved_sf_layout, rows, kb4))
    assert torch.equal(old.as_strided(sizes, strides).reshape(logical), prepared)


# ---- numerics: the prepared weight gives the SwiGLU of the original [gate; up] weight -------

def decode_nvfp4(packed, scale):
    """Plain-torch fp64 e2m1(q) * sf of packed [N, K/2] with plain scales [N, K/16]."""
    mags = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=torch.float64)
    codes = torch.stack([packed & 0xF, packed >> 4], dim=-1).reshape(packed.shape[0], -1).long()
    vals = torch.where(codes >= 8, -1.0, 1.0).double() * mags[codes & 7]
    return vals * scale.double().repeat_interleave(16, dim=1)


def plain_swiglu(a64, weight, scale, alpha):
    """h = (alpha*up) * silu(alpha*gate) in fp64 from the ModelOpt [gate; up] tensors."""
    i = weight.shape[0] // 2
    w = decode_nvfp4(weight, scale)
    al = torch.tensor(alpha, dtype=torch.float32).double()
    g = al * (a64 @ w[:i].T)
    u = al * (a64 @ w[i:].T)
    return u * (g / (1.0 + torch.exp(-g)))


@settings(max_examples=15, deadline=None)
@given(checkpoints(max_groups=3, max_kb=6), st.integers(1, 5), st.booleans())
def test_reference_swiglu_of_prepared_weight_matches_plain_swiglu(case, m, fp4_activation):
    weight, _, gen = case
    rows, half_k = weight.shape
    k = 2 * half_k
    # tame scales: all GEMM sums are exact in fp64, so the results must be identical
    scale = tame_scales(rows, k // 16, gen)
    alpha = 0.0371
    if fp4_activation:
        a = torch.randint(0, 256, (m, half_k), dtype=torch.uint8, generator=gen)
        a_sf_plain = tame_scales(m, k // 16, gen)
        a_sf = swizzle_sf(a_sf_plain)
        a64 = decode_nvfp4(a, a_sf_plain)
    else:  # W4A16: bf16 activation, multiples of 1/8 in [-2, 2]
        a = (torch.randint(-16, 17, (m, k), generator=gen) / 8).to(torch.bfloat16)
        a_sf = a_sf_plain = None
        a64 = a.double()
    expect = plain_swiglu(a64, weight, scale, alpha)

    weight_i, scale_i = prepare_gate_up_weight(weight, scale)
    h = ref.swiglu_fp64(a, a_sf, weight_i, scale_i, alpha, swizzled=True)
    assert torch.equal(h, expect)

    g_out = ref.nvfp4_global_scale(expect.float())
    packed, sf = ref.gemm_swiglu_quant(a, a_sf, weight_i, scale_i, alpha, g_out)
    exp_packed, exp_sf = ref.nvfp4_quantize(expect.float(), g_out)
    assert torch.equal(packed, exp_packed) and torch.equal(u8(sf), u8(exp_sf))

    # the un-prepared checkpoint (rows [gate; up], plain scales) is NOT what the reference wants
    if expect.abs().max() > 0:
        # (swizzled applies to a_sf and w_sf alike)
        wrong = ref.swiglu_fp64(a, a_sf_plain, weight, scale, alpha, swizzled=False)
        assert not torch.equal(wrong, expect)


# ---- errors ---------------------------------------------------------------------------------

def good(i=64, kb=2):
    return (torch.zeros(2 * i, kb * 8, dtype=torch.uint8),
            torch.zeros(2 * i, kb, dtype=torch.uint8).view(E4M3))


def test_prepare_errors_name_the_argument():
    w, s = good()
    with pytest.raises(TypeError, match="weight: expected packed NVFP4 as torch.uint8"):
        prepare_gate_up_weight(w.to(torch.int8), s)
    with pytest.raises(TypeError, match="weight_scale: expected torch.float8_e4m3fn"):
        prepare_gate_up_weight(w, s.view(torch.uint8))
    with pytest.raises(TypeError, match="weight: expected a torch.Tensor"):
        prepare_gate_up_weight(w.numpy(), s)
    with pytest.raises(ValueError, match=r"weight: expected a 2-D \[2I, K/2\]"):
        prepare_gate_up_weight(w[None], s)
    with pytest.raises(ValueError, match=r"weight_scale: expected a 2-D"):
        prepare_gate_up_weight(w, s[None])
    w192, s192 = good(i=96)  # 2I = 192: not whole 64 up + 64 gate groups
    with pytest.raises(ValueError, match=r"weight: 2I = 192 rows must be a positive multiple of 128"):
        prepare_gate_up_weight(w192, s192)
    with pytest.raises(ValueError, match="weight: 2I = 0"):
        prepare_gate_up_weight(w[:0], s[:0])
    with pytest.raises(ValueError, match=r"weight: K = 2 \* 12 = 24 must be a positive multiple of 16"):
        prepare_gate_up_weight(w[:, :12], s)
    with pytest.raises(ValueError, match=r"weight: K = 2 \* 0"):
        prepare_gate_up_weight(w[:, :0], s[:, :0])
    # K inconsistent between weight (K/2 = 16 -> K/16 = 2) and weight_scale
    with pytest.raises(ValueError, match=r"weight_scale: expected shape \(128, 2\) \(\[2I, K/16\]\)"):
        prepare_gate_up_weight(w, good(kb=3)[1])
    with pytest.raises(ValueError, match=r"weight_scale: expected shape \(128, 2\)"):
        prepare_gate_up_weight(w, good(i=128)[1])
    with pytest.raises(ValueError, match=r"weight_scale: expected shape"):
        prepare_gate_up_weight(w, swizzle_sf(s))  # already swizzled (2 -> 4 columns)
    if torch.cuda.is_available():
        with pytest.raises(ValueError, match="weight_scale: on cuda"):
            prepare_gate_up_weight(w, s.cuda())


def test_restore_errors_name_the_argument():
    w, s = good(i=64, kb=3)
    wi, si = prepare_gate_up_weight(w, s)
    assert tuple(si.shape) == (128, 4)
    with pytest.raises(TypeError, match="weight_i: expected packed NVFP4"):
        restore_gate_up_weight(wi.view(torch.int8), si)
    with pytest.raises(TypeError, match="weight_scale_i: expected torch.float8_e4m3fn"):
        restore_gate_up_weight(wi, si.view(torch.uint8))
    with pytest.raises(ValueError, match=r"weight_i: 2I = 64 rows"):
        restore_gate_up_weight(wi[:64], si)
    with pytest.raises(ValueError, match=r"weight_scale_i: expected shape \(128, 4\) \(swizzled"):
        restore_gate_up_weight(wi, s)  # plain, not swizzled
    with pytest.raises(ValueError, match=r"weight_scale_i: expected a 2-D"):
        restore_gate_up_weight(wi, si.flatten())
    bad = si.clone()
    u8view = bad.view(torch.uint8)
    u8view.view(-1)[3] = 1  # row 0, kb 3: a padding byte (KB = 3)
    with pytest.raises(ValueError, match="weight_scale_i: padding bytes"):
        restore_gate_up_weight(wi, bad)
    back_w, back_s = restore_gate_up_weight(wi, bad, check_padding=False)  # ignored, not moved
    assert torch.equal(back_w, w) and torch.equal(u8(back_s), u8(s))


@pytest.mark.parametrize("i,kb", [(64, 1), (192, 5), (256, 4)])
def test_non_contiguous_inputs_and_fixed_sizes(i, kb):
    gen = torch.Generator().manual_seed(i * 31 + kb)
    w = torch.randint(0, 256, (kb * 8, 2 * i), dtype=torch.uint8, generator=gen).T  # [2I, K/2]
    s = random_scales(2 * i, 2 * kb, gen)[:, ::2]
    assert not w.is_contiguous() and not s.is_contiguous()
    wi, si = prepare_gate_up_weight(w, s)
    back_w, back_s = restore_gate_up_weight(wi, si)
    assert torch.equal(back_w, w) and torch.equal(u8(back_s), u8(s))


@pytest.mark.gpu
def test_cuda_matches_cpu():
    gen = torch.Generator().manual_seed(7)
    w = torch.randint(0, 256, (384, 40), dtype=torch.uint8, generator=gen)
    s = random_scales(384, 5, gen)
    wi, si = prepare_gate_up_weight(w, s)
    wi_c, si_c = prepare_gate_up_weight(w.cuda(), s.cuda())
    assert wi_c.is_cuda and si_c.is_cuda
    assert torch.equal(wi_c.cpu(), wi) and torch.equal(u8(si_c.cpu()), u8(si))
    back_w, back_s = restore_gate_up_weight(wi_c, si_c)
    assert back_w.is_cuda and torch.equal(back_w.cpu(), w) and torch.equal(u8(back_s.cpu()), u8(s))
