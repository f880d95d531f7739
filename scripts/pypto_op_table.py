#!/usr/bin/env python3
"""Writes the op-status table of docs/language.md and the op list src/frontend/pypto_ops.def.

Usage: scripts/pypto_op_table.py PYPTO_GIT_DIR [--def]
  Reads every op of PyPTO's `pl` and `pld` namespaces from its python/pypto/language/op/*.py and
  distributed/op/*.py (functions, and the names pl/pld re-export from them) and ptodist's spellings
  from include/ptodist/ir/ops.def and op_aliases.def; prints a Markdown table (op, PyPTO's signature,
  ptodist's status), or with --def the PTODIST_PYPTO_OP lines of src/frontend/pypto_ops.def.
"""
import ast
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LANG = "python/pypto/language/"
MODULES = {  # namespace -> PyPTO source file
    "pl.tile": "op/tile_ops.py", "pl.tensor": "op/tensor_ops.py", "pl.system": "op/system_ops.py",
    "pl.array": "op/array_ops.py", "pl.prefetch": "op/prefetch_ops.py",
    "pld.system": "distributed/op/system_ops.py", "pld.tensor": "distributed/op/tensor_ops.py",
    "pld.tile": "distributed/op/tile_ops.py",
}
# Ops of the collectives engineer's area (issue: collectives and communication groups).
COLLECTIVES = {"barrier", "broadcast", "allgather", "reduce_scatter", "allreduce", "all_to_all",
               "all_to_all_v", "defer_wait"}
# Spellings the front end handles itself (pl.const folds; pld.remote_store dispatches on its source).
# pl.no_dep marks a kernel-call argument and is peeled there, as PyPTO's parser does.
EXTRA_SUPPORTED = {"pl.const", "pld.remote_store", "pl.no_dep", "pl.tensor.no_dep"}


def show(git_dir, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", "HEAD:" + LANG + path],
                          capture_output=True, text=True, check=True).stdout


def signature(fn):
    a = fn.args
    out = []
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + a.defaults
    for p, d in zip(pos, defaults):
        if p.arg != "span":
            out.append(p.arg + ("=" + ast.unparse(d) if d is not None else ""))
    if a.vararg:
        out.append("*" + a.vararg.arg)
    elif a.kwonlyargs:
        out.append("*")
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        if p.arg != "span":
            out.append(p.arg + ("=" + ast.unparse(d) if d is not None else ""))
    if a.kwarg:
        out.append("**" + a.kwarg.arg)
    if out and out[-1] == "*":
        out.pop()
    return ", ".join(out)


def functions(src):
    """Public functions (the last definition of an overloaded name wins) and name aliases."""
    tree = ast.parse(src)
    sigs, aliases = {}, {}
    for n in tree.body:
        if isinstance(n, ast.FunctionDef) and not n.name.startswith("_"):
            sigs[n.name] = signature(n)
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Name):
            for t in n.targets:
                if isinstance(t, ast.Name) and t.id[0].islower() and not t.id.startswith("_"):
                    aliases[t.id] = n.value.id
    for name, target in aliases.items():
        if target in sigs:
            sigs[name] = sigs[target]
    return sigs


def reexports(src, module_suffix):
    out = {}
    for n in ast.walk(ast.parse(src)):
        if isinstance(n, ast.ImportFrom) and n.module and n.module.endswith(module_suffix):
            for a in n.names:
                if a.name[0].islower():
                    out[a.asname or a.name] = a.name
    return out


def pypto_ops(git_dir):
    ops = {}
    sources = {ns: functions(show(git_dir, f)) for ns, f in MODULES.items()}
    for ns, sigs in sources.items():
        for name, sig in sigs.items():
            ops[ns + "." + name] = sig
    unified = functions(show(git_dir, "op/unified_ops.py"))
    init = show(git_dir, "__init__.py")
    for mod, sigs in [("op.unified_ops", unified), ("op.tile_ops", sources["pl.tile"]),
                      ("op.tensor_ops", sources["pl.tensor"]), ("op.system_ops", sources["pl.system"])]:
        for name, orig in reexports(init, mod).items():
            if orig in sigs:
                ops["pl." + name] = sigs[orig]
    dsl = functions(show(git_dir, "dsl_api.py"))
    ops["pl.const"] = dsl["const"]
    dinit = show(git_dir, "distributed/op/__init__.py")
    dsys, dten, dtile = sources["pld.system"], sources["pld.tensor"], sources["pld.tile"]
    dunified = functions(show(git_dir, "distributed/op/unified_ops.py"))
    for name in reexports(dinit, "unified_ops"):
        for sigs in (dunified, dsys, dten, dtile):
            if name in sigs:
                ops["pld." + name] = sigs[name]
                break
    return ops


def ptodist_signatures():
    """Spelling -> signature of every op and alias of ptodist's tables."""
    ops = open(os.path.join(ROOT, "include/ptodist/ir/ops.def")).read()
    aliases = open(os.path.join(ROOT, "include/ptodist/ir/op_aliases.def")).read()
    # A signature is a C string literal: `mode=\"mesh\"` holds escaped quotes.
    out = {name: sig.replace('\\"', '"')
           for name, sig in re.findall(r'^PTODIST_OP\(\w+, "([^"]+)", "((?:[^"\\]|\\.)*)"', ops, re.M)}
    out.update({s: sig for s, _, sig in re.findall(r'^PTODIST_ALIAS\("([^"]+)", (\w+), "([^"]*)"', aliases, re.M)})
    unary = open(os.path.join(ROOT, "include/ptodist/ir/unary_ops.def")).read()
    for tile_only, name, sig, tile_sig in re.findall(
            r'^PTODIST_UNARY(_TILE)?\(\w+, "(\w+)", "([^"]*)", "([^"]*)"', unary, re.M):
        # A keyword-only `tmp` slot is the tile spelling's scratch (pl.tile.rsqrt); the contract rejects
        # it on the other spellings.
        sig = sig.replace(", *, tmp=None", "")
        out["pl." + name] = sig
        out["pl.tile." + name] = tile_sig
        if not tile_only:
            out["pl.tensor." + name] = sig
    expand = open(os.path.join(ROOT, "include/ptodist/ir/expand_ops.def")).read()
    for name, sig, tile_sig, tensor_sig in re.findall(
            r'^PTODIST_EXPAND\(\w+, "(\w+)", "([^"]*)", "([^"]*)", "([^"]*)"', expand, re.M):
        out["pl." + name] = sig
        out["pl.tile." + name] = tile_sig
        out["pl.tensor." + name] = tensor_sig
    reduce = open(os.path.join(ROOT, "include/ptodist/ir/reduce_ops.def")).read()
    for name, sig, tile_sig in re.findall(r'^PTODIST_REDUCE\(\w+, "(\w+)", "([^"]*)", "([^"]*)"', reduce, re.M):
        out["pl." + name] = sig
        out["pl.tile." + name] = tile_sig
        out["pl.tensor." + name] = "input"
    return out


def names(sig):
    """The parameter names and markers of a signature, without defaults."""
    return [p.split("=")[0].strip() for p in sig.split(",") if p.strip()]


def status(op, pypto_sig, ours):
    if op in EXTRA_SUPPORTED:
        return "supported"
    collective = op.split(".")[-1] in COLLECTIVES
    if op not in ours:
        return "not yet (collectives work)" if collective else "not yet"
    if names(ours[op]) == names(pypto_sig):
        return "supported"
    return ("collectives work; today " if collective else "supported as ") + "`(" + ours[op] + ")`"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    ops = pypto_ops(sys.argv[1])
    if "--def" in sys.argv:
        for op in sorted(ops):
            print(f'PTODIST_PYPTO_OP("{op}")')
        return
    ours = ptodist_signatures()
    print("| op | PyPTO signature | ptodist |")
    print("| --- | --- | --- |")
    for op in sorted(ops):
        print(f"| `{op}` | `({ops[op]})` | {status(op, ops[op], ours)} |")


if __name__ == "__main__":
    main()
