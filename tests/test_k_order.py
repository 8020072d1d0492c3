"""The wgmma kernels' activation K orders (``k_order``): on CPU the order table against the
decode that defines it (Python integers), the reordering copy and its kernel's unit, the
choice of order and the kernels in ``KOrder.PAIRS`` compiling for sm_90a; on a GPU the
activations' dequantize and reordering kernels bit for bit against ``order_k``, and the wgmma
kernels on packed bytes in PAIRS against the fp64 reference (the public functions take it on
packed bytes: their own tests cover them too)."""

import pytest
import torch

from cute_kernels import reference
from cute_kernels.k_order import PERMUTED_K_ORDER, SLOT_ELEMENTS, KOrder, order_k, wgmma_k_order
from cute_kernels.nvfp4_dequant import bf16_activations, nvfp4_dequantize
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m, launch_large_m
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import compile_only
from tests.conftest import poisoned


# ------------------------------------------------------------------------- CPU
def test_pairs_decode_follows_the_permuted_order():
    """``_decode_tile_words`` on packed bytes in PAIRS: thread q's register (block kb, k half
    ``half``) = pair r = 2 (kb % 2) + half (elements r and r + 4) of standard word
    2 q + kb // 2; slot 16 kb + 8 half + 2 q + e must hold element ``PERMUTED_K_ORDER``."""
    from tests.test_permuted_fp4 import _half_value, _standard_pair

    codes = torch.randint(0, 16, (64,), dtype=torch.uint8)
    packed = (codes[0::2] | (codes[1::2] << 4)).view(1, 32)
    words = [w & 0xFFFFFFFF for w in packed.view(torch.int32).view(-1).tolist()]
    values = reference.e2m1_values(codes).double().tolist()
    for kb in range(4):
        for half in range(2):
            for q in range(4):
                pair = _standard_pair(words[2 * q + kb // 2], 2 * (kb % 2) + half)
                for e in range(2):
                    slot = 16 * kb + 8 * half + 2 * q + e
                    assert _half_value(pair, e) == values[PERMUTED_K_ORDER[slot]], slot
    assert SLOT_ELEMENTS[KOrder.PAIRS] == PERMUTED_K_ORDER


@pytest.mark.parametrize("k_order", [KOrder.PERMUTED, KOrder.PAIRS])
def test_order_k_matches_the_table(k_order):
    x = torch.arange(3 * 192, dtype=torch.float32).view(3, 192)
    y = order_k(x, k_order)
    index = torch.tensor(SLOT_ELEMENTS[k_order])
    for g in range(3):
        assert torch.equal(y[:, 64 * g:64 * g + 64], x[:, 64 * g + index])


@pytest.mark.parametrize("k_order", [KOrder.PERMUTED, KOrder.PAIRS])
@pytest.mark.parametrize("m,rows", [(5, 5), (5, 3), (7, 64), (129, 256)])
def test_order_k_padded_rows(k_order, m, rows):
    """``rows``: the same reordered rows first, zeros after (fewer rows than M: as without)."""
    x = torch.randn(m, 192, dtype=torch.bfloat16)
    got = order_k(x, k_order, rows)
    assert got.shape == (max(m, rows), 192) and got.is_contiguous()
    assert torch.equal(got[:m], order_k(x, k_order))
    assert torch.equal(got[m:], torch.zeros_like(got[m:]))


def test_identity_has_no_copy():
    x = torch.randn(4, 128, dtype=torch.bfloat16)
    assert bf16_activations(x, None, KOrder.IDENTITY) is x
    assert bf16_activations(x, None, False) is x  # a bool still means permuted or not
    assert torch.equal(bf16_activations(x, None, True), order_k(x, KOrder.PERMUTED))


def test_wgmma_k_order_by_weights():
    """Permuted words decode as such; packed bytes in PAIRS, NVFP4 and bf16 activations alike."""
    assert wgmma_k_order(torch.zeros(64, 8, dtype=torch.int32)) == KOrder.PERMUTED
    assert wgmma_k_order(torch.zeros(64, 32, dtype=torch.uint8)) == KOrder.PAIRS


def test_w4a16_in_place_rule():
    """bf16 activations on permuted words of at most W4A16_IN_PLACE_MAX_N rows from
    W4A16_IN_PLACE_MIN_M tokens, unpadded, are read as they are; everything else keeps its
    order (NVFP4 activations: bf16_m 0)."""
    from cute_kernels import k_order

    m, n = k_order.W4A16_IN_PLACE_MIN_M, k_order.W4A16_IN_PLACE_MAX_N
    words, packed = torch.zeros(n, 8, dtype=torch.int32), torch.zeros(n, 32, dtype=torch.uint8)
    assert wgmma_k_order(words, m, padded=False) == KOrder.PERMUTED_IDENTITY
    assert wgmma_k_order(words, 4 * m, padded=False) == KOrder.PERMUTED_IDENTITY
    assert wgmma_k_order(words, m, padded=True) == KOrder.PERMUTED
    assert wgmma_k_order(words, m - 1, padded=False) == KOrder.PERMUTED
    assert wgmma_k_order(words, 0, padded=False) == KOrder.PERMUTED
    assert wgmma_k_order(torch.zeros(n + 64, 8, dtype=torch.int32), m,
                         padded=False) == KOrder.PERMUTED
    assert wgmma_k_order(packed, m, padded=False) == KOrder.PAIRS
    x = torch.randn(4, 128, dtype=torch.bfloat16)
    assert bf16_activations(x, None, KOrder.PERMUTED_IDENTITY, rows=4) is x


def test_w4a16_in_place_rule_for_narrow_weights(monkeypatch):
    """Weights of at most W4A16_IN_PLACE_NARROW_N rows decode in place from
    W4A16_IN_PLACE_NARROW_MIN_M tokens (or W4A16_IN_PLACE_MIN_M where that is lower)."""
    from cute_kernels import k_order

    m, n = k_order.W4A16_IN_PLACE_NARROW_MIN_M, k_order.W4A16_IN_PLACE_NARROW_N
    assert m < k_order.W4A16_IN_PLACE_MIN_M
    assert k_order.w4a16_in_place(m, n, padded=False)
    assert not k_order.w4a16_in_place(m, n, padded=True)
    assert not k_order.w4a16_in_place(m - 1, n, padded=False)
    assert not k_order.w4a16_in_place(m, n + 64, padded=False)
    assert not k_order.w4a16_in_place(0, n, padded=False)
    monkeypatch.setattr(k_order, "W4A16_IN_PLACE_MIN_M", 256)
    assert k_order.w4a16_in_place(256, n, padded=False)


@pytest.mark.parametrize("name,fn,args", [
    ("large pairs", compile_nvfp4_gemm_large_m, (200, 576, "torch.bfloat16", 128, 0, 132, 1,
                                                 False, False, 2)),
    ("large stream-K two groups pairs", compile_nvfp4_gemm_large_m,
     (36864, 7168, "torch.bfloat16", 32, 0, 264, 1, True, False, 2, 2, 2)),
    ("fused large pairs", compile_nvfp4_gemm_swiglu_quant_large_m, (192, 576, 128, 0, 132, True,
                                                                    False, 2)),
])
def test_pairs_kernels_compile_for_sm90a(name, fn, args):
    assert compile_only(fn, *args) is not None, name


# ------------------------------------------------------------------------- GPU
def _activations(m, k):
    return reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16), 50.0)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 7, 129, 1000])
@pytest.mark.parametrize("k", [64, 576, 7168])
def test_pairs_dequantize_is_exact(m, k):
    a, a_sf = _activations(m, k)
    want = order_k(nvfp4_dequantize(a, a_sf, 1.0), KOrder.PAIRS)
    torch.testing.assert_close(bf16_activations(a, a_sf, KOrder.PAIRS), want, rtol=0, atol=0)
    padded = bf16_activations(a, a_sf, KOrder.PAIRS, m + 40)
    assert torch.equal(padded[:m], want) and not padded[m:].any()


@pytest.mark.gpu
@pytest.mark.parametrize("config,splits,stream_k,hybrid", [
    ((64, 0), 1, False, False), ((128, 0), 1, False, False), ((256, 0), 1, False, False),
    ((64, 0), 3, False, False), ((64, 0, 7), 1, True, False), ((128, 2, 5), 1, True, True),
    ((16, 0, 11), 1, True, False), ((256, 0), 1, True, False)])
def test_large_m_paths_on_pairs_match_fp64_reference(config, splits, stream_k, hybrid):
    """The wgmma kernel on packed bytes in PAIRS (NVFP4 activations in ``PERMUTED_K_ORDER``):
    whole tiles, split K, stream-K, hybrid, 16-token tiles (M, N tails; 9 k-tiles)."""
    k_order = KOrder.PAIRS
    m, n, k = 777, 1160, 576
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       50.0)
    a, a_sf = _activations(m, k)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 0.5)
    out = poisoned(m, n, dtype=torch.float32)
    launch_large_m(bf16_activations(a, a_sf, k_order), b, b_sf,
                   torch.full((1,), 0.5, device="cuda"), out, config, splits, stream_k, hybrid,
                   k_order=k_order)
    assert not out.isnan().any()
    err = ((out.double() - want).norm() / want.norm()).item()
    assert err <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("m", [4, 5, 8, 12, 16, 23, 32, 64, 200])
def test_w4a16_on_packed_bytes_of_the_largest_weight(m):
    """bf16 activations on packed bytes of the largest weight from 4 tokens: the wgmma kernel
    (two CTAs an SM to 32 tokens, one past), the activations reordered into PAIRS' order by
    ``reorder_k``; the public function against the fp64 product."""
    from cute_kernels import nvfp4_gemm
    from cute_kernels.large_m_plans import plain_launch_options, plain_plan
    from cute_kernels.nvfp4_gemm import small_m_regime

    n, k = 36864, 7168
    assert not small_m_regime(m, n, k, a_fp4=False)
    tile_m, _, stream_k, _ = plain_plan(m, n, k)
    ctas = plain_launch_options(m, n, k, tile_m, stream_k).get("ctas_per_sm", 1)
    assert ctas == (2 if m <= 32 else 1)
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       50.0)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    want = reference.nvfp4_gemm_fp64(x, None, b, b_sf, 0.5)
    got = nvfp4_gemm(x, None, b, b_sf, 0.5, out_dtype=torch.float32,
                     out=poisoned(m, n, dtype=torch.float32))
    assert not got.isnan().any()
    assert ((got.double() - want).norm() / want.norm()).item() <= 1e-3


# ------------------------------------------------------------------------- reorder kernel
def _reorder_unit_words(kb, half):
    """``ReorderK``'s unit (block kb) on Python integers: the input bf16 element in each slot
    of output chunk 2 kb + half (its words q = 0..3, halves e = 0, 1), from ``_load`` and
    ``_out_word``."""
    slots = []
    for q in range(4):
        a = 8 * q + 4 * (kb // 2) + kb % 2
        slots += [2 * a + half, 2 * (a + 2) + half]  # prmt 0x5410 / 0x7632
    return slots


def test_reorder_kernel_unit_follows_the_order():
    for kb in range(4):
        for half in range(2):
            chunk = 2 * kb + half
            assert _reorder_unit_words(kb, half) == PERMUTED_K_ORDER[8 * chunk:8 * chunk + 8]


@pytest.mark.parametrize("launch", [(), (1, 1), (3, 2)])
def test_reorder_kernel_compiles_for_sm90a(launch):
    """The default grid and spread ones ((ctas_per_sm, units_per_thread))."""
    from cute_kernels.reorder_k import compile_reorder_k

    assert compile_only(compile_reorder_k, 7168, *launch) is not None


@pytest.mark.gpu
@pytest.mark.parametrize("m,rows", [(1, None), (7, 64), (129, 256), (1000, None)])
@pytest.mark.parametrize("k", [64, 576, 7168])
def test_reorder_kernel_equals_order_k(m, rows, k):
    from cute_kernels.reorder_k import reorder_k

    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    got = reorder_k(x, rows)
    assert torch.equal(got, order_k(x, KOrder.PERMUTED, rows))
    for k_order in (KOrder.PERMUTED, KOrder.PAIRS):
        assert torch.equal(bf16_activations(x, None, k_order, rows), got)
        # spread (under a triggering GEMM): only the grid changes
        assert torch.equal(bf16_activations(x, None, k_order, rows, spread=True), got)
