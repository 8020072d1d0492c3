"""The balanced one-token launch (``nvfp4_gemm_balanced``): compile-only and its arithmetic on
CPU; on a GPU, against the fp64 reference and deterministic across calls."""

import functools
from types import SimpleNamespace

import cutlass
import pytest
import torch

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_balanced, nvfp4_gemm_swiglu_quant,
                          prepare_gate_up_weight, prepare_nvfp4_weight, reference,
                          restore_gate_up_weight)
from cute_kernels import arch
from cute_kernels.arch import sm_count
from cute_kernels.nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced, balanced_shape,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced, one_token_balanced)
from cute_kernels.swiglu_quant_balanced import (NVFP4GemmSwigluQuantBalanced,
                                                compile_nvfp4_gemm_swiglu_quant_balanced,
                                                launch_swiglu_quant_balanced)
from cute_kernels.testing import (compile_only, ctas_per_sm, kernel_frame_bytes,
                                  kernel_registers, switched_compiler)
from layouts import sf_padded_shape
from tests.conftest import poisoned
from tests.test_nvfp4_gemm import _quantized
from tests.test_nvfp4_gemm_swiglu_quant import _check_against_reference, _inputs

H200 = 132


@pytest.mark.parametrize("n,k,a_dtype,warps,per_sm,permuted", [
    (9216, 7168, "fp4", 4, 4, True),             # 576 blocks on 528 CTAs: 48 cut in 11
    (5120, 17408, "fp4", 8, 2, True),            # 320 blocks on 264 CTAs: 56 cut in 4-5
    (2912, 576, "torch.bfloat16", 2, 1, False),  # W4A16, packed bytes, a K tail of 64
    (2112, 1024, "fp4", 4, 1, False),            # 132 blocks on 132 CTAs: no pieces
])
def test_balanced_compiles_for_sm90a(n, k, a_dtype, warps, per_sm, permuted):
    assert compile_only(compile_nvfp4_gemm_one_token_balanced, n, k, a_dtype,
                        "torch.bfloat16", warps, per_sm, H200, permuted)


@pytest.mark.parametrize("n,k,warps,per_sm,a_dtype", [
    (9216, 7168, 4, 4, "fp4"), (5120, 17408, 8, 2, "fp4"), (9216, 7168, 8, 3, "fp4"),
    (7168, 18432, 4, 3, "fp4"), (5120, 17408, 12, 2, "fp4"), (7168, 18432, 8, 3, "fp4"),
    # W4A16's public forms (``PUBLIC_W4A16_BALANCED_CTAS_PER_SM``)
    (5120, 17408, 12, 2, "torch.bfloat16"), (7168, 18432, 8, 3, "torch.bfloat16"),
    (9216, 7168, 8, 3, "torch.bfloat16"), (5120, 17408, 8, 2, "torch.bfloat16")])
def test_balanced_fits_its_ctas_per_sm(n, k, warps, per_sm, a_dtype):
    """The whole grid is one wave only if ``per_sm`` CTAs of K warps + the fix-up warp fit an
    SM's registers (the launch bound's job), without spilling."""
    compiled = compile_only(compile_nvfp4_gemm_one_token_balanced, n, k, a_dtype,
                            "torch.bfloat16", warps, per_sm, H200, True)
    regs = kernel_registers(compiled)
    assert regs and ctas_per_sm(max(regs), warps + 1) >= per_sm, regs
    assert kernel_frame_bytes(compiled) == 0


@pytest.mark.parametrize("n,k,warps,per_sm", [(9216, 7168, 4, 4), (5120, 17408, 8, 2),
                                              (2128, 1088, 4, 1), (2912, 576, 2, 1)])
def test_pieces_cut_each_remainder_block_along_k(n, k, warps, per_sm):
    """Every CTA holds one piece; the pieces of each remainder block are its K steps in order,
    numbered 0 .. parts - 1, at most ``slots`` of them (empty ones where a block has more
    pieces than steps: 2128 rows are 133 blocks, one cut in 132)."""
    kernel = NVFP4GemmOneTokenBalanced(n, k, True, cutlass.BFloat16, warps, per_sm, H200)
    blocks: dict = {}
    for cta in range(kernel.ctas):
        block, part, parts, p0, p1 = kernel._piece(cta)
        blocks.setdefault(block, []).append((part, parts, p0, p1))
    assert sorted(blocks) == list(range(kernel.rem))
    for pieces in blocks.values():
        parts = pieces[0][1]
        assert parts <= kernel.slots and [p[:2] for p in pieces] == [(i, parts)
                                                                     for i in range(parts)]
        ends = [p0 for _, _, p0, _ in pieces] + [pieces[-1][3]]
        assert ends[0] == 0 and ends[-1] == kernel.steps and ends == sorted(ends)
        assert all(p1 == p0 for (_, _, _, p1), p0 in zip(pieces, ends[1:]))


def test_balanced_refuses_what_it_cannot_launch():
    with pytest.raises(ValueError, match="ctas <= N / 16 < 2 ctas"):
        balanced_shape(9216, 600)          # fewer blocks than CTAs
    with pytest.raises(ValueError, match="ctas <= N / 16 < 2 ctas"):
        balanced_shape(16 * 264, 132)      # two whole blocks a CTA
    with pytest.raises(ValueError, match="N a multiple of 16"):
        balanced_shape(9224, 528)
    assert balanced_shape(9216, 528) == (48, 11) and balanced_shape(2112, 132) == (0, 0)
    with pytest.raises(ValueError, match="a K step"):
        NVFP4GemmOneTokenBalanced(2112, 512, True, cutlass.BFloat16, 4, 1, H200)
    a = torch.zeros(2, 256, dtype=torch.uint8)
    with pytest.raises(ValueError, match="one token; got M=2"):
        launch_one_token_balanced(a, None, None, None, None, None)


def _case(per_sm, extra, k, fp4_a, permuted):
    """Inputs of a balanced launch on this device: ``per_sm`` x SMs CTAs, ``extra`` more row
    blocks than CTAs (a fraction of them)."""
    ctas = per_sm * sm_count(torch.cuda.current_device())
    n = 16 * (ctas + round(extra * ctas))
    b, b_sf, _ = _quantized(n, k, "cuda")
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16) * 3
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4_a else (x, None)
    alpha = torch.full((1,), float(torch.rand(()) * 2 + 0.1), device="cuda")
    return n, a, a_sf, (prepare_nvfp4_weight(b) if permuted else b), b, b_sf, alpha


@pytest.mark.gpu
@pytest.mark.parametrize("per_sm,extra,k,fp4_a,permuted,warps", [
    (4, 1 / 11, 7168, True, True, 4),     # 9216x7168 on the H200
    (2, 56 / 264, 17408, True, True, 8),  # 5120x17408 on the H200
    (1, 50 / 132, 576, False, False, 2),  # W4A16, packed bytes, a K tail
    (1, 0.0, 1024, True, False, 4),       # no remainder blocks
    (1, 1 / 132, 1088, True, True, 4),    # one remainder block in more pieces than steps
    (3, 0.5, 2048, True, True, 4),        # half the CTAs' pieces from 0.5 blocks
    (3, 52 / 396, 4096, True, True, 8),   # 7168 rows on 132 SMs: the public (8, 3)
    (3, 180 / 396, 7168, True, True, 8),  # 9216x7168 on the H200: the public (8, 3)
    (2, 56 / 264, 17408, True, True, 12),  # 5120x17408 on the H200: the public (12, 2)
    (2, 56 / 264, 17408, False, True, 12),  # its W4A16
])
def test_balanced_matches_fp64_reference(per_sm, extra, k, fp4_a, permuted, warps):
    n, a, a_sf, words, b, b_sf, alpha = _case(per_sm, extra, k, fp4_a, permuted)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    got = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, got, warps, per_sm)
    assert not got.isnan().any()
    err = ((got.double() - want).norm() / want.norm()).item()
    assert err <= 1e-3
    again = poisoned(1, n, dtype=torch.float32)  # the counters were left zero: same bits
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, again, warps, per_sm)
    assert torch.equal(got, again)
    for dtype in (torch.bfloat16, torch.float16):  # one rounding of the same fp32 sums
        low = poisoned(1, n, dtype=dtype)
        launch_one_token_balanced(a, a_sf, words, b_sf, alpha, low, warps, per_sm)
        assert torch.equal(low, got.to(dtype)), dtype


@pytest.mark.parametrize("n,k,a_dtype,warps,per_sm,slots", [
    (9216, 7168, "fp4", 8, 3, 2), (9216, 7168, "fp4", 4, 4, 3),
    (5120, 17408, "torch.bfloat16", 12, 2, 2), (9216, 7168, "torch.bfloat16", 8, 3, 2),
    (16 * 132, 1024, "fp4", 4, 1, 2)])  # no remainder blocks: the walks' pieces are empty
def test_balanced_ring_fits_its_ctas_per_sm(n, k, a_dtype, warps, per_sm, slots):
    """The probe-only cp.async ring (``ring_slots``): no local memory, the launch bound's
    registers, and the ring's shared memory leaves room for ``per_sm`` CTAs (1 KB reserved
    each, 228 KB an SM)."""
    compiled = compile_only(compile_nvfp4_gemm_one_token_balanced, n, k, a_dtype,
                            "torch.bfloat16", warps, per_sm, H200, True, False, slots)
    regs = kernel_registers(compiled)
    assert regs and ctas_per_sm(max(regs), warps + 1) >= per_sm, regs
    assert kernel_frame_bytes(compiled) == 0
    kernel = NVFP4GemmOneTokenBalanced(n, k, a_dtype == "fp4", cutlass.BFloat16, warps, per_sm,
                                       H200, True, ring_slots=slots)
    assert per_sm * (kernel.smem_bytes + 1024) <= 228 * 1024, kernel.smem_bytes


def test_balanced_ring_refuses_one_slot_and_row_groups():
    with pytest.raises(ValueError, match="at least 2 slots"):
        NVFP4GemmOneTokenBalanced(9216, 7168, True, cutlass.BFloat16, 8, 3, H200, True,
                                  ring_slots=1)
    with pytest.raises(ValueError, match="one row group"):
        NVFP4GemmOneTokenBalanced(9216, 7168, True, cutlass.BFloat16, 8, 3, H200, True,
                                  row_groups=2, ring_slots=2)


@pytest.mark.gpu
@pytest.mark.parametrize("per_sm,extra,k,fp4_a,permuted,warps,slots", [
    (3, 180 / 396, 7168, True, True, 8, 2),    # 9216x7168's (8, 3)
    (4, 1 / 11, 7168, True, True, 4, 3),       # 9216x7168's (4, 4)
    (2, 56 / 264, 17408, False, True, 12, 2),  # W4A16 5120x17408's (12, 2)
    (1, 50 / 132, 576, False, False, 2, 2),    # W4A16, packed bytes, a K tail
    (1, 1 / 132, 1088, True, True, 4, 3),      # pieces of no step: walks shorter than the ring
    (1, 0.0, 1024, True, False, 4, 2),         # no remainder blocks
])
def test_balanced_ring_gives_the_register_paths_bits(per_sm, extra, k, fp4_a, permuted, warps,
                                                     slots):
    """The ring moves only the loads: each warp walks the same steps in the same order, so
    its sums are the register double buffer's, bit for bit, and match the fp64 reference."""
    n, a, a_sf, words, b, b_sf, alpha = _case(per_sm, extra, k, fp4_a, permuted)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    plain = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, plain, warps, per_sm)
    for _ in range(2):  # the counters are left zero
        got = poisoned(1, n, dtype=torch.float32)
        launch_one_token_balanced(a, a_sf, words, b_sf, alpha, got, warps, per_sm,
                                  ring_slots=slots)
        assert not got.isnan().any()
        assert ((got.double() - want).norm() / want.norm()).item() <= 1e-3
        assert torch.equal(got, plain)


# ---- the fused op on the balanced grid (swiglu_quant_balanced)
@pytest.mark.parametrize("i,k,a_dtype,warps,per_sm,permuted", [
    (4608, 7168, "fp4", 8, 2, True),             # 288 blocks on 264 CTAs: 24 cut in 11
    (2624, 1088, "torch.bfloat16", 4, 1, False),  # W4A16, packed bytes, a K tail
    (4608, 7168, "torch.bfloat16", 8, 2, True),  # W4A16's public 9216x7168 (session 76)
])
def test_fused_balanced_compiles_for_sm90a(i, k, a_dtype, warps, per_sm, permuted):
    compiled = compile_only(compile_nvfp4_gemm_swiglu_quant_balanced, i, k, a_dtype, warps,
                            per_sm, H200, permuted)
    assert ctas_per_sm(max(kernel_registers(compiled)), warps + 1) >= per_sm
    assert kernel_frame_bytes(compiled) == 0


def test_fused_balanced_blocks_are_up_and_gate_tiles():
    """A block is 16 output columns: its up tile, then its gate tile 64 rows on (the
    interleave), one row group each; 2I = 9216 is 288 blocks, 24 past 264 CTAs."""
    kernel = NVFP4GemmSwigluQuantBalanced(4608, 7168, True, 8, 2, H200)
    assert (kernel.rem, kernel.slots, kernel.rg, kernel.kw) == (24, 11, 2, 4)
    assert [kernel.warp_tile_row(5, gr, 0) for gr in (0, 1)] == [128 + 16, 128 + 64 + 16]
    with pytest.raises(ValueError, match="multiple of 64"):
        NVFP4GemmSwigluQuantBalanced(4616, 7168, True, 8, 2, H200)


def _fused_one_token_runs(per_sm, extra, k, fp4_a, permuted, warps, compile_fns):
    """(inputs, [(codes, scale bytes)] of one balanced fused launch a compile function, on
    outputs poisoned with 0xFF): ``per_sm`` CTAs an SM and ``extra`` more blocks than CTAs."""
    ctas = per_sm * sm_count(torch.cuda.current_device())
    i = 16 * (ctas + extra) // 64 * 64
    a, a_sf, w, w_sf, alpha, g_out = _inputs(1, i, k, fp4_a)
    if permuted:
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    alpha_t = torch.full((1,), alpha, device="cuda")
    g_t = torch.full((1,), g_out, device="cuda")
    runs = []
    for fn in compile_fns:
        out = torch.full((1, i // 2), 0xFF, dtype=torch.uint8, device="cuda")
        out_sf = torch.full(sf_padded_shape(1, i // 16), 0xFF, dtype=torch.uint8,
                            device="cuda")
        launch_swiglu_quant_balanced(a, a_sf, w, w_sf, alpha_t, g_t, out, out_sf, warps,
                                     per_sm, fn)
        runs.append((out, out_sf))
    return (a, a_sf, w, w_sf, alpha, g_out), runs


@pytest.mark.gpu
@pytest.mark.parametrize("per_sm,extra,k,fp4_a,permuted,warps", [
    (2, 24, 7168, True, True, 8),   # 9216x7168 on the H200
    (1, 32, 1088, False, False, 4),  # W4A16, packed bytes, a K tail
    (2, 24, 7168, False, True, 8),   # W4A16's public 9216x7168 (session 76)
])
def test_fused_balanced_matches_reference(per_sm, extra, k, fp4_a, permuted, warps):
    """Codes and scales against the reference quantization of the fp64 SwiGLU (DESIGN.md's
    rule), the scale padding zeroed, the same bits on a second call."""
    (a, a_sf, w, w_sf, alpha, g_out), runs = _fused_one_token_runs(
        per_sm, extra, k, fp4_a, permuted, warps, [compile_nvfp4_gemm_swiglu_quant_balanced] * 2)
    out, out_sf = runs[0]
    _check_against_reference(out, out_sf.view(torch.float8_e4m3fn), a, a_sf, w, w_sf, alpha,
                             g_out)
    assert torch.equal(out, runs[1][0]) and torch.equal(out_sf, runs[1][1])


def test_fused_balanced_counts_its_out_scale_table():
    """``EPILOGUE_TABLE``'s 1 KB table is in the launch's shared memory, which still leaves room
    for the CTAs an SM the launch wants (1 KB reserved each, 228 KB an SM)."""
    kernel = NVFP4GemmSwigluQuantBalanced(4608, 7168, True, 8, 2, H200, True)
    assert kernel.EPILOGUE_TABLE and kernel.PADDING_WORDS
    assert kernel.epilogue_table_bytes() == 4 * 256 + 16
    used = kernel._smem_used()
    NVFP4GemmSwigluQuantBalanced.EPILOGUE_TABLE = False
    try:  # the table is in the kernel's own count
        assert kernel._smem_used() == used - (4 * 256 + 16)
    finally:
        NVFP4GemmSwigluQuantBalanced.EPILOGUE_TABLE = True
    pieces = 8 * 32 * 4 * 4 + 128
    assert kernel.smem_bytes >= used + pieces
    assert 2 * (kernel.smem_bytes + 1024) <= 228 * 1024
    plain = NVFP4GemmOneTokenBalanced(9216, 7168, True, cutlass.BFloat16, 8, 3, H200, True)
    assert plain.epilogue_table_bytes() == 0


# the epilogue's tail as before session 89 (a byte a row, two divisions)
compile_fused_balanced_byte_padding_for_tests = switched_compiler(
    compile_nvfp4_gemm_swiglu_quant_balanced, NVFP4GemmSwigluQuantBalanced,
    {"PADDING_WORDS": False, "EPILOGUE_TABLE": False},
    "compile_fused_balanced_byte_padding_for_tests")


@pytest.mark.gpu
@pytest.mark.parametrize("per_sm,extra,k,fp4_a,permuted,warps", [
    (2, 24, 7168, True, True, 8),    # 9216x7168 on the H200
    (1, 32, 1088, False, False, 4),  # W4A16, packed bytes, a K tail
])
def test_fused_balanced_epilogue_tail_writes_the_old_bytes(per_sm, extra, k, fp4_a, permuted,
                                                           warps):
    """The padding as whole words and the out_scale table change no byte: codes and the whole
    scale buffer (padding included) equal the byte-per-row, two-division epilogue's."""
    _, runs = _fused_one_token_runs(per_sm, extra, k, fp4_a, permuted, warps,
                                    [compile_nvfp4_gemm_swiglu_quant_balanced,
                                     compile_fused_balanced_byte_padding_for_tests])
    assert torch.equal(runs[0][0], runs[1][0]) and torch.equal(runs[0][1], runs[1][1])
    assert not (runs[0][1] == 0xFF).any()


# ---- the public ops' rule (on where two or three CTAs an SM fit: sessions 73 and 74)
def test_one_token_balanced_rule():
    """The balanced launch of a shape: as many CTAs an SM as whole blocks fit once (at most
    three on one row group), where the blocks do not fill the SMs evenly; 12 K warps at two
    an SM (session 76 on the H200)."""
    assert one_token_balanced(9216, 7168, H200) == (8, 3)
    assert one_token_balanced(5120, 17408, H200) == (12, 2)
    assert one_token_balanced(7168, 18432, H200) == (8, 3)
    assert one_token_balanced(4096, 7168, H200) == (8, 1)
    assert one_token_balanced(9216, 7168, H200, row_groups=2) == (8, 2)
    assert one_token_balanced(7168, 512, H200) == (2, 3)  # K of two steps: two K warps
    assert one_token_balanced(9216, 7168, H200, most=4) == (4, 4)
    # even already (528 blocks), too many blocks an SM, fewer blocks than SMs
    for n in (8448, 36864, 34816, 1024):
        assert one_token_balanced(n, 7168, H200) is None, n
    assert one_token_balanced(4096, 7168, H200, row_groups=2) is None


def test_public_ops_ask_the_rule_only_switched_on_at_one_token_on_permuted_words():
    cpu = torch.device("cpu")  # (device 0's SMs; 132 without a GPU)
    public = nvfp4_gemm_balanced.public_balanced_launch
    for n, k, groups in ((5120, 17408, 1), (9216, 7168, 2)):
        assert public(True, 1, n, k, True, True, cpu, groups) == one_token_balanced(
            n, k, sm_count(0), groups)
    for switch, m, a_fp4, permuted in ((False, 1, True, True), (True, 2, True, True),
                                       (True, 1, True, False), (True, 1, False, False)):
        assert public(switch, m, 9216, 7168, a_fp4, permuted, cpu, 2) is None


def test_public_ops_skip_the_balanced_launch_on_short_k():
    """7168x2048 at (8, 3) walks one step a K warp: 7.53 us against the unbalanced 4.48 on
    the H200 (session 86); the rule has a launch there, the public ops do not take it."""
    cpu = torch.device("cpu")
    public = nvfp4_gemm_balanced.public_balanced_launch
    assert one_token_balanced(7168, 2048, H200) == (8, 3)
    for a_fp4 in (True, False):
        assert public(True, 1, 7168, 2048, a_fp4, True, cpu) is None
    if sm_count(0) == H200:  # the shortest K that walks three steps a K warp at (8, 3)
        assert public(True, 1, 7168, 6144, True, True, cpu) == (8, 3)
        assert public(True, 1, 7168, 5888, True, True, cpu) is None


def test_w4a16_takes_the_balanced_launch_only_at_its_own_measured_ctas(monkeypatch):
    """bf16 activations: the plain op's rows at ``PUBLIC_W4A16_BALANCED_CTAS_PER_SM`` (two and
    three an SM, session 74 on an H100; three where four fit, session 78 on an H100), the fused
    op's at its own tuple (two an SM, session 76 on the H200)."""
    cpu = torch.device("cpu")
    public = functools.partial(nvfp4_gemm_balanced.public_balanced_launch, True, 1,
                               a_fp4=False, permuted=True, device=cpu)
    assert nvfp4_gemm_balanced.PUBLIC_W4A16_BALANCED_CTAS_PER_SM == (2, 3)
    assert public(rows=5120, k=17408) == one_token_balanced(5120, 17408, sm_count(0))
    assert nvfp4_gemm_balanced.PUBLIC_W4A16_FUSED_BALANCED_CTAS_PER_SM == (2,)
    if sm_count(0) == H200:
        assert public(rows=9216, k=7168, row_groups=2) == (8, 2)
        assert public(rows=7168, k=18432) == (8, 3)
        assert public(rows=9216, k=7168) == (8, 3)  # where four fit: three, as NVFP4 tokens
        assert public(rows=4096, k=7168) is None  # one an SM
    monkeypatch.setattr(nvfp4_gemm_balanced, "PUBLIC_W4A16_BALANCED_CTAS_PER_SM", ())
    assert public(rows=5120, k=17408) is None
    monkeypatch.setattr(nvfp4_gemm_balanced, "PUBLIC_W4A16_BALANCED_CTAS_PER_SM", (2, 3))
    monkeypatch.setattr(nvfp4_gemm_balanced, "PUBLIC_BALANCED_CTAS_PER_SM", ())
    assert public(rows=5120, k=17408) is not None  # its own tuple, not the NVFP4 one


def test_public_ops_take_the_balanced_launch_only_at_the_measured_ctas_an_sm():
    """On: both public ops, at two and three CTAs an SM (four lost at 9216x7168 on the H200:
    it takes three, one lost at 4096x7168 on an H100)."""
    assert nvfp4_gemm_balanced.ONE_TOKEN_BALANCED
    assert nvfp4_gemm_balanced.FUSED_ONE_TOKEN_BALANCED
    assert nvfp4_gemm_balanced.PUBLIC_BALANCED_CTAS_PER_SM == (2, 3)
    public = functools.partial(nvfp4_gemm_balanced.public_balanced_launch, True, 1,
                               a_fp4=True, permuted=True, device=torch.device("cpu"))
    if sm_count(0) != H200:
        pytest.skip("the shapes below are read on 132 SMs")
    assert public(rows=5120, k=17408) == (12, 2)
    assert public(rows=9216, k=7168, row_groups=2) == (8, 2)
    assert public(rows=7168, k=18432) == (8, 3)
    assert public(rows=9216, k=7168) == (8, 3)
    assert public(rows=4096, k=7168) is None  # one an SM


def test_plain_op_takes_row_groups_where_its_public_launch_is_8_3():
    """NVFP4 tokens, the public (8, 3), N in whole blocks of three tiles, between the SMs and
    twice as many such blocks (the comment on ``PLAIN_ROW_GROUPS``: H200, session 94)."""
    rule = functools.partial(nvfp4_gemm_balanced.plain_row_group_launch, h200_memory=True)
    assert rule(9216, True, (8, 3), H200) == (18, 1, 3)
    assert rule(9216, False, (8, 3), H200) is None  # W4A16: lost from DRAM on the H100
    assert rule(7168, True, (8, 3), H200) is None  # no whole blocks of 48 rows
    assert rule(5120, True, (12, 2), H200) is None  # (24, 1, 2) lost there
    assert rule(9216, True, None, H200) is None
    assert rule(9216, True, (8, 3), 200) is None  # 192 blocks, fewer than the SMs
    assert rule(9216, True, (8, 3), H200, h200_memory=False) is None  # lost on the H100


def test_h200_class_memory_reads_the_device_memory(monkeypatch):
    """Over 120 GiB (the H200's 141 GB) is the H200's memory, the H100's 80 GB is not; True
    without a GPU (compile-only: the H200)."""
    arch.h200_class_memory.cache_clear()
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert arch.h200_class_memory(0)
    for gib, want in ((139.8, True), (79.6, False), (93.0, False)):
        arch.h200_class_memory.cache_clear()
        monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
        monkeypatch.setattr(torch.cuda, "get_device_properties",
                            lambda i, gib=gib: SimpleNamespace(total_memory=int(gib * 2**30)))
        assert arch.h200_class_memory(0) is want, gib
    arch.h200_class_memory.cache_clear()


@pytest.mark.parametrize("lanes", [False, True])
def test_row_group_launch_fits_one_cta_an_sm(lanes):
    compiled = compile_only(compile_nvfp4_gemm_one_token_balanced, 9216, 7168, "fp4",
                            "torch.bfloat16", 18, 1, H200, True, lanes, 0, 3)
    regs = kernel_registers(compiled)
    assert regs and ctas_per_sm(max(regs), 18 + 1) >= 1, regs
    assert kernel_frame_bytes(compiled) == 0


def _switched_on(monkeypatch, n, row_groups=1, a_fp4=True):
    """The public ops' balanced launch on this device for N rows (K = 7168), both switches on
    and W4A16 at any CTAs an SM (skip where none)."""
    monkeypatch.setattr(nvfp4_gemm_balanced, "ONE_TOKEN_BALANCED", True)
    monkeypatch.setattr(nvfp4_gemm_balanced, "FUSED_ONE_TOKEN_BALANCED", True)
    monkeypatch.setattr(nvfp4_gemm_balanced, "PUBLIC_W4A16_BALANCED_CTAS_PER_SM", (1, 2, 3, 4))
    monkeypatch.setattr(nvfp4_gemm_balanced, "PUBLIC_W4A16_FUSED_BALANCED_CTAS_PER_SM",
                        (1, 2, 3, 4))
    launch = nvfp4_gemm_balanced.public_balanced_launch(
        True, 1, n, 7168, a_fp4, True, torch.device("cuda"), row_groups)
    if launch is None:
        pytest.skip(f"no balanced launch for N={n} on this device's SMs")
    return launch


@pytest.mark.gpu
@pytest.mark.parametrize("a_fp4", [True, False])
def test_public_gemm_takes_the_balanced_launch_when_on(monkeypatch, a_fp4):
    n = 5120  # two CTAs an SM on 132 SMs
    warps, per_sm = _switched_on(monkeypatch, n, a_fp4=a_fp4)
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, 7168, device="cuda",
                                                   dtype=torch.bfloat16), 500.0)
    words = prepare_nvfp4_weight(b)
    x = torch.randn(1, 7168, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if a_fp4 else (x, None)
    alpha = torch.full((1,), 0.7, device="cuda")
    got = nvfp4_gemm(a, a_sf, words, b_sf, alpha, out_dtype=torch.float32,
                     out=poisoned(1, n, dtype=torch.float32))
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    assert ((got.double() - want).norm() / want.norm()).item() <= 1e-3
    direct = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, direct, warps, per_sm)
    assert torch.equal(got, direct)


@pytest.mark.gpu
def test_public_gemm_takes_row_groups_at_9216x7168():
    sms = sm_count(0)
    launch = nvfp4_gemm_balanced.plain_row_group_launch(
        9216, True, nvfp4_gemm_balanced.public_balanced_launch(
            True, 1, 9216, 7168, True, True, torch.device("cuda")), sms,
        arch.h200_class_memory(0))
    if launch is None:
        pytest.skip("no row-group launch for 9216 rows on this device (SMs, memory)")
    n, k = 9216, 7168
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       500.0)
    words = prepare_nvfp4_weight(b)
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda",
                                                   dtype=torch.bfloat16), 100.0)
    alpha = torch.full((1,), 0.7, device="cuda")
    got = nvfp4_gemm(a, a_sf, words, b_sf, alpha, out_dtype=torch.float32,
                     out=poisoned(1, n, dtype=torch.float32))
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    assert ((got.double() - want).norm() / want.norm()).item() <= 1e-3
    warps, per_sm, rg = launch
    direct = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, words, b_sf, alpha, direct, warps, per_sm,
                              row_groups=rg)
    assert torch.equal(got, direct)


@pytest.mark.gpu
@pytest.mark.parametrize("a_fp4", [True, False])
def test_public_fused_op_takes_the_balanced_launch_when_on(monkeypatch, a_fp4):
    warps, per_sm = _switched_on(monkeypatch, 9216, row_groups=2, a_fp4=a_fp4)
    a, a_sf, w, w_sf, alpha, g_out = _inputs(1, 4608, 7168, a_fp4)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
    direct = torch.empty_like(out), torch.empty_like(out_sf.view(torch.uint8))
    launch_swiglu_quant_balanced(a, a_sf, w, w_sf, torch.full((1,), alpha, device="cuda"),
                                 torch.full((1,), g_out, device="cuda"), *direct, warps, per_sm)
    assert torch.equal(out, direct[0]) and torch.equal(out_sf.view(torch.uint8), direct[1])


def one_token_operands(n: int, k: int, ctas: int, rg: int = 1) -> tuple:
    """(a, a_sf, b, b_sf, alpha): one random NVFP4 token and an [N, K] NVFP4 weight for a
    balanced launch of ``ctas`` CTAs on blocks of ``rg`` tiles (skips where N does not fit)."""
    if not ctas <= n // (16 * rg) < 2 * ctas:
        pytest.skip(f"{n} rows in blocks of {16 * rg} do not fit {ctas} CTAs")
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    return a, a_sf, b, b_sf, torch.full((1,), 0.5, device="cuda")


@pytest.mark.gpu
@pytest.mark.parametrize("n,k,warps,per_sm,rg", [
    (9216, 7168, 24, 1, 3),   # 192 blocks of 48 rows on 132 CTAs
    (5120, 17408, 24, 1, 2),  # 160 blocks of 32 rows
    (9216, 7168, 18, 1, 3),   # 6 K warps a group
])
def test_balanced_row_groups_match_fp64_reference(n, k, warps, per_sm, rg):
    """The plain launch on blocks of ``rg`` tiles (``row_groups``, probe-only): one CTA an SM
    reads the token once where three did."""
    a, a_sf, b, b_sf, alpha = one_token_operands(n, k, per_sm * sm_count(0), rg)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    got = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, prepare_nvfp4_weight(b), b_sf, alpha, got, warps,
                              per_sm, row_groups=rg)
    assert not got.isnan().any()
    assert ((got.double() - want).norm() / want.norm()).item() <= 1e-3
    again = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, prepare_nvfp4_weight(b), b_sf, alpha, again, warps,
                              per_sm, row_groups=rg)
    assert torch.equal(got, again)

