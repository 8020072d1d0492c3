"""The balanced one-token launch staging its token once a cluster (``cluster_staging``,
probe-only ``NVFP4GemmOneTokenBalanced.STAGING_CLUSTER``): compile-only and its refusals on
CPU; on a GPU, the default staging's bits (the staged words are the same, so are the sums)."""

import cutlass
import pytest
import torch

from cute_kernels import prepare_gate_up_weight, prepare_nvfp4_weight, reference
from cute_kernels.arch import sm_count
from cute_kernels.nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced)
from cute_kernels.swiglu_quant_balanced import launch_swiglu_quant_balanced
from cute_kernels.testing import (cluster_staging_compilers, compile_only, ctas_per_sm,
                                  kernel_frame_bytes, kernel_registers, replaced)
from layouts import sf_padded_shape
from tests.conftest import poisoned

H200 = 132


@pytest.mark.parametrize("cluster", [2, 4])
@pytest.mark.parametrize("n,k,a_dtype,warps,per_sm,rg", [
    (9216, 7168, "fp4", 8, 3, 1),               # the public (8, 3): 396 CTAs
    (9216, 7168, "fp4", 18, 1, 3),              # the public row-group route
    (9216, 7168, "torch.bfloat16", 8, 3, 1),    # W4A16's (8, 3)
    (5120, 17408, "fp4", 12, 2, 1),             # the second step under the staging
    (2912, 576, "torch.bfloat16", 2, 1, 1),     # packed bytes, a K tail
])
def test_cluster_staging_compiles_and_fits(cluster, n, k, a_dtype, warps, per_sm, rg):
    """Compiles for sm_90a, its registers and shared memory leaving room for ``per_sm`` CTAs
    an SM; no local memory where the default staging has none. (The public 5120x17408 (12, 2)
    on NVFP4 tokens has a 16-byte frame already, at the launch bound's 72 registers; the
    cluster's share there, two slots and the second step under them, takes 24.)"""
    permuted = k % 256 == 0
    args = (n, k, a_dtype, "torch.float32", warps, per_sm, H200, permuted, a_dtype == "fp4", 0,
            rg)
    compiled = compile_only(cluster_staging_compilers(cluster)[0], *args)
    regs = kernel_registers(compiled)
    assert regs and ctas_per_sm(max(regs), warps + 1) >= per_sm, regs
    default_frame = kernel_frame_bytes(compile_only(compile_nvfp4_gemm_one_token_balanced, *args))
    allowed_frame = default_frame + 8 if default_frame else 0
    assert kernel_frame_bytes(compiled) <= allowed_frame
    with replaced(NVFP4GemmOneTokenBalanced, {"STAGING_CLUSTER": cluster}):
        kernel = NVFP4GemmOneTokenBalanced(n, k, a_dtype == "fp4", cutlass.Float32, warps,
                                           per_sm, H200, permuted, row_groups=rg)
    assert per_sm * (kernel.smem_bytes + 1024) <= 228 * 1024, kernel.smem_bytes
    assert kernel.cluster_dims() == {"cluster": [1, cluster, 1]}


@pytest.mark.parametrize("cluster", [2, 4])
def test_fused_cluster_staging_compiles(cluster):
    compiled = compile_only(cluster_staging_compilers(cluster)[1], 4608, 7168, "fp4", 8, 2,
                            H200, True, True)
    assert ctas_per_sm(max(kernel_registers(compiled)), 8 + 1) >= 2
    assert kernel_frame_bytes(compiled) == 0


def test_cluster_staging_refuses_partial_clusters_and_the_ring():
    with replaced(NVFP4GemmOneTokenBalanced, {"STAGING_CLUSTER": 8}):
        with pytest.raises(ValueError, match="whole clusters"):  # 396 CTAs
            NVFP4GemmOneTokenBalanced(9216, 7168, True, cutlass.Float32, 8, 3, H200, True)
    with replaced(NVFP4GemmOneTokenBalanced, {"STAGING_CLUSTER": 2}):
        with pytest.raises(ValueError, match="ring_slots=2"):
            NVFP4GemmOneTokenBalanced(9216, 7168, True, cutlass.Float32, 8, 3, H200, True,
                                      ring_slots=2)
    plain = NVFP4GemmOneTokenBalanced(9216, 7168, True, cutlass.Float32, 8, 3, H200, True)
    assert plain.cluster_dims() == {} and plain.cluster_smem_bytes() == 0


@pytest.mark.gpu
@pytest.mark.parametrize("cluster", [2, 4])
@pytest.mark.parametrize("n,k,fp4_a,warps,per_sm,rg", [
    (9216, 7168, True, 8, 3, 1),
    (9216, 7168, True, 18, 1, 3),
    (9216, 7168, False, 8, 3, 1),
    (5120, 17408, True, 12, 2, 1),   # the second step under the staging
    (5120, 17408, False, 12, 2, 1),
    (None, 576, False, 2, 1, 1),     # packed bytes, a K tail, 50 blocks past the CTAs
])
def test_cluster_staging_gives_the_default_bits(cluster, n, k, fp4_a, warps, per_sm, rg):
    """The same staged words as every CTA's own staging: the same sums, bit for bit, on two
    calls, and the fp64 reference's."""
    ctas = per_sm * sm_count(torch.cuda.current_device())
    if ctas % cluster:
        pytest.skip(f"{ctas} CTAs are no whole clusters of {cluster}")
    n = n or 16 * (ctas + 50)
    if not ctas <= n // (16 * rg) < 2 * ctas:
        pytest.skip(f"{n} rows in blocks of {16 * rg} do not fit {ctas} CTAs")
    permuted = k % 256 == 0
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4_a else (x, None)
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    words = prepare_nvfp4_weight(b) if permuted else b
    alpha = torch.full((1,), 0.5, device="cuda")
    want = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, want, warps, per_sm, row_groups=rg)
    ref = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    assert ((want.double() - ref).norm() / ref.norm()).item() <= 1e-3
    for _ in range(2):
        got = poisoned(1, n, dtype=torch.float32)
        launch_one_token_balanced(a, a_sf, words, b_sf, alpha, got, warps, per_sm,
                                  cluster_staging_compilers(cluster)[0], row_groups=rg)
        assert torch.equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("cluster", [2, 4])
@pytest.mark.parametrize("fp4_a", [True, False])
def test_fused_cluster_staging_gives_the_default_bits(cluster, fp4_a):
    """The fused 9216x7168 on its public (8, 2), codes and scales bit for bit."""
    i, k = 4608, 7168
    w, w_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
        torch.randn(2 * i, k, device="cuda", dtype=torch.bfloat16), 50.0, swizzle=False),
        permute=True)
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4_a else (x, None)
    alpha = torch.full((1,), 0.5, device="cuda")
    runs = []
    for compile_fn in (None, cluster_staging_compilers(cluster)[1]):
        out = torch.full((1, i // 2), 0xFF, dtype=torch.uint8, device="cuda")
        out_sf = torch.full(sf_padded_shape(1, i // 16), 0xFF, dtype=torch.uint8,
                            device="cuda")
        extra = (compile_fn,) if compile_fn else ()
        launch_swiglu_quant_balanced(a, a_sf, w, w_sf, alpha, alpha, out, out_sf, 8, 2,
                                     *extra)
        runs.append((out, out_sf))
    assert torch.equal(runs[0][0], runs[1][0]) and torch.equal(runs[0][1], runs[1][1])
