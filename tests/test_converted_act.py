"""The wgmma kernels (``nvfp4_gemm``'s and the fused op's) converting their activations in the
kernel (``converted_act``: NVFP4 decoded, ``act_fp4``; bf16 in their own K order reordered,
``act_reorder``): they compile for sm_90a, their host launches pass what the kernels take, and
on a GPU they give the public routes' bits on the same launch (the same bf16 operand, the
pass's values, in the same K order) for each launch form, M tails included, and replay from a
graph in chains of dependent calls."""

import pytest
import torch

from cute_kernels import nvfp4_gemm, nvfp4_quantize, prepare_nvfp4_weight, reference
from cute_kernels.converted_act_launch import compile_fp4_act_gemm, launch_planned_converted
from cute_kernels.k_order import KOrder
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import small_m_regime
from cute_kernels.nvfp4_gemm_large_m import H200_SMS
from cute_kernels.testing import compile_only
from tests.conftest import check_graph_replays_chain, poisoned
from tests.test_pdl_trigger import _permuted_weights


@pytest.mark.parametrize("args", [
    # 16-token tiles, 64-row tiles in cluster pairs, the trigger (4096x7168 at 9..16 tokens)
    (4096, 7168, "torch.bfloat16", 16, 0, H200_SMS, 1, False, False, int(KOrder.PERMUTED), 1,
     2, True, True, True),
    # stream-K, two K groups a stage, packed bytes (PAIRS)
    (7168, 18432, "torch.bfloat16", 16, 0, H200_SMS, 1, True, False, int(KOrder.PAIRS), 1, 2),
    # whole 128-token tiles, N and M tails, fp32 out
    (200, 576, "torch.float32", 128, 0, H200_SMS, 1, False, False, int(KOrder.PERMUTED)),
    # 256-token tiles: two 128-row scale blocks a stage
    (1024, 7168, "torch.bfloat16", 256, 0, H200_SMS, 1, False, False, int(KOrder.PERMUTED)),
])
def test_compiles_for_sm90a(args):
    assert compile_only(compile_fp4_act_gemm, *args)


def test_rejects_what_it_cannot_run():
    """The identity K order and two CTAs an SM are refused at build."""
    from cute_kernels.converted_act_launch import NVFP4GemmFp4Act
    import cutlass

    for kwargs in ({"k_order": KOrder.IDENTITY},
                   {"ctas_per_sm": 2, "tile_m": 16, "stream_k": True}):
        options = {"tile_m": 64, "k_order": KOrder.PERMUTED, **kwargs}
        with pytest.raises(AssertionError):
            NVFP4GemmFp4Act(1024, 4096, cutlass.BFloat16, **options)


@pytest.mark.parametrize("tile_m,k_groups", [(16, 2), (64, 1), (128, 2), (256, 1)])
def test_stage_bytes_count_every_tma_box(tile_m, k_groups):
    """A stage's transaction bytes are the TMA boxes it loads: the activations' codes, their
    scale chunks (512 bytes a K group and 128-row block: two blocks for 256-token tiles), the
    weights and their scales; its shared memory holds the bf16 tile besides."""
    from cute_kernels.converted_act_launch import NVFP4GemmFp4Act
    import cutlass

    kernel = NVFP4GemmFp4Act(1024, 4096, cutlass.BFloat16, tile_m, k_order=KOrder.PERMUTED,
                             k_groups=k_groups)
    stage_k = 64 * k_groups
    blocks = max(1, tile_m // 128)
    codes, scales = tile_m * stage_k // 2, 512 * k_groups * blocks
    weights = 128 * stage_k // 2 + 512 * k_groups
    assert kernel.tx_bytes == codes + scales + weights
    assert kernel.act_tx_bytes == codes + scales  # (on the activations' own barrier)
    assert kernel.stage_bytes == kernel.tx_bytes + tile_m * stage_k * 2


def _operands(m, n, k, permuted=True):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16) * 3
    a, a_sf = reference.nvfp4_quantize(x, 448 * 6 / x.abs().amax().item())
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    return a, a_sf, (prepare_nvfp4_weight(b) if permuted else b), b_sf


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,permuted", [
    (16, 4096, 7168, True), (13, 4096, 7168, True),   # cluster pairs of 16-token tiles
    (64, 4096, 7168, True), (33, 7168, 2048, True),   # 64-row tiles, whole
    (16, 7168, 18432, False), (40, 7168, 18432, True),  # stream-K, two K groups; packed bytes
    (100, 1024, 4096, True),                          # 128-token tiles
    (600, 1024, 7168, True), (2048, 1024, 7168, False),  # 256-token tiles; stream-K there
    (1000, 4096, 7168, True),                         # 256-token tiles, M tail
])
def test_same_bits_as_the_public_route(m, n, k, permuted):
    """The planned launch with the activations decoded in the kernel against ``nvfp4_gemm``
    (the pass, then the same launch) on the same operands: equal bits; and against the fp64
    product."""
    a, a_sf, b, b_sf = _operands(m, n, k, permuted)
    plan = plain_plan(m, n, k)
    assert not small_m_regime(m, n, k, True, permuted), plan
    want = nvfp4_gemm(a, a_sf, b, b_sf, 0.5)
    got = poisoned(m, n, dtype=torch.bfloat16)
    launch_planned_converted(a, a_sf, b, b_sf, torch.full((1,), 0.5, device="cuda"), got, plan)
    assert torch.equal(got, want)
    ref = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 0.5)
    assert ((got.double() - ref).norm() / ref.norm()).item() <= 4e-3  # (bf16 output)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [16, 64])
def test_chain_in_a_graph_matches_eager(m):
    """Quantize, then the GEMM decoding its activations in the kernel (4096x4096, permuted
    words: cluster pairs at 16 tokens, 64-row tiles at 64, the trigger), each output the next
    one's input: replayed from a graph, bit for bit the eager run (a GEMM that read its codes
    before the quantization finished would differ)."""
    k = 4096
    assert not small_m_regime(m, k, k, True, True)
    weights = _permuted_weights(k, k)
    x = (torch.randn(m, k, device="cuda") * 2).to(torch.bfloat16)
    g = 448 * 6 / (4 * x.abs().amax().item())
    alpha = torch.full((1,), 1 / (g * 100.0 * k ** 0.5), device="cuda")
    plan = plain_plan(m, k, k)

    def chain(outs):
        y = x
        for (b, b_sf), out in zip(weights, outs):
            q, q_sf = nvfp4_quantize(y, g)
            launch_planned_converted(q, q_sf, b, b_sf, alpha, out, plan)
            y = out

    check_graph_replays_chain(chain, len(weights), (m, k))


@pytest.mark.parametrize("args", [
    # half-group cluster pairs of 16-token tiles with the trigger (4096x7168 at 9..16 tokens)
    (2048, 7168, 16, 0, H200_SMS, False, False, int(KOrder.PERMUTED), 1, 2, 0, 1, True, True,
     True),
    # split-K pieces in stream-K (1024x7168 at ~1024 tokens); whole 256-token tiles
    (512, 7168, 128, 0, H200_SMS, True, False, int(KOrder.PERMUTED), 1, 1, 0, 2),
    (512, 7168, 256, 0, H200_SMS, False, False, int(KOrder.PAIRS)),
])
def test_fused_compiles_for_sm90a(args):
    from cute_kernels.converted_act_launch import compile_fused_fp4_act

    assert compile_only(compile_fused_fp4_act, *args)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,permuted", [
    (12, 2048, True), (64, 2048, True),     # half-group pairs
    (12, 4608, True), (40, 4608, False),    # the narrow route; stream-K on packed bytes
    (1000, 512, True), (2048, 512, True),   # split-K pieces; whole 128-token tiles
    (4096, 512, False),                     # whole 256-token tiles
])
def test_fused_same_bits_as_the_public_route(m, i, permuted):
    """The fused op's wgmma route with the activations decoded in the kernel
    (``launch_fused_converted``) against ``nvfp4_gemm_swiglu_quant`` on the same operands: equal
    codes and scale bytes."""
    from cute_kernels import nvfp4_gemm_swiglu_quant
    from cute_kernels.converted_act_launch import launch_fused_converted
    from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_regime
    from layouts import sf_padded_shape
    from tests.test_nvfp4_gemm_swiglu_quant import _inputs

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, 7168, True)
    if permuted:
        from cute_kernels import prepare_gate_up_weight, restore_gate_up_weight

        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    assert not swiglu_small_m_regime(m, i, 7168, True, permuted)
    want_q, want_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    mp, kbp = sf_padded_shape(m, i // 16)
    got_q = poisoned(m, i // 2, dtype=torch.uint8)
    got_sf = torch.zeros(mp, kbp, dtype=torch.uint8, device="cuda")  # (padding: the op's)
    launch_fused_converted(a, a_sf, w, w_sf, torch.full((1,), alpha, device="cuda"),
                     torch.full((1,), g_out, device="cuda"), got_q, got_sf)
    assert torch.equal(got_q, want_q)
    assert torch.equal(got_sf, want_sf.view(torch.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("m", [64, 256])
def test_mlp_chain_in_a_graph_matches_eager(m):
    """NVFP4 MLP steps with no activation pass: the quantization, the fused gate_up op
    (4096x7168, half-group tiles) and the down GEMM (7168x2048), both decoding their NVFP4
    activations in the kernel (the down GEMM takes the fused op's codes and scales as they
    are), the bf16 output feeding the next step. Replayed from a graph, bit for bit the eager
    run."""
    from cute_kernels import nvfp4_gemm_swiglu_quant
    from cute_kernels.converted_act_launch import launch_fused_converted
    from layouts import sf_padded_shape
    from tests.test_nvfp4_gemm_swiglu_quant import _weights

    i, k = 2048, 7168
    w, w_sf, g_w = _weights(i, k, "cuda")
    down = _permuted_weights(k, i, 2)
    x = (torch.randn(m, k, device="cuda") * 2).to(torch.bfloat16)
    g_a = 448 * 6 / (4 * x.abs().amax().item())
    alpha_w = torch.full((1,), 1 / (g_a * g_w.item()), device="cuda")
    q, q_sf = nvfp4_quantize(x, g_a)
    g_h = 448 * 6 / (2 * reference.swiglu_fp64(q, q_sf, w, w_sf, alpha_w.item()).abs()
                     .amax().item())
    g_h_t = torch.full((1,), g_h, device="cuda")
    h, h_sf = nvfp4_gemm_swiglu_quant(q, q_sf, w, w_sf, alpha_w, g_h)
    alpha_d = torch.full((1,), 2 / nvfp4_gemm(h, h_sf, *down[0], 1.0).float().std().item(),
                         device="cuda")
    mp, kbp = sf_padded_shape(m, i // 16)

    def chain(outs):
        y = x
        for (d, d_sf), out in zip(down, outs):
            q, q_sf = nvfp4_quantize(y, g_a)
            h = torch.empty(m, i // 2, dtype=torch.uint8, device="cuda")
            h_sf = torch.empty(mp, kbp, dtype=torch.uint8, device="cuda")
            launch_fused_converted(q, q_sf, w, w_sf, alpha_w, g_h_t, h, h_sf)
            launch_planned_converted(h, h_sf, d, d_sf, alpha_d, out, plain_plan(m, k, i))
            y = out

    check_graph_replays_chain(chain, len(down), (m, k))


def _recording(seen, name):
    """A stand-in compile function: records its arguments, returns a kernel recording its."""
    def compile_fn(*args):
        seen[name] = args
        return lambda *call: seen.setdefault("call", call)
    return compile_fn


def test_launch_passes_codes_then_scales(monkeypatch):
    """``launch_fp4_act`` (on the CPU, the compile stubbed): compiled with the plain kernel's
    arguments, called with the codes as int32 [M, K/8], then the scales as words, then the
    weights, alpha and the output."""
    import cute_kernels.converted_act_launch as launch

    seen = {}
    monkeypatch.setattr(launch, "compile_fp4_act_gemm", _recording(seen, "compile"))
    a = torch.zeros(7, 512, dtype=torch.uint8)
    a_sf = torch.zeros(128 * 64, dtype=torch.uint8)
    b = torch.zeros(256, 128, dtype=torch.int32)  # permuted words, N = 256, K = 1024
    b_sf = torch.zeros(256 * 64, dtype=torch.uint8)
    alpha, out = torch.ones(1), torch.empty(7, 256)
    launch.launch_fp4_act(a, a_sf, b, b_sf, alpha, out, (32, 0, 132), k_order=KOrder.PERMUTED)
    assert seen["compile"] == (256, 1024, "torch.float32", 32, 0, 132, 1, False, False,
                               int(KOrder.PERMUTED))
    codes, scales, words, scale_words, got_alpha, got_out = seen["call"]
    assert codes.dtype == torch.int32 and tuple(codes.shape) == (7, 128)
    assert scales.dtype == torch.int32 and scales.numel() == a_sf.numel() // 4
    assert words.data_ptr() == b.data_ptr() and scale_words.numel() == b_sf.numel() // 4
    assert got_alpha is alpha and got_out is out


def test_fused_launch_takes_the_public_route(monkeypatch):
    """``launch_fused_converted`` (on the CPU, the compile stubbed) launches as the public function
    does: 4096x7168 at 12 tokens on permuted words, half-group cluster pairs of 16-token tiles
    with the trigger (``planned_launch``); 1024x7168 at 1024 tokens, split-K pieces with no
    quantizer warps."""
    import cute_kernels.converted_act_launch as launch

    import cute_kernels.swiglu_quant_large_m as fused

    seen = {}
    monkeypatch.setattr(launch, "compile_fused_fp4_act", _recording(seen, "compile"))
    monkeypatch.setattr(fused, "stream_k_buffers",  # (a CUDA allocation)
                        lambda *args: (torch.empty(1), torch.empty(1, dtype=torch.int32)))
    for m, i, want in [(12, 2048, (2048, 7168, 16, 0, H200_SMS, False, False,
                                   int(KOrder.PERMUTED), 1, 2, 0, 1, True, True, True)),
                       (1024, 512, (512, 7168, 128, 0, H200_SMS, True, False,
                                    int(KOrder.PERMUTED), 1, 1, 0, 2))]:
        a = torch.zeros(m, 3584, dtype=torch.uint8)
        a_sf = torch.zeros(-(-m // 128) * 128 * 448, dtype=torch.uint8)
        w = torch.zeros(2 * i, 896, dtype=torch.int32)
        out = torch.empty(m, i // 2, dtype=torch.uint8)
        out_sf = torch.empty(-(-m // 128) * 128 * i // 16, dtype=torch.uint8)
        launch.launch_fused_converted(a, a_sf, w, torch.zeros(2 * i * 112, dtype=torch.uint8),
                                torch.ones(1), torch.ones(1), out, out_sf)
        assert seen["compile"] == want, (m, seen["compile"])
        assert seen["call"][0].shape == (m, 896) and seen["call"][1].numel() == a_sf.numel() // 4
        seen.clear()


@pytest.mark.parametrize("fused,args", [
    (False, (4096, 7168, "torch.bfloat16", 16, 0, H200_SMS, 1, False, False,
             int(KOrder.PERMUTED), 1, 2, True, True, True)),
    (False, (7168, 18432, "torch.bfloat16", 64, 0, H200_SMS, 1, True, False, int(KOrder.PAIRS),
             1, 2)),
    (False, (200, 576, "torch.float32", 256, 0, H200_SMS, 1, False, False,
             int(KOrder.PERMUTED))),
    (True, (2048, 7168, 16, 0, H200_SMS, False, False, int(KOrder.PERMUTED), 1, 2, 0, 1, True,
            True, True)),
    (True, (512, 7168, 128, 0, H200_SMS, True, False, int(KOrder.PERMUTED), 1, 1, 0, 2)),
])
def test_reorder_compiles_for_sm90a(fused, args):
    """The kernels taking bf16 activations in their own K order (``act_reorder``)."""
    from cute_kernels.converted_act_launch import (compile_fused_reorder_act,
                                                   compile_reorder_act_gemm)

    assert compile_only(compile_fused_reorder_act if fused else compile_reorder_act_gemm, *args)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,permuted", [
    (16, 4096, 7168, True), (13, 4096, 7168, True), (64, 4096, 7168, False),
    (33, 7168, 2048, True), (16, 7168, 18432, False), (600, 1024, 7168, True),
    (1000, 4096, 7168, True),
])
def test_w4a16_same_bits_as_the_public_route(m, n, k, permuted):
    """bf16 activations in their own K order, reordered in the kernel, against ``nvfp4_gemm``
    (``reorder_k``'s copy, then the same launch): equal bits."""
    from cute_kernels.nvfp4_gemm import packed_plan

    _, _, b, b_sf = _operands(1, n, k, permuted)
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    assert not small_m_regime(m, n, k, False, permuted)
    want = nvfp4_gemm(x, None, b, b_sf, 0.5)
    got = poisoned(m, n, dtype=torch.bfloat16)
    plan = plain_plan(m, n, k) if permuted else packed_plan(m, n, k)
    launch_planned_converted(x, None, b, b_sf, torch.full((1,), 0.5, device="cuda"), got, plan)
    assert torch.equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i", [(12, 2048), (64, 2048), (12, 4608), (1000, 512), (4096, 512)])
def test_fused_w4a16_same_bits_as_the_public_route(m, i):
    """The fused op's wgmma routes on bf16 activations reordered in the kernel
    (``launch_fused_converted`` with ``a_sf`` None) against ``nvfp4_gemm_swiglu_quant``, permuted
    words: equal codes and scale bytes."""
    from cute_kernels import (nvfp4_gemm_swiglu_quant, prepare_gate_up_weight,
                              restore_gate_up_weight)
    from cute_kernels.converted_act_launch import launch_fused_converted
    from cute_kernels.nvfp4_gemm_swiglu_quant import half_group_route, swiglu_small_m_regime
    from layouts import sf_padded_shape
    from tests.test_nvfp4_gemm_swiglu_quant import _inputs

    a, _, w, w_sf, alpha, g_out = _inputs(m, i, 7168, False)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    assert half_group_route(m, i, 7168, False, True) or not swiglu_small_m_regime(
        m, i, 7168, False, True)
    want_q, want_sf = nvfp4_gemm_swiglu_quant(a, None, w, w_sf, alpha, g_out)
    mp, kbp = sf_padded_shape(m, i // 16)
    got_q = poisoned(m, i // 2, dtype=torch.uint8)
    got_sf = torch.zeros(mp, kbp, dtype=torch.uint8, device="cuda")
    launch_fused_converted(a, None, w, w_sf, torch.full((1,), alpha, device="cuda"),
                           torch.full((1,), g_out, device="cuda"), got_q, got_sf)
    assert torch.equal(got_q, want_q)
    assert torch.equal(got_sf, want_sf.view(torch.uint8))
