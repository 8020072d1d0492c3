"""The fused op on packed weight words (``prepare_gate_up_weight``'s default) at the small-M
points where session 26's swiglu suite had it under the unfused pair: 4096x7168 M = 16 (15.33
us against the pair's 12.6: 0.82x) and 36864x7168 M = 8 (51.48 against 50.2: 0.97x); the
permuted words' fused op took 11.31 there (its rule keeps the register prefetch at <= 16
tokens, measured on permuted words only; packed words measured 16.2 with it in session 5,
before the operand and loop changes of sessions 12-15).

Per point (M = 9, 12, 16 on 4096x7168, M = 8 on 36864x7168): the rule's config, the same with
the prefetch toggled, both with one token tile per CTA, and with 4 <-> 8 warps; the unfused pair
(``nvfp4_gemm`` bf16 + ``silu_mul_nvfp4_quant``) and the split route at small M (``nvfp4_gemm``
writing fp32 pre-activations + the fp32 SwiGLU quantizer: this op's numerics, unlike the bf16
pair). If a config wins, ``swiglu_small_m_config``'s packed branch takes it; if only the split
route beats the kernel, the op routes there for packed words. Graph us, 50 calls a graph,
weights rotated past the L2. One point per CUTE_KERNELS_BENCH_SHAPES index."""

import torch
from probe_inputs import gate_up_copies, time_fused_small_m_configs

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, time_graph_us, warm_only
from cute_kernels.constants import constant
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config
from cute_kernels.nvfp4_quant import compile_nvfp4_quant, launch_config, silu_mul_nvfp4_quant
from layouts import sf_padded_shape

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
POINTS = [(4096, 7168, 9), (4096, 7168, 12), (4096, 7168, 16), (36864, 7168, 8)]

for two_i, k, m in select_shapes(POINTS):
    i = two_i // 2
    words = gate_up_copies(two_i, k)  # packed: prepare_gate_up_weight's default
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    rule = swiglu_small_m_config(m, i, k, False)
    toggled = (*rule[:3], 1 - rule[3], *rule[4:])  # the register prefetch
    configs = [rule, toggled, (rule[0], 1, *rule[2:]), (rule[0], 1, *toggled[2:]),
               (rule[0], rule[1], 12 - rule[2], *rule[3:])]  # 4 <-> 8 warps
    times = {}
    for c in dict.fromkeys(configs):
        try:
            times.update(time_fused_small_m_configs(a, a_sf, words, alpha, gs, [c]))
        except Exception as e:  # noqa: BLE001 - a config that does not launch: say so, go on
            print(f"fused {two_i}x{k} packed M={m}: config {c} failed: {e}", flush=True)
    pair = time_graph_us([lambda w=w: silu_mul_nvfp4_quant(
        nvfp4_gemm(a, a_sf, w[0], w[1], 0.5), 30.0) for w in words], 50)
    pre = torch.empty(m, two_i, device="cuda", dtype=torch.float32)
    q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
    sf = torch.empty(sf_padded_shape(m, i // 16), device="cuda", dtype=torch.uint8)
    quant = compile_nvfp4_quant(i, "torch.float32", True, False,
                                *launch_config(i, True, pre.device, m, fp32_input=True))
    mask = constant(1, torch.int32, pre.device)

    def split_route(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out_dtype=torch.float32, out=pre)
        quant(pre, gs, mask, q, sf.view(-1))
    split = time_graph_us([lambda w=w: split_route(w) for w in words], 50)
    if warm_only():
        continue
    best = min(times, key=times.get)
    print(f"fused {two_i}x{k} packed M={m}: rule {rule} {times[rule]:.2f} best {best} "
          f"{times[best]:.2f} pair {pair:.2f} split route {split:.2f} | "
          + " ".join(f"{''.join(map(str, c))}={t:.2f}" for c, t in times.items()), flush=True)
    del words
