"""``NVFP4GemmOneTokenBalanced.PROBE_STAMPS`` (``cute_kernels.probe_stamps``, probe-only): the
stamped launch compiles and fits as the public one, gives its bits, and its stamps follow the
kernel's order in every CTA (``tools/one_token_timeline.py`` reads them)."""

import cutlass
import pytest
import torch

from cute_kernels.arch import sm_count
from cute_kernels.nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced, balanced_buffers,
                                              balanced_shape, balanced_workspace_words,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced)
from cute_kernels.probe_stamps import (FINISHED, FIXED_UP, LOOP_DONE, STAGED, START, WAITED,
                                       read_stamps, stamp_words)
from cute_kernels.testing import (compile_only, ctas_per_sm, kernel_frame_bytes,
                                  kernel_registers, switched_compiler)
from tests.conftest import poisoned
from tests.test_nvfp4_gemm_balanced import one_token_operands

STAMPED = switched_compiler(compile_nvfp4_gemm_one_token_balanced, NVFP4GemmOneTokenBalanced,
                            {"PROBE_STAMPS": True}, "compile_balanced_stamped_test")


@pytest.mark.parametrize("n,k,warps,per_sm", [(9216, 7168, 8, 3), (5120, 17408, 12, 2)])
def test_stamped_launch_fits_its_ctas_per_sm(n, k, warps, per_sm):
    compiled = compile_only(STAMPED, n, k, "fp4", "torch.float32", warps, per_sm, 132, True)
    regs = kernel_registers(compiled)
    assert regs and ctas_per_sm(max(regs), warps + 1) >= per_sm, regs
    assert kernel_frame_bytes(compiled) == 0


def test_workspace_words_is_balanced_buffers_length():
    kernel = NVFP4GemmOneTokenBalanced(9216, 7168, True, cutlass.Float32, 8, 3, 132, True)
    rem, slots = balanced_shape(9216, 396)
    assert kernel.workspace_words() == rem * slots * 32 * 4


@pytest.mark.gpu
@pytest.mark.parametrize("n,k,warps,per_sm", [(9216, 7168, 8, 3), (2112, 1024, 4, 1)])
def test_stamps_keep_the_bits_and_follow_the_kernel(n, k, warps, per_sm):
    ctas = per_sm * sm_count(0)
    a, a_sf, b, b_sf, alpha = one_token_operands(n, k, ctas)
    want = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, b, b_sf, alpha, want, warps, per_sm)
    rem = balanced_shape(n, ctas)[0]
    buffers = balanced_buffers(n, ctas, a.device, stamp_words=stamp_words(ctas))
    got = poisoned(1, n, dtype=torch.float32)
    launch_one_token_balanced(a, a_sf, b, b_sf, alpha, got, warps, per_sm, compile_fn=STAMPED,
                              buffers=buffers)
    assert torch.equal(got, want)
    s = read_stamps(buffers[0], balanced_workspace_words(n, ctas), ctas)[..., 0]
    s = (s - s[:, START].min()) & 0xFFFFFFFF  # the timer's low words, unwrapped
    loops = s[:, LOOP_DONE:LOOP_DONE + warps]
    assert (s[:, WAITED] >= s[:, START]).all() and (s[:, STAGED] >= s[:, WAITED]).all()
    assert (loops >= s[:, STAGED, None]).all()
    assert (s[:, FINISHED] >= loops.max(dim=1).values).all()
    if rem:
        assert (s[:, FIXED_UP] >= s[:, STAGED]).all()
    used = s[:, :LOOP_DONE + warps] if rem else torch.cat(  # (no fix-up without pieces)
        [s[:, :FIXED_UP], s[:, LOOP_DONE:LOOP_DONE + warps]], dim=1)
    assert (used < 10 ** 8).all()  # every stamp written, within 0.1 s of the first
