"""``NVFP4GemmLargeM.PROBE_STAMPS`` (probe-only) and ``tools/stream_k_timeline.py``'s reading
of its stamps: the stamped 16-token stream-K launch compiles as the public one (CPU), the
figures from synthetic stamps (CPU), and on a GPU its bits and the order of every CTA's
stamps."""

import pytest
import torch

from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, compile_nvfp4_gemm_large_m
from cute_kernels.probe_stamps import (SK_CONSUMER_WAITED, SK_FINISHED, SK_FIRST_FIXED,
                                       SK_FIRST_LOOP, SK_LAST_FIXED, SK_LAST_LOOP,
                                       SK_PRODUCER_DONE, SK_PRODUCER_STARTS, SK_START,
                                       STAMP_WORDS, TIMER_WRAP, UNSET)
from cute_kernels.testing import (compile_only, kernel_frame_bytes, kernel_registers,
                                  replaced)
from tests.conftest import load_tool

timeline = load_tool("stream_k_timeline")

# 9216x7168, 16-token stream-K, permuted words, one CTA an SM, two K groups, the PDL trigger
ARGS = (9216, 7168, "torch.bfloat16", 16, 0, H200_SMS, 1, True, False, int(KOrder.PERMUTED),
        1, 2, False, False, True)


@pytest.mark.parametrize("form", ["real", "stub"])
def test_stamped_stream_k_launch_compiles_as_the_public_one(form):
    public = compile_only(compile_nvfp4_gemm_large_m, *ARGS)
    stamped = compile_only(timeline.compilers()[form], *ARGS)
    assert max(kernel_registers(stamped)) == max(kernel_registers(public))
    assert kernel_frame_bytes(stamped) == 0


def test_figures_from_synthetic_stamps():
    """Two CTAs: one of two pieces, one of one (its last-piece slots unset); the timer wraps
    between the second CTA's start and its release."""
    base = TIMER_WRAP - 500
    slots = torch.full((2, STAMP_WORDS // 2, 2), UNSET, dtype=torch.int64)
    times = {0: {SK_START: -300, SK_CONSUMER_WAITED: 0, SK_PRODUCER_STARTS: -200,
                 SK_FIRST_LOOP: 3000, SK_FIRST_FIXED: 3100, SK_LAST_LOOP: 9000,
                 SK_LAST_FIXED: 9500, SK_PRODUCER_DONE: 8000, SK_FINISHED: 9600},
             1: {SK_START: -100, SK_CONSUMER_WAITED: 700, SK_PRODUCER_STARTS: 700,
                 SK_FIRST_LOOP: 8000, SK_FIRST_FIXED: 8800, SK_PRODUCER_DONE: 7000,
                 SK_FINISHED: 8900}}
    for cta, stamps in times.items():
        for slot, t in stamps.items():
            slots[cta, slot] = torch.tensor([(base + t) % TIMER_WRAP, 7 + cta])
    f = timeline.call_figures(slots, base)
    assert f["t0"] == 0 and f["span"] == 9600
    assert f["start"] == [300, 100] and f["release"] == [0, 700]
    assert f["first_loop"] == [3000, 7300] and f["first_fixup"] == [100, 800]
    assert f["last_loop"] == [5900] and f["last_fixup"] == [500]
    assert f["finish"] == [100, 100] and f["end"] == [9600, 8900]


def test_stamped_workspaces_are_made_once_a_call():
    """Launch i gets workspace i % calls: made (-1, ``stamp_words`` longer) in the first
    round, outside the capture, and handed back as it is in the captured rounds."""
    workspaces = timeline.StampedWorkspaces(2)
    workspaces.plain = lambda m, n, tile_m, ctas, device, tile_n, late: (
        torch.empty(10, dtype=torch.float32), "counters")
    got = [workspaces(16, 9216, 16, 3, "cpu") for _ in range(5)]
    assert len(workspaces.made) == 2 and all(c == "counters" for _, c in got)
    assert [w.data_ptr() for w, _ in got] == [workspaces.made[i % 2][0].data_ptr()
                                              for i in range(5)]
    work, ctas = workspaces.made[0]
    assert ctas == 3 and work.numel() == 10 + 3 * STAMP_WORDS
    assert (work.view(torch.int32) == -1).all()


@pytest.mark.gpu
@pytest.mark.parametrize("m,tile_m", [(16, 16), (5, 8)])
def test_stamped_launch_gives_the_bits_and_ordered_stamps(m, tile_m):
    import cute_kernels.nvfp4_gemm_large_m as large_m
    from cute_kernels import prepare_nvfp4_weight, reference
    from cute_kernels.nvfp4_dequant import bf16_activations

    n, k = 2048, 7168
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    words = prepare_nvfp4_weight(b)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    x = bf16_activations(a, a_sf, KOrder.PERMUTED, -(-m // tile_m) * tile_m)
    alpha = torch.full((1,), 0.5, device="cuda")
    outs = []
    workspaces = timeline.StampedWorkspaces(2)
    for fn in (compile_nvfp4_gemm_large_m, timeline.compilers()["real"]):
        out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        with replaced(large_m, {"stream_k_buffers": workspaces}):
            large_m.launch_large_m(x, words, b_sf, alpha, out, (tile_m, 0), stream_k=True,
                                   k_groups=2, k_order=KOrder.PERMUTED, pdl_trigger=True,
                                   compile_fn=fn)
        outs.append(out)
    torch.cuda.synchronize()
    assert torch.equal(outs[0], outs[1]) and not outs[1].isnan().any()
    work, ctas = workspaces.made[-1]
    s = timeline.read_tail(work, ctas)
    timer = s[..., 0]
    for slot in (SK_START, SK_PRODUCER_STARTS, SK_PRODUCER_DONE, SK_CONSUMER_WAITED,
                 SK_FIRST_LOOP, SK_FIRST_FIXED, SK_FINISHED):
        assert (timer[:, slot] != UNSET).all(), slot
    f = timeline.call_figures(s, int(timer[:, SK_CONSUMER_WAITED].min()))
    for key in ("first_loop", "first_fixup", "last_loop", "last_fixup", "finish"):
        assert min(f[key], default=0) >= 0, key
    assert (s[:, SK_START, 1] < torch.cuda.get_device_properties(0).multi_processor_count).all()
