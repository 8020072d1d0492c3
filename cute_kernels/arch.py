"""Which GPU architecture we compile for, decided once before the DSL is imported.

The DSL reads ``CUTE_DSL_ARCH`` when it first needs an arch; without a GPU it would probe the
driver and fail, so on a CPU-only machine we default it to ``sm_90a`` (our target, the H200).
That is what makes every kernel compile on CI.
"""

from __future__ import annotations

import functools
import os

DEFAULT_ARCH = "sm_90a"


@functools.lru_cache(maxsize=1)
def target_arch() -> str:
    """``CUTE_DSL_ARCH`` if set, else the current GPU's arch, else ``sm_90a`` (compile-only)."""
    arch = os.environ.get("CUTE_DSL_ARCH")
    if not arch:
        arch = DEFAULT_ARCH
        try:
            import torch

            if torch.cuda.is_available():
                major, minor = torch.cuda.get_device_capability()
                # Hopper's wgmma/setmaxnreg live in the arch-specific "a" target.
                arch = f"sm_{major}{minor}" + ("a" if major >= 9 else "")
        except Exception:  # no driver: stay compile-only
            pass
        os.environ["CUTE_DSL_ARCH"] = arch
    return arch


PDL_ENV = "CUTE_KERNELS_DISABLE_PDL"


def pdl_enabled() -> bool:
    """Whether the kernels that use it launch with programmatic dependent launch (PDL): a kernel
    may launch while the kernel before it on the stream finishes, and waits for that kernel's
    results (``griddepcontrol.wait``) before it reads them or writes any global memory (the
    fused small-M kernel and the plain one's paired-step loop load their first weight step
    before the wait: weights are constants); it
    lets the next one launch once its main loop is done (``griddepcontrol.launch_dependents``).
    On unless ``CUTE_KERNELS_DISABLE_PDL=1``; part of every compiled kernel's cache key."""
    return os.environ.get(PDL_ENV, "0") in ("", "0")


def has_gpu() -> bool:
    import torch

    return torch.cuda.is_available()


@functools.lru_cache(maxsize=1)
def compile_options() -> str:
    """Options for every ``cute.compile`` here; pins the DSL to :func:`target_arch` first.

    The DSL may have been imported (and its arch left to lazy detection, which defaults to
    sm_100 without a driver) before we set ``CUTE_DSL_ARCH``, so set it on the DSL itself too.
    """
    arch = target_arch()
    from cutlass.cutlass_dsl import CuTeDSL

    CuTeDSL._get_dsl().envar.arch = arch
    # CUTE_KERNELS_PTXAS_REMARKS=1: ptxas's remarks printed at each compile (its register
    # counts, and the C751x notes where it serializes wgmmas: ``testing.serialized_wgmmas``)
    remarks = " remarks{ptx}" if os.environ.get("CUTE_KERNELS_PTXAS_REMARKS") == "1" else ""
    return f"--enable-tvm-ffi --gpu-arch {arch}{remarks}"


@functools.lru_cache(maxsize=None)
def sm_count(index: int = 0) -> int:
    """Streaming multiprocessors of CUDA device ``index`` (persistent grids size by it); 132,
    the H200's, where there is no GPU (compile-only)."""
    import torch

    if not torch.cuda.is_available():
        return 132
    return torch.cuda.get_device_properties(index).multi_processor_count


# Over this much device memory a Hopper part carries HBM3e (the H200's 141 GB, GH200's 144 GB,
# ~4.8 TB/s) where the H100 carries HBM3 (80 GB, ~3.35 TB/s).
H200_CLASS_MEMORY_BYTES = 120 * 2**30


@functools.lru_cache(maxsize=None)
def h200_class_memory(index: int = 0) -> bool:
    """Whether CUDA device ``index`` streams weights as fast as the H200 (its memory size as
    the sign: ``H200_CLASS_MEMORY_BYTES``). Routes measured to win only there ask this; True
    where there is no GPU (compile-only: the H200)."""
    import torch

    if not torch.cuda.is_available():
        return True
    return torch.cuda.get_device_properties(index).total_memory > H200_CLASS_MEMORY_BYTES
