"""The fused small-M epilogue's tail (session 89): the scale padding past M as whole words
(``fused_scales.zero_scale_padding_words``, ``PADDING_WORDS``) and the out_scale table of G
(``EPILOGUE_TABLE``: in the balanced launch, and on the register and K-split paths of at most
``EPILOGUE_TABLE_MAX_CTAS`` CTAs). The balanced launch's own tests are in
``test_nvfp4_gemm_balanced.py``."""

import pytest
import torch

from cute_kernels.nvfp4_gemm_swiglu_quant import (compile_nvfp4_gemm_swiglu_quant_small_m,
                                                  swiglu_small_m_config)
from cute_kernels.swiglu_quant_small_m import NVFP4GemmSwigluQuantSmallM
from cute_kernels.testing import (compile_only, ctas_per_sm, kernel_frame_bytes, kernel_registers,
                                  replaced, switched_compiler)
from layouts import sf_byte_offset, sf_padded_shape
from tests.test_nvfp4_gemm_swiglu_quant import _assert_same_bytes, _inputs, _run_small_m


@pytest.mark.parametrize("kb_out", [4, 8, 288])
@pytest.mark.parametrize("m", [1, 3, 33, 127, 128, 129, 300])
def test_padding_words_cover_the_padding_rows_once(m, kb_out):
    """The word arithmetic of ``zero_scale_padding_words``, on the host: over every block's
    lanes, the words written are exactly the swizzled buffer's bytes of rows M .. pad128(M),
    each once, and no byte of a row below M."""
    mp, kbp = sf_padded_shape(m, kb_out)
    assert kbp == kb_out
    written = torch.zeros(mp * kbp, dtype=torch.int32)
    if m % 128:
        last, m_rel = (m - 1) // 128, m - (m - 1) // 128 * 128
        for col in range(kb_out):  # one caller a column
            for lane in range(32):
                line, word = 4 * (lane // 4), lane % 4
                if line + col % 4 + 32 * word >= m_rel:
                    offset = (last * kb_out * 128 + (col // 4) * 512 + (line + col % 4) * 16
                              + word * 4)
                    written[offset:offset + 4] += 1
    want = torch.zeros(mp * kbp, dtype=torch.int32)
    for row in range(m, mp):
        for col in range(kbp):
            want[sf_byte_offset(row, col, kbp)] = 1
    assert torch.equal(written, want)


# the table on every launch, and on none (two divisions a block pair); each also with the
# second step after the staging (``UNDER_STAGING_MIN_ROW_GROUPS`` past any config: the table's
# own registers)
TABLE = {"EPILOGUE_TABLE": True, "EPILOGUE_TABLE_MAX_CTAS": 1 << 30}
DIVISIONS = {"EPILOGUE_TABLE": False}
OVER = {"UNDER_STAGING_MIN_ROW_GROUPS": 1 << 30}
compile_fused_small_m_table_for_tests = switched_compiler(
    compile_nvfp4_gemm_swiglu_quant_small_m, NVFP4GemmSwigluQuantSmallM, TABLE,
    "compile_fused_small_m_table_for_tests")
compile_fused_small_m_divisions_for_tests = switched_compiler(
    compile_nvfp4_gemm_swiglu_quant_small_m, NVFP4GemmSwigluQuantSmallM, DIVISIONS,
    "compile_fused_small_m_divisions_for_tests")
compile_fused_small_m_table_over_for_tests = switched_compiler(
    compile_nvfp4_gemm_swiglu_quant_small_m, NVFP4GemmSwigluQuantSmallM, {**TABLE, **OVER},
    "compile_fused_small_m_table_over_for_tests")
compile_fused_small_m_divisions_over_for_tests = switched_compiler(
    compile_nvfp4_gemm_swiglu_quant_small_m, NVFP4GemmSwigluQuantSmallM, {**DIVISIONS, **OVER},
    "compile_fused_small_m_divisions_over_for_tests")


# (I, K, a_dtype, row_tiles, token_tiles, warps, prefetch, x_tokens, splits, permuted[,
# row_groups]): the register path, one staged token on row groups, a K split, one warp a CTA
# (no CTA barrier before the epilogue), three CTAs an SM (min_ctas)
TABLE_CONFIGS = [(4608, 7168, "fp4", 2, 1, 4, 1, 0, 1, True),
                 (4608, 7168, "fp4", 1, 1, 8, 1, 1, 1, True, 2),
                 (512, 7168, "fp4", 2, 1, 4, 1, 1, 4, True),
                 (2048, 7168, "torch.bfloat16", 2, 4, 1, 0, 0, 1, True),
                 (4608, 7168, "fp4", 2, 2, 4, 1, 0, 1, True)]


@pytest.mark.parametrize("args", TABLE_CONFIGS)
def test_small_m_table_keeps_registers_and_counts_its_shared_memory(args):
    """The table on the register / split paths: the divisions' registers (with the second
    step after the staging; under it, on two row groups, the same CTAs an SM), no local memory,
    and the 1 KB table in the launch's shared memory."""
    on = compile_only(compile_fused_small_m_table_over_for_tests, *args)
    off = compile_only(compile_fused_small_m_divisions_over_for_tests, *args)
    assert kernel_registers(on) == kernel_registers(off)
    assert kernel_frame_bytes(on) == 0
    i, k, a_dtype, rt, jt, warps, prefetch, x_tokens, splits, permuted, *rg = args
    if rg:  # (the rule's second step under the staging)
        on = compile_only(compile_fused_small_m_table_for_tests, *args)
        off = compile_only(compile_fused_small_m_divisions_for_tests, *args)
        assert ctas_per_sm(max(kernel_registers(on)), warps) == ctas_per_sm(
            max(kernel_registers(off)), warps)
        assert kernel_frame_bytes(on) == 0
    kernel = NVFP4GemmSwigluQuantSmallM(i, k, a_dtype == "fp4", rt, jt, warps, prefetch,
                                        x_tokens, splits, permuted, *rg)
    with replaced(NVFP4GemmSwigluQuantSmallM, {"EPILOGUE_TABLE": False}):
        base = kernel._smem_used()
    with replaced(NVFP4GemmSwigluQuantSmallM, {"EPILOGUE_TABLE_MAX_CTAS": 1 << 30}):
        assert kernel._smem_used() == base + 4 * 256 + 16


@pytest.mark.parametrize("two_i, k, m, table", [
    (9216, 7168, 1, True), (9216, 7168, 8, True), (4096, 7168, 1, True),
    (1024, 7168, 1, True), (2048, 7168, 4, True),  # 288 / 128 / 32 x 4 splits / ...
    (36864, 7168, 1, False), (36864, 7168, 8, False), (34816, 5120, 1, False)])
def test_small_m_table_only_on_few_ctas(two_i, k, m, table):
    """The public routes' register / split launches take the table up to
    ``EPILOGUE_TABLE_MAX_CTAS`` CTAs (one fill each), not on the large weights' ~1100."""
    config = swiglu_small_m_config(m, two_i // 2, k, permuted=True)
    rt, jt, warps, prefetch, *rest = config
    splits, groups = (*rest, 1, 1)[:2]
    kernel = NVFP4GemmSwigluQuantSmallM(two_i // 2, k, True, rt, jt, warps, prefetch, 0, splits,
                                        True, groups)
    assert kernel.epilogue_table_on() == table
    assert kernel.epilogue_table_bytes() == (4 * 256 + 16 if table else 0)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [(2, 1, 4, 1), (1, 1, 8, 1, 1, 2), (2, 1, 4, 1, 4),
                                    (2, 4, 1, 0), (2, 2, 2, 3)])
@pytest.mark.parametrize("m", [1, 3, 8, 29])
def test_small_m_table_writes_the_same_bytes(config, m):
    """The out_scale table gives the divisions' values: codes and the whole scale buffer
    (padding included) equal those of the launch without it, on both kinds of tokens."""
    for fp4_a in (True, False):
        inputs = _inputs(m, 320, 1088, fp4_a)
        _assert_same_bytes(_run_small_m(*inputs, config),  # the table (few CTAs)
                           _run_small_m(*inputs, config, compile_fused_small_m_divisions_for_tests))
