"""No wgmma kernel of the public routes has its wgmmas serialized by ptxas (CPU, ptxas's remarks:
``testing.serialized_wgmmas``). Where ptxas cannot keep a wgmma group in flight (too few
registers, C7511; registers of a group in flight written before its wait, C7513) it waits
after every wgmma, and the decode no longer overlaps the tensor cores: the same bits, a slower
kernel, and nothing else shows it. The narrow tiles are compiled with the in-flight main loop
on (``INFLIGHT_MAX_TILE_M`` = 32, the value it would take if it won).

The DSL turns its remark collection on at a process's first compile only, so the cases are
compiled in one fresh process (this file run as a script), each remark on from its start."""

import json
import os
import subprocess
import sys

import pytest

from cute_kernels.k_order import KOrder

P, F = KOrder.PERMUTED, KOrder.PAIRS
PLAIN, FUSED = "compile_nvfp4_gemm_large_m", "compile_nvfp4_gemm_swiglu_quant_large_m"

# (name, compile function, args, kwargs)
CASES = [
    # the plain GEMM: 16- / 8-token stream-K tiles (issue 5's M <= 16), two CTAs an SM on the
    # largest weights, 64-row tiles on the K groups, whole tiles of 128 and 256 tokens
    ("plain 16-token stream-K", PLAIN,
     (9216, 7168, "torch.bfloat16", 16, 0, 132, 1, True, False, P, 1, 2, False, False, True), {}),
    ("plain 8-token stream-K", PLAIN,
     (9216, 7168, "torch.bfloat16", 8, 0, 132, 1, True, False, F, 1, 2, False, False, True), {}),
    ("plain 32-token stream-K", PLAIN,
     (9216, 7168, "torch.bfloat16", 32, 0, 132, 1, True, False, P, 1, 2, False, False, True), {}),
    ("plain 16-token packed bytes", PLAIN,
     (5120, 17408, "torch.bfloat16", 16, 0, 132, 1, True, False, F, 1, 2, False, False, True),
     {}),
    ("plain 32-token whole tiles", PLAIN,
     (4096, 7168, "torch.bfloat16", 32, 0, 132, 1, False, False, P, 1, 2), {}),
    ("plain two CTAs an SM", PLAIN,
     (36864, 7168, "torch.bfloat16", 32, 0, 264, 1, True, False, P, 2, 2), {}),
    ("plain wg_k_split", PLAIN,
     (7168, 2048, "torch.bfloat16", 32, 0, 132, 1, False, False, P, 1, 2, True), {}),
    ("plain 128-token tiles", PLAIN,
     (4096, 7168, "torch.bfloat16", 128, 0, 132, 1, False, False, KOrder.PERMUTED_IDENTITY), {}),
    ("plain 256-token tiles", PLAIN, (9216, 7168, "torch.bfloat16", 256, 0, 132), {}),
    ("plain wg_k_split stream-K", PLAIN,
     (7168, 2048, "torch.bfloat16", 16, 0, 132, 1, True, False, P, 1, 2, True), {}),
    # the fused op: its narrow stream-K route, and tiles with quantizer warps
    ("fused 16-token stream-K", FUSED, (4608, 7168, 16, 0, 132, True, False, P, 1, 2), {}),
    ("fused 8-token stream-K", FUSED, (4608, 7168, 8, 0, 132, True, False, P, 1, 2), {}),
    ("fused 32-token stream-K", FUSED, (17408, 5120, 32, 0, 132, True, False, P, 1, 2), {}),
    ("fused quantizer warp", FUSED, (4608, 7168, 32, 0, 132, False, False, P, 1, 1, 1), {}),
    ("fused 128-token tiles", FUSED, (4608, 7168, 128, 0, 132, False, False, P, 1, 1, 3), {}),
]
# The check's own control: the fused kernel at I = 128 (a test shape) on 32-token tiles, two
# CTAs an SM, which ptxas serializes (C7512: too few registers for the function)
CONTROL = ("control", FUSED, (128, 640, 32, 0, 132, True), {"ctas_per_sm": 2, "k_groups": 2})


def _check(cases) -> dict:
    """name -> ptxas's serialization lines, each case compiled here (a fresh process)."""
    from cute_kernels import nvfp4_gemm_large_m, swiglu_quant_large_m
    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM
    from cute_kernels.testing import serialized_wgmmas

    modules = {PLAIN: nvfp4_gemm_large_m, FUSED: swiglu_quant_large_m}
    found = {}
    NVFP4GemmLargeM.INFLIGHT_MAX_TILE_M = 32
    for name, fn_name, args, kwargs in cases:
        found[name] = serialized_wgmmas(getattr(modules[fn_name], fn_name), *args, **kwargs)
    return found


@pytest.fixture(scope="module")
def serialized():
    env = dict(os.environ, CUTE_KERNELS_PTXAS_REMARKS="1")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-m", "tests.test_wgmma_pipelines"], cwd=root,
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", [case[0] for case in CASES])
def test_no_serialized_wgmmas(serialized, name):
    assert serialized[name] == []


def test_the_check_sees_a_serialized_kernel(serialized):
    assert serialized[CONTROL[0]] and "C751" in serialized[CONTROL[0]][0]


if __name__ == "__main__":
    print(json.dumps(_check(CASES + [CONTROL])))
