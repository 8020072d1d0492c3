"""No wgmma kernel of the public routes has its wgmmas serialized by ptxas (CPU, ptxas's remarks:
``testing.serialized_wgmmas``). Where ptxas cannot keep a wgmma group in flight (too few
registers, C7511; registers of a group in flight written before its wait, C7513) it waits
after every wgmma, and the decode no longer overlaps the tensor cores: the same bits, a slower
kernel, and nothing else shows it. The narrow tiles are compiled with the in-flight main loop
on (``INFLIGHT_MAX_TILE_M`` = 32, the value it takes once GPU-tested), as also with four
consumer warpgroups (``FOUR_CONSUMERS_MAX_TILE_M``, a probe switch)."""

import pytest

from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import serialized_wgmmas

P, F = KOrder.PERMUTED, KOrder.PAIRS


@pytest.mark.parametrize("switches,compile_fn,args", [
    # the plain GEMM: 16- / 8-token stream-K tiles (issue 5's M <= 16), two CTAs an SM on the
    # largest weights, 64-row tiles on the K groups, whole tiles of 128 and 256 tokens
    ({}, compile_nvfp4_gemm_large_m,
     (9216, 7168, "torch.bfloat16", 16, 0, 132, 1, True, False, P, 1, 2, False, False, True)),
    ({}, compile_nvfp4_gemm_large_m,
     (9216, 7168, "torch.bfloat16", 8, 0, 132, 1, True, False, F, 1, 2, False, False, True)),
    ({}, compile_nvfp4_gemm_large_m,
     (36864, 7168, "torch.bfloat16", 32, 0, 264, 1, True, False, P, 2, 2)),
    ({}, compile_nvfp4_gemm_large_m,
     (7168, 2048, "torch.bfloat16", 32, 0, 132, 1, False, False, P, 1, 2, True)),
    ({}, compile_nvfp4_gemm_large_m, (4096, 7168, "torch.bfloat16", 128, 0, 132, 1, False,
                                      False, KOrder.PERMUTED_IDENTITY)),
    ({}, compile_nvfp4_gemm_large_m, (9216, 7168, "torch.bfloat16", 256, 0, 132)),
    ({"FOUR_CONSUMERS_MAX_TILE_M": 16}, compile_nvfp4_gemm_large_m,
     (9216, 7168, "torch.bfloat16", 16, 0, 132, 1, True, False, P, 1, 2, False, False, True)),
    # the fused op: its narrow stream-K route, and whole tiles with quantizer warps
    ({}, compile_nvfp4_gemm_swiglu_quant_large_m, (4608, 7168, 16, 0, 132, True, False, P, 1, 2)),
    ({}, compile_nvfp4_gemm_swiglu_quant_large_m,
     (4608, 7168, 32, 0, 132, False, False, P, 1, 1, 1)),
    ({}, compile_nvfp4_gemm_swiglu_quant_large_m, (4608, 7168, 128, 0, 132, False, False, P, 1,
                                                   1, 3)),
])
def test_no_serialized_wgmmas(monkeypatch, switches, compile_fn, args):
    monkeypatch.setattr(NVFP4GemmLargeM, "INFLIGHT_MAX_TILE_M", 32)
    for name, value in switches.items():
        monkeypatch.setattr(NVFP4GemmLargeM, name, value)
    assert serialized_wgmmas(compile_fn, *args) == []


def test_the_check_sees_a_serialized_kernel():
    """The fused kernel at I = 128 (a test shape) on 32-token tiles, two CTAs an SM: ptxas
    serializes its wgmmas (C7512, too few registers for the function), and the check says so."""
    notes = serialized_wgmmas(_two_ctas_fused, 128, 640, 32, 0, 132, True)
    assert notes and "C751" in notes[0]


def _two_ctas_fused(*args):
    return compile_nvfp4_gemm_swiglu_quant_large_m.uncached(*args, ctas_per_sm=2, k_groups=2)
