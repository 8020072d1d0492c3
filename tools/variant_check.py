"""Branch loads-fence: the small-M kernels in the LOOP_VARIANT of ``tools/loop_variants.py``
against the fp64 references (plain and fused, packed and permuted, both activation kinds,
M = 1, 2, 5, whole row blocks and a K tail), including weights whose scales take all 254
finite e4m3 values. Prints one line; exits 1 on a mismatch."""

import sys

import torch
from loop_variants import apply_variant

variant = apply_variant()
from cute_kernels import prepare_nvfp4_weight, reference  # noqa: E402
from cute_kernels.nvfp4_gemm import launch_small_m  # noqa: E402
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused  # noqa: E402
from layouts import swizzle_sf, unswizzle_sf  # noqa: E402

one = torch.full((1,), 0.5, device="cuda")
bad = []
for n, k in ((256, 1024), (256, 576), (336, 1088)):
    w, w_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 50.0)
    if n == 256 and k == 1024:  # every finite e4m3 byte as a scale somewhere
        raw = unswizzle_sf(w_sf, n, k // 16).view(torch.uint8).flatten()
        codes = torch.tensor([c for c in range(256) if c & 0x7F != 0x7F], dtype=torch.uint8)
        raw[:] = codes.to("cuda").repeat(-(-raw.numel() // codes.numel()))[:raw.numel()]
        w_sf = swizzle_sf(raw.view(n, k // 16).view(torch.float8_e4m3fn)).contiguous()
    for weights in (w, prepare_nvfp4_weight(w)):
        for m, config in ((1, (2, 1, 4, 1)), (2, (2, 1, 4, 1)), (1, (1, 1, 8, 1)),
                          (5, (2, 1, 4, 1)), (1, (2, 1, 4, 1, 2))):
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            a, a_sf = reference.nvfp4_quantize(x, 50.0)
            for acts, acts_sf in ((a, a_sf), (x, None)):
                want = reference.nvfp4_gemm_fp64(acts, acts_sf, w, w_sf, 0.5)
                out = torch.full((m, n), float("nan"), device="cuda")
                launch_small_m(acts, acts_sf, weights, w_sf, one, out, config)
                err = ((out.double() - want).norm() / want.norm()).item()
                if not err <= 1e-3:
                    bad.append(("gemm", n, k, m, config, acts_sf is None, err))
            if config[0] % 2 == 0 and n % 128 == 0:  # the fused kernel: equal to the pair's
                q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
                q_sf = torch.zeros(128 * (-(-n // 32 // 4) * 4), device="cuda",
                                   dtype=torch.uint8)  # [pad128(M), pad4(I / 16)] bytes
                launch_fused(a, a_sf, weights, w_sf, one, one, q, q_sf, config)
                ref_q, _ = reference.gemm_swiglu_quant(a, a_sf, w, w_sf, 0.5, 0.5)
                if (q != ref_q.to(q.device)).float().mean().item() > 0.01:
                    bad.append(("fused", n, k, m, config))
print(f"variant {variant or 'default'}: {len(bad)} mismatches {bad[:4]}")
sys.exit(1 if bad else 0)
