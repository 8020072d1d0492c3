"""``NVFP4Quant(stamps=True)`` (probe-only) and ``tools/quant_timeline.py``'s reading of its
stamps: the figures from synthetic stamps (CPU, across the timer's wrap), and on a GPU the
stamped launch's bits and the order of every warp's stamps."""

import pytest
import torch

from cute_kernels import reference
from cute_kernels.arch import sm_count
from cute_kernels.nvfp4_quant import (STAMP_WORDS, compile_nvfp4_quant, launch_config,
                                      stamps_offset)
from cute_kernels.probe_stamps import TIMER_WRAP
from tests.conftest import load_tool

timeline = load_tool("quant_timeline")


def _stamps(rows) -> torch.Tensor:
    """int32 words of (start, waited, end, sm) rows, as the kernel writes them."""
    words = torch.tensor(rows, dtype=torch.int64).reshape(-1) % TIMER_WRAP
    return words.where(words < 2**31, words - TIMER_WRAP).to(torch.int32)


def test_figures_from_synthetic_stamps_across_the_wrap():
    """Two SMs, two CTAs of two warps; the release at 2^32 - 100 ns, so the timer wraps
    mid-call. SM 0's warps end at +900 / +1000, SM 1's at +400 / +600; the second CTA starts
    50 ns after the release."""
    r = TIMER_WRAP - 100
    call = timeline.read_call(_stamps([
        (r - 300, r, r + 900, 0), (r - 300, r, r + 1000, 0),
        (r + 50, r + 60, r + 400, 1), (r + 50, r + 60, r + 600, 1)]))
    assert call["end"].tolist() == [900, 1000, 400, 600]
    f = timeline.call_figures(call, warps_per_cta=2)
    assert f["span"] == 1000 and f["sms"] == 2 and f["release"] == 60
    assert f["late"] == 1 and f["latest"] == 50
    assert f["sm_first"] == 600 and f["sm_idle"] == pytest.approx(1 - 800 / 1000)
    # busy: (900 + 1000 + 340 + 540) over 2 SMs x 2 slots x 1000
    assert f["busy"] == pytest.approx(2780 / 4000)


def test_grid_warps_is_the_public_grid():
    """M = 4096 K = 5120: 20480 items fill the persistent grid (6 CTAs of 4 warps an SM on
    132 SMs); M = 100 K = 1024: 100 items and 16 that zero the scale rows 100..127 (one a
    4-column group of scales), 29 CTAs of 4 warps."""
    dev = torch.device("cpu")
    assert timeline.grid_warps(4096, 5120, False, launch_config(5120, False, dev, 4096)) \
        == 6 * 132 * 4
    assert timeline.grid_warps(100, 1024, False, launch_config(1024, False, dev, 100)) == 116


@pytest.mark.gpu
@pytest.mark.parametrize("m,k,fused", [(4096, 5120, False), (300, 1024, False),
                                       (1000, 2048, True)])
def test_stamped_launch_gives_the_bits_and_ordered_stamps(m, k, fused):
    dev = torch.device("cuda")
    width = 2 * k if fused else k
    x = (torch.randn(m, width, device=dev) * 3).to(torch.bfloat16)
    g = reference.nvfp4_global_scale(reference.silu_mul(x) if fused else x).reshape(1)
    config = launch_config(k, fused, dev, m)
    warps = timeline.grid_warps(m, k, fused, config)
    stamped = timeline.stamp_buffer(warps, config[-1], dev)
    stamps = stamped[stamps_offset(config[-1]):]
    outs = []
    for extra, buf in (((), timeline.counters_buffer(config[-1], dev)), ((True,), stamped)):
        q = torch.full((m, k // 2), 0xFF, dtype=torch.uint8, device=dev)
        sf = torch.full((timeline.sf_bytes(m, k),), 0xFF, dtype=torch.uint8, device=dev)
        compile_nvfp4_quant(k, str(torch.bfloat16), fused, False, *config, *extra)(
            x, g, buf, q, sf)
        outs.append((q, sf))
    torch.cuda.synchronize()
    assert all(torch.equal(a, b) for a, b in zip(*outs))
    words = stamps.cpu().view(-1, STAMP_WORDS)
    assert ((words[:, 3] >= 0) & (words[:, 3] < sm_count())).all()  # every warp wrote its SM
    call = timeline.read_call(stamps.cpu())
    assert (call["start"] <= call["waited"]).all() and (call["waited"] <= call["end"]).all()
    assert (call["end"] < 10**7).all()  # within 10 ms of the first release
    # the probe reads the stamps where they are, on the device (session 98's stop)
    f = timeline.call_figures(timeline.read_call(stamps), config[1])
    assert 0 < f["span"] < 10**7 and 0 < f["sms"] <= sm_count()
