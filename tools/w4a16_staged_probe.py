"""Session 84: W4A16 at 4..8 tokens on the small-M kernel with its activations staged in shared
memory. Today those points take the wgmma launch (``small_m_regime``): the small kernel's
register path loads 8 token lanes of bf16 a warp and step (each 16-row warp re-reads the
activations: as many bytes as its weights at 4 tokens), and the wgmma launch lost to the W4A4
small kernel by 2-4 us at the same points (H200 2026-12-05, session 77's suites, permuted
words, W4A4 / W4A16 us: 9216x7168 M = 4 14.09 / 16.76, M = 8 14.15 / 16.98; 5120x17408 M = 4
18.55 / 20.99, M = 8 18.60 / 21.15). Staged, the CTA copies its tokens' bf16 activations once
into shared memory in MMA-operand order (``x_tokens``, the path one or two tokens take); row
groups let more warps (more rows) share one staged copy.

Per point, graph us: the public route (W4A16, its wgmma launch), the W4A4 small kernel's
public route (the bar), the W4A16 small kernel on each ``STAGED`` config with ``x_tokens`` = M
(``PLAIN_X_SMEM_TOKENS`` / ``PLAIN_STAGE_BYTES`` raised for those launches only; "s" before
the config), and on each ``RING`` config as the public rules stage it (none at 4..8 tokens
on whole K): the cp.async ring (prefetch >= 2: a warp's next steps, activations included, in
shared memory rather than registers; never measured for bf16 tokens) and the register path
for reference ("r"); each with the largest difference to the public output relative to its
largest value. Configs: (row tiles, token tiles, warps, prefetch, splits, row groups).

Session 84 call 2 (H100; its W4A4 column was wrong: the raised staging reached the W4A4
launch too): staging lost everywhere (9216x7168 M = 4 best 20.45 us against the route's
18.95, M = 8 28.14 / 18.65; 5120x17408 M = 4 25.91 / 24.23, M = 8 34.41 / 24.44): each CTA
copies its 57-115 KB of activations before its first weight step.
Session 85 call 1 (H100, 2026-12-06): the ring lost everywhere too. Best forms against the
route: 9216x7168 M = 4 r2141 19.85 / 18.97 us, M = 8 r2141 22.16 / 18.79; 5120x17408 M = 4
r2141 30.55 / 24.23, M = 8 r21422 37.65 / 24.32. The lead is closed: at 4..8 tokens W4A16
keeps the wgmma route.

One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import contextlib
import importlib

import torch
from probe_inputs import fp4_gemm_operands, permuted_weight_copies

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes, time_graph_us

POINTS = [(9216, 7168, 4), (9216, 7168, 8), (5120, 17408, 4), (5120, 17408, 8)]
STAGED = [(1, 1, 8, 1, 1, 2), (2, 1, 8, 1, 1, 2), (1, 1, 8, 1, 2, 4)]
RING = [(1, 1, 4, 1), (2, 1, 4, 1), (1, 1, 4, 2), (1, 1, 4, 3), (2, 1, 4, 2), (2, 1, 4, 3),
        (1, 1, 8, 2), (2, 1, 8, 2), (1, 1, 4, 2, 2), (2, 1, 4, 2, 2), (1, 1, 4, 3, 3),
        (2, 1, 4, 2, 3)]

# the module (the package's ``nvfp4_gemm`` is the function)
gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
DEFAULT_STAGING = (gemm_module.PLAIN_X_SMEM_TOKENS, gemm_module.PLAIN_STAGE_BYTES)


@contextlib.contextmanager
def staging(tokens: int, max_bytes: int):
    """``launch_small_m``'s staging limits for the launches inside."""
    gemm_module.PLAIN_X_SMEM_TOKENS, gemm_module.PLAIN_STAGE_BYTES = tokens, max_bytes
    try:
        yield
    finally:
        gemm_module.PLAIN_X_SMEM_TOKENS, gemm_module.PLAIN_STAGE_BYTES = DEFAULT_STAGING


alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    words = permuted_weight_copies(n, k)
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    public = time_graph_us([lambda w=w: nvfp4_gemm(x, None, w[0], w[1], alpha, out=out)
                            for w in words], 50)
    want = nvfp4_gemm(x, None, words[0][0], words[0][1], alpha).float()
    fp4_words, a, a_sf, fp4_out = fp4_gemm_operands(n, k, m)
    w4a4 = time_graph_us([lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=fp4_out)
                          for w in fp4_words], 50)
    del fp4_words
    line = f"W4A16 permuted {n}x{k} M={m}: public={public:.2f} w4a4_public={w4a4:.2f}"
    for tag, configs, limits in (("s", STAGED, (8, 200 * 1024)), ("r", RING, DEFAULT_STAGING)):
        for c in configs:
            if len(c) > 4 and -(-k // 256) < c[4]:
                continue
            with staging(*limits):
                try:
                    t = time_graph_us([lambda w=w, c=c: gemm_module.launch_small_m(
                        x, None, w[0], w[1], alpha, out, c) for w in words], 50)
                except (ValueError, AssertionError) as e:
                    print(f"  {c}: {type(e).__name__} {str(e)[:120]}", flush=True)
                    continue
                out.fill_(float("nan"))
                gemm_module.launch_small_m(x, None, words[0][0], words[0][1], alpha, out, c)
            err = ((out.float() - want).abs().max() / want.abs().max()).item()
            line += f" {tag}{''.join(map(str, c))}={t:.2f}({err:.0e})"
    print(line, flush=True)
    del words
