"""SASS instructions per element of the quantization kernel's steady-state loop, by opcode.

Compiles ``compile_nvfp4_quant`` for sm_90a (no GPU needed), pulls the cubin out of the exported
object, disassembles it with nvdisasm and walks the main work-item loop (the backward branch
around the 128-bit loads) along its hot path: conditional branches fall through (the padding
and tail paths), an unconditional forward branch is followed (it jumps over the padding path).
Prints the loop's instruction count per opcode, per lane-element (one lane handles
``vecs * 8`` elements per item), the kernel's register count and its local-memory accesses
(spills: none expected).

    PYTHONPATH=. python tools/quant_sass_count.py --k 7168 [--silu] [--dtype torch.float16]
        [--vecs 4 --warps 4 --ctas 2112 --encode cmp|fma] [--prefetch] [--sass out.sass]
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import struct
import subprocess
import sys
import tempfile

NVDISASM = os.environ.get("NVDISASM", "/tmp/nvdisasm/nvidia/cu13/bin/nvdisasm")


def cubin_from_object(path: str) -> bytes:
    """The embedded device ELF (the second ELF image in the host object)."""
    d = open(path, "rb").read()
    i = d.find(b"\x7fELF", 1)
    if i < 0:
        raise RuntimeError("no embedded cubin")
    phoff, shoff = struct.unpack_from("<QQ", d, i + 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", d, i + 0x36)
    end = max(shoff + shentsize * shnum, phoff + phentsize * phnum)
    for s in range(shnum):
        off = i + shoff + s * shentsize
        typ = struct.unpack_from("<I", d, off + 4)[0]
        so, ss = struct.unpack_from("<QQ", d, off + 0x18)
        if typ != 8:  # NOBITS
            end = max(end, so + ss)
    return d[i:i + end]


_INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?);")
_LABEL = re.compile(r"^\s*(\.L_x_\d+):")


def parse(sass: str):
    """[(address, predicate, opcode, operands)] and {label: address}."""
    insns, labels, pending = [], {}, []
    for line in sass.splitlines():
        m = _LABEL.match(line)
        if m:
            pending.append(m.group(1))
            continue
        m = _INSN.search(line)
        if m:
            addr = int(m.group(1), 16)
            for lab in pending:
                labels[lab] = addr
            pending = []
            insns.append((addr, (m.group(2) or "").strip(), m.group(3), m.group(4)))
    return insns, labels


def main_loop_path(insns, labels):
    """Hot path of the innermost backward-branch loop that contains the LDG.E.128 loads."""
    by_addr = {a: k for k, (a, *_) in enumerate(insns)}
    loads = [a for a, _, op, _ in insns if op.startswith("LDG.E.128") or op.startswith("LDG.E.ENL2")]
    best = None
    for k, (addr, pred, op, args) in enumerate(insns):
        if not op.startswith("BRA"):
            continue
        t = re.search(r"\.L_x_\d+", args)
        if not t or labels[t.group(0)] > addr:
            continue
        start = labels[t.group(0)]
        if any(start <= a <= addr for a in loads):
            if best is None or (addr - start) < (best[1] - best[0]):
                best = (start, addr)
    if best is None:
        raise RuntimeError("no loop around the loads")
    start, end = best
    path, k = [], by_addr[start]
    while True:
        addr, pred, op, args = insns[k]
        path.append(insns[k])
        if addr == end:
            break
        if op == "BRA" and not pred:  # (BRA.DIV: a divergence check, falls through)
            target = labels[re.search(r"\.L_x_\d+", args).group(0)]
            if target > addr:
                k = by_addr[target]
                continue
        k += 1
    return path


def disassemble(compiled) -> tuple[str, bytes]:
    """(nvdisasm's SASS of ``compiled``'s cubin, the exported host object's bytes)."""
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "k.o")
        compiled.export_to_c(obj, function_name="sass_count")
        cpath = os.path.join(tmp, "k.cubin")
        open(cpath, "wb").write(cubin_from_object(obj))
        sass = subprocess.run([NVDISASM, "-c", cpath], check=True, capture_output=True,
                              text=True).stdout
        return sass, open(obj, "rb").read()


def opclass(op: str) -> str:
    return op.split(".")[0]


def count(k: int, dtype: str, silu: bool, vecs: int, warps: int, ctas: int, prefetch: bool,
          encode: str, sass_out: str | None = None, verbose: bool = True, min_ctas: int = 0):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from cute_kernels.arch import compile_options
    from cute_kernels.nvfp4_quant import compile_nvfp4_quant
    from cute_kernels.testing import object_registers

    compile_options()
    raw = compile_nvfp4_quant.uncached
    args = (k, dtype, silu, False, vecs, warps, ctas, prefetch)
    if encode != "default" or min_ctas:
        args = args + (False, "cmp" if encode == "default" else encode, min_ctas)
    sass, obj = disassemble(raw(*args))
    regs = max(object_registers(obj))
    if sass_out:
        open(sass_out, "w").write(sass)
    insns, labels = parse(sass)
    local = sum(op.startswith(("LDL", "STL")) for _, _, op, _ in insns)
    path = main_loop_path(insns, labels)
    per = collections.Counter(opclass(op) for _, _, op, _ in path)
    elems = vecs * 8
    if verbose:
        print(f"K={k} {dtype} silu={silu} vecs={vecs} warps={warps} encode={encode} "
              f"min_ctas={min_ctas}: "
              f"{len(path)} instructions per item ({elems} elements per lane), "
              f"{len(path) / elems:.2f} per element, {regs} registers, "
              f"{local} local-memory accesses (spills)")
        for op, n in per.most_common():
            print(f"  {op:<10} {n:5d}  {n / elems:6.2f}")
    return len(path) / elems, per, regs


def _parser():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--k", type=int, default=7168)
    p.add_argument("--dtype", default="torch.bfloat16")
    p.add_argument("--silu", action="store_true")
    p.add_argument("--vecs", type=int, default=4)
    p.add_argument("--warps", type=int, default=4)
    p.add_argument("--ctas", type=int, default=16 * 132)
    p.add_argument("--prefetch", action="store_true")
    p.add_argument("--encode", default="default", help="the kernel's encode option (cmp, fma)")
    p.add_argument("--min-ctas", type=int, default=0, help="launch bound: CTAs per SM")
    p.add_argument("--sass", default=None, help="write the whole disassembly here")
    return p


if __name__ == "__main__":
    a = _parser().parse_args()
    count(a.k, a.dtype, a.silu, a.vecs, a.warps, a.ctas, a.prefetch, a.encode, a.sass,
          min_ctas=a.min_ctas)
