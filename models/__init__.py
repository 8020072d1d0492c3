"""Model layer (Qwen3.8-27B and DeepSeek-V3/Kimi-K2.5 MLPs on cute_kernels): see issue 7.

Imports point one way: models -> cute_kernels -> layouts.
"""
