"""Qwen3.8 MLP and Gated-DeltaNet input projection on the reference path (CPU), plus GPU tests."""

from __future__ import annotations

import pytest
import torch

from ckpt_helpers import (activation_fp4_noise, fp32, fp64_mlp, mlp_checkpoint, nvfp4_entry,
                          nvfp4_weight_fp64, rel_err)
from cute_kernels import reference
from layouts import swizzle_sf
from models import ops
from models.checkpoint import NVFP4Linear, load_mlp
from models.qwen3_8 import (FUSION_ENV, GatedDeltaNetInProj, Qwen3_8Config, Qwen3_8MLP,
                            silu_fp4_fusion_enabled)

H, I = 256, 512
P = "model.layers.0.mlp"
CFG = Qwen3_8Config.tiny()


def _x(m: int, seed: int = 7, device="cpu") -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(m, H, generator=g).bfloat16().to(device)


# ----------------------------------------------------------------------------- config

def test_config_matches_design_shapes():
    c = Qwen3_8Config()
    assert (c.hidden_size, c.intermediate_size, c.vocab_size) == (5120, 17408, 248320)
    assert (c.linear_num_key_heads, c.linear_num_value_heads, c.gdn_ratio) == (16, 48, 3)
    assert (c.linear_key_head_dim, c.linear_value_head_dim) == (128, 128)
    assert c.linear_conv_kernel_dim == 4
    assert 2 * c.intermediate_size == 34816
    assert c.gdn_qkvz_size == 16384 and c.gdn_ba_size == 96 and c.gdn_value_dim == 6144
    assert c.attn_qkv_size == 14336 and c.attn_o_k == 6144
    types = c.layer_types
    assert len(types) == 64 and types.count("full_attention") == 16
    assert types[:4] == ("linear_attention",) * 3 + ("full_attention",)
    with pytest.raises(ValueError, match="linear_num_value_heads"):
        Qwen3_8Config(linear_num_key_heads=16, linear_num_value_heads=40)


# ----------------------------------------------------------------------------- loading

def test_nvfp4_load_merges_gate_up_and_swizzles_scales():
    t, _ = mlp_checkpoint(P, H, I, "nvfp4")
    gate_up, down = load_mlp(t, P, H, I)
    assert isinstance(gate_up, NVFP4Linear) and isinstance(down, NVFP4Linear)
    assert (gate_up.n, gate_up.k, down.n, down.k) == (2 * I, H, H, I)
    assert torch.equal(gate_up.weight, torch.cat([t[f"{P}.gate_proj.weight"],
                                                  t[f"{P}.up_proj.weight"]]))
    raw_sf = torch.cat([t[f"{P}.gate_proj.weight_scale"], t[f"{P}.up_proj.weight_scale"]])
    assert gate_up.weight_scale.dtype == torch.float8_e4m3fn
    assert torch.equal(gate_up.weight_scale.view(torch.uint8),
                       swizzle_sf(raw_sf.view(torch.uint8)))
    assert torch.equal(down.weight_scale.view(torch.uint8),
                       swizzle_sf(t[f"{P}.down_proj.weight_scale"].view(torch.uint8)))
    # alpha = input_scale * weight_scale_2 and G = 1 / input_scale, both in fp32
    s_in, s_w = t[f"{P}.down_proj.input_scale"], t[f"{P}.down_proj.weight_scale_2"]
    assert down.alpha.dtype == torch.float32 and down.alpha.shape == (1,)
    assert float(down.alpha) == float(s_in * s_w)
    assert float(down.input_global_scale) == float(torch.reciprocal(s_in))
    # the merged, swizzled weight dequantizes to [gate; up]
    deq = reference.nvfp4_raw_values(gate_up.weight, gate_up.weight_scale).double() * float(
        gate_up.weight_scale_2)
    assert torch.equal(deq, torch.cat([nvfp4_weight_fp64(t, f"{P}.gate_proj"),
                                       nvfp4_weight_fp64(t, f"{P}.up_proj")]))


def test_merged_gate_up_proj_key_is_accepted():
    t, _ = mlp_checkpoint(P, H, I, "bf16")
    merged = {f"{P}.gate_up_proj.weight": torch.cat([t[f"{P}.gate_proj.weight"],
                                                     t[f"{P}.up_proj.weight"]]),
              f"{P}.down_proj.weight": t[f"{P}.down_proj.weight"]}
    a, b = Qwen3_8MLP.from_checkpoint(t, P), Qwen3_8MLP.from_checkpoint(merged, P)
    assert torch.equal(a.gate_up.weight, b.gate_up.weight)


def test_safetensors_file_roundtrip(tmp_path):
    st = pytest.importorskip("safetensors.torch")
    t, _ = mlp_checkpoint(P, H, I, "nvfp4")
    path = tmp_path / "model.safetensors"
    st.save_file(t, str(path))
    a, b = Qwen3_8MLP.from_checkpoint(t, P), Qwen3_8MLP.from_checkpoint(str(path), P)
    x = _x(8)
    assert torch.equal(a(x), b(x))


def test_file_path_without_safetensors_says_so(tmp_path):
    try:
        import safetensors  # noqa: F401
        pytest.skip("safetensors is installed")
    except ImportError:
        pass
    with pytest.raises(ImportError, match="safetensors"):
        Qwen3_8MLP.from_checkpoint(str(tmp_path / "model.safetensors"), P)


# ----------------------------------------------------------------------------- MLP numerics

@pytest.mark.parametrize("m", [1, 8])
def test_bf16_mlp_against_fp64(m):
    t, (gate, up, down) = mlp_checkpoint(P, H, I, "bf16")
    mlp = Qwen3_8MLP.from_checkpoint(t, P, CFG)
    assert not mlp.nvfp4 and not mlp.fused()
    x = _x(m)
    y = mlp(x)
    assert y.dtype == torch.bfloat16 and y.shape == (m, H)
    err = rel_err(y, fp64_mlp(x, gate, up, down))
    assert err < 1e-2, err  # bf16 roundings of gate_up, h and y


@pytest.mark.parametrize("fusion", ["on", "off"])
@pytest.mark.parametrize("m", [1, 8])
def test_nvfp4_mlp_against_fp64(m, fusion, monkeypatch):
    if fusion == "off":
        monkeypatch.setenv(FUSION_ENV, "1")
    else:
        monkeypatch.delenv(FUSION_ENV, raising=False)
    t, (gate, up, down) = mlp_checkpoint(P, H, I, "nvfp4")
    mlp = Qwen3_8MLP.from_checkpoint(t, P, CFG)
    assert mlp.fused() == (fusion == "on")
    x = _x(m)
    y = mlp(x)
    assert y.dtype == torch.bfloat16 and y.shape == (m, H)
    # Against the fp64 MLP on the dequantized weights, what is left is the NVFP4 quantization
    # of the activation h that feeds down_proj (plus bf16 roundings). That alone costs ~9 %
    # (e2m1 keeps 1-2 mantissa bits; measured here 9.0-9.7 %), so the bound is relative to it:
    # the MLP may add at most 1 % (bf16 gate_up / h, and h's codes may flip at boundaries).
    err = rel_err(y, fp64_mlp(x, gate, up, down))
    floor = activation_fp4_noise(x, gate, up, down, t[f"{P}.down_proj.input_scale"])
    assert 0.05 < floor < 0.12, floor
    assert err < floor + 1e-2, (err, floor)
    # the gate_up GEMM alone (W4A16, no activation quantization) is tight
    gu = torch.cat([gate, up])
    assert rel_err(mlp.gate_up(x), x.double() @ gu.T) < 5e-3


def test_nvfp4_mlp_is_the_documented_pipeline():
    """The fused path equals the reference pipeline step by step, bitwise."""
    t, _ = mlp_checkpoint(P, H, I, "nvfp4")
    mlp = Qwen3_8MLP.from_checkpoint(t, P)
    gu, dn = mlp.gate_up, mlp.down
    x = _x(8)
    gate_up = reference.nvfp4_gemm(x, None, gu.weight, gu.weight_scale, gu.weight_scale_2)
    s_in = t[f"{P}.down_proj.input_scale"]
    q, sf = reference.silu_mul_nvfp4_quant(gate_up, torch.reciprocal(s_in))
    want = reference.nvfp4_gemm(q, sf, dn.weight, dn.weight_scale,
                                s_in * t[f"{P}.down_proj.weight_scale_2"])
    assert torch.equal(mlp(x), want)


@pytest.mark.parametrize("m", [1, 8])
def test_fused_equals_unfused_bitwise(m, monkeypatch):
    # On the reference path silu_mul_nvfp4_quant IS nvfp4_quantize(silu_mul(.)), and the fused
    # kernel is specified to round h to bf16 exactly like silu_mul: equal by construction.
    t, _ = mlp_checkpoint(P, H, I, "nvfp4")
    mlp = Qwen3_8MLP.from_checkpoint(t, P)
    x = _x(m, seed=m)
    monkeypatch.delenv(FUSION_ENV, raising=False)
    fused = mlp(x)
    monkeypatch.setenv(FUSION_ENV, "1")
    unfused = mlp(x)
    assert torch.equal(fused, unfused)


def test_env_switch_selects_the_ops(monkeypatch):
    calls = []

    def spy(name):
        fn = getattr(ops, name)
        monkeypatch.setattr(ops, name, lambda *a, **k: (calls.append(name), fn(*a, **k))[1])

    for name in ("silu_mul_nvfp4_quant", "nvfp4_quantize", "silu_mul"):
        spy(name)
    t, _ = mlp_checkpoint(P, H, I, "nvfp4")
    mlp = Qwen3_8MLP.from_checkpoint(t, P)
    x = _x(1)
    for value, fused in ((None, True), ("0", True), ("", True), ("1", False), ("true", False)):
        if value is None:
            monkeypatch.delenv(FUSION_ENV, raising=False)
        else:
            monkeypatch.setenv(FUSION_ENV, value)
        assert silu_fp4_fusion_enabled() == fused
        calls.clear()
        mlp(x)
        assert calls == (["silu_mul_nvfp4_quant"] if fused else ["silu_mul", "nvfp4_quantize"])


def test_fusion_needs_both_projections_nvfp4(monkeypatch):
    monkeypatch.delenv(FUSION_ENV, raising=False)
    tq, (gq, uq, dq) = mlp_checkpoint(P, H, I, "nvfp4")
    tb, (gb, ub, db) = mlp_checkpoint(P, H, I, "bf16")
    x = _x(8)
    # NVFP4 gate_up + bf16 down, and bf16 gate_up + NVFP4 down: unfused, still correct
    for gate_up_src, down_src, (g, u, d) in ((tq, tb, (gq, uq, db)), (tb, tq, (gb, ub, dq))):
        t = {k: v for k, v in gate_up_src.items() if "down_proj" not in k}
        t.update({k: v for k, v in down_src.items() if "down_proj" in k})
        mlp = Qwen3_8MLP.from_checkpoint(t, P)
        assert not mlp.fused()
        err = rel_err(mlp(x), fp64_mlp(x, g, u, d))
        if isinstance(mlp.down, NVFP4Linear):  # h is NVFP4-quantized: see test above
            floor = activation_fp4_noise(x, g, u, d, t[f"{P}.down_proj.input_scale"])
            assert err < floor + 1e-2, (err, floor)
        else:  # no activation quantization: bf16 roundings only
            assert err < 1e-2, err


def test_mlp_keeps_leading_dims():
    t, _ = mlp_checkpoint(P, H, I, "nvfp4")
    mlp = Qwen3_8MLP.from_checkpoint(t, P)
    x = _x(6).reshape(2, 3, H)
    assert torch.equal(mlp(x), mlp(x.reshape(6, H)).reshape(2, 3, H))
    with pytest.raises(ValueError, match="x"):
        mlp(_x(2)[:, :128])


# ----------------------------------------------------------------------------- GDN input projection

def _gdn_checkpoint(fmt: str, split_parts: bool, seed: int = 3):
    c, pre = CFG, "model.layers.0.linear_attn"
    g = torch.Generator().manual_seed(seed)
    w_qkvz = torch.randn(c.gdn_qkvz_size, H, generator=g) / H ** 0.5
    w_ba = torch.randn(c.gdn_ba_size, H, generator=g) / H ** 0.5
    if split_parts:
        named = {"in_proj_qkv": w_qkvz[:c.gdn_qkv_size], "in_proj_z": w_qkvz[c.gdn_qkv_size:],
                 "in_proj_b": w_ba[:c.linear_num_value_heads],
                 "in_proj_a": w_ba[c.linear_num_value_heads:]}
    else:
        named = {"in_proj_qkvz": w_qkvz, "in_proj_ba": w_ba}
    t = {}
    for name, w in named.items():
        if fmt == "bf16":
            t[f"{pre}.{name}.weight"] = w.bfloat16()
        else:
            big = w_qkvz if name in ("in_proj_qkvz", "in_proj_qkv", "in_proj_z") else w_ba
            t.update(nvfp4_entry(f"{pre}.{name}", w, 0.01, fp32(big.abs().max() / 2688.0)))
    return t, pre


@pytest.mark.parametrize("split_parts", [False, True])
@pytest.mark.parametrize("fmt", ["bf16", "nvfp4"])
@pytest.mark.parametrize("m", [1, 8])
def test_gdn_in_proj_split_vs_slicing(fmt, split_parts, m):
    c = CFG
    t, pre = _gdn_checkpoint(fmt, split_parts)
    proj = GatedDeltaNetInProj.from_checkpoint(t, pre, c)
    assert c.gdn_ratio == 3
    x = _x(m)
    mixed_qkv, z, b, a = proj(x)
    qkvz, ba = proj.in_proj_qkvz(x), proj.in_proj_ba(x)
    kd, vd, hv = c.gdn_key_dim, c.gdn_value_dim, c.linear_num_value_heads
    assert torch.equal(mixed_qkv, qkvz[:, :2 * kd + vd])
    assert torch.equal(z, qkvz[:, 2 * kd + vd:].reshape(m, hv, c.linear_value_head_dim))
    assert torch.equal(b, ba[:, :hv]) and torch.equal(a, ba[:, hv:])
    assert mixed_qkv.shape == (m, c.gdn_qkv_size) and b.shape == a.shape == (m, hv)
    # the projections themselves, against fp64 on the (dequantized) weights
    names = ("in_proj_qkv", "in_proj_z", "in_proj_b", "in_proj_a") if split_parts else \
        ("in_proj_qkvz", "in_proj_ba")
    ws = [nvfp4_weight_fp64(t, f"{pre}.{n}") if fmt == "nvfp4" else t[f"{pre}.{n}.weight"].double()
          for n in names]
    w_all = torch.cat(ws)
    assert rel_err(torch.cat([qkvz, ba], 1), x.double() @ w_all.T) < 1e-2


# ------------------------------------------------------------------------- malformed checkpoints

def _bad(t, **changes):
    t = dict(t)
    for k, v in changes.items():
        k = k.replace("__", ".")
        if v is None:
            t.pop(f"{P}.{k}")
        else:
            t[f"{P}.{k}"] = v
    return t


def _cases():
    t, _ = mlp_checkpoint(P, H, I, "nvfp4")
    up_ws = t[f"{P}.up_proj.weight_scale"]
    return t, [
        (_bad(t, up_proj__weight_scale=None), "up_proj.weight_scale", "missing"),
        (_bad(t, down_proj__input_scale=None), "down_proj.input_scale", "missing"),
        (_bad(t, gate_proj__weight=t[f"{P}.gate_proj.weight"].to(torch.int8)),
         "gate_proj.weight", "dtype"),
        (_bad(t, up_proj__weight_scale=up_ws.view(torch.uint8)), "up_proj.weight_scale", "dtype"),
        (_bad(t, up_proj__weight_scale=up_ws[:, :-1].contiguous()), "up_proj.weight_scale",
         "shape"),
        (_bad(t, down_proj__weight_scale_2=fp32(1.0).double()), "down_proj.weight_scale_2",
         "dtype"),
        (_bad(t, down_proj__input_scale=torch.ones(2)), "down_proj.input_scale", "scalar"),
        (_bad(t, down_proj__input_scale=fp32(0.0)), "down_proj.input_scale", "positive"),
        (_bad(t, up_proj__weight_scale_2=t[f"{P}.up_proj.weight_scale_2"] * 2),
         "up_proj.weight_scale_2", "differs"),
        (_bad(t, up_proj__input_scale=t[f"{P}.up_proj.input_scale"] * 2),
         "up_proj.input_scale", "differs"),
        (_bad(t, up_proj__weight=t[f"{P}.up_proj.weight"][:, :64].contiguous()),
         "up_proj.weight", "shape"),
        (_bad(t, down_proj__weight=t[f"{P}.down_proj.weight"][:, :128].contiguous(),
              down_proj__weight_scale=t[f"{P}.down_proj.weight_scale"][:, :16].contiguous()),
         "down_proj.weight", "K = 512"),
    ]


@pytest.mark.parametrize("case", range(12))
def test_malformed_checkpoint_names_the_tensor(case):
    from models.checkpoint import CheckpointError

    _, cases = _cases()
    bad, name, what = cases[case]
    with pytest.raises(CheckpointError) as info:
        Qwen3_8MLP.from_checkpoint(bad, P, CFG)
    msg = str(info.value)
    assert f"{P}.{name}" in msg and what in msg, msg


def test_malformed_mixed_formats_and_config_mismatch():
    from models.checkpoint import CheckpointError

    tq, _ = mlp_checkpoint(P, H, I, "nvfp4")
    tb, _ = mlp_checkpoint(P, H, I, "bf16")
    mixed = dict(tq)
    for k in [k for k in mixed if k.startswith(f"{P}.up_proj")]:
        del mixed[k]
    mixed[f"{P}.up_proj.weight"] = tb[f"{P}.up_proj.weight"]
    with pytest.raises(CheckpointError, match=f"{P}.up_proj.weight"):
        Qwen3_8MLP.from_checkpoint(mixed, P)
    with pytest.raises(CheckpointError, match=f"{P}.gate_proj.weight"):
        Qwen3_8MLP.from_checkpoint(tb, P, Qwen3_8Config.tiny(hidden_size=512))
    bad = dict(tb)
    bad[f"{P}.down_proj.weight"] = bad[f"{P}.down_proj.weight"].float()
    with pytest.raises(CheckpointError, match=f"{P}.down_proj.weight: expected dtype"):
        Qwen3_8MLP.from_checkpoint(bad, P)
    t, pre = _gdn_checkpoint("nvfp4", split_parts=True)
    del t[f"{pre}.in_proj_a.weight_scale_2"]
    with pytest.raises(CheckpointError, match=f"{pre}.in_proj_a.weight_scale_2"):
        GatedDeltaNetInProj.from_checkpoint(t, pre, CFG)


# ----------------------------------------------------------------------------- GPU

@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 8, 100])
def test_gpu_nvfp4_mlp(m, monkeypatch):
    t, (gate, up, down) = mlp_checkpoint(P, H, I, "nvfp4")
    mlp = Qwen3_8MLP.from_checkpoint(t, P, CFG, device="cuda")
    x = _x(m, seed=torch.seed() % 2**31, device="cuda")
    monkeypatch.delenv(FUSION_ENV, raising=False)
    fused = mlp(x)
    monkeypatch.setenv(FUSION_ENV, "1")
    unfused = mlp(x)
    # Same gate_up GEMM; the fused kernel's SiLU (ex2/rcp.approx) moves h across a bf16
    # rounding on under 1e-3 of the elements (tests/test_nvfp4_quant.py), so the outputs agree
    # to within the FP4 noise of those few elements.
    assert rel_err(fused.cpu(), unfused.cpu().double()) < 1e-2
    floor = activation_fp4_noise(x.cpu(), gate, up, down, t[f"{P}.down_proj.input_scale"])
    assert rel_err(fused.cpu(), fp64_mlp(x.cpu(), gate, up, down)) < floor + 1e-2


@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 8])
def test_gpu_bf16_mlp_and_gdn(m):
    t, (gate, up, down) = mlp_checkpoint(P, H, I, "bf16")
    mlp = Qwen3_8MLP.from_checkpoint(t, P, CFG, device="cuda")
    x = _x(m, seed=torch.seed() % 2**31, device="cuda")
    assert rel_err(mlp(x).cpu(), fp64_mlp(x.cpu(), gate, up, down)) < 1e-2
    tg, pre = _gdn_checkpoint("nvfp4", split_parts=False)
    proj = GatedDeltaNetInProj.from_checkpoint(tg, pre, CFG, device="cuda")
    out = proj(x)
    qkvz, ba = proj.in_proj_qkvz(x), proj.in_proj_ba(x)
    want = reference.gdn_qkvzba_split(qkvz, ba, 2, 6, 32, 32)
    for got, w in zip(out, want):
        assert torch.equal(got, w)
