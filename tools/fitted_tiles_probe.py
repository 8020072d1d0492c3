"""Fitted token tiles (session 65): ``nvfp4_gemm`` on token tiles of 160 / 192 / 224 tokens,
and 208 / 240 (steps of 16; ``nvfp4_gemm_large_m.token_tile_ok``), against its plan and
cuBLAS bf16, at issue 5's short points. 300 tokens are three 128-token tiles (384 tokens of
work) or two of 256 (512); two of 160 do 320. Per point and width: whole tiles ("w160") and
stream-K ("sk160"), each first checked against the fp64 product (fp32 out poisoned with NaN,
fresh realistic weights; the relative error printed), then graph us in two rounds, NVFP4
activations on permuted words. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (bf16_weight_rotation, fp64_plan_error, gate_up_words, gemm_on_plan,
                          print_variant_rounds)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.large_m_plans import plain_plan

# (N, K, M, fitted widths)
POINTS = [(7168, 18432, 300, (160,)), (5120, 17408, 300, (160,)), (36864, 7168, 300, (160,)),
          (34816, 5120, 300, (160,)), (7168, 2048, 300, (160,)), (9216, 7168, 300, (160,)),
          (4096, 7168, 300, (160,)), (5120, 17408, 600, (160, 224)),
          (4096, 7168, 600, (160, 224)), (7168, 2048, 600, (160, 224)),
          (7168, 18432, 600, (160, 224)), (7168, 18432, 513, (192,)),
          (5120, 17408, 513, (192,)), (7168, 2048, 450, (160,)),
          # 14..: beside the rule's range (257..1024 tokens), for session 66: one fitted tile
          # instead of two of 128 or one of 256; 1100 tokens in five tiles of 224
          (36864, 7168, 160, (160,)), (36864, 7168, 200, (224,)), (7168, 18432, 180, (192,)),
          (34816, 5120, 200, (224,)), (9216, 7168, 160, (160,)), (5120, 17408, 160, (160,)),
          (9216, 7168, 1100, (224,)), (34816, 5120, 1100, (224,)), (5120, 17408, 1100, (224,)),
          # 23..: widths in steps of 16 (the kernel takes them; the rule does not yet)
          (5120, 17408, 600, (208, 224)), (7168, 2048, 450, (240,)), (36864, 7168, 450, (240,)),
          (7168, 18432, 450, (240,))]


for n, k, m, widths in select_shapes(POINTS):
    plans = {f"{'sk' if sk else 'w'}{t}": (t, 1, sk, False) for t in widths for sk in (False, True)}
    errors = {name: fp64_plan_error(n, k, m, p) for name, p in plans.items()}  # (warms fp32 out)
    if not warm_only():
        print(f"gemm {n}x{k} M={m} plan={plain_plan(m, n, k)}", flush=True)
        print("  fp64 rel err: " + " ".join(f"{name}={e:.1e}" for name, e in errors.items()),
              flush=True)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    variants = {"plan": (words, lambda w: gemm_on_plan(a4, a4_sf, w))}
    variants.update({name: (words, lambda w, p=p: gemm_on_plan(a4, a4_sf, w, p))
                     for name, p in plans.items()})
    variants["cublas"] = (bf16_weight_rotation(n, k), lambda w: x @ w.t())
    print_variant_rounds("  us", variants)
