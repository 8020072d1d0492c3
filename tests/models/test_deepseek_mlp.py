"""DeepSeek-V3 MLP (dense / shared expert, TP shards) on the reference path (CPU)."""

from __future__ import annotations

import pytest
import torch

from ckpt_helpers import activation_fp4_noise, fp64_mlp, mlp_checkpoint, rel_err
from cute_kernels import reference
from models.checkpoint import CheckpointError, load_mlp
from models.deepseek import (SWIGLU_FUSION_ENV, DeepSeekConfig, DeepSeekMLP,
                             swiglu_fusion_enabled)

P = "model.layers.0.mlp"
CFG = DeepSeekConfig.tiny()
H = CFG.hidden_size


def _x(m, seed=7):
    return torch.randn(m, H, generator=torch.Generator().manual_seed(seed)).bfloat16()


def test_config():
    c = DeepSeekConfig()
    assert (c.hidden_size, c.intermediate_size, c.shared_expert_intermediate_size) == \
        (7168, 18432, 2048)
    c4 = DeepSeekConfig(tp_size=4, tp_rank=3)
    assert c4.shard_intermediate("dense") == 4608 and c4.shard_intermediate("shared_expert") == 512
    with pytest.raises(ValueError):
        DeepSeekConfig(tp_size=2, tp_rank=2)
    with pytest.raises(ValueError):
        DeepSeekConfig(tp_size=5)
    with pytest.raises(ValueError):
        c.mlp_intermediate("moe")


@pytest.mark.parametrize("fusion", ["on", "off"])
@pytest.mark.parametrize("kind", ["dense", "shared_expert"])
@pytest.mark.parametrize("m", [1, 8])
def test_nvfp4_mlp_against_fp64(m, kind, fusion, monkeypatch):
    monkeypatch.setenv(SWIGLU_FUSION_ENV, "1" if fusion == "on" else "0")
    i = CFG.mlp_intermediate(kind)
    t, (gate, up, down) = mlp_checkpoint(P, H, i, "nvfp4")
    mlp = DeepSeekMLP.from_checkpoint(t, P, CFG, kind)
    assert mlp.prepared and mlp.fused() == (fusion == "on") and mlp.intermediate_size == i
    x = _x(m)
    y = mlp(x)
    assert y.dtype == torch.bfloat16 and y.shape == (m, H)
    # floor: NVFP4 quantization of the activation alone (see test_qwen3_8_mlp)
    floor = activation_fp4_noise(x, gate, up, down, t[f"{P}.down_proj.input_scale"])
    assert 0.05 < floor < 0.12, floor
    err = rel_err(y, fp64_mlp(x, gate, up, down))
    assert err < floor + 1e-2, (err, floor)


def test_bf16_mlp_against_fp64():
    t, (gate, up, down) = mlp_checkpoint(P, H, 512, "bf16")
    mlp = DeepSeekMLP.from_checkpoint(t, P, CFG)
    assert not mlp.nvfp4 and not mlp.fused()
    x = _x(8)
    assert rel_err(mlp(x), fp64_mlp(x, gate, up, down)) < 1e-2


@pytest.mark.parametrize("fmt", ["nvfp4", "bf16"])
@pytest.mark.parametrize("kind", ["dense", "shared_expert"])
@pytest.mark.parametrize("m", [1, 8])
def test_tp_shards_sum_to_full(m, kind, fmt):
    i = CFG.mlp_intermediate(kind)
    t, _ = mlp_checkpoint(P, H, i, fmt)
    full = DeepSeekMLP.from_checkpoint(t, P, CFG, kind)
    shards = [DeepSeekMLP.from_checkpoint(t, P, DeepSeekConfig.tiny(tp_size=2, tp_rank=r), kind)
              for r in range(2)]
    assert [s.intermediate_size for s in shards] == [i // 2] * 2
    x = _x(m, seed=m)
    if fmt == "nvfp4":
        # the activation codes and scales of the shards are the full ones, column block by block
        qf, sff = full.quantized_activation(x)
        qs = [s.quantized_activation(x) for s in shards]
        assert torch.equal(torch.cat([q for q, _ in qs], 1), qf)
        sf_full = reference.nvfp4_raw_values(qf, sff)
        sf_cat = torch.cat([reference.nvfp4_raw_values(q, sf) for q, sf in qs], 1)
        assert torch.equal(sf_cat, sf_full)
    y_full = full(x, out_dtype=torch.float32)
    y_sum = sum(s(x, out_dtype=torch.float32) for s in shards)
    # NVFP4: the down GEMM rounds once to fp32, so only fp32 summation order differs. bf16: the
    # bf16 down linear rounds each partial to bf16 (out_dtype only casts afterwards).
    tol = 1e-5 if fmt == "nvfp4" else 1e-2
    torch.testing.assert_close(y_sum, y_full, rtol=tol, atol=tol * float(y_full.abs().max()))


def test_shard_slices_checkpoint_exactly():
    t, _ = mlp_checkpoint(P, H, 512, "nvfp4")
    s = DeepSeekMLP.from_checkpoint(t, P, DeepSeekConfig.tiny(tp_size=2, tp_rank=1))
    gu = s.restore()
    sl = slice(256, 512)
    assert torch.equal(gu.weight, torch.cat([t[f"{P}.gate_proj.weight"][sl],
                                             t[f"{P}.up_proj.weight"][sl]]))
    assert torch.equal(s.down.weight, t[f"{P}.down_proj.weight"][:, 128:256])
    raw = reference.nvfp4_raw_values(s.down.weight, s.down.weight_scale)
    want = reference.nvfp4_raw_values(t[f"{P}.down_proj.weight"], t[f"{P}.down_proj.weight_scale"],
                                      swizzled=False)[:, 256:512]
    assert torch.equal(raw, want)


@pytest.mark.parametrize("tp", [(1, 0), (2, 1)])
def test_restore_round_trip_bit_exact(tp):
    t, _ = mlp_checkpoint(P, H, 512, "nvfp4")
    cfg = DeepSeekConfig.tiny(tp_size=tp[0], tp_rank=tp[1])
    mlp = DeepSeekMLP.from_checkpoint(t, P, cfg)
    x = _x(8)
    y0 = mlp(x)
    prepared_w = mlp.gate_up.weight.clone()
    # what the plain loader gives for the shard
    from models.deepseek import shard_mlp_checkpoint
    loaded, _ = load_mlp(shard_mlp_checkpoint(t, P, H, 512, *tp), P)
    gu = mlp.restore()
    assert not mlp.prepared
    assert torch.equal(gu.weight, loaded.weight)
    assert torch.equal(gu.weight_scale.view(torch.uint8), loaded.weight_scale.view(torch.uint8))
    assert mlp.restore() is gu  # idempotent
    mlp.prepare()
    assert mlp.prepared and torch.equal(mlp.gate_up.weight, prepared_w)
    assert not torch.equal(mlp.gate_up.weight, loaded.weight)  # rows really interleaved
    assert torch.equal(mlp(x), y0)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("m", [1, 8])
def test_fused_vs_unfused(m, seed, monkeypatch):
    """The unfused pair (nvfp4_gemm -> silu_mul_nvfp4_quant) rounds gate, up and h to bf16
    (FlashInfer's convention); the fused path keeps them in fp32 and rounds h once. Its
    regrouped gate_up equals the fp64 products to bf16 precision; the FP4 codes of the two
    paths differ by at most one e2m1 step, on a few percent of the elements at most, and the
    outputs agree to within the NVFP4 noise."""
    t, (gate, up, down) = mlp_checkpoint(P, H, 512, "nvfp4", seed=seed)
    mlp = DeepSeekMLP.from_checkpoint(t, P, CFG)
    x = _x(m, seed=100 + seed)
    gu = mlp.gate_up_unfused(x)
    assert gu.dtype == torch.bfloat16 and gu.shape == (m, 2 * 512)
    for part, w in ((gu[:, :512], gate), (gu[:, 512:], up)):  # [gate | up], in order
        want = x.double() @ w.T
        assert ((part.double() - want).abs() <= want.abs() * 2**-8 + 1e-6).all()
    monkeypatch.setenv(SWIGLU_FUSION_ENV, "1")
    qf, sff = mlp.quantized_activation(x)
    yf = mlp(x)
    monkeypatch.setenv(SWIGLU_FUSION_ENV, "0")
    qu, sfu = mlp.quantized_activation(x)
    yu = mlp(x)
    # Block scales move when the bf16 roundings carry a block's amax across an e4m3 rounding
    # boundary (a few blocks of 32 here); inside blocks with equal scales the codes differ by
    # at most one e2m1 step, on a few percent of the elements.
    kb = 512 // 16
    sf_f = reference._unswizzle(sff, m, kb, "sf").view(torch.uint8)
    sf_u = reference._unswizzle(sfu, m, kb, "sf").view(torch.uint8)
    same = (sf_f == sf_u).repeat_interleave(16, dim=1)
    assert same.float().mean() >= 0.75
    cf = reference.unpack_fp4(qf).long()
    cu = reference.unpack_fp4(qu).long()
    step = ((cf & 7) - (cu & 7)).abs()
    assert (step[same] <= 1).all()
    assert (cf != cu)[same].float().mean() < 0.05
    assert rel_err(yu, yf.double()) < 0.05


def test_env_switch(monkeypatch):
    import models.deepseek as ds

    calls = []
    for name in ("gemm_swiglu_quant", "nvfp4_quantize"):
        fn = getattr(reference, name)
        monkeypatch.setattr(ds.reference, name,
                            lambda *a, _n=name, _f=fn, **k: (calls.append(_n), _f(*a, **k))[1])
    t, _ = mlp_checkpoint(P, H, 512, "nvfp4")
    mlp = DeepSeekMLP.from_checkpoint(t, P)
    for value, fused in ((None, True), ("1", True), ("", True), ("0", False), ("off", False),
                         ("false", False)):
        if value is None:
            monkeypatch.delenv(SWIGLU_FUSION_ENV, raising=False)
        else:
            monkeypatch.setenv(SWIGLU_FUSION_ENV, value)
        assert swiglu_fusion_enabled() == fused and mlp.fused() == fused
        calls.clear()
        mlp(_x(1))
        # (reference.gemm_swiglu_quant, and reference.silu_mul_nvfp4_quant on the unfused path,
        # quantize through reference.nvfp4_quantize)
        assert calls == (["gemm_swiglu_quant", "nvfp4_quantize"] if fused
                         else ["nvfp4_quantize"])


def test_merged_gate_up_key_and_leading_dims():
    t, _ = mlp_checkpoint(P, H, 512, "nvfp4")
    merged = {k: v for k, v in t.items() if "down_proj" in k}
    merged[f"{P}.gate_up_proj.weight"] = torch.cat([t[f"{P}.gate_proj.weight"],
                                                    t[f"{P}.up_proj.weight"]])
    merged[f"{P}.gate_up_proj.weight_scale"] = torch.cat(
        [t[f"{P}.gate_proj.weight_scale"].view(torch.uint8),
         t[f"{P}.up_proj.weight_scale"].view(torch.uint8)]).view(torch.float8_e4m3fn)
    for s in ("weight_scale_2", "input_scale"):
        merged[f"{P}.gate_up_proj.{s}"] = t[f"{P}.gate_proj.{s}"]
    for tp in ((1, 0), (2, 0), (2, 1)):
        a = DeepSeekMLP.from_checkpoint(t, P, tp_size=tp[0], tp_rank=tp[1])
        b = DeepSeekMLP.from_checkpoint(merged, P, tp_size=tp[0], tp_rank=tp[1])
        assert torch.equal(a.gate_up.weight, b.gate_up.weight)
    x = _x(6).reshape(2, 3, H)
    assert torch.equal(a(x), a(x.reshape(6, H)).reshape(2, 3, H))
    with pytest.raises(ValueError, match="x"):
        a(_x(2)[:, :128])


def _drop(t, key):
    t = dict(t)
    t.pop(f"{P}.{key}")
    return t


def test_malformed_checkpoint_errors():
    t, _ = mlp_checkpoint(P, H, 512, "nvfp4")
    tb, _ = mlp_checkpoint(P, H, 512, "bf16")
    cases = [
        (_drop(t, "up_proj.weight_scale"), "up_proj.weight_scale"),
        (_drop(t, "down_proj.input_scale"), "down_proj.input_scale"),
        (dict(t, **{f"{P}.gate_proj.weight_scale_2": torch.ones(2)}), "gate_proj.weight_scale_2"),
        (dict(t, **{f"{P}.down_proj.weight": t[f"{P}.down_proj.weight"][:, :64].contiguous()}),
         "down_proj.weight"),
        (dict(t, **{f"{P}.up_proj.weight_scale_2": t[f"{P}.up_proj.weight_scale_2"] * 2}),
         "up_proj.weight_scale_2"),
        ({**{k: v for k, v in t.items() if "down_proj" not in k},
          f"{P}.down_proj.weight": tb[f"{P}.down_proj.weight"]}, "down_proj"),
    ]
    for bad, name in cases:
        with pytest.raises(CheckpointError, match=name.replace(".", r"\.")):
            DeepSeekMLP.from_checkpoint(bad, P, CFG)
    # wrong config size, and a TP split that does not divide the intermediate
    with pytest.raises(CheckpointError, match="gate_proj.weight"):
        DeepSeekMLP.from_checkpoint(t, P, CFG, kind="shared_expert")
    with pytest.raises(CheckpointError, match="tp_size = 3"):
        DeepSeekMLP.from_checkpoint(t, P, tp_size=3, tp_rank=0)
    with pytest.raises(ValueError, match="tp_rank"):
        DeepSeekMLP.from_checkpoint(t, P, tp_size=2, tp_rank=2)
    # a shard too narrow for the prepared layout (I_shard = 32 is not a multiple of 64)
    t2, _ = mlp_checkpoint(P, H, 64, "nvfp4")
    with pytest.raises(ValueError, match="2I"):
        DeepSeekMLP.from_checkpoint(t2, P, tp_size=2, tp_rank=0)


# ----------------------------------------------------------------------------- GPU

@pytest.mark.gpu
@pytest.mark.parametrize("m", [1, 8, 64, 200])
def test_gpu_fused_and_unfused_against_fp64(m, monkeypatch):
    """On CUDA the fused path is the nvfp4_gemm_swiglu_quant kernel: its FP4 activation equals
    the reference's except at rounding boundaries (one e2m1 step, under 1% of the elements),
    and both paths stay within the activation's FP4 noise of an fp64 MLP."""
    i = CFG.mlp_intermediate("dense")
    t, (gate, up, down) = mlp_checkpoint(P, H, i, "nvfp4")
    mlp = DeepSeekMLP.from_checkpoint(t, P, CFG, "dense", device="cuda")
    x = _x(m, seed=torch.seed() % 2**31)
    xg = x.cuda()
    monkeypatch.setenv(SWIGLU_FUSION_ENV, "1")
    qf, sff = mlp.quantized_activation(xg)
    yf = mlp(xg)
    gu = mlp.gate_up
    qr, sfr = reference.gemm_swiglu_quant(xg, None, gu.weight, gu.weight_scale,
                                          gu.weight_scale_2, mlp.down.input_global_scale)
    vf = reference.nvfp4_raw_values(qf, sff).cpu()
    vr = reference.nvfp4_raw_values(qr, sfr).cpu()
    assert (vf != vr).float().mean() < 0.01
    monkeypatch.setenv(SWIGLU_FUSION_ENV, "0")
    yu = mlp(xg)
    floor = activation_fp4_noise(x, gate, up, down, t[f"{P}.down_proj.input_scale"])
    want = fp64_mlp(x, gate, up, down)
    for y in (yf, yu):
        assert rel_err(y.cpu(), want) < floor + 1e-2
