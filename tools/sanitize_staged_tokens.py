"""3..8 tokens staged in shared memory (``tools/staged_tokens_probe.py``'s forms, the staging
limits widened) for compute-sanitizer, on the small grids of
``tests/test_nvfp4_gemm.py::test_three_to_eight_tokens_staged`` (one and two row tiles and a
K split, NVFP4 and bf16 activations, packed bytes and permuted words, N and K tails), so that
after those tests every kernel here is a cache hit."""

import importlib

import torch

from cute_kernels import prepare_nvfp4_weight, reference

gemm = importlib.import_module("cute_kernels.nvfp4_gemm")  # the package exports the function
limits = gemm.PLAIN_X_SMEM_TOKENS, gemm.PLAIN_STAGE_BYTES
gemm.PLAIN_X_SMEM_TOKENS, gemm.PLAIN_STAGE_BYTES = 8, 1 << 20

n, k = 336, 1088  # a partial row block, a K tail step
b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 50.0)
alpha = torch.ones(1, device="cuda")
for m in (3, 8):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    for config in ((1, 1, 4, 1), (2, 1, 4, 1), (2, 1, 4, 1, 3)):
        for act, act_sf in ((a, a_sf), (x, None)):
            for weights in (b, prepare_nvfp4_weight(b)):
                gemm.launch_small_m(act, act_sf, weights, b_sf, alpha,
                                    torch.empty(m, n, device="cuda"), config)
torch.cuda.synchronize()
gemm.PLAIN_X_SMEM_TOKENS, gemm.PLAIN_STAGE_BYTES = limits  # as found
print("staged tokens probe ran")
