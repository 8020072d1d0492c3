"""Model layer (Qwen3.8-27B and DeepSeek-V3/Kimi-K2.5 MLPs on cute_kernels): see issue 7.

Imports point one way: models -> cute_kernels -> layouts.
"""

from .checkpoint import Bf16Linear, CheckpointError, NVFP4Linear
from .deepseek import DeepSeekConfig, DeepSeekMLP
from .lm_head import QuantizedLMHead
from .qwen3_8 import GatedDeltaNetInProj, Qwen3_8Config, Qwen3_8MLP

__all__ = ["Bf16Linear", "CheckpointError", "NVFP4Linear", "GatedDeltaNetInProj",
           "Qwen3_8Config", "Qwen3_8MLP", "DeepSeekConfig", "DeepSeekMLP", "QuantizedLMHead"]
