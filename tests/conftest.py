import pytest
import torch


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def in_kernel_act_routes(monkeypatch):
    """With ``CUTE_KERNELS_TEST_FP4_OPERAND=1``, the public functions' wgmma launches convert
    their activations in the kernel (``converted_act_launch``: NVFP4 decoded, bf16 reordered)
    wherever it can run (CUDA tensors, one CTA an SM; the fused op's wgmma routes but the fp32
    split route), not through the pass: the GPU tests of ``nvfp4_gemm`` and
    ``nvfp4_gemm_swiglu_quant`` then check that path on all their shapes and tails. Off by
    default."""
    import os

    if os.environ.get("CUTE_KERNELS_TEST_FP4_OPERAND") != "1":
        yield
        return
    import importlib

    from cute_kernels.converted_act_launch import launch_fused_converted, launch_planned_converted
    from cute_kernels.nvfp4_gemm import planned_launch
    from cute_kernels.permuted_fp4 import weight_dims

    gemm = importlib.import_module("cute_kernels.nvfp4_gemm")
    fused = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
    planned, half_groups, large_m = gemm.launch_planned, fused._half_groups, fused._large_m

    def launch_planned(a, a_sf, b, b_sf, alpha, out, plan, wg_k_split=False, **kw):
        n, k, _ = weight_dims(b)
        options = planned_launch(out.shape[0], n, k, plan, wg_k_split)[2]
        if kw or not b.is_cuda or options.get("ctas_per_sm", 1) != 1:
            return planned(a, a_sf, b, b_sf, alpha, out, plan, wg_k_split, **kw)
        return launch_planned_converted(a, a_sf, b, b_sf, alpha, out, plan, wg_k_split)

    def fused_route(original):
        def launch(a, a_sf, w, w_sf, alpha, gs, out, out_sf, *args, **kw):
            two_i, k, permuted = weight_dims(w)
            m, i = a.shape[0], two_i // 2
            route = (fused.large_m_route if permuted else fused.packed_route)(m, i, k)
            ctas = fused.route_launch(*route, m, two_i, k)[2].get("ctas_per_sm", 1) if (
                route[0] != "split") else 0
            if args or kw or not w.is_cuda or (original is large_m and ctas != 1):
                return original(a, a_sf, w, w_sf, alpha, gs, out, out_sf, *args, **kw)
            return launch_fused_converted(a, a_sf, w, w_sf, alpha, gs, out, out_sf)
        return launch

    monkeypatch.setattr(gemm, "launch_planned", launch_planned)
    monkeypatch.setattr(fused, "_half_groups", fused_route(half_groups))
    monkeypatch.setattr(fused, "_large_m", fused_route(large_m))
    yield


def poisoned(*shape, dtype, device="cuda"):
    """An output buffer full of NaN (or 0xFF bytes), so unwritten elements cannot pass."""
    t = torch.empty(*shape, dtype=dtype, device=device)
    if dtype.is_floating_point and dtype.itemsize > 1:
        t.fill_(float("nan"))
    else:
        t.view(torch.uint8).fill_(0xFF)
    return t


def check_graph_replays_chain(chain, count, shape, dtype=torch.bfloat16):
    """``chain(outs)`` runs dependent kernels writing ``count`` outputs of ``shape``: the eager
    run, then three replays of its CUDA graph into NaN-poisoned buffers, must give the same
    bits (a kernel that read its input before the one before it finished would not); the last
    output finite and not all zero."""
    want = [torch.empty(shape, device="cuda", dtype=dtype) for _ in range(count)]
    chain(want)
    got = [poisoned(*shape, dtype=dtype) for _ in range(count)]
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        chain(got)
    for _ in range(3):
        for g in got:
            g.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        assert all(torch.equal(g, w) for g, w in zip(got, want))
    assert want[-1].isfinite().all() and want[-1].abs().max() > 0


def w4a16_chain(weights, x, alpha):
    """``check_graph_replays_chain``'s ``chain`` for ``nvfp4_gemm`` W4A16: each GEMM's bf16
    output is the next one's input (weights: (b, b_sf) pairs, square)."""
    from cute_kernels import nvfp4_gemm

    def chain(outs):
        y = x
        for (b, b_sf), out in zip(weights, outs):
            y = nvfp4_gemm(y, None, b, b_sf, alpha, out=out)
    return chain
