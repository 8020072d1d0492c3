"""W4A16 (bf16 activations) on permuted words at large M: the public function as it is
("public"), forced onto ``reorder_k``'s copy of the activations first ("copy":
``KOrder.PERMUTED``, the in-place rules off) and forced to decode the words in place
("in_place": ``KOrder.PERMUTED_IDENTITY``, the activations read as they are,
``k_order.W4A16_IN_PLACE_MIN_M`` forced to 1), beside cuBLAS (+ torch silu * up for the fused
op) and the NVFP4-activation public route ("w4a4") in the same run. Each point also prints
the copy and in-place outputs' largest difference (different K orders inside a group round
differently; codes of the fused op may differ by a step). Until session 79 "copy" was the
public function as it is, which the in-place rules now route in place at some points. Graph us,
interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
import torch.nn.functional as F
from probe_inputs import gate_up_words, permuted_weight_copies, print_variant_rounds, replaced

from cute_kernels import k_order, nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import rotations_for, select_shapes, warm_only

POINTS = [("fused", 1024, 7168, 1024), ("fused", 1024, 7168, 4096), ("fused", 1024, 7168, 16384),
          ("fused", 1024, 7168, 256), ("fused", 4096, 7168, 1024), ("fused", 4096, 7168, 4096),
          ("fused", 9216, 7168, 1024), ("fused", 36864, 7168, 1024), ("fused", 34816, 5120, 1024),
          ("gemm", 4096, 7168, 1024), ("gemm", 7168, 2048, 1024), ("gemm", 9216, 7168, 1024),
          ("gemm", 36864, 7168, 1024), ("gemm", 5120, 17408, 1024), ("gemm", 4096, 7168, 256),
          ("gemm", 7168, 2048, 256), ("gemm", 36864, 7168, 256), ("gemm", 7168, 2048, 4096),
          # session 53: the rule's bounds (512 tokens; more rows at 4096 tokens)
          ("fused", 1024, 7168, 512), ("fused", 4096, 7168, 512), ("gemm", 4096, 7168, 512),
          ("fused", 9216, 7168, 4096), ("gemm", 9216, 7168, 4096), ("gemm", 5120, 17408, 4096)]


def in_place(call):
    with replaced(k_order, {"W4A16_IN_PLACE_MIN_M": 1, "W4A16_IN_PLACE_MAX_N": 1 << 20}):
        return call()


def copied(call):
    with replaced(k_order, {"W4A16_IN_PLACE_MIN_M": 1 << 30, "W4A16_IN_PLACE_NARROW_MIN_M": 1 << 30,
                            "W4A16_IN_PLACE_TAIL": False}):
        return call()


for kind, n, k, m in select_shapes(POINTS):
    x16 = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x16, 100.0)
    # every path multiplies the NVFP4 activations' own values
    x = reference.nvfp4_dequantize(a, a_sf, 100.0, m, k, out_dtype=torch.bfloat16)
    words = gate_up_words(n, k, True) if kind == "fused" else permuted_weight_copies(n, k)
    w16 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    w16s = [w16] + [w16.clone() for _ in range(rotations_for(n * k * 2) - 1)]
    if kind == "fused":
        def op(act, sf, w):
            return nvfp4_gemm_swiglu_quant(act, sf, w[0], w[1], 0.5, 30.0)

        def cublas(w):
            y = x @ w.t()
            return F.silu(y[:, :n // 2]) * y[:, n // 2:]
    else:
        def op(act, sf, w):
            return nvfp4_gemm(act, sf, w[0], w[1], 0.5)

        def cublas(w):
            return x @ w.t()
    variants = {
        "public": (words, lambda w: op(x, None, w)),
        "copy": (words, lambda w: copied(lambda: op(x, None, w))),
        "in_place": (words, lambda w: in_place(lambda: op(x, None, w))),
        "w4a4": (words, lambda w: op(a, a_sf, w)),
        "cublas": (w16s, cublas),
    }
    if not warm_only():
        want = copied(lambda: op(x, None, words[0]))
        got = in_place(lambda: op(x, None, words[0]))
        if kind == "fused":
            diff = (want[0].view(torch.uint8) != got[0].view(torch.uint8)).float().mean().item()
            print(f"{kind} {n}x{k} M={m}: code bytes differing {diff:.2e}", flush=True)
        else:
            rel = ((want.double() - got.double()).norm() / want.double().norm()).item()
            print(f"{kind} {n}x{k} M={m}: relative difference {rel:.2e}", flush=True)
    print_variant_rounds(f"{kind} {n}x{k} M={m} W4A16", variants)
    del variants, w16s
