"""Inputs the device probes in tools/ share: rotated weight copies (more bytes than the L2, so
each call streams its weights from DRAM), and the small-M config timings the config probes
print. Imported as ``from probe_inputs import ...`` (the
probes run as ``python tools/<probe>.py``)."""

import contextlib
import importlib
import os

import torch

from cute_kernels import prepare_gate_up_weight, reference, restore_gate_up_weight
from cute_kernels.bench.timing import rotations_for, warm_only
from cute_kernels.k_order import KOrder
from cute_kernels.testing import replaced, switched_compiler  # noqa: F401 (the probes' names)


def replaced_call(call, module, attrs: dict):
    """``call`` (of one weight copy) run with ``module``'s ``attrs`` replaced (``replaced``):
    a probe's variant of a public route."""
    def run(w):
        with replaced(module, attrs):
            call(w)
    return run


def launches_compiled_by(module, compile_fn) -> dict:
    """``replaced`` attributes for ``module``: its ``launch_large_m`` with every launch compiled
    by ``compile_fn`` (called with the compile arguments): a probe's kernel variant on the
    public routes."""
    launch = module.launch_large_m

    def launch_variant(*args, **kwargs):
        kwargs["compile_fn"] = compile_fn
        launch(*args, **kwargs)
    return {"launch_large_m": launch_variant}


def replayed_graph(calls: list, replays: int = 3) -> float | None:
    """``calls`` run once each (compiled and loaded outside any capture), then, unless warming
    up, captured back to back in one CUDA graph that is replayed ``replays`` times: the
    stamped timelines' runs. Returns the replays' graph us a call (None in a warm-up process,
    where nothing is captured): the launches' own time, stamped or not, on these buffers."""
    for c in calls:
        c()
    torch.cuda.synchronize()
    if warm_only():
        return None
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for c in calls:
            c()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(replays):
        graph.replay()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1e3 / (replays * len(calls))


def made_before(made: dict, make):
    """A stand-in for ``bf16_activations`` that answers from ``made``: each (operand, K order,
    rows) made once by ``make`` (the real pass, unspread) on its first call, outside any
    capture, then handed back with no launch: the GEMM timed without its activation pass."""
    def answer(x, x_sf, k_order=KOrder.IDENTITY, rows=None, spread=False):
        key = (x.data_ptr(), int(KOrder(k_order)), rows)
        if key not in made:
            made[key] = make(x, x_sf, k_order, rows)
        return made[key]
    return answer


def public_and_alone(a, a_sf, alpha, out, copies: list) -> dict:
    """``print_forms`` calls of ``nvfp4_gemm`` on one weight copy: "public" (the route, its
    activation pass included) and "alone" (the same launches on the bf16 activations
    ``made_before``: the GEMM without its pass), those activations made (and the kernels
    compiled) here for every copy, before any capture."""
    from cute_kernels import nvfp4_gemm

    gemm = importlib.import_module("cute_kernels.nvfp4_gemm")
    make = made_before({}, gemm.bf16_activations)

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)

    def alone(w):
        with replaced(gemm, {"bf16_activations": make}):
            public(w)
    for w in copies:
        alone(w)
    return {"public": public, "alone": alone}


def planned_forms(a, a_sf, alpha, out, plan, forms: dict) -> dict:
    """A probe point's calls of one weight copy: the public route ("public"), then
    ``launch_planned`` on ``plan`` (64-row tiles where it takes them) with each form's options
    (``pdl_trigger``, ``spread_pass``), for ``print_forms``."""
    from cute_kernels import nvfp4_gemm
    from cute_kernels.nvfp4_gemm import launch_planned

    calls = {"public": lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)}
    for name, options in forms.items():
        calls[name] = lambda w, o=options: launch_planned(a, a_sf, w[0], w[1], alpha, out, plan,
                                                          wg_k_split=True, **o)
    return calls


def gemm_on_plan(a, a_sf, w, plan=None):
    """``nvfp4_gemm`` of ``a`` with weights ``w`` = (words, scales), alpha 0.5, on
    ``plain_plan``'s launch or, given ``plan``, that (tile_m, splits, stream_k, hybrid)
    forced."""
    from cute_kernels import nvfp4_gemm

    with forced_plan(plan):
        return nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)


def fp64_plan_error(n: int, k: int, m: int, plan: tuple) -> float:
    """``nvfp4_gemm`` on ``plan`` forced (permuted words, NVFP4 activations, fp32 out poisoned
    with NaN) against the fp64 product: the relative error (inf where a NaN survived)."""
    from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight

    w = torch.randn(n, k, device="cuda") * torch.pow(10.0, torch.rand(n, 1, device="cuda") * 3 - 2)
    b, b_sf = reference.nvfp4_quantize(w.to(torch.bfloat16), 448 * 6 / w.abs().amax())
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 0.7)
    out = torch.full((m, n), float("nan"), device="cuda")
    with forced_plan(plan):
        nvfp4_gemm(a, a_sf, prepare_nvfp4_weight(b), b_sf, 0.7, out_dtype=torch.float32, out=out)
    torch.cuda.synchronize()
    if out.isnan().any():
        return float("inf")
    return ((out.double() - want).norm() / want.norm()).item()


def forced_plan(plan):
    """A context in which ``nvfp4_gemm`` launches on ``plan`` (tile_m, splits, stream_k,
    hybrid) instead of ``plain_plan``'s (None: on its own)."""
    if plan is None:
        return contextlib.nullcontext()
    return replaced(importlib.import_module("cute_kernels.nvfp4_gemm"),
                    {"plain_plan": lambda m, n, k: plan})


@contextlib.contextmanager
def unpadded(*modules):
    """The modules' ``bf16_activations`` with ``rows`` ignored (M rows, the wgmma kernels'
    TMA filling the last token tile past them: the form before session 24)."""
    from cute_kernels.nvfp4_dequant import bf16_activations

    exact = {"bf16_activations": lambda a, a_sf, permuted=False, rows=None, spread=False:
             bf16_activations(a, a_sf, permuted, spread=spread)}
    with contextlib.ExitStack() as stack:
        for module in modules:
            stack.enter_context(replaced(module, exact))
        yield


@contextlib.contextmanager
def routing(switches: list, routed: list):
    """The public routes with the (module, switch, value) ``switches`` set, the memoized plans
    of the ``routed`` modules recomputed on the way in and out."""
    def clear_plan_caches():
        for module in routed:
            for value in vars(module).values():
                if hasattr(value, "cache_clear"):
                    value.cache_clear()

    saved = [(module, name, getattr(module, name)) for module, name, _ in switches]
    for module, name, value in switches:
        setattr(module, name, value)
    clear_plan_caches()
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)
        clear_plan_caches()


def planned_gemm(a, a_sf, plan=None, switches: list = ()):
    """``run(w)``: ``gemm_on_plan`` of ``a`` on weight copy ``w`` (``plan`` forced, or
    ``plain_plan``'s) with the (module, switch, value) ``switches`` set through ``routing``
    (``large_m_plans``' memoized plans recomputed): a probe's plain GEMM variant."""
    plans = importlib.import_module("cute_kernels.large_m_plans")

    def run(w):
        with routing(list(switches), [plans]):
            gemm_on_plan(a, a_sf, w, plan)
    return run


def fused_routed(a, a_sf, w, answer=None):
    """The public fused op on gate_up copy ``w`` (alpha 0.5, out_global_scale 30), its
    ``large_m_route`` / ``packed_route`` answer forced to ``answer`` if given (and then not
    replaced by ``fused_fitted_route``'s tiles)."""
    from cute_kernels import nvfp4_gemm_swiglu_quant

    if answer is None:
        return nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)
    forced = lambda m, i, k: answer  # noqa: E731
    as_given = lambda m, two_i, k, a_fp4, route, plan: (route, plan)  # noqa: E731
    swiglu = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
    with replaced(swiglu, {"large_m_route": forced, "packed_route": forced,
                           "fused_fitted_route": as_given}):
        return nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)


def fused_route_and_answers(two_i: int, k: int, a, a_sf, words: list, answers: dict) -> dict:
    """``print_variant_rounds``' variants of the fused op on gate_up copies ``words`` of a
    2I x K weight: its route ("route", printed first) and each of ``answers`` (name ->
    (route, plan)) forced, the forced launches' codes and scales first compared with the
    route's (a difference is named: the fp32 sums in another order may round differently at
    boundaries); an answer the op refuses is named and left out."""
    m = a.shape[0]
    want = fused_routed(a, a_sf, words[0])
    if not warm_only():
        swiglu = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
        launch = swiglu.large_m_launch(m, two_i, k, a_sf is not None, torch.int32)
        kind = "" if a_sf is not None else " (bf16 activations)"
        print(f"fused {two_i}x{k} M={m}{kind}: route {launch.route} {launch.plan}", flush=True)
    variants = {"route": (words, lambda w: fused_routed(a, a_sf, w))}
    for name, answer in answers.items():
        try:
            got = fused_routed(a, a_sf, words[0], answer)
        except (ValueError, NotImplementedError) as error:
            print(f"  {name}: {error}", flush=True)
            continue
        if not same_bits(got, want) and not warm_only():
            print(f"  {name}: codes or scales differ from the route's", flush=True)
        variants[name] = (words, lambda w, answer=answer: fused_routed(a, a_sf, w, answer))
    return variants


def public_fused(routed: list):
    """``fused(w, switches, a, a_sf)``: the public fused op on gate_up copy ``w`` (alpha 0.5,
    out_global_scale 30) with ``routing(switches, routed)``; its (codes, scales)."""
    from cute_kernels import nvfp4_gemm_swiglu_quant

    def fused(w, switches, a, a_sf):
        with routing(switches, routed):
            return nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)
    return fused


def fused_point(two_i: int, k: int, m: int) -> tuple:
    """A fused probe point's inputs: bf16 activations x [M, K], their NVFP4 form (a, a_sf;
    global scale 100) and the rotation of permuted gate_up words (``gate_up_words``)."""
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    return (x, *reference.nvfp4_quantize(x, 100.0), gate_up_words(two_i, k, True))


def unfused_pair(a, a_sf, two_i: int):
    """``run(w)``: the fused op's unfused pair on gate_up copy ``w``, ``nvfp4_gemm`` (alpha
    0.5, into one bf16 buffer made here) then ``silu_mul_nvfp4_quant`` (out_global_scale 30)."""
    from cute_kernels import nvfp4_gemm, silu_mul_nvfp4_quant

    h = torch.empty(a.shape[0], two_i, device=a.device, dtype=torch.bfloat16)
    return lambda w: silu_mul_nvfp4_quant(nvfp4_gemm(a, a_sf, w[0], w[1], 0.5, out=h), 30.0)


def cublas_silu(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The fused op's comparator: cuBLAS ``x @ w.T`` on a bf16 [2I, K] weight, then torch
    ``silu(gate) * up`` of its halves."""
    import torch.nn.functional as F

    y = x @ w.t()
    return F.silu(y[:, :w.shape[0] // 2]) * y[:, w.shape[0] // 2:]


def bf16_weight_rotation(n: int, k: int) -> list:
    """Copies of a random bf16 [N, K] weight for cuBLAS, a rotation past the L2."""
    w16 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    return [w16] + [w16.clone() for _ in range(rotations_for(n * k * 2) - 1)]


def copies_for(bytes_per_copy: int) -> int:
    """Weight copies of a probe: a rotation past the L2, or one in a warm-up process (which
    only compiles; dozens of them at once ran the GPU out of memory in session 20), or with
    ``PROBE_L2=1`` one, so that replays read weights that fit the L2 from there (the kernel's
    own bound past DRAM's: an H100 standing in for the H200's faster memory)."""
    return 1 if warm_only() or os.environ.get("PROBE_L2") == "1" else rotations_for(
        bytes_per_copy)


def fused_operands(two_i: int, k: int, m: int, permuted: bool) -> dict:
    """A fused large-M point's operands: NVFP4 activations ``a`` / ``a_sf`` (M x K), their bf16
    form ``x16`` (K permuted with ``permuted``), the outputs ``q`` / ``sf`` and a bf16 [M, 2I]
    pre-activation buffer ``h``."""
    from cute_kernels.nvfp4_dequant import bf16_activations
    from layouts import sf_padded_shape

    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    i = two_i // 2
    return {"a": a, "a_sf": a_sf, "x16": bf16_activations(a, a_sf, permuted),
            "q": torch.empty(m, i // 2, device="cuda", dtype=torch.uint8),
            "sf": torch.empty(sf_padded_shape(m, i // 16), device="cuda",
                              dtype=torch.uint8).view(-1),
            "h": torch.empty(m, two_i, device="cuda", dtype=torch.bfloat16)}


def pieces_operands(two_i: int, k: int, m: int) -> tuple:
    """A fused large-M point on permuted words: (``fused_operands``, the gate_up word copies,
    alpha 0.5 and out_global_scale 30 as one-element tensors, a bf16 [M, 2I] output for the
    plain kernel on the same launch)."""
    return (fused_operands(two_i, k, m, True), gate_up_words(two_i, k, True),
            torch.full((1,), 0.5, device="cuda"), torch.full((1,), 30.0, device="cuda"),
            torch.empty(m, two_i, device="cuda", dtype=torch.bfloat16))


def route_point_operands(n: int, k: int, m: int) -> tuple:
    """A public-route point on permuted words (``nvfp4_gemm`` on [N, K], the fused op on
    2I = N): (NVFP4 activations a, a_sf; ``permuted_weight_copies``; the gate_up word copies;
    a's bf16 values; bf16 [N, K] copies for cuBLAS)."""
    ops, gate_up, _, _, _ = pieces_operands(n, k, m)
    a, a_sf = ops["a"], ops["a_sf"]
    x = reference.nvfp4_dequantize(a, a_sf, 100.0, m, k, out_dtype=torch.bfloat16)
    return a, a_sf, permuted_weight_copies(n, k), gate_up, x, bf16_weight_rotation(n, k)


def weight_copies(n: int, k: int) -> list:
    """(packed, swizzled scales) NVFP4 copies of a random [N, K] weight."""
    return [reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                     100.0) for _ in range(copies_for(n * k * 9 // 16))]


def permuted_weight_copies(n: int, k: int) -> list:
    """``weight_copies`` as (permuted words, scales): ``prepare_nvfp4_weight``'s form."""
    from cute_kernels import prepare_nvfp4_weight

    return [(prepare_nvfp4_weight(b), s) for b, s in weight_copies(n, k)]


def launch_alone_inputs(n: int, k: int, m: int, tile_m: int = 16) -> tuple:
    """(``permuted_weight_copies``, bf16 activations of M random NVFP4 tokens in the permuted
    K order padded to whole ``tile_m``-token tiles, alpha 0.5 as a tensor): the wgmma kernel's
    launch alone (``launch_large_m``), its activation pass made once."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.nvfp4_dequant import bf16_activations

    words, a, a_sf, _ = fp4_gemm_operands(n, k, m)
    rows = -(-m // tile_m) * tile_m
    return (words, bf16_activations(a, a_sf, KOrder.PERMUTED, rows),
            torch.full((1,), 0.5, device="cuda"))


def stream_k_calls(x, alpha, outs: dict, tile_m: int, k_groups: int, compilers: dict,
                   ctas_per_sm: dict | None = None) -> dict:
    """name -> a call of one weight copy ``w`` (words, scales): the stream-K launch alone as
    the public op launches it (permuted words, the PDL trigger), ``tile_m``-token tiles,
    ``k_groups`` K groups a stage, ``ctas_per_sm[name]`` CTAs an SM (1 if not named),
    compiled by ``compilers[name]``, into ``outs[name]`` (``launch_alone_inputs``' x and
    alpha)."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.nvfp4_gemm_large_m import launch_large_m

    def call(name):
        return lambda w: launch_large_m(x, w[0], w[1], alpha, outs[name], (tile_m, 0),
                                        stream_k=True, k_groups=k_groups,
                                        ctas_per_sm=(ctas_per_sm or {}).get(name, 1),
                                        k_order=KOrder.PERMUTED, pdl_trigger=True,
                                        compile_fn=compilers[name])
    return {name: call(name) for name in compilers}


def compare_stream_k_forms(points: list, compilers: dict, what: str, wraps=None) -> None:
    """For each of ``points`` ((N, K, M, token tile, K groups), picked by
    CUTE_KERNELS_BENCH_SHAPES): the stream-K launch alone (``stream_k_calls``) compiled by each
    of ``compilers``, the first the baseline, timed interleaved (``print_variant_rounds``,
    labelled with ``what``), then whether each other form gave the baseline's bits.
    ``wraps``: name -> a function of that form's call (of one weight copy) that returns the
    call to time instead."""
    from cute_kernels.bench.timing import select_shapes

    base, *others = compilers
    for n, k, m, tile_m, groups in select_shapes(points):
        words, x, alpha = launch_alone_inputs(n, k, m, tile_m)
        outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
                for name in compilers}
        calls = stream_k_calls(x, alpha, outs, tile_m, groups, compilers)
        for name, wrap in (wraps or {}).items():
            calls[name] = wrap(calls[name])
        print_variant_rounds(f"gemm {n}x{k} M={m} {tile_m}-token stream-K, {groups} K groups, "
                             f"{what}", {name: (words, calls[name]) for name in compilers})
        if not warm_only():
            for name in others:
                same = torch.equal(outs[name], outs[base])
                print(f"  {name} against {base}: {'same bits' if same else 'DIFFERENT BITS'}",
                      flush=True)
        del words
        torch.cuda.empty_cache()


def fp4_gemm_operands(n: int, k: int, m: int) -> tuple:
    """(``permuted_weight_copies``, NVFP4 activations a and a_sf of a random bf16 [M, K],
    a bf16 output [M, N]) for an ``nvfp4_gemm`` point."""
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    return permuted_weight_copies(n, k), a, a_sf, out


def gate_up_copies(two_i: int, k: int) -> list:
    """``prepare_gate_up_weight``'d copies of a random [2I, K] gate_up weight."""
    raw = [reference.nvfp4_quantize(torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16),
                                    100.0, swizzle=False)
           for _ in range(copies_for(two_i * k * 9 // 16))]
    return [prepare_gate_up_weight(*r) for r in raw]


def gate_up_words(two_i: int, k: int, permute: bool) -> list:
    """``gate_up_copies`` as the models hold them: permuted words with ``permute``."""
    return [prepare_gate_up_weight(*restore_gate_up_weight(w, s), permute=permute)
            for w, s in gate_up_copies(two_i, k)]


def time_small_m_configs(a, a_sf, weights: list, alpha, out, configs, k: int) -> dict:
    """Graph us of ``launch_small_m`` per config (50 calls per graph, the weight copies in
    turn); K splits past one per 256 of K and configs that do not fit shared memory are
    skipped."""
    from cute_kernels.bench.timing import time_graph_us
    from cute_kernels.nvfp4_gemm import launch_small_m

    times = {}
    for c in configs:
        if len(c) > 4 and c[4] > -(-k // 256):
            continue
        try:
            times[c] = time_graph_us([lambda w=w, c=c: launch_small_m(
                a, a_sf, w[0], w[1], alpha, out, c) for w in weights], 50)
        except ValueError as e:  # shared memory
            if "shared memory" not in str(e):
                raise
    return times


def time_fused_small_m_configs(a, a_sf, gate_up: list, alpha, global_scale, configs) -> dict:
    """Graph us of the fused kernel's ``launch_small_m`` per config (50 calls per graph, the
    ``prepare_gate_up_weight``'d copies in turn), its outputs allocated here."""
    from cute_kernels.bench.timing import time_graph_us
    from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m
    from layouts import sf_padded_shape

    m, i = a.shape[0], gate_up[0][0].shape[0] // 2
    q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
    sf = torch.empty(sf_padded_shape(m, i // 16), device="cuda", dtype=torch.uint8)
    return {c: time_graph_us([lambda w=w, c=c: launch_small_m(
        a, a_sf, w[0], w[1], alpha, global_scale, q, sf, c) for w in gate_up], 50)
        for c in configs}


def small_m_default(kind: str, n: int, k: int, m: int, words: list) -> tuple[int, ...]:
    """The public small-M config of ``kind`` ("gemm" on [N, K], "fused" on [2I = N, K]) at
    M NVFP4 tokens, for the layout of ``words`` (permuted or packed)."""
    from cute_kernels.nvfp4_gemm import small_m_config
    from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config
    from cute_kernels.permuted_fp4 import weight_dims

    permuted = weight_dims(words[0][0])[2]
    if kind == "gemm":
        return small_m_config(m, n, k, True, permuted)
    return swiglu_small_m_config(m, n // 2, k, permuted)


def config_line(kind: str, n: int, k: int, m: int, default, times) -> str:
    """A config probe's line: each config's graph us (``times``: (config, us) pairs), the
    default starred."""
    return f"{kind} {n}x{k} M={m}: " + " ".join(
        f"{''.join(map(str, c))}{'*' if c == default else ''}={t:.2f}" for c, t in times)


def print_configs_against_default(kind: str, n: int, k: int, m: int, words: list, extra,
                                  alpha, global_scale) -> None:
    """One line of a config probe: graph us of the default small-M config of ``kind``
    ("gemm": the plain GEMM on [N, K] words, "fused": the fused kernel on [2I, K] gate_up
    words), starred, then of each config ``extra(default)`` lists, at M tokens of fresh NVFP4
    activations."""
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    default = small_m_default(kind, n, k, m, words)
    configs = [default] + [c for c in extra(default) if c != default]
    if kind == "gemm":
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        times = time_small_m_configs(a, a_sf, words, alpha, out, configs, k)
    else:
        times = time_fused_small_m_configs(a, a_sf, words, alpha, global_scale, configs)
    print(config_line(kind, n, k, m, default, times.items()), flush=True)


def time_wgmma_variants(kind: str, n: int, k: int, m: int, variants: dict, rounds: int = 2):
    """Graph us of wgmma launches side by side (interleaved graphs, ``rounds`` lines): "gemm"
    on [N, K] permuted words, or "fused" on [2I = N, K] permuted gate_up words, at M tokens of
    fresh NVFP4 activations, the dequantization included as the public functions run it.
    ``variants``: name -> ``launch_large_m`` keyword arguments beside the operands (config,
    and splits / stream_k / hybrid / ctas_per_sm / k_groups where not the default), or a
    function of (a, a_sf, weight copy) ("gemm" only: e.g. the public function)."""
    from cute_kernels import prepare_gate_up_weight, restore_gate_up_weight
    from cute_kernels.bench.timing import time_graphs_interleaved_us
    from cute_kernels.nvfp4_dequant import bf16_activations
    from cute_kernels.nvfp4_gemm_large_m import launch_large_m
    from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m as launch_fused

    alpha = torch.full((1,), 0.5, device="cuda")
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    # whole token tiles of activations, as the public functions pass them (the TMA's zero
    # fill past the tensor is slow); before session 31 the launches here read past M
    rows = lambda v: -(-m // v["config"][0]) * v["config"][0]
    if kind == "gemm":
        words = permuted_weight_copies(n, k)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        run = lambda w, v: (v(a, a_sf, w) if callable(v) else launch_large_m(
            bf16_activations(a, a_sf, True, rows(v)), w[0], w[1], alpha, out, **v))
    else:
        from layouts import sf_padded_shape

        words = [prepare_gate_up_weight(*restore_gate_up_weight(w, s), permute=True)
                 for w, s in gate_up_copies(n, k)]
        gs = torch.full((1,), 30.0, device="cuda")
        q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
        sf = torch.empty(sf_padded_shape(m, n // 32), device="cuda", dtype=torch.uint8)
        run = lambda w, v: launch_fused(bf16_activations(a, a_sf, True, rows(v)), w[0], w[1],
                                        alpha, gs, q, sf, **v)
    names = list(variants)
    for _ in range(rounds):
        times = time_graphs_interleaved_us(
            [[lambda w=w, v=variants[name]: run(w, v) for w in words] for name in names], 100)
        print(f"{kind} {n}x{k} M={m}: " + " ".join(f"{name}={t:.2f}"
                                                   for name, t in zip(names, times)), flush=True)


def planned(kind: str, n: int, k: int, m: int) -> dict:
    """The public route's ``launch_large_m`` keyword arguments for a wgmma point (stages 0:
    the kernel's choice): "gemm" on [N, K], "fused" on [2I = N, K]."""
    from cute_kernels.large_m_plans import plain_launch_options, plain_plan
    from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route, route_launch

    if kind == "gemm":
        tile_m, splits, stream_k, hybrid = plain_plan(m, n, k)
        return dict(config=(tile_m, 0), splits=splits, stream_k=stream_k, hybrid=hybrid,
                    **plain_launch_options(m, n, k, tile_m, stream_k))
    config, stream_k, options = route_launch(*large_m_route(m, n // 2, k), m, n, k)
    return dict(config=config, stream_k=stream_k, **options)


def wgmma_point(kind: str, n: int, k: int, m: int, permuted: bool = False) -> tuple:
    """A W4A16 wgmma point: (weight copies, x, alpha, out, launch). ``launch(w, a_bf16, **kw)``
    runs ``planned``'s launch on copy ``w`` ("gemm": ``launch_large_m`` into ``out``, bf16
    [M, N]; "fused": the fused kernel into codes and scales of its own, ``out`` None); the
    copies are packed bytes or, ``permuted``, the models' words."""
    from cute_kernels.nvfp4_gemm_large_m import launch_large_m
    from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
    from layouts import sf_padded_shape

    plan = planned(kind, n, k, m)
    alpha = torch.full((1,), 0.5, device="cuda")
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    if kind == "gemm":
        words = permuted_weight_copies(n, k) if permuted else weight_copies(n, k)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)

        def launch(w, a_bf16, **kw):
            launch_large_m(a_bf16, w[0], w[1], alpha, out, **plan, **kw)
        return words, x, alpha, out, launch
    words = gate_up_words(n, k, True) if permuted else gate_up_copies(n, k)
    gs = torch.full((1,), 30.0, device="cuda")
    q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
    sf = torch.empty(sf_padded_shape(m, n // 32), device="cuda", dtype=torch.uint8)

    def launch_gate_up(w, a_bf16, **kw):
        launch_fused(a_bf16, w[0], w[1], alpha, gs, q, sf, **plan, **kw)
    return words, x, alpha, None, launch_gate_up


def fits(kind: str, n: int, k: int, launch: dict) -> bool:
    """Whether a launch (``planned``'s keywords, its config's stages given) constructs: its
    stages fit the kernel's shared memory, its K groups divide K."""
    import cutlass

    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM
    from cute_kernels.swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM

    tile_m, stages = launch["config"][:2]
    opts = dict(stream_k=launch.get("stream_k", False), k_order=1,
                ctas_per_sm=launch.get("ctas_per_sm", 1), k_groups=launch.get("k_groups", 1))
    try:
        if kind == "gemm":
            NVFP4GemmLargeM(n, k, cutlass.BFloat16, tile_m, stages,
                            splits=launch.get("splits", 1), **opts)
        else:
            NVFP4GemmSwigluQuantLargeM(n // 2, k, tile_m, stages, **opts)
    except AssertionError:
        return False
    return True


def _variant_rounds(variants: dict, rounds: int):
    """Each of ``variants`` ((weight copies, a call of one copy)) called once (compiles), then,
    unless in a warm-up process, ``rounds`` lists of graph us (100 calls a graph, the copies in
    turn, interleaved)."""
    from cute_kernels.bench.timing import time_graphs_interleaved_us

    for copies, call in variants.values():
        call(copies[0])
    torch.cuda.synchronize()
    if warm_only():
        return
    for _ in range(rounds):
        yield time_graphs_interleaved_us(
            [[lambda w=w, call=call: call(w) for w in copies] for copies, call in
             variants.values()], 100)


def print_variant_rounds(label: str, variants: dict, rounds: int = 2) -> None:
    """A probe point's variants side by side: ``variants`` maps a name to (weight copies, a
    call of one copy). Each is called once (compiles; in a warm-up process that is all), then
    ``label`` and ``rounds`` lines of graph us (100 calls a graph, the copies in turn,
    interleaved). ``CUTE_KERNELS_PROBE_VARIANTS`` (comma-separated names) keeps only those:
    a short device call."""
    keep = os.environ.get("CUTE_KERNELS_PROBE_VARIANTS")
    if keep:
        names = keep.split(",")
        variants = {name: v for name, v in variants.items() if name in names}
    if not warm_only():
        print(label, flush=True)
    for times in _variant_rounds(variants, rounds):
        print("  " + " ".join(f"{v}={t:.2f}" for v, t in zip(variants, times)), flush=True)


def time_forms_against_public(label: str, calls: dict, copies: list, outs: dict,
                              codes: bool) -> None:
    """``print_forms``, then (unless warming up) each form called once more and its output
    against ``outs["public"]``: the relative norm of the difference, or with ``codes`` (the
    fused op's packed codes) the share of bytes that differ."""
    print_forms(label, calls, copies)
    if warm_only():
        return
    for call in calls.values():
        call(copies[0])
    want = outs["public"].float()

    def gap(o):
        if codes:
            return (o.float() != want).float().mean().item()
        return ((o.float() - want).norm() / want.norm()).item()
    print(f"{label} against public: " + " ".join(
        f"{name}={gap(o):.1e}" for name, o in outs.items() if name != "public"), flush=True)


def print_forms(label: str, calls: dict, copies: list, rounds: int = 2) -> None:
    """A probe point's forms on the same weight copies: ``calls`` maps a name to a call of one
    copy; as ``print_variant_rounds``, each round one line "label: name=us ..."."""
    variants = {name: (copies, call) for name, call in calls.items()}
    for times in _variant_rounds(variants, rounds):
        print(f"{label}: " + " ".join(f"{v}={t:.2f}" for v, t in zip(calls, times)), flush=True)


_SWITCHED: dict = {}


def stub_consumers_compiler():
    """``compile_nvfp4_gemm_large_m`` with ``NVFP4GemmLargeM.STUB_CONSUMERS`` on (the TMA stream
    alone; outputs wrong), under its own cache key."""
    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

    return switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                             {"STUB_CONSUMERS": True}, "compile_large_m_stub")


def bare_launch_compiler():
    """``stub_consumers_compiler``'s launch without its loads either (``STUB_SKIP`` of every
    stream: the launch, the pipeline's barriers, the fix-up and the epilogue alone)."""
    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

    return switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                             {"STUB_CONSUMERS": True, "STUB_SKIP": ("act", "weights", "scales")},
                             "compile_large_m_bare")


def switched_small_m_compilers(name: str, attrs: dict) -> dict:
    """``nvfp4_gemm``'s small-M compile functions (plain and K split) by name, each compiling
    with ``NVFP4GemmSmallM``'s ``attrs`` replaced under a cache key of its own (``name``)."""
    if name not in _SWITCHED:
        from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM, compile_nvfp4_gemm_small_m
        from cute_kernels.nvfp4_gemm_small_m_split import compile_nvfp4_gemm_small_m_split

        _SWITCHED[name] = {
            fn.__name__: switched_compiler(fn, NVFP4GemmSmallM, attrs, f"{fn.__name__}_{name}")
            for fn in (compile_nvfp4_gemm_small_m, compile_nvfp4_gemm_small_m_split)}
    return _SWITCHED[name]


def print_small_m_switches(n: int, k: int, m: int, switches: dict) -> None:
    """One point of a launch-switch probe of the plain small kernel: graph us of back-to-back
    ``nvfp4_gemm`` calls at M NVFP4 tokens on [N, K] permuted words (``print_forms``), the
    public route and the same with each of ``switches`` (name -> ``NVFP4GemmSmallM`` class
    attributes) set; each switched output is checked equal to the public route's."""
    print_small_m_forms(n, k, m, {name: switched_small_m_compilers(name, attrs)
                                  for name, attrs in switches.items()})


def print_small_m_forms(n: int, k: int, m: int, forms: dict, summation_order: bool = False
                        ) -> None:
    """``print_small_m_switches`` with each form given as the ``cute_kernels.nvfp4_gemm``
    attributes it replaces (name -> attrs: compile functions, config rules); each form's
    output is checked equal to the public route's, or with ``summation_order`` to agree with
    it (``agrees``: a config that sums K in another order)."""
    from cute_kernels import nvfp4_gemm

    gemm = importlib.import_module("cute_kernels.nvfp4_gemm")
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    alpha = torch.full((1,), 0.5, device="cuda")

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    calls = {"public": public}
    for name, attrs in forms.items():
        calls[name] = replaced_call(public, gemm, attrs)
    label = f"gemm {n}x{k} M={m}"
    public(weights[0])
    expected = out.clone()
    for name in forms:
        out.fill_(float("nan"))  # (poisoned: an unwritten element differs)
        calls[name](weights[0])
        torch.cuda.synchronize()
        same = agrees(out, expected) if summation_order else torch.equal(out, expected)
        if not same:
            print(f"{label}: {name} output DIFFERS from the public route's")
    print_forms(label, calls, weights)


def switched_fused_small_m_compilers(name: str, attrs: dict) -> dict:
    """The fused op's small-M compile function (plain and K split) by name, compiling with
    ``NVFP4GemmSwigluQuantSmallM``'s ``attrs`` replaced (the K split subclass inherits them;
    the plain GEMM's kernel keeps its own) under a cache key of its own (``name``):
    ``replaced_call``'s attributes for the fused module."""
    from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_small_m
    from cute_kernels.swiglu_quant_small_m import NVFP4GemmSwigluQuantSmallM

    key = f"fused_{name}"
    if key not in _SWITCHED:
        _SWITCHED[key] = {"compile_nvfp4_gemm_swiglu_quant_small_m": switched_compiler(
            compile_nvfp4_gemm_swiglu_quant_small_m, NVFP4GemmSwigluQuantSmallM, attrs,
            f"compile_fused_{name}")}
    return _SWITCHED[key]


def print_fused_small_m_switches(two_i: int, k: int, m: int, switches: dict) -> None:
    """``print_small_m_switches`` for the fused op: back-to-back ``nvfp4_gemm_swiglu_quant``
    calls at M NVFP4 tokens on [2I, K] permuted gate_up words, the public route and each of
    ``switches``; each switched output checked equal to the public route's."""
    from cute_kernels import nvfp4_gemm_swiglu_quant

    fused = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
    words = gate_up_words(two_i, k, True)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    alpha = torch.full((1,), 0.5, device="cuda")
    gs = torch.full((1,), 30.0, device="cuda")
    results = {}

    def public(w, name="public"):
        results[name] = nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)
    calls = {"public": public}
    for name, attrs in switches.items():
        calls[name] = replaced_call(lambda w, name=name: public(w, name), fused,
                                    switched_fused_small_m_compilers(name, attrs))
    label = f"fused {two_i}x{k} M={m}"
    for name, call in calls.items():
        call(words[0])
    torch.cuda.synchronize()
    for name in switches:
        if not same_bits(results[name], results["public"]):
            print(f"{label}: {name} output DIFFERS from the public route's")
    results.clear()
    print_forms(label, calls, words)


def same_bits(got: tuple, want: tuple) -> bool:
    """Whether two fused launches' outputs (codes, scales) are equal bit for bit."""
    return all(torch.equal(x.view(torch.uint8), y.view(torch.uint8)) for x, y in zip(got, want))


def print_bits_check(label: str, calls: dict, outs: dict, copies: list, pairs: list) -> None:
    """After a point's timing (``print_forms``): every call once on the first weight copy,
    then one line "label bits equal to the default's: got=True ..." per (got, want) name pair
    of ``outs`` (``same_bits``)."""
    for call in calls.values():
        call(copies[0])
    torch.cuda.synchronize()
    print(f"{label} bits equal to the default's: " + " ".join(
        f"{got}={same_bits(outs[got], outs[want])}" for got, want in pairs), flush=True)


def agrees(out: torch.Tensor, ref: torch.Tensor) -> bool:
    """Whether two launches' outputs on the same inputs agree (only the fp32 summation order
    may differ)."""
    scale = ref.float().abs().max().clamp_min(1e-6)
    return bool(((out.float() - ref.float()).abs().max() / scale) < 1e-2)


def plan_with(module, switch: str, value, m: int, n: int, k: int) -> tuple:
    """``module.plain_plan``'s plan (uncached) with ``module.switch`` set to ``value``."""
    with replaced(module, {switch: value}):
        return module.plain_plan.__wrapped__(m, n, k)


def print_plans_against_plan(n: int, k: int, m: int, plans: dict, label: str) -> None:
    """``nvfp4_gemm`` on ``plain_plan``'s launch ("plan"), on each of ``plans`` (name ->
    (tile_m, splits, stream_k, hybrid)) forced and cuBLAS bf16, permuted words, NVFP4
    activations, graph us in two rounds under ``label``. A forced plan the launch refuses, or
    whose output disagrees with the plan's (a plan no test covers could be wrong, not just
    slow), is named and left out."""
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    want = gemm_on_plan(a4, a4_sf, words[0])
    variants = {"plan": (words, lambda w: gemm_on_plan(a4, a4_sf, w))}
    for name, plan in plans.items():
        try:
            out = gemm_on_plan(a4, a4_sf, words[0], plan)
        except Exception as err:  # a plan the launch refuses: named, not timed
            print(f"  {name} {plan} refused: {type(err).__name__}: {err}"[:200], flush=True)
            continue
        if not agrees(out, want):
            print(f"  {name} {plan} DISAGREES with the plan's output", flush=True)
            continue
        variants[name] = (words, lambda w, plan=plan: gemm_on_plan(a4, a4_sf, w, plan))
    variants["cublas"] = (bf16_weight_rotation(n, k), lambda w: x @ w.t())
    print_variant_rounds(label, variants)


def print_old_and_new_plans(n: int, k: int, m: int, old: tuple, new: tuple) -> None:
    """``nvfp4_gemm`` on the ``old`` and ``new`` plans (permuted words, NVFP4 activations) and
    cuBLAS bf16, graph us in two rounds; a disagreement between the plans' outputs is named."""
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    if not agrees(gemm_on_plan(a4, a4_sf, words[0], new), gemm_on_plan(a4, a4_sf, words[0], old)):
        print(f"  {new} DISAGREES with {old}", flush=True)
    variants = {"old": (words, lambda w: gemm_on_plan(a4, a4_sf, w, old)),
                "new": (words, lambda w: gemm_on_plan(a4, a4_sf, w, new)),
                "cublas": (bf16_weight_rotation(n, k), lambda w: x @ w.t())}
    print_variant_rounds(f"gemm {n}x{k} M={m} {old} -> {new}", variants)
