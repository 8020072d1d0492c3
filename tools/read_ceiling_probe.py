"""How fast can anything read the bytes of issue 5's and 6's open one-token points? The
targets are fractions of the copy ceiling (256 MiB, read + write); a one-token GEMM reads its
weight bytes once and writes almost nothing, so its true floor is a pure read of those bytes
at that size: a launch, a ramp, the stream and a drain. This probe times, in the same graph
harness as the suites (back-to-back calls over copies rotated past the L2):

- ``gemv16`` / ``gemv8``: this library's bf16 and fp8 decode GEMVs (``bf16_gemv``,
  ``fp8_gemv``) on a [N', 4096] weight of exactly the point's bytes: a one-token read stream
  with nothing to decode, the best pure read we have (``torch.sum`` read at 62-71% of the copy
  on the H100, session 79 call 4: no floor);
- ``copy``: ``Tensor.copy_`` of half the bytes (reads half, writes half: the "copy, same
  bytes" comparator of the quant suite);
- ``gemm``: the public ``nvfp4_gemm`` at M = 1 on NVFP4 tokens (permuted words), the row the
  target judges, where the point is a GEMM.

Each as graph us, then TB/s over the point's bytes and % of the run's copy ceiling, beside the
time the 75% target asks. Points: 9216x7168 and 5120x17408 (weights + scales), and issue 4's
plain quantizer bytes at M = 4096, K = 5120 (85% asked), for scale.
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import permuted_weight_copies

from cute_kernels import bf16_gemv, fp8_gemv, nvfp4_gemm, reference
from cute_kernels.bench import ceilings
from cute_kernels.bench.timing import rotations_for, time_graphs_interleaved_us, warm_only

# (label, N, K, bar %): GEMM points read n * k * 9 / 16 bytes (packed codes + scales)
GEMMS = [("gemm 9216x7168 M=1", 9216, 7168, 75), ("gemm 5120x17408 M=1", 5120, 17408, 75)]
# issue 4's plain quantizer at M = 4096, K = 5120: bf16 in, codes + scales out
QUANT_BYTES = 4096 * 5120 * 2 + 4096 * 5120 // 2 + 4096 * 5120 // 16
GEMV_K = 4096  # the GEMVs' K (a multiple of both one's step); N' = bytes / (K * itemsize)


def gemv_calls(nbytes: int) -> dict:
    """``bf16_gemv`` and ``fp8_gemv`` closures over rotated weights of ``nbytes`` each."""
    calls = {}
    for name, dtype in (("gemv16", torch.bfloat16), ("gemv8", torch.float8_e4m3fn)):
        itemsize = torch.empty((), dtype=dtype).element_size()
        n = nbytes // (GEMV_K * itemsize)
        x = torch.randn(GEMV_K, device="cuda").to(dtype)
        ws = [torch.randn(n, GEMV_K, device="cuda").to(dtype)
              for _ in range(rotations_for(n * GEMV_K * itemsize))]
        if dtype == torch.bfloat16:
            calls[name] = [lambda w=w, x=x: bf16_gemv(x, w) for w in ws]
        else:
            alpha = torch.full((), 0.5, device="cuda")
            calls[name] = [lambda w=w, x=x, a=alpha: fp8_gemv(x, w, a) for w in ws]
    return calls


def copy_calls(nbytes: int) -> list:
    """``Tensor.copy_`` of ``nbytes / 2`` (read + write = ``nbytes``) over rotated copies."""
    halves = [(torch.randn(nbytes // 8, device="cuda"), torch.empty(nbytes // 8, device="cuda"))
              for _ in range(rotations_for(nbytes // 2))]
    return [lambda s=s, d=d: d.copy_(s) for s, d in halves]


def gemm_calls(n: int, k: int) -> list:
    """Public M = 1 ``nvfp4_gemm`` calls on rotated permuted weight copies."""
    copies = permuted_weight_copies(n, k)
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    alpha = torch.full((1,), 0.5, device="cuda")
    out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
    return [lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out) for w in copies]


def report(label: str, nbytes: int, bar: int, forms: dict, copy_tbs: float) -> None:
    times = dict(zip(forms, time_graphs_interleaved_us(list(forms.values()), 100)))
    asked = nbytes / (copy_tbs * 1e6) / (bar / 100)
    print(f"{label}: {nbytes / 1e6:.2f} MB, {bar}% of the copy asks <= {asked:.2f} us", flush=True)
    for name, us in times.items():
        tbs = nbytes / (us * 1e6)
        print(f"  {name:6s} {us:8.2f} us  {tbs:5.2f} TB/s  {100 * tbs / copy_tbs:5.1f}% copy",
              flush=True)


def main() -> None:
    copy_tbs = 0.0 if warm_only() else ceilings.measure()["copy_tbs"]
    if not warm_only():
        print(f"device: {torch.cuda.get_device_name()}  copy ceiling {copy_tbs:.2f} TB/s",
              flush=True)
    for label, n, k, bar in GEMMS:
        nbytes = n * k * 9 // 16
        forms = {**gemv_calls(nbytes), "copy": copy_calls(nbytes), "gemm": gemm_calls(n, k)}
        if warm_only():
            for calls in forms.values():
                calls[0]()
            continue
        report(label, nbytes, bar, forms, copy_tbs)
        del forms
        torch.cuda.empty_cache()
    if not warm_only():
        report("quant bytes M=4096 K=5120", QUANT_BYTES, 85,
               {**gemv_calls(QUANT_BYTES), "copy": copy_calls(QUANT_BYTES)}, copy_tbs)


if __name__ == "__main__":
    main()
