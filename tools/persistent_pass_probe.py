"""Session 50: the activations' dequantization pass (``bf16_activations``' group kernel,
permuted K order) on ``PersistentGroupPass``'s resident grid against the public launch (a grid
of 256-thread CTAs, 4 units a thread, in waves). Per M: outputs compared bit for bit (M tails
and zero rows past them included), then graph us of back-to-back passes on rotated inputs, interleaved, and the % of
a copy's rate over the bytes read and written (``copy_bandwidth_tbs``). Forms: "public" and
"pDxC" = depth D at C CTAs an SM (the register bounds without spills on sm_90a: 2x5 at 48
registers, 4x4 at 64). ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch

from cute_kernels import reference
from cute_kernels.bench.ceilings import copy_bandwidth_tbs
from cute_kernels.bench.timing import rotations_for, time_graphs_interleaved_us, warm_only
from cute_kernels.nvfp4_dequant import (compile_nvfp4_dequant_permuted_k,
                                        compile_nvfp4_dequant_persistent)

K = 7168
FORMS = {"public": None, "p2x5": (2, 5), "p4x4": (4, 4)}
MS = [1000, 1024, 2048, 4096, 8192, 16384]
SMS = torch.cuda.get_device_properties(0).multi_processor_count


def kernel(form):
    if FORMS[form] is None:
        return compile_nvfp4_dequant_permuted_k(K)
    return compile_nvfp4_dequant_persistent(K, True, *FORMS[form], SMS)


def operands(m):
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, K, device="cuda", dtype=torch.bfloat16),
                                       1.0)
    return a.view(torch.int32).view(-1, 8), a_sf.view(-1)


copy = None if warm_only() else copy_bandwidth_tbs()
if copy:
    print(f"copy {copy:.2f} TB/s")
for m in MS:
    w, sf = operands(m)
    outs = {}
    rows = -(-m // 128) * 128  # zero rows past M, as ``bf16_activations(rows=)`` asks
    for form in FORMS:
        out = torch.full((rows * K // 64, 32), -1, dtype=torch.int32, device="cuda")
        kernel(form)(w, sf, out)
        outs[form] = out
    torch.cuda.synchronize()
    for form in FORMS:
        if not torch.equal(outs[form], outs["public"]):
            print(f"M={m}: {form} output DIFFERS")
    if m % 1024:
        continue  # (the tail check only)
    nbytes = m * K // 2 + m * K // 16 + 2 * m * K
    copies = [operands(m) + (torch.empty(m * K // 64, 32, dtype=torch.int32, device="cuda"),)
              for _ in range(rotations_for(nbytes))]
    lists = [[lambda c=c, f=kernel(form): f(*c) for c in copies] for form in FORMS]
    us = time_graphs_interleaved_us(lists, calls_per_graph=50)
    if copy:
        print(f"M={m}: " + " ".join(f"{form}={t:.2f} ({nbytes / t / 1e6 / copy:.1%})"
                                    for form, t in zip(FORMS, us)), flush=True)
    del copies, lists
