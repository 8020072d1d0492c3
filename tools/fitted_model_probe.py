"""``fitted_tiles``' model against ``nvfp4_gemm`` on every launch it weighs (whole and
stream-K on each width of ``token_tile_widths``, 128 and 256 among them), on K = 7168
(prepared in session 69 for a refit of ``FITTED_PIECE_UNITS`` there: at 9216x7168 M = 600 /
820 stream-K 208 beat whole 128 by 1.4% / 3.8% where the model put it 6% / 2% above, session
69 call 3). Each point prints the model's estimates (K loops of one 128-token tile, least
first), then graph us in two rounds (permuted words, NVFP4 activations, cuBLAS bf16 in the
same run; ``probe_inputs.print_plans_against_plan``). One
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_plans_against_plan

from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.fitted_tiles import fitted_estimates
from cute_kernels.large_m_plans import plain_plan

POINTS = [(9216, 7168, m) for m in (300, 450, 700, 950)]
POINTS += [(36864, 7168, m) for m in (300, 600, 900)]
POINTS += [(4096, 7168, m) for m in (400, 700, 1000)]


def weighed(m: int, n: int, k: int) -> dict:
    """name -> (plan, estimate) for each launch the model weighs at this point."""
    return {f"{'w' if kind == 'whole' else 'sk'}{tile_m}":
            ((tile_m, 1, kind == "stream_k", False), est)
            for (kind, tile_m), est in sorted(fitted_estimates(m, n, k).items(),
                                              key=lambda item: item[1])}


for n, k, m in select_shapes(POINTS):
    launches = weighed(m, n, k)
    if not warm_only():
        print(f"model {n}x{k} M={m}: "
              + " ".join(f"{name}={est:.0f}" for name, (_, est) in launches.items()), flush=True)
    print_plans_against_plan(n, k, m, {name: plan for name, (plan, _) in launches.items()},
                             f"gemm {n}x{k} M={m} plan {plain_plan(m, n, k)}")
