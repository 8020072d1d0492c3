"""Permuted NVFP4 weight words (``permuted_fp4``): on CPU the permutation round trip, each pair's
extraction against the standard decode (Python integers; also the standard words' decode by
multiply), the wgmma kernels' whole-word slot
mapping and the permuted-K dequantize against ``PERMUTED_K_ORDER``, and every permuted kernel
compiling for sm_90a; on a GPU every GEMM route with permuted weights against the fp64 reference
and, where the MMA order is the same (small M), bit for bit against standard weights."""

import random

import pytest
import torch

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_gate_up_weight,
                          prepare_nvfp4_weight, reference, restore_gate_up_weight)
from cute_kernels.device_mma import (STANDARD_HIGH_SHIFT, STANDARD_PAIR_MASKS,
                                     STANDARD_PAIR_MULTIPLIERS)
from cute_kernels.nvfp4_dequant import (bf16_activations, compile_nvfp4_dequant_permuted_k,
                                        nvfp4_dequantize)
from cute_kernels.nvfp4_gemm import launch_small_m
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m, launch_large_m
from cute_kernels.nvfp4_gemm_small_m import compile_nvfp4_gemm_small_m
from cute_kernels.nvfp4_gemm_small_m_split import compile_nvfp4_gemm_small_m_split
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_small_m
from cute_kernels.k_order import PERMUTED_K_ORDER, KOrder, order_k
from cute_kernels.permuted_fp4 import (MASK_P, PAIR3_MASK, PAIR3_MULTIPLIER, PAIR_ROTATION,
                                       PERMUTATION, byte_pair, permute_fp4_words,
                                       standard_packed, unpermute_fp4_words, weight_dims)
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused_large_m
from cute_kernels.testing import compile_only
from layouts import sf_padded_shape
from tests.conftest import check_graph_replays_chain, poisoned, w4a16_chain

WORD = 0xFFFFFFFF


def _shift(w, s):
    return ((w << s) & WORD) if s >= 0 else w >> -s


def _standard_pair(w, r):  # device_mma.e2m1x2_raw on Python integers
    return (_shift(w, 6 - 4 * r) & 0x01C001C0) | (_shift(w, 12 - 4 * r) & 0x80008000)


def _permuted_pair(w, r):  # device_mma.e2m1x2_permuted on Python integers
    if r == 0:
        return w & MASK_P
    if r < 3:
        k = PAIR_ROTATION[r]
        return (((w << k) | (w >> (32 - k))) & WORD) & MASK_P
    return (((w & PAIR3_MASK) * PAIR3_MULTIPLIER) & WORD) & MASK_P


def _permute_word(w):
    return sum(((w >> src) & 1) << dst for src, dst in enumerate(PERMUTATION))


def _half_value(pair, e):
    """Half ``e`` of a raw bf16x2 pair (``e2m1 * 2^-126``) as the e2m1 value."""
    bits = (pair >> (16 * e)) & 0xFFFF
    x = torch.tensor([bits - (1 << 16) if bits >= 1 << 15 else bits], dtype=torch.int16)
    return x.view(torch.bfloat16).double().item() * 2.0**126


# ------------------------------------------------------------------------- CPU
def test_pairs_of_the_permuted_word_equal_the_standard_ones():
    words = [1 << b for b in range(32)] + [0, WORD]
    words += [random.getrandbits(32) for _ in range(20000)]
    for w in words:
        p = _permute_word(w)
        assert all(_permuted_pair(p, r) == _standard_pair(w, r) for r in range(4)), hex(w)


def _funnel_sources(x: int, y: int, r: int) -> frozenset:
    """The (word, bit) each of P's bits takes in ``shf.l.wrap(x, y, r) & P`` (the high 32 bits
    of the 64-bit {x:y} shifted left by r; x = y is a rotation, r = 0 the word as it is)."""
    return frozenset((x, b - r) if b >= r else (y, 32 - r + b)
                     for b in range(32) if MASK_P >> b & 1)


@pytest.mark.parametrize("words", [1, 2])
def test_no_layout_gives_every_pair_in_two_instructions(words):
    """Why pair 3 costs three integer instructions: no bit layout of ``words`` words gives
    every pair in at most two, as P of a rotation, of a funnel shift across the words or of
    a select between two words. Such a layout would partition the words' bits into those
    pairs' source sets; an exact-cover search finds none. So a word's pairs take at least
    1 + 2 + 2 + 3 = 8 (this layout's), two words' at least 15."""
    bits = frozenset((w, b) for w in range(words) for b in range(32))
    shapes = {_funnel_sources(x, y, r) for x in range(words) for y in range(words)
              for r in range(32)}
    if words == 2:  # selects: target bit i of P from word m >> i & 1, both unshifted
        targets = [b for b in range(32) if MASK_P >> b & 1]
        shapes |= {frozenset((m >> i & 1, b) for i, b in enumerate(targets))
                   for m in range(256)}
    by_bit = {}
    for shape in shapes:
        for bit in shape:
            by_bit.setdefault(bit, []).append(shape)

    def covers(taken):
        if taken == bits:
            return True
        bit = min(bits - taken)
        return any(covers(taken | shape) for shape in by_bit[bit] if not shape & taken)

    assert not covers(frozenset())


def _element_pair(w, lo, hi):
    """Elements ``lo`` and ``hi`` of standard word ``w`` as one raw bf16x2 pair (low, high)."""
    def placed(j):
        code = (w >> (4 * j)) & 0xF
        return ((code & 7) << 6) | ((code >> 3) << 15)
    return placed(lo) | (placed(hi) << 16)


def test_byte_pairs_of_the_permuted_word_equal_the_standard_bytes():
    """``permuted_fp4.byte_pair`` (the wgmma kernels' in-place decode of permuted words,
    ``KOrder.PERMUTED_IDENTITY``): elements 2q, 2q + 1 of the standard word, every code in
    every position."""
    words = [1 << b for b in range(32)] + [0, WORD]
    words += [random.getrandbits(32) for _ in range(20000)]
    words += [sum(c << (4 * j) for j in range(8)) for c in range(16)]
    for w in words:
        p = _permute_word(w)
        assert all(byte_pair(p, q) == _element_pair(w, 2 * q, 2 * q + 1) for q in range(4)), \
            hex(w)


def test_standard_pairs_by_multiply_on_every_nibble_pattern():
    """``device_mma.e2m1x2_by_multiply`` (one multiply per pair, standard words) on Python
    integers: every value of the pair's two nibbles, the rest of the word random, decodes as
    ``e2m1x2_raw``."""
    for r in range(4):
        for v in range(256):
            for _ in range(4):
                w = random.getrandbits(32)
                lo, hi = 4 * r, 4 * r + 16
                w = (w & ~(0xF << lo) & ~(0xF << hi)) | ((v & 0xF) << lo) | ((v >> 4) << hi)
                src = w if r < 2 else w >> STANDARD_HIGH_SHIFT
                got = ((src & STANDARD_PAIR_MASKS[r % 2]) * STANDARD_PAIR_MULTIPLIERS[r % 2]
                       & WORD) & MASK_P
                assert got == _standard_pair(w, r), (r, hex(w))


def test_pair3_multiply_has_no_carries_on_any_pattern():
    """Pair 3's multiply adds shifted copies of its 8 source bits: every pattern of those bits
    (the rest of the word random) must decode as the standard layout's pair 3."""
    sources = [b for b in range(32) if PAIR3_MASK >> b & 1]
    assert len(sources) == 8
    for v in range(256):
        for _ in range(4):
            w = random.getrandbits(32)
            for i, b in enumerate(sources):
                w = (w & ~(1 << b)) | (((v >> i) & 1) << b)
            standard = sum(((w >> dst) & 1) << src for src, dst in enumerate(PERMUTATION))
            assert _permuted_pair(w, 3) == _standard_pair(standard, 3), (v, hex(w))


def test_torch_permutation_round_trips_and_matches_the_word_rule():
    x = torch.randint(0, 256, (5, 96), dtype=torch.uint8)
    y = permute_fp4_words(x)
    assert y.shape == x.shape and y.dtype == torch.uint8
    assert torch.equal(unpermute_fp4_words(y), x)
    for i, j in ((0, 0), (3, 40), (4, 92)):
        w = int.from_bytes(bytes(x[i, j:j + 4].tolist()), "little")
        assert int.from_bytes(bytes(y[i, j:j + 4].tolist()), "little") == _permute_word(w)
    words = prepare_nvfp4_weight(x)
    assert words.dtype == torch.int32 and words.shape == (5, 24)
    assert weight_dims(words) == (5, 192, True) and weight_dims(x) == (5, 192, False)
    assert torch.equal(standard_packed(words), x)


def test_bad_input_raises():
    with pytest.raises(ValueError, match="packed: expected uint8"):
        permute_fp4_words(torch.zeros(4, 6, dtype=torch.uint8))
    with pytest.raises(TypeError, match="weight: expected packed uint8"):
        prepare_nvfp4_weight(torch.zeros(4, 8, dtype=torch.int8))
    with pytest.raises(ValueError, match="multiple of 4"):
        prepare_nvfp4_weight(torch.zeros(4, 6, dtype=torch.uint8))


def test_wgmma_word_decode_follows_the_k_order():
    """``NVFP4GemmLargeM._decode_tile_words``: thread q's register (row half h, k half, block kb)
    = pair r = 2 (kb % 2) + half of word 2 q + kb // 2, halves e = 0, 1; slot
    16 kb + 8 half + 2 q + e must then hold element ``PERMUTED_K_ORDER`` of the k-tile."""
    codes = torch.randint(0, 16, (64,), dtype=torch.uint8)
    packed = (codes[0::2] | (codes[1::2] << 4)).view(1, 32)
    words = permute_fp4_words(packed).view(torch.int32).view(-1).tolist()
    values = reference.e2m1_values(codes).double().tolist()
    for kb in range(4):
        for half in range(2):
            for q in range(4):
                pair = _permuted_pair(words[2 * q + kb // 2] & WORD, 2 * (kb % 2) + half)
                for e in range(2):
                    slot = 16 * kb + 8 * half + 2 * q + e
                    assert _half_value(pair, e) == values[PERMUTED_K_ORDER[slot]], slot


def test_permuted_k_dequantize_unit_follows_the_k_order():
    """``NVFP4DequantPermutedK``: chunk t = 4 b + r of a group writes slot 8 t + 2 q + e =
    pair r of word 2 q + b, half e (element 8 (2 q + b) + r + 4 e), scale block q."""
    for b in range(2):
        for r in range(4):
            for q in range(4):
                for e in range(2):
                    element = PERMUTED_K_ORDER[8 * (4 * b + r) + 2 * q + e]
                    assert element == 8 * (2 * q + b) + r + 4 * e
                    assert element // 16 == q


def test_gate_up_permute_round_trips():
    w = torch.randint(0, 256, (256, 48), dtype=torch.uint8)
    sf = torch.randint(0, 120, (256, 6), dtype=torch.uint8).view(torch.float8_e4m3fn)
    plain_w, plain_sf = prepare_gate_up_weight(w, sf)
    words, words_sf = prepare_gate_up_weight(w, sf, permute=True)
    assert words.dtype == torch.int32 and words.shape == (256, 12)
    assert torch.equal(standard_packed(words), plain_w)
    assert torch.equal(words_sf.view(torch.uint8), plain_sf.view(torch.uint8))
    back_w, back_sf = restore_gate_up_weight(words, words_sf)
    assert torch.equal(back_w, w) and torch.equal(back_sf.view(torch.uint8), sf.view(torch.uint8))


@pytest.mark.parametrize("name,fn,args", [
    ("small", compile_nvfp4_gemm_small_m, (4096, 7168, "fp4", "torch.bfloat16", 2, 1, 4, 1, 1,
                                           True)),
    ("small paired", compile_nvfp4_gemm_small_m, (7168, 18432, "fp4", "torch.bfloat16", 2, 1, 4,
                                                  1, 1, True)),
    ("small split", compile_nvfp4_gemm_small_m_split,
     (200, 576, "torch.bfloat16", "torch.bfloat16", 1, 2, 4, 0, 0, 3, True)),
    ("fused small", compile_nvfp4_gemm_swiglu_quant_small_m, (512, 2048, "fp4", 2, 1, 4, 1, 1, 1,
                                                              True)),
    ("large", compile_nvfp4_gemm_large_m, (200, 576, "torch.bfloat16", 128, 0, 132, 1, False,
                                           False, True)),
    ("large stream-K", compile_nvfp4_gemm_large_m, (200, 576, "torch.bfloat16", 64, 0, 132, 1,
                                                    True, True, True)),
    ("fused large", compile_nvfp4_gemm_swiglu_quant_large_m, (192, 576, 128, 0, 132, True, False,
                                                              True)),
    ("large in place", compile_nvfp4_gemm_large_m, (200, 576, "torch.bfloat16", 128, 0, 132, 1,
                                                    False, False, int(KOrder.PERMUTED_IDENTITY))),
    ("fused large in place", compile_nvfp4_gemm_swiglu_quant_large_m,
     (192, 576, 128, 0, 132, True, False, int(KOrder.PERMUTED_IDENTITY))),
    # 256-token tiles: the in-place decode's splats from the shared table there too
    ("large in place 256", compile_nvfp4_gemm_large_m, (1024, 7168, "torch.bfloat16", 256, 0,
                                                        132, 1, False, False,
                                                        int(KOrder.PERMUTED_IDENTITY))),
    ("fused large in place 256", compile_nvfp4_gemm_swiglu_quant_large_m,
     (512, 7168, 256, 0, 132, False, False, int(KOrder.PERMUTED_IDENTITY))),
    ("dequantize", compile_nvfp4_dequant_permuted_k, (576,)),
])
def test_permuted_kernels_compile_for_sm90a(name, fn, args):
    assert compile_only(fn, *args) is not None, name


# ------------------------------------------------------------------------- GPU
def _weights(n, k):
    return reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 50.0)


def _activations(m, k, fp4_a):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    return reference.nvfp4_quantize(x, 50.0) if fp4_a else (x, None)


def _rel_err(got, want):
    return ((got.double() - want).norm() / want.norm().clamp_min(1e-300)).item()


@pytest.mark.gpu
@pytest.mark.parametrize("m,config", [(1, (2, 1, 4, 1)), (5, (2, 1, 4, 1)), (13, (1, 2, 4, 0)),
                                      (13, (1, 2, 4, 3)), (1, (2, 1, 4, 1, 4)),
                                      (13, (1, 2, 3, 0, 3)), (1, (1, 1, 8, 1)),
                                      (5, (2, 1, 4, 1, 2))])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_small_m_equals_standard(m, config, fp4_a):
    """Same MMA operands in the same order: the same bits, every path (staged, registers, the
    cp.async ring, K split) with N and K tails."""
    n, k = 1000, 1088
    b, b_sf = _weights(n, k)
    a, a_sf = _activations(m, k, fp4_a)
    alpha = torch.full((1,), 0.5, device="cuda")
    want = poisoned(m, n, dtype=torch.float32)
    got = poisoned(m, n, dtype=torch.float32)
    launch_small_m(a, a_sf, b, b_sf, alpha, want, config)
    launch_small_m(a, a_sf, prepare_nvfp4_weight(b), b_sf, alpha, got, config)
    assert torch.equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 33, 65, 300, 1000])
@pytest.mark.parametrize("n,k", [(200, 576), (1000, 4096)])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_nvfp4_gemm_matches_fp64_reference(m, n, k, fp4_a):
    b, b_sf = _weights(n, k)
    a, a_sf = _activations(m, k, fp4_a)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 0.5)
    got = nvfp4_gemm(a, a_sf, prepare_nvfp4_weight(b), b_sf, 0.5, out_dtype=torch.float32,
                     out=poisoned(m, n, dtype=torch.float32))
    assert not got.isnan().any()
    assert _rel_err(got, want) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("config,splits,stream_k,hybrid", [
    ((64, 0), 1, False, False), ((128, 0), 1, False, False), ((256, 0), 1, False, False),
    ((64, 0), 3, False, False), ((64, 0, 7), 1, True, False), ((128, 2, 5), 1, True, True)])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_large_m_paths_match_fp64_reference(config, splits, stream_k, hybrid, fp4_a):
    """The wgmma kernel on permuted words and activations in ``PERMUTED_K_ORDER``: whole tiles,
    split K, stream-K, hybrid (M, N tails; 9 k-tiles)."""
    m, n, k = 777, 1160, 576
    b, b_sf = _weights(n, k)
    a, a_sf = _activations(m, k, fp4_a)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 0.5)
    out = poisoned(m, n, dtype=torch.float32)
    launch_large_m(bf16_activations(a, a_sf, True), prepare_nvfp4_weight(b), b_sf,
                   torch.full((1,), 0.5, device="cuda"), out, config, splits, stream_k, hybrid)
    assert _rel_err(out, want) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k,hybrid", [
    ((128, 0), False, False), ((256, 0), False, False), ((64, 0, 7), True, False),
    ((128, 2, 5), True, True)])
def test_words_in_place_equal_packed_bytes_in_place(config, stream_k, hybrid):
    """``KOrder.PERMUTED_IDENTITY`` gives each MMA slot the element ``KOrder.IDENTITY`` gives
    it from packed bytes: the same bits, and the fp64 reference (M, N tails; bf16
    activations as they are)."""
    m, n, k = 777, 1160, 576
    b, b_sf = _weights(n, k)
    a, _ = _activations(m, k, False)
    alpha = torch.full((1,), 0.5, device="cuda")
    outs = []
    for weights, order in ((prepare_nvfp4_weight(b), KOrder.PERMUTED_IDENTITY),
                           (b, KOrder.IDENTITY)):
        out = poisoned(m, n, dtype=torch.float32)
        launch_large_m(a, weights, b_sf, alpha, out, config, 1, stream_k, hybrid, k_order=order)
        outs.append(out)
    assert torch.equal(outs[0], outs[1])
    assert _rel_err(outs[0], reference.nvfp4_gemm_fp64(a, None, b, b_sf, 0.5)) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k", [((128, 0), False), ((128, 0, 9), True),
                                             ((256, 0), False)])
def test_fused_words_in_place_equal_packed_bytes_in_place(config, stream_k):
    """The fused wgmma kernel in ``KOrder.PERMUTED_IDENTITY`` against ``KOrder.IDENTITY`` on
    the packed bytes: the same codes and scales, and the reference."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_against_reference, _inputs

    m, i, k = 300, 512, 1024
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, False)
    alpha_t = torch.full((1,), alpha, device="cuda")
    g_t = torch.full((1,), g_out, device="cuda")
    got = []
    for weights, order in ((prepare_nvfp4_weight(w), KOrder.PERMUTED_IDENTITY),
                           (w, KOrder.IDENTITY)):
        out = torch.full((m, i // 2), 0xFF, dtype=torch.uint8, device="cuda")
        out_sf = torch.full(sf_padded_shape(m, i // 16), 0xFF, dtype=torch.uint8,
                            device="cuda").view(torch.float8_e4m3fn)
        launch_fused_large_m(a, weights, w_sf, alpha_t, g_t, out, out_sf, config,
                             stream_k=stream_k, k_order=order)
        got.append((out, out_sf))
    assert torch.equal(got[0][0], got[1][0])
    assert torch.equal(got[0][1].view(torch.uint8), got[1][1].view(torch.uint8))
    _check_against_reference(*got[0], a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [256, 300])
def test_w4a16_in_place_route(monkeypatch, m):
    """With ``W4A16_IN_PLACE_MIN_M`` reached, bf16 activations that fill whole token tiles go
    to the kernel as they are (no ``reorder_k``), the others through the copy, except in the
    fused op on narrow weights, whose partial last token tile is read in place
    (``w4a16_tail_in_place``: 300 tokens on 64-token tiles); all match the reference,
    ``nvfp4_gemm`` and the fused op."""
    from cute_kernels import k_order, nvfp4_dequant
    from tests.test_nvfp4_gemm_swiglu_quant import _check_against_reference, _inputs

    monkeypatch.setattr(k_order, "W4A16_IN_PLACE_MIN_M", 256)
    copies = []
    real_reorder = nvfp4_dequant.reorder_k
    monkeypatch.setattr(nvfp4_dequant, "reorder_k",
                        lambda *args: copies.append(1) or real_reorder(*args))
    n, k = 1024, 2048
    b, b_sf = _weights(n, k)
    a, _ = _activations(m, k, False)
    got = nvfp4_gemm(a, None, prepare_nvfp4_weight(b), b_sf, 0.5, out_dtype=torch.float32)
    assert _rel_err(got, reference.nvfp4_gemm_fp64(a, None, b, b_sf, 0.5)) <= 1e-3
    assert (len(copies) == 0) == (m == 256), copies
    copies.clear()
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 512, k, False)
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, prepare_nvfp4_weight(w), w_sf, alpha, g_out)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    assert not copies, copies


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 129, 1000])
@pytest.mark.parametrize("k", [64, 576, 7168])
def test_permuted_k_dequantize_is_exact(m, k):
    a, a_sf = _activations(m, k, True)
    want = order_k(nvfp4_dequantize(a, a_sf, 1.0), KOrder.PERMUTED)
    torch.testing.assert_close(bf16_activations(a, a_sf, True), want, rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 2, 7, 65, 129, 1000])  # 2: staged tokens, prefetch
@pytest.mark.parametrize("i,k", [(192, 576), (512, 7168)])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_fused_matches_reference(m, i, k, fp4_a):
    from tests.test_nvfp4_gemm_swiglu_quant import _check_against_reference, _inputs

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    words = prepare_nvfp4_weight(w)  # the prepared rows as permuted words
    got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, words, w_sf, alpha, g_out)
    _check_against_reference(got, got_sf, a, a_sf, w, w_sf, alpha, g_out)
    if m <= 16:  # the small-M kernel: the same bits as with the standard words
        want, want_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
        assert torch.equal(got, want) and torch.equal(got_sf.view(torch.uint8),
                                                      want_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("fp4_a", [True, False])
def test_fused_two_token_tiles_with_prefetch(fp4_a):
    """Permuted words at 9..16 tokens keep the register prefetch with two token tiles
    (``swiglu_small_m_config``): against the reference, and the same bits as packed weights
    under that config."""
    from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config
    from tests.test_nvfp4_gemm_swiglu_quant import (_check_against_reference, _inputs,
                                                    _run_small_m)

    m, i, k = 13, 2048, 576
    config = swiglu_small_m_config(m, i, k, True)
    assert config[1] == 2 and config[3] == 1
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, k, fp4_a)
    words = prepare_nvfp4_weight(w)
    got, got_sf = nvfp4_gemm_swiglu_quant(a, a_sf, words, w_sf, alpha, g_out)
    _check_against_reference(got, got_sf, a, a_sf, w, w_sf, alpha, g_out)
    want, want_sf = _run_small_m(a, a_sf, w, w_sf, alpha, g_out, config)
    assert torch.equal(got, want) and torch.equal(got_sf.view(torch.uint8),
                                                  want_sf.view(torch.uint8))


@pytest.mark.gpu
def test_permuted_w4a16_large_m_chain_captures_in_a_graph():
    """W4A16 on permuted words at large M permutes the bf16 activations' K
    (``k_order.order_k``) on the way in: that must be capturable (no host-to-device copy;
    the models' M = 64 decode steps fell back to eager on 2026-11-30 when it built an index
    tensor) and replay the eager bits through a dependent chain."""
    k, m = 2048, 80
    weights = []
    for _ in range(3):
        w = torch.randn(k, k, device="cuda", dtype=torch.bfloat16)
        b, b_sf = reference.nvfp4_quantize(w, 448 * 6 / w.float().abs().amax())
        weights.append((prepare_nvfp4_weight(b), b_sf))
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    check_graph_replays_chain(w4a16_chain(weights, x, 1e-2), len(weights), (m, k))
