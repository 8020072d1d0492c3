"""Pipeline stages of the wgmma kernel's launches as the public functions plan them (session
19's lead: two CTAs an SM of 16-token tiles ran 5% faster with 5 stages than with 8, one CTA
lost with 5 on some shapes and gained on 5120x17408 M = 32). Per point: the planned launch with
its stages as the kernel picks them ("auto"), then each stage count in STAGES (those that do
not fit shared memory are skipped), interleaved graphs, two rounds; permuted words, NVFP4
activations, the dequantization included. One point per CUTE_KERNELS_BENCH_SHAPES index (one
warm-up process each: ``tools/sessions/session20_stages.sh``)."""

from probe_inputs import fits, planned, time_wgmma_variants

from cute_kernels.bench.timing import select_shapes

STAGES = (3, 4, 5, 6, 7, 10)  # "auto": ``stage_cap`` (8 before session 20)
POINTS = [("gemm", 7168, 18432, 16), ("gemm", 7168, 18432, 32), ("gemm", 5120, 17408, 32),
          ("gemm", 9216, 7168, 32), ("gemm", 36864, 7168, 32), ("gemm", 34816, 5120, 32),
          ("gemm", 36864, 7168, 64), ("gemm", 34816, 5120, 64), ("gemm", 7168, 18432, 64),
          ("fused", 36864, 7168, 64), ("fused", 34816, 5120, 64), ("gemm", 9216, 7168, 256)]


for kind, n, k, m in select_shapes(POINTS):
    launch = planned(kind, n, k, m)
    variants = {"auto": launch}
    for stages in STAGES:
        variant = dict(launch, config=(launch["config"][0], stages))
        if fits(kind, n, k, variant):
            variants[f"st{stages}"] = variant
    print(f"{kind} {n}x{k} M={m}: {launch}", flush=True)
    time_wgmma_variants(kind, n, k, m, variants)
