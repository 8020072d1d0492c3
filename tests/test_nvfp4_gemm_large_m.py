"""NVFP4 GEMM, large-M (TMA + wgmma) kernel: compile-only on CPU; on a GPU, against the fp64
reference (W4A16: bf16 activations, NVFP4 weights)."""

import cutlass
import pytest
import torch

from cute_kernels import reference
from cute_kernels.k_order import DECODE_ORDERS, WORD_ORDERS, KOrder
from cute_kernels.large_m_plans import (fused_stream_k_options, large_m_config, large_m_plan,
                                        plain_launch_options, stream_k_ctas, stream_k_groups,
                                        stream_k_plan)
from cute_kernels.nvfp4_gemm_large_m import (CONSUMER_REGS, H200_SMS, PRODUCER_REGS,
                                             NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             compile_tail, launch_large_m, register_moves_fit)
from cute_kernels.testing import compile_only, kernel_frame_bytes, kernel_registers
from tests.conftest import poisoned


@pytest.mark.parametrize("n,k,out_dtype,tile_m", [
    (4096, 7168, "torch.bfloat16", 256),   # DeepSeek expert gate_up
    (7168, 2048, "torch.float32", 128),    # DeepSeek expert down
    (200, 576, "torch.float16", 64),       # N tail, odd number of k-tiles
])
def test_large_m_compiles_for_sm90a(n, k, out_dtype, tile_m):
    assert compile_only(compile_nvfp4_gemm_large_m, n, k, out_dtype, tile_m)


@pytest.mark.parametrize("n,k,tile_m,splits", [
    (7168, 18432, 64, 2),   # DeepSeek dense down at M <= 64
    (200, 576, 128, 3),     # 9 k-tiles in 3 splits, N tail
])
def test_split_k_compiles_for_sm90a(n, k, tile_m, splits):
    """Split-K is stream-K on tiles x splits CTAs (``launch_large_m``)."""
    assert compile_only(compile_nvfp4_gemm_large_m, n, k, "torch.bfloat16", tile_m, 0, H200_SMS,
                        splits, True)


def test_register_moves_fit_the_ctas_pool():
    """setmaxnreg.inc waits for the CTA's own pool: the producer's release must cover the
    consumers' requests (384 threads launch at 168 registers one CTA an SM, 80 at two)."""
    for ctas_per_sm in (1, 2):
        assert register_moves_fit(384, ctas_per_sm, PRODUCER_REGS[ctas_per_sm],
                                  CONSUMER_REGS[ctas_per_sm])
    assert register_moves_fit(384, 1, 40, 232) and not register_moves_fit(384, 1, 40, 240)
    # 640 threads launch at 96: the producer at 24 frees 9216, enough for 512 at 112, not 120
    assert register_moves_fit(640, 1, 24, 112) and not register_moves_fit(640, 1, 24, 120)


def test_split_k_needs_stream_k():
    with pytest.raises(AssertionError):
        NVFP4GemmLargeM(4096, 7168, cutlass.BFloat16, 64, 0, H200_SMS, 4)
    with pytest.raises(AssertionError):
        NVFP4GemmLargeM(4096, 7168, cutlass.BFloat16, 64, 0, H200_SMS, 4, stream_k=True,
                        hybrid=True)


def test_split_k_plan():
    """Splits only where the output tiles fill less than one wave, dividing K / 64 with at
    least 16 k-tiles each; the big weights keep one split; 32-token tiles only up to 32
    tokens."""
    for m in (17, 32, 64, 128, 256, 1024, 4096):
        for n, k in ((7168, 18432), (5120, 17408), (36864, 7168), (9216, 7168), (4096, 7168),
                     (7168, 2048), (1000, 64)):
            tile_m, splits = large_m_plan(m, n, k)
            assert tile_m in ((32, 64) if m <= 32 else (64, 128, 256))
            k_tiles = k // 64
            if splits > 1:
                assert k_tiles % splits == 0 and k_tiles // splits >= 16, (m, n, k, splits)
                assert -(-m // tile_m) * -(-n // 128) < H200_SMS, (m, n, k, tile_m)
            else:
                assert tile_m == large_m_config(m, n, k)[0]
    assert large_m_plan(64, 7168, 18432) == (64, 2)   # 56 CTAs otherwise
    assert large_m_plan(4096, 36864, 7168)[1] == 1


def _inputs(m, n, k, device="cuda"):
    """Realistic NVFP4 weights (row magnitudes over three decades, ModelOpt global scale) and
    bf16 activations."""
    w = torch.randn(n, k, device=device) * torch.pow(10.0, torch.rand(n, 1, device=device) * 3 - 2)
    b, b_sf = reference.nvfp4_quantize(w.to(torch.bfloat16), 448 * 6 / w.abs().amax())
    a = (torch.randn(m, k, device=device) * 3).to(torch.bfloat16)
    alpha = float(torch.rand(()) * 2 + 0.1)
    return a, b, b_sf, alpha


def _rel_err(got, want):
    return ((got.double() - want).norm() / want.norm().clamp_min(1e-300)).item()


def _run(a, b, b_sf, alpha, out_dtype, config):
    out = poisoned(a.shape[0], b.shape[0], dtype=out_dtype)
    launch_large_m(a, b, b_sf, torch.full((1,), alpha, device="cuda"), out, config)
    torch.cuda.synchronize()
    return out


@pytest.mark.gpu
@pytest.mark.parametrize("m", [129, 1000, 4096])
@pytest.mark.parametrize("n,k", [(256, 512), (200, 576), (1000, 64), (4096, 7168), (7168, 2048)])
def test_matches_fp64_reference(m, n, k):
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    config = large_m_config(m, n, k)
    got = _run(a, b, b_sf, alpha, torch.float32, config)
    assert not got.isnan().any()
    assert _rel_err(got, want) <= 1e-3
    # bf16 / fp16 output: one rounding of the same fp32 result (fp16 overflows to inf past
    # 65504 exactly where the rounding of the fp32 result does).
    for dtype, rtol, atol in ((torch.bfloat16, 2**-8, 1e-30), (torch.float16, 2**-10, 2**-24)):
        got16 = _run(a, b, b_sf, alpha, dtype, config)
        torch.testing.assert_close(got16.float(), got.to(dtype).float(), rtol=rtol, atol=atol)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(16, 0), (32, 0), (64, 0), (128, 0), (256, 0), (128, 2, 7),
                                    (256, 3, 5), (64, 2, 1), (32, 3, 6), (16, 3, 6)])
def test_every_tile_config_agrees(config):
    # 13 k-tiles (odd, more than the stages), N and M tails; with a shrunk grid each CTA walks
    # many tiles, so pipeline phases carry across tiles.
    m, n, k = 777, 1160, 832
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    got = _run(a, b, b_sf, alpha, torch.float32, config)
    assert not got.isnan().any()
    assert _rel_err(got, want) <= 1e-3, config


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k,ctas", [
    ((16, 0), False, 1), ((32, 0, 9), False, 1),   # one 16- / 32-token buffer a tile, many tiles
    ((64, 0), False, 1), ((128, 0), False, 1), ((256, 0), False, 1),  # 2, 4, 8 buffers
    ((64, 0, 11), True, 1), ((128, 0), True, 1), ((256, 0, 5), True, 1),  # stream-K pieces
    ((32, 0), True, 2), ((64, 0, 9), False, 2),     # two CTAs an SM
])
@pytest.mark.parametrize("n", [1160, 1100, 1098])  # N % 8 == 0, % 4 == 0 (fp32 staged), neither
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16])
def test_16_bit_output_is_the_fp32_result_rounded(config, stream_k, ctas, n, out_dtype):
    """The staged epilogue (through shared memory in whole 16-byte chunks: N % 8 == 0 in 16
    bits, N % 4 == 0 in fp32) and the direct one write the same fp32 result, rounded once to 16
    bits, bit for bit, with M and N tails (777 tokens, N not a multiple of 128) and tiles
    walked in turn by each CTA; the fp32 result matches the fp64 reference."""
    m, k = 777, 832
    a, b, b_sf, alpha = _inputs(m, n, k)
    alpha_t = torch.full((1,), alpha, device="cuda")
    outs = []
    for dtype in (torch.float32, out_dtype):
        out = poisoned(m, n, dtype=dtype)
        launch_large_m(a, b, b_sf, alpha_t, out, config, stream_k=stream_k, ctas_per_sm=ctas)
        torch.cuda.synchronize()
        outs.append(out)
    assert not outs[0].isnan().any()
    assert _rel_err(outs[0], reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)) <= 1e-3
    want = outs[0].to(out_dtype)
    assert torch.equal(outs[1].view(torch.int16), want.view(torch.int16)), config


def test_staged_epilogue_shared_memory():
    """The staged epilogue takes two 4 KB buffers (32 tokens x 64 rows in 16 bits, 16 in fp32,
    or the tile's tokens if fewer) per consumer warpgroup, where N is a multiple of the rows in
    16 bytes of output (8 / 4)."""
    def kernel(n, tile_m, dtype=cutlass.BFloat16, **kw):
        return NVFP4GemmLargeM(n, 7168, dtype, tile_m, 0, H200_SMS, **kw)
    assert kernel(4096, 256).epilogue_bytes == 2 * 2 * 32 * 128
    assert kernel(4096, 16).epilogue_bytes == 2 * 2 * 16 * 128
    assert kernel(4096, 256, cutlass.Float16).epilogue_bytes == 16384
    assert kernel(4096, 256, cutlass.Float32).epilogue_bytes == 2 * 2 * 16 * 256
    assert kernel(4096, 128, cutlass.Float32).epilogue_bytes == 16384
    assert kernel(4100, 256).epilogue_bytes == 0
    assert kernel(4100, 256, cutlass.Float32).epilogue_bytes == 16384
    assert kernel(4098, 256, cutlass.Float32).epilogue_bytes == 0
    # 256-token tiles keep 5 stages (6 without the buffers: the same time on the H200,
    # ``tools/wave_fill_probe.py`` 4096x7168 M = 1024, session 22)
    assert kernel(4096, 256).stages == 5


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config,splits", [
    (129, 200, 576, (128, 0), 3),       # N and M tails, 3 k-tiles per split
    (7, 1160, 1024, (64, 0), 4),        # 16 k-tiles in 4 splits
    (777, 1160, 832, (64, 2, 5), 13),   # one k-tile per split, a shrunk grid
])
@pytest.mark.parametrize("out_dtype", [torch.float32, torch.bfloat16])
def test_split_k_matches_fp64_reference(m, n, k, config, splits, out_dtype):
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    out = poisoned(m, n, dtype=out_dtype)
    launch_large_m(a, b, b_sf, torch.full((1,), alpha, device="cuda"), out, config, splits)
    torch.cuda.synchronize()
    assert not out.isnan().any()
    assert _rel_err(out, want) <= (1e-3 if out_dtype == torch.float32 else 4e-3)
    if out_dtype == torch.float32:  # deterministic: the pieces are added in order
        again = poisoned(m, n, dtype=out_dtype)
        launch_large_m(a, b, b_sf, torch.full((1,), alpha, device="cuda"), again, config,
                       splits)
        torch.testing.assert_close(again, out, rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k", [((32, 0), False), ((64, 2, 7), False),
                                             ((128, 3, 5), True), ((64, 0, 11), True),
                                             ((16, 0, 11), True)])
@pytest.mark.parametrize("k_order", DECODE_ORDERS)
def test_two_k_groups_per_stage_match_fp64_reference(config, stream_k, k_order):
    """K / 64 even: each pipeline stage holds two 64-element K groups (``k_groups=2``); an odd
    count of stages (15), N and M tails, shrunk grids, every weight decode (``k_order``; the
    bf16 activations reordered to match)."""
    from cute_kernels import prepare_nvfp4_weight
    from cute_kernels.nvfp4_dequant import bf16_activations

    m, n, k = 777, 1160, 1920
    a, b, b_sf, alpha = _inputs(m, n, k)
    assert NVFP4GemmLargeM(n, k, cutlass.Float32, config[0], k_groups=2).stage_k == 128
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    if k_order in WORD_ORDERS:
        b = prepare_nvfp4_weight(b)
    out = poisoned(m, n, dtype=torch.float32)
    launch_large_m(bf16_activations(a, None, k_order), b, b_sf,
                   torch.full((1,), alpha, device="cuda"), out, config, stream_k=stream_k,
                   k_groups=2, k_order=k_order)
    torch.cuda.synchronize()
    assert not out.isnan().any()
    assert _rel_err(out, want) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,stream_k", [(29, (16, 0, 11), True), (77, (32, 4), True),
                                               (29, (32, 0), False)])
def test_four_k_groups_per_stage_match_fp64_reference(m, config, stream_k):
    """K / 64 a multiple of 4 on 16- and 32-token tiles: four 64-element K groups a stage
    (``k_groups=4``, probe-only: weight boxes of 128 bytes a row), M and N tails, stream-K on a
    shrunk grid and whole tiles, permuted words."""
    from cute_kernels import prepare_nvfp4_weight
    from cute_kernels.nvfp4_dequant import bf16_activations

    n, k = 1160, 2048
    a, b, b_sf, alpha = _inputs(m, n, k)
    assert NVFP4GemmLargeM(n, k, cutlass.Float32, config[0], k_groups=4).stage_k == 256
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    out = poisoned(m, n, dtype=torch.float32)
    launch_large_m(bf16_activations(a, None, KOrder.PERMUTED), prepare_nvfp4_weight(b), b_sf,
                   torch.full((1,), alpha, device="cuda"), out, config, stream_k=stream_k,
                   k_groups=4, k_order=KOrder.PERMUTED)
    torch.cuda.synchronize()
    assert not out.isnan().any()
    assert _rel_err(out, want) <= 1e-3


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,stream_k,k_groups,trigger,k_order", [
    (5, (8, 0), True, 2, True, KOrder.PERMUTED), (13, (8, 0, 11), True, 1, False, KOrder.PERMUTED),
    (8, (8, 4), False, 1, False, KOrder.PERMUTED), (29, (8, 0), True, 2, False, KOrder.PERMUTED),
    (7, (8, 0), True, 2, True, KOrder.PAIRS)])
def test_eight_token_tiles_match_fp64_reference(m, config, stream_k, k_groups, trigger, k_order):
    """8-token tiles (wgmma N = 8; the public op's at W4A16 M = 4..8 on big weights' permuted
    words, there with the PDL trigger): stream-K on the whole and a shrunk grid, whole tiles, one
    and two K groups a stage, M and N tails, permuted words and packed bytes (PAIRS, which
    ``packed_plan`` keeps off them until this passes on a GPU), bf16 and fp32 out."""
    from cute_kernels import prepare_nvfp4_weight
    from cute_kernels.nvfp4_dequant import bf16_activations

    n, k = 1160, 2048
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    x = bf16_activations(a, None, k_order, -(-m // 8) * 8)
    words = prepare_nvfp4_weight(b) if k_order == KOrder.PERMUTED else b
    alpha_t = torch.full((1,), alpha, device="cuda")
    out = poisoned(m, n, dtype=torch.float32)
    low = poisoned(m, n, dtype=torch.bfloat16)
    for dst in (out, low):
        launch_large_m(x, words, b_sf, alpha_t, dst, config, stream_k=stream_k,
                       k_groups=k_groups, k_order=k_order, pdl_trigger=trigger)
    torch.cuda.synchronize()
    assert not out.isnan().any() and not low.isnan().any()
    assert _rel_err(out, want) <= 1e-3
    torch.testing.assert_close(low.float(), out.to(torch.bfloat16).float(), rtol=2**-8,
                               atol=1e-30)


def test_eight_token_tiles_compile_for_sm90a():
    """The 8-token stream-K tiles at one and two K groups a stage, the second as the public op
    launches W4A16 M = 4..8 on big weights (``large_m_plans.TILE_8_MAX_M``, with the PDL
    trigger): wgmma N = 8, no local memory."""
    for groups, trigger in ((1, False), (2, True)):
        compiled = compile_only(compile_nvfp4_gemm_large_m, 9216, 7168, "torch.bfloat16", 8, 0,
                                H200_SMS, 1, True, False, KOrder.PERMUTED, 1, groups, False,
                                False, trigger)
        assert kernel_frame_bytes(compiled) == 0


def test_four_k_groups_only_on_narrow_tiles_and_whole_stages():
    """Four K groups a stage fit the consumers' registers on 16- and 32-token tiles only, and
    need K / 64 a multiple of 4."""
    assert NVFP4GemmLargeM(9216, 7168, cutlass.BFloat16, 32, k_groups=4).stage_k == 256
    with pytest.raises(AssertionError):
        NVFP4GemmLargeM(9216, 7168, cutlass.BFloat16, 64, k_groups=4)
    with pytest.raises(AssertionError):
        NVFP4GemmLargeM(9216, 1920, cutlass.BFloat16, 16, k_groups=4)


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,stream_k", [
    (777, (64, 0), False),      # 130 tiles on 264 CTAs
    (777, (32, 0, 9), False),   # 250 tiles on 9 CTAs: phases carry across tiles
    (129, (64, 0, 11), True),   # stream-K pieces cross tiles
    (29, (32, 0), True),        # one token tile, 3 tokens of tail
    (13, (16, 0), True),        # one 16-token tile, 13 tokens
    (777, (16, 0, 9), False),   # 49 token tiles on 9 CTAs
])
def test_two_ctas_per_sm_agree(m, config, stream_k):
    """``ctas_per_sm=2`` (80 registers at launch, the consumers at 104) computes the same
    bits as one CTA per SM for whole tiles, and matches the reference in stream-K."""
    n, k = 1160, 832
    a, b, b_sf, alpha = _inputs(m, n, k)
    alpha_t = torch.full((1,), alpha, device="cuda")
    outs = []
    for cps in (1, 2):
        out = poisoned(m, n, dtype=torch.float32)
        launch_large_m(a, b, b_sf, alpha_t, out, config, stream_k=stream_k, ctas_per_sm=cps)
        torch.cuda.synchronize()
        assert not out.isnan().any()
        outs.append(out)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    assert _rel_err(outs[1], want) <= 1e-3
    if not stream_k:  # stream-K cuts depend on the grid size
        torch.testing.assert_close(outs[1], outs[0], rtol=0, atol=0)


def _trigger_pair_kernel(cls, *args, **changes):
    """``cls`` (the plain or the fused kernel class) on a stream-K launch that triggers at two
    CTAs an SM, with ``changes`` to those options."""
    options = {"stream_k": True, "k_order": KOrder.PERMUTED, "ctas_per_sm": 2, "k_groups": 2,
               "pdl_trigger": True} | changes
    return cls(*args, **options)


def test_weights_before_wait_rule(monkeypatch):
    """``weights_before_wait`` (H200 probe, session 41): four k-tiles of weights into the
    stages before the PDL wait on stream-K launches that trigger at two CTAs an SM (not the
    fused kernel's); none without the trigger, at one CTA an SM or on whole tiles; a probe's
    ``WEIGHTS_BEFORE_WAIT`` over the rule."""
    from cute_kernels.swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM

    plain = _trigger_pair_kernel(NVFP4GemmLargeM, 36864, 7168, cutlass.BFloat16, 16, 0, 264)
    fused = _trigger_pair_kernel(NVFP4GemmSwigluQuantLargeM, 18432, 7168, 16, 0, 264)
    assert plain.weights_before_wait() == 4 and fused.weights_before_wait() == 0
    for changes in ({"pdl_trigger": False}, {"ctas_per_sm": 1}, {"stream_k": False}):
        kernel = _trigger_pair_kernel(NVFP4GemmLargeM, 36864, 7168, cutlass.BFloat16, 16, 0,
                                      264, **changes)
        assert kernel.weights_before_wait() == 0, changes
    monkeypatch.setattr(NVFP4GemmLargeM, "WEIGHTS_BEFORE_WAIT", 0)
    assert plain.weights_before_wait() == 0 and not plain.weights_first()


def test_weights_before_wait_compiles_for_sm90a():
    """The plain kernel's launch of ``weights_before_wait`` (stream-K, the trigger, two CTAs an
    SM, 16-token tiles of two K groups) compiles."""
    tail = compile_tail(KOrder.PERMUTED, 2, 2, pdl_trigger=True)
    assert compile_only(compile_nvfp4_gemm_large_m, 1160, 1664, "torch.bfloat16", 16, 0, 6, 1,
                        True, False, *tail)


@pytest.mark.gpu
@pytest.mark.parametrize("m,tile_m", [(13, 16), (29, 32)])
def test_weights_before_wait_matches_reference(monkeypatch, m, tile_m):
    """The launch of ``weights_before_wait``, four k-tiles of weights into the stages before
    the PDL wait: 10 tiles on 6 CTAs (a CTA's first piece cut, its others after the wait),
    13 k-tiles of two K groups, N and M tails; against the fp64 reference and bit for bit the
    launch that prefetches its weights into L2 instead."""
    from cute_kernels import prepare_nvfp4_weight
    from cute_kernels.nvfp4_dequant import bf16_activations

    n, k = 1160, 1664
    assert _trigger_pair_kernel(NVFP4GemmLargeM, n, k, cutlass.Float32, tile_m, 0,
                                6).weights_first()
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    b = prepare_nvfp4_weight(b)
    act = bf16_activations(a, None, KOrder.PERMUTED)
    alpha_t = torch.full((1,), alpha, device="cuda")
    outs = []
    for weights_before_wait in (None, 0):
        monkeypatch.setattr(NVFP4GemmLargeM, "WEIGHTS_BEFORE_WAIT", weights_before_wait)
        out = poisoned(m, n, dtype=torch.float32)
        launch_large_m(act, b, b_sf, alpha_t, out, (tile_m, 0, 6), stream_k=True,
                       ctas_per_sm=2, k_groups=2, k_order=KOrder.PERMUTED, pdl_trigger=True,
                       compile_fn=compile_nvfp4_gemm_large_m.uncached)
        torch.cuda.synchronize()
        assert not out.isnan().any()
        outs.append(out)
    assert _rel_err(outs[0], want) <= 1e-3
    torch.testing.assert_close(outs[0], outs[1], rtol=0, atol=0)


@pytest.mark.gpu
def test_persistent_grid_smaller_than_tiles_and_graph_capture():
    # 1024 output tiles on ~132 CTAs; replayed in a CUDA graph on a side stream.
    m, n, k = 4096, 4096, 1024
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = _run(a, b, b_sf, alpha, torch.float32, (128, 0))
    out = poisoned(m, n, dtype=torch.float32)
    alpha_t = torch.full((1,), alpha, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        launch_large_m(a, b, b_sf, alpha_t, out, (128, 0))
    graph.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(out, want, rtol=0, atol=0)


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k", [((128, 0), False), ((64, 0, 5), True),
                                             ((256, 0), False)])
def test_activation_rows_past_m_are_not_used(config, stream_k):
    """The kernel takes M from the output: activation rows past it (``bf16_activations(rows=)``
    pads to whole token tiles, so that the TMA never reads past the buffer) are loaded but
    never used; NaN there leaves the same bits as the exact rows. Fewer rows than M: refused."""
    m, n, k = 129, 1160, 1920
    a, b, b_sf, alpha = _inputs(m, n, k)
    alpha_t = torch.full((1,), alpha, device="cuda")
    padded = torch.full((m + 200, k), float("nan"), device="cuda", dtype=torch.bfloat16)
    padded[:m] = a
    outs = []
    for x in (a, padded):
        out = poisoned(m, n, dtype=torch.float32)
        launch_large_m(x, b, b_sf, alpha_t, out, config, stream_k=stream_k)
        outs.append(out)
    torch.cuda.synchronize()
    assert not outs[1].isnan().any()
    torch.testing.assert_close(outs[1], outs[0], rtol=0, atol=0)
    with pytest.raises(AssertionError):
        launch_large_m(a[:m - 1], b, b_sf, alpha_t, outs[0], config, stream_k=stream_k)


# (N, K, M) -> nvfp4_gemm's fastest wgmma launch, or one within 1% of it (H200 2026-12-01,
# ``tools/plain_route_probe.py``, public function us; ``large_m_plans``' comment; 4096x7168
# M = 256 from session 31's ``tools/split_fixup_probe.py``: 128-token tiles in two pieces)
FASTEST_PLAIN_PLAN = {
    (7168, 18432, 256): [(128, 1, False, False), (128, 1, True, False)],
    (5120, 17408, 256): [(128, 1, True, False)], (9216, 7168, 256): [(128, 1, True, False)],
    (4096, 7168, 256): [(128, 2, False, False)], (7168, 2048, 256): [(128, 1, False, False)],
    (9216, 7168, 512): [(128, 1, True, False)], (4096, 7168, 512): [(128, 1, False, False)],
    (7168, 2048, 512): [(256, 1, False, False)], (9216, 7168, 129): [(128, 1, True, False)],
    (7168, 18432, 129): [(128, 1, False, False), (128, 1, True, False)],
}


def test_plain_plan_past_128_tokens_is_the_fastest_measured(without_fitted_tiles):
    """``plain_plan`` takes ``mid_m_launch``'s launch at 129..512 tokens (a few waves, no K
    split); K splits, launches of many waves and more tokens keep their plans (before the
    fitted token tiles, which take some of these points)."""
    from cute_kernels.large_m_plans import plain_plan

    for (n, k, m), fastest in FASTEST_PLAIN_PLAN.items():
        assert plain_plan(m, n, k) in fastest, (n, k, m)
    assert plain_plan(256, 1024, 7168)[1] > 1                  # 8 row tiles: split-K stays
    assert plain_plan(256, 36864, 7168) == (256, 1, True, False)  # 4.4 waves: stream_k_plan
    assert plain_plan(128, 4096, 7168) == (128, 4, False, False)  # M <= 128: large_m_plan
    # past PLAIN_MID_M_MAX 256-token tiles, as session 25 measured fastest at M = 1024
    # (mid_m_launch's 128-token stream-K was 8-20% slower there)
    assert plain_plan(1024, 7168, 18432) == (256, 1, True, False)   # long K: stream-K
    assert plain_plan(1024, 5120, 17408) == (256, 1, True, False)
    assert plain_plan(1024, 7168, 2048) == (256, 1, False, False)


def test_narrow_whole_wave_takes_whole_128_token_tiles_over_256_token_stream_k(monkeypatch):
    """A 256-token stream-K plan gives way to whole 128-token tiles that fill one wave to
    ``NARROW_WHOLE_MIN_FILL`` (1024x7168 M = 2048: 56.9 -> 46.8 us on the H200); fewer tiles
    keep stream-K, and no weight of issue 5's list changes plan at 129..16384 tokens."""
    from cute_kernels import large_m_plans
    from cute_kernels.bench.nvfp4_gemm_suite import SHAPES as ISSUE_5_WEIGHTS
    from cute_kernels.large_m_plans import (narrow_whole_wave, plain_plan,
                                            plain_plan_before_lanes_128, stream_k_plan)

    assert stream_k_plan(2048, 1024, 7168) == (256, False)
    assert plain_plan(2048, 1024, 7168) == (128, 1, False, False)    # 128 tiles of 132
    # 112 tiles, 85%: stream-K stays (``plain_narrow_launch`` then takes whole 128-token tiles)
    assert plain_plan_before_lanes_128(1792, 1024, 7168) == (256, 1, True, False)
    assert not narrow_whole_wave(2049, 1024)                          # 136 tiles: two waves
    ms = range(129, 16385, 3)
    plans = {(n, k, m): plain_plan(m, n, k) for n, k in ISSUE_5_WEIGHTS for m in ms}
    plain_plan.cache_clear()
    monkeypatch.setattr(large_m_plans, "narrow_whole_wave", lambda m, n: False)
    try:
        for (n, k, m), plan in plans.items():
            assert plain_plan(m, n, k) == plan, (n, k, m)
    finally:
        plain_plan.cache_clear()  # (the cache must not keep the rule-less plans)


# (N, K, M) -> the faster of the plan before each of session 64's rules and the rule's, H200
# (``plain_narrow_launch``, ``plain_part_wave_lanes``, ``PLAIN_STREAM_K_FOR_SHORT_HYBRID``:
# the comments above them have the times)
WHOLE_128, STREAM_K_128 = (128, 1, False, False), (128, 1, True, False)
SESSION_64_FASTER_PLANS = {
    (7168, 18432, 800): WHOLE_128, (7168, 18432, 1100): WHOLE_128,
    (5120, 17408, 1100): WHOLE_128, (5120, 17408, 2048): WHOLE_128,
    (9216, 7168, 800): WHOLE_128, (9216, 7168, 1100): WHOLE_128, (9216, 7168, 1300): WHOLE_128,
    (36864, 7168, 1300): WHOLE_128,
    (7168, 18432, 513): STREAM_K_128, (7168, 18432, 600): STREAM_K_128,
    (5120, 17408, 513): STREAM_K_128, (5120, 17408, 600): STREAM_K_128,
    (7168, 2048, 513): STREAM_K_128, (7168, 2048, 600): STREAM_K_128,
    (36864, 7168, 300): STREAM_K_128, (36864, 7168, 384): STREAM_K_128,
    (34816, 5120, 300): STREAM_K_128, (34816, 5120, 384): STREAM_K_128,
    (34816, 5120, 513): STREAM_K_128, (34816, 5120, 600): STREAM_K_128,
    # the 256-token plans the 128-token stream-K or whole tiles lost to
    (7168, 18432, 700): (256, 1, True, False), (7168, 18432, 900): (256, 1, True, False),
    (7168, 18432, 1024): (256, 1, True, False), (5120, 17408, 800): (256, 1, True, False),
    (5120, 17408, 900): (256, 1, True, False), (5120, 17408, 1024): (256, 1, True, False),
    (5120, 17408, 2100): (256, 1, False, False), (7168, 2048, 900): (256, 1, False, False),
    (7168, 2048, 1024): (256, 1, False, False), (36864, 7168, 800): (256, 1, False, False),
    (36864, 7168, 1100): (256, 1, False, False), (4096, 7168, 2500): (256, 1, True, False),
    (4096, 7168, 1536): STREAM_K_128,   # the 128-token lanes (``plain_lanes_128``)
    # plain_part_wave_lanes
    (4096, 7168, 260): STREAM_K_128, (4096, 7168, 300): STREAM_K_128,
    (4096, 7168, 384): STREAM_K_128, (4096, 7168, 450): WHOLE_128,
    # PLAIN_STREAM_K_FOR_SHORT_HYBRID
    (7168, 2048, 1200): (256, 1, True, False), (7168, 2048, 2350): (256, 1, True, False),
    (7168, 2048, 3000): (256, 1, True, False), (7168, 2048, 4750): (256, 1, True, False),
}


def test_session_64_plain_rules_take_the_faster_launch_measured(without_fitted_tiles):
    """(Before the fitted token tiles, faster still at some of these points.)"""
    from cute_kernels.large_m_plans import plain_plan

    for (n, k, m), plan in SESSION_64_FASTER_PLANS.items():
        assert plain_plan(m, n, k) == plan, (n, k, m)


def _assert_nvfp4_words_and_bytes_match_fp64(m: int, n: int, k: int, fp4_a: bool = True):
    """``nvfp4_gemm``, NVFP4 activations (``fp4_a``; else bf16 ones, W4A16) on permuted words
    and on packed bytes, fp32 out poisoned with NaN, against the fp64 product."""
    from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight

    x, b, b_sf, alpha = _inputs(m, n, k)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4_a else (x, None)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    for weights in (prepare_nvfp4_weight(b), b):
        out = poisoned(m, n, dtype=torch.float32)
        nvfp4_gemm(a, a_sf, weights, b_sf, alpha, out_dtype=torch.float32, out=out)
        torch.cuda.synchronize()
        assert not out.isnan().any()
        assert _rel_err(out, want) <= 1e-3, weights.dtype


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1900, 2048])
def test_narrow_whole_wave_plan_matches_fp64_reference(m):
    """``nvfp4_gemm`` on ``narrow_whole_wave``'s plan (whole 128-token tiles, one wave of 128
    and 120 tiles: 1024x7168 at 2048 and 1900 tokens, the last tile 108 tokens), NVFP4
    activations on permuted words and on packed bytes, against the fp64 product."""
    from cute_kernels.large_m_plans import plain_plan

    n, k = 1024, 7168
    assert plain_plan(m, n, k) == (128, 1, False, False)
    _assert_nvfp4_words_and_bytes_match_fp64(m, n, k)


@pytest.mark.gpu
@pytest.mark.parametrize("n, m, plan", [(2048, 600, STREAM_K_128), (2048, 800, WHOLE_128),
                                        (4096, 300, STREAM_K_128)])
def test_plain_128_token_rules_match_fp64_reference(n, m, plan):
    """``nvfp4_gemm`` on ``plain_narrow_launch``'s plans (2048x7168: the 128-token stream-K at
    600 tokens, whole 128-token tiles at 800; last tiles of 88 and 32 tokens) and
    ``plain_part_wave_lanes``' (4096x7168 at 300 tokens: stream-K in 32 lanes, last tile 44),
    NVFP4 activations on permuted words and on packed bytes, against the fp64 product."""
    from cute_kernels.large_m_plans import packed_plan, plain_plan

    k = 7168
    assert plain_plan(m, n, k) == plan and packed_plan(m, n, k)[0] == 128
    _assert_nvfp4_words_and_bytes_match_fp64(m, n, k)


def test_wide_pieces_needs_one_wave_and_long_pieces():
    """``wide_pieces``: whole 64-token tiles in one wave, two 128-token pieces in one wave,
    at least ``WIDE_PIECES_MIN_K_TILES`` k-tiles a piece, more than 64 tokens."""
    from cute_kernels.large_m_plans import WIDE_PIECES_MIN_K_TILES, wide_pieces

    assert wide_pieces(256, 4096, 7168) and wide_pieces(1024, 1024, 7168)
    assert not wide_pieces(64, 4096, 7168)                       # one 64-token tile
    assert not wide_pieces(257, 4096, 7168)                      # 160 64-token tiles
    assert not wide_pieces(256, 9216, 7168)                      # 72 row tiles: 144 pieces
    assert not wide_pieces(128, 7168, 2048)                      # 16 k-tiles a piece
    assert not wide_pieces(256, 4096, 64 * (2 * WIDE_PIECES_MIN_K_TILES - 2))
    assert wide_pieces(256, 4096, 64 * 2 * WIDE_PIECES_MIN_K_TILES)


# ------------------------------------------------------------------------- stream-K
@pytest.mark.parametrize("n,k,tile_m", [(9216, 7168, 256), (200, 576, 64), (9216, 7168, 32),
                                        (7168, 18432, 16)])
def test_stream_k_compiles_for_sm90a(n, k, tile_m):
    assert compile_only(compile_nvfp4_gemm_large_m, n, k, "torch.bfloat16", tile_m, 0, H200_SMS,
                        1, True)


def test_stream_k_two_k_groups_compiles_for_sm90a():
    """``stream_k_groups``'s launch: 32-token tiles, permuted words, two K groups a stage."""
    assert compile_only(compile_nvfp4_gemm_large_m, 36864, 7168, "torch.bfloat16", 32, 0,
                        H200_SMS, 1, True, False, True, 1, 2)


def test_stream_k_four_k_groups_compile_for_sm90a():
    """The probe-only four K groups a stage (``tools/stream_shape_probe.py``): 16-token
    stream-K tiles, permuted words, no local memory."""
    compiled = compile_only(compile_nvfp4_gemm_large_m, 9216, 7168, "torch.bfloat16", 16, 0,
                            H200_SMS, 1, True, False, KOrder.PERMUTED, 1, 4)
    assert kernel_frame_bytes(compiled) == 0


@pytest.mark.parametrize("tile_m,stream_k", [(64, False), (32, True)])
@pytest.mark.parametrize("k_order", [KOrder.PERMUTED, KOrder.PAIRS])
def test_two_ctas_per_sm_fit_80_registers(tile_m, stream_k, k_order):
    """Two CTAs of 384 threads per SM need at most 80 registers each at launch."""
    compiled = compile_only(compile_nvfp4_gemm_large_m, 9216, 7168, "torch.bfloat16", tile_m, 0,
                            2 * H200_SMS, 1, stream_k, False, int(k_order), 2)
    assert max(kernel_registers(compiled)) <= 80


def test_stage_caps():
    """``stage_cap`` (H200 probes, sessions 19 and 20): 16- and 32-token tiles at two CTAs an SM
    hold at most 5 stages; one CTA at most 6 with two K groups a stage, 7 with 64-token tiles,
    else as many as fit up to 8; given stages stay."""
    def stages(tile_m, ctas, k_groups=1, given=0):
        return NVFP4GemmLargeM(34816, 5120, cutlass.BFloat16, tile_m, given, ctas * H200_SMS,
                               stream_k=True, k_order=KOrder.PERMUTED, ctas_per_sm=ctas,
                               k_groups=k_groups).stages
    assert stages(16, 2, 2) == stages(32, 2, 2) == stages(32, 2) == 5
    assert stages(16, 1, 2) == stages(32, 1, 2) == 6
    assert stages(64, 1) == 7 and stages(64, 2) == 5
    assert stages(16, 1) == stages(32, 1) == stages(128, 1) == 8
    assert stages(16, 2, 2, given=7) == 7
    assert stages(32, 1, 2, given=8) == stages(64, 1, given=8) == 8


def test_prefetch_before_the_pdl_wait():
    """``PREFETCH_K`` (H200 probe, session 40): 256 K elements of weights (two k-tiles of two K
    groups, four of one), at least one k-tile; 64-token tiles of one K group a stage, and
    ``PREFETCH_K = None``, prefetch as many k-tiles as there are stages."""
    def tiles(tile_m, k_groups=1, prefetch_k=256):
        kernel = NVFP4GemmLargeM(34816, 5120, cutlass.BFloat16, tile_m, 0, H200_SMS,
                                 stream_k=True, k_order=KOrder.PERMUTED, k_groups=k_groups)
        kernel.PREFETCH_K = prefetch_k
        return kernel.prefetch_k_tiles(), kernel.stages
    assert tiles(16, 2) == (2, 6) and tiles(32, 2) == (2, 6) and tiles(64, 2)[0] == 2
    assert tiles(16)[0] == tiles(128)[0] == tiles(256)[0] == 4
    assert tiles(64) == (7, 7)
    assert tiles(16, 2, 64) == (1, 6) and tiles(16, 2, None) == (6, 6)


def test_stream_k_plan():
    """Stream-K where whole tiles leave the last wave mostly empty (H200 probe, 2026-11-30):
    the tile is the narrowest holding M; the plain GEMM needs 40 k-tiles per CTA and takes the
    hybrid from two full waves below 90%; the fused kernel halves the tile below SMs / 2
    tiles."""
    assert stream_k_plan(64, 36864, 7168) == (64, False)       # 288 tiles: 2.18 waves
    assert stream_k_plan(32, 36864, 7168) == (32, False)       # 32-token tiles at M <= 32
    assert stream_k_plan(16, 36864, 7168) == (16, False)       # 16-token tiles at M <= 16
    assert stream_k_plan(16, 36864, 7168, fused=True) == (64, False)
    assert stream_k_plan(32, 36864, 7168, fused=True) == (64, False)
    assert stream_k_plan(256, 9216, 7168) == (128, False)      # 72 tiles of 256: cut finer
    assert stream_k_plan(256, 7168, 18432) == (256, False)     # 56 tiles, 16128 units
    assert stream_k_plan(1024, 36864, 7168) is None            # 1152 tiles: 8.7 waves, 97%
    assert stream_k_plan(1024, 34816, 5120) is None            # 92% full
    assert stream_k_plan(512, 36864, 7168) == (256, True)      # 576: 4.4 waves, 87% full
    assert stream_k_plan(512, 34816, 5120) == (256, True)      # 82% full
    assert stream_k_plan(1024, 9216, 7168) == (256, True)      # 288 tiles, 73% full
    assert stream_k_plan(1024, 5120, 17408) == (256, False)    # 160 tiles: no whole wave
    assert stream_k_plan(256, 4096, 7168) == (128, False)      # 64 tiles of 128
    assert stream_k_plan(200, 7168, 2048) is None      # 16 k-tiles a CTA: split-K instead
    assert stream_k_plan(512, 4096, 7168) == (256, False)
    assert all(stream_k_plan(m, 7168, 2048) is None for m in (32, 64, 128, 256, 512, 1024))
    assert stream_k_plan(100, 5120, 17408) == (128, False)
    assert stream_k_plan(256, 4096, 7168, fused=True) == (128, False)  # 32 tiles of 256
    assert stream_k_plan(1024, 1024, 7168, fused=True) == (128, False)  # 32 tiles of 256
    assert stream_k_plan(256, 9216, 7168, fused=True) == (256, False)  # 72 tiles
    assert stream_k_plan(256, 36864, 7168, fused=True) == (256, False)  # 288 tiles
    assert stream_k_plan(256, 1024, 7168, fused=True) == (128, False)  # 8 tiles: cut finer
    assert stream_k_plan(128, 1024, 7168, fused=True) == (64, False)
    assert stream_k_plan(512, 36864, 7168, fused=True) is None  # 87%: above the fused 85%


def test_stream_k_ctas():
    """Two CTAs per SM on 16- and 32-token stream-K tiles with >= 150 units an SM (H200 A/Bs,
    sessions 18 and 21); the fused kernel's 64-token tiles take two CTAs and two K groups."""
    assert stream_k_ctas(32, 36864, 7168, 32) == 2           # 244 units an SM
    assert stream_k_ctas(16, 34816, 5120, 32) == 2           # 165
    assert stream_k_ctas(64, 34816, 5120, 64) == 1           # 64-token tiles keep one
    assert stream_k_ctas(32, 7168, 18432, 32) == 1           # 122
    assert stream_k_ctas(128, 36864, 7168, 128) == 1         # wider tiles
    assert fused_stream_k_options(64, 36864, 7168, 64) == {"ctas_per_sm": 2, "k_groups": 2}
    assert fused_stream_k_options(64, 34816, 5120, 64) == {"ctas_per_sm": 2, "k_groups": 2}
    assert fused_stream_k_options(64, 7168, 18432, 64) == {}
    assert fused_stream_k_options(256, 36864, 7168, 128) == {}
    assert plain_launch_options(32, 36864, 7168, 32, True) == {"ctas_per_sm": 2, "k_groups": 2}
    assert plain_launch_options(32, 9216, 7168, 32, True) == {"ctas_per_sm": 1, "k_groups": 2}
    assert plain_launch_options(32, 4096, 7168, 32, False) == {}


def test_stream_k_groups():
    """Two K groups a stage on 16- and 32-token stream-K tiles with >= 60 units a CTA (H200
    A/B, session 80), one elsewhere: wider tiles, fewer units, K / 64 odd."""
    assert stream_k_groups(32, 36864, 7168, 32) == 2         # 244 units a CTA
    assert stream_k_groups(17, 5120, 17408, 32) == 2         # 82
    assert stream_k_groups(32, 9216, 7168, 32) == 2          # 61
    assert stream_k_groups(16, 9216, 7168, 16) == 2          # 61 on 16-token tiles
    assert stream_k_groups(16, 4608, 7168, 16) == 1          # 30
    assert stream_k_groups(64, 36864, 7168, 64) == 1         # 64-token tiles
    assert stream_k_groups(32, 36864, 7232, 32) == 1         # 113 k-tiles: no pairs
    assert stream_k_groups(32, 36864, 7168, 32, sms=1000) == 1


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config", [
    (129, 200, 576, (64, 0, 5)),      # 6 tiles x 9 k-tiles on 5 CTAs: pieces cross tiles
    (129, 200, 576, (64, 0)),         # 54 units on 54 CTAs: every tile in 9 one-k-tile pieces
    (777, 1160, 832, (128, 2, 7)),    # 63 tiles x 13 k-tiles on 7 CTAs, 2 stages
    (256, 1152, 7168, (256, 0)),      # 9 tiles of 112 k-tiles: ~8 k-tiles a CTA
    (5, 1160, 1024, (64, 0, 13)),     # one token tile, a tail of 5 tokens
    (45, 1160, 1024, (32, 0, 13)),    # two 32-token tiles, a tail of 13 tokens
    (13, 1160, 1024, (16, 0, 13)),    # one 16-token tile, 13 tokens
    (45, 1160, 1024, (16, 0)),        # three 16-token tiles, a tail of 13 tokens
])
@pytest.mark.parametrize("out_dtype", [torch.float32, torch.bfloat16])
def test_stream_k_matches_fp64_reference(m, n, k, config, out_dtype):
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    alpha_t = torch.full((1,), alpha, device="cuda")
    out = poisoned(m, n, dtype=out_dtype)
    launch_large_m(a, b, b_sf, alpha_t, out, config, stream_k=True)
    torch.cuda.synchronize()
    assert not out.isnan().any()
    assert _rel_err(out, want) <= (1e-3 if out_dtype == torch.float32 else 4e-3)
    # deterministic (pieces added in order, whichever CTA finishes a tile), also in a graph
    # replay (the counters were reset)
    again = poisoned(m, n, dtype=out_dtype)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        launch_large_m(a, b, b_sf, alpha_t, again, config, stream_k=True)
    for _ in range(2):
        again.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        torch.testing.assert_close(again, out, rtol=0, atol=0)


def test_stream_k_hybrid_compiles_for_sm90a():
    assert compile_only(compile_nvfp4_gemm_large_m, 9216, 7168, "torch.bfloat16", 256, 0,
                        H200_SMS, 1, True, True)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config", [
    (777, 1160, 832, (64, 0, 7)),     # 130 tiles on 7 CTAs: 119 whole, 11 in stream-K
    (1000, 1160, 576, (128, 2, 13)),  # 80 tiles on 13 CTAs: 65 whole, 15 in stream-K
    (129, 200, 576, (64, 0, 5)),      # 6 tiles on 5 CTAs: fewer than two waves, all stream-K
])
def test_stream_k_hybrid_matches_fp64_reference(m, n, k, config):
    """Hybrid (written in session 6, not yet run on a GPU): whole tiles for all but the last
    one to two waves' worth, stream-K for those."""
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    alpha_t = torch.full((1,), alpha, device="cuda")
    outs = []
    for _ in range(2):
        out = poisoned(m, n, dtype=torch.float32)
        launch_large_m(a, b, b_sf, alpha_t, out, config, stream_k=True, hybrid=True)
        torch.cuda.synchronize()
        outs.append(out)
    assert not outs[0].isnan().any()
    assert _rel_err(outs[0], want) <= 1e-3
    torch.testing.assert_close(outs[1], outs[0], rtol=0, atol=0)


@pytest.mark.gpu
def test_arrival_counters_are_kept_per_stream_and_left_zero():
    """One counter buffer per stream (and per graph capture) instead of a memset per call: the
    stream-K and split kernels leave it zero."""
    from cute_kernels.arrival_counters import arrival_counters

    dev = torch.device("cuda")
    first = arrival_counters(10, dev)
    assert arrival_counters(20, dev).data_ptr() == first.data_ptr()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        assert arrival_counters(10, dev).data_ptr() != first.data_ptr()
    a, b, b_sf, alpha = _inputs(129, 200, 576)
    out = poisoned(129, 200, dtype=torch.float32)
    for config in ((64, 0), (64, 0, 5)):  # every tile cut into pieces, then across tiles
        launch_large_m(a, b, b_sf, torch.full((1,), alpha, device="cuda"), out, config,
                       stream_k=True)
    torch.cuda.synchronize()
    assert not arrival_counters(1024, dev).any()


def switch_keeps_bits(monkeypatch, attr: str, values: tuple, m: int, config: tuple,
                      options: dict, k_order, shape: tuple = (1160, 1664)) -> None:
    """``launch_large_m`` of an N x K ``shape`` weight (default 1160x1664) with
    ``NVFP4GemmLargeM.attr`` set to each of ``values`` in turn (the first the reference form):
    every launch's fp32 and bf16 outputs equal the first's bit for bit, and the fp32 one is
    within 1e-3 of the fp64 reference (K 1664 cuts stream-K pieces of odd and even k-tile
    counts). ``KOrder.BF16``: the weights decoded to bf16 first (``bf16_weights``)."""
    from cute_kernels.bf16_weights import bf16_weights
    from cute_kernels.nvfp4_dequant import bf16_activations
    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM
    from cute_kernels.permuted_fp4 import prepare_nvfp4_weight

    n, k = shape
    a, b, b_sf, alpha = _inputs(m, n, k)
    x = bf16_activations(a, None, k_order, -(-m // config[0]) * config[0])
    words = prepare_nvfp4_weight(b) if k_order in (KOrder.PERMUTED, KOrder.BF16) else b
    if k_order == KOrder.BF16:
        words = bf16_weights(words, b_sf)
    alpha_t = torch.full((1,), alpha, device="cuda")
    outs = {}
    for value in values:
        monkeypatch.setattr(NVFP4GemmLargeM, attr, value)
        for dtype in (torch.float32, torch.bfloat16):
            out = poisoned(m, n, dtype=dtype)
            launch_large_m(x, words, b_sf, alpha_t, out, config, k_order=k_order,
                           compile_fn=compile_nvfp4_gemm_large_m.uncached, **options)
            torch.cuda.synchronize()
            assert not out.isnan().any()
            outs.setdefault(dtype, []).append(out)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    assert _rel_err(outs[torch.float32][1], want) <= 1e-3
    for got in outs.values():
        for out in got[1:]:
            assert torch.equal(out, got[0])
