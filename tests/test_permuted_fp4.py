"""The bit-permuted NVFP4 weight layout (``permuted_fp4``, an experiment): on CPU the
permutation round trip and, emulated with Python integers, that each pair's extraction from
the permuted word equals ``e2m1x2_raw``'s from the standard one; compile-only for sm_90a; on a
GPU the permuted kernel's output equals the standard one's bit for bit."""

import random

import pytest
import torch

from cute_kernels import reference
from cute_kernels.nvfp4_gemm import launch_small_m
from cute_kernels.nvfp4_gemm_small_m import compile_nvfp4_gemm_small_m
from cute_kernels.permuted_fp4 import (MASK_P, PERMUTATION, permute_fp4_words,
                                       unpermute_fp4_words)
from cute_kernels.testing import compile_only

WORD = 0xFFFFFFFF


def _shift(w, s):
    return ((w << s) & WORD) if s >= 0 else w >> -s


def _standard_pair(w, r):  # device_mma.e2m1x2_raw on Python integers
    return (_shift(w, 6 - 4 * r) & 0x01C001C0) | (_shift(w, 12 - 4 * r) & 0x80008000)


def _permuted_pair(w, r):  # permuted_fp4.e2m1x2_permuted on Python integers
    if r < 3:
        return _shift(w, 3 * r) & MASK_P
    return ((_shift(w, -4) & 0x00C000C0) | (_shift(w, -5) & 0x01000100)
            | (_shift(w, 1) & 0x80008000))


def _permute_word(w):
    return sum(((w >> src) & 1) << dst for src, dst in enumerate(PERMUTATION))


def test_pairs_of_the_permuted_word_equal_the_standard_ones():
    words = [1 << b for b in range(32)] + [0, WORD]
    words += [random.getrandbits(32) for _ in range(20000)]
    for w in words:
        p = _permute_word(w)
        assert all(_permuted_pair(p, r) == _standard_pair(w, r) for r in range(4)), hex(w)


def test_torch_permutation_round_trips_and_matches_the_word_rule():
    x = torch.randint(0, 256, (5, 96), dtype=torch.uint8)
    y = permute_fp4_words(x)
    assert y.shape == x.shape and y.dtype == torch.uint8
    assert torch.equal(unpermute_fp4_words(y), x)
    for i, j in ((0, 0), (3, 40), (4, 92)):
        w = int.from_bytes(bytes(x[i, j:j + 4].tolist()), "little")
        assert int.from_bytes(bytes(y[i, j:j + 4].tolist()), "little") == _permute_word(w)


def test_permute_rejects_bad_input():
    with pytest.raises(ValueError, match="packed: expected uint8"):
        permute_fp4_words(torch.zeros(4, 6, dtype=torch.uint8))


def test_permuted_kernel_compiles_for_sm90a():
    assert compile_only(compile_nvfp4_gemm_small_m, 36864, 7168, "fp4", "torch.bfloat16",
                        2, 1, 4, 1, 1, None, True)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 5])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_permuted_kernel_equals_standard(m, fp4_a):
    n, k = 1000, 576
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       50.0)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 50.0) if fp4_a else (x, None)
    alpha = torch.full((1,), 0.5, device="cuda")
    want = torch.empty(m, n, device="cuda", dtype=torch.float32)
    got = torch.full((m, n), float("nan"), device="cuda")
    launch_small_m(a, a_sf, b, b_sf, alpha, want, (2, 1, 4, 1))
    launch_small_m(a, a_sf, permute_fp4_words(b), b_sf, alpha, got, (2, 1, 4, 1),
                   permuted=True)
    assert torch.equal(got, want)
