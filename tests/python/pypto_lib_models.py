"""Checks and compiles pypto-lib's distributed models to PTO through ptodist's Python entry point,
unchanged, and prints per model file what happened (docs/python.md).

    /usr/bin/python3 tests/python/pypto_lib_models.py PYPTO_LIB_GIT_DIR [OUT_DIR] [FILTER]

The models and pypto-lib's `golden` harness are exported from the bare repository into OUT_DIR (default
/tmp/ptodist-pypto-lib). Each model file is imported as its own `__main__` block would run it (argv
flags at their defaults, the folder on sys.path, PYPTO_PROG_BUILD_DIR a folder of its own), and its
@pl.jit.host function compiled as `golden.run_jit(..., compile_only=True)` compiles it:
`fn.compile(config=RunConfig(platform="a2a3sim", distributed_config=DistributedConfig(device_ids=...)))`
with PTODIST_PLATFORM=ptodist, one device per rank of the model's default group. The drivers' input
generation is skipped (moe.py's random INT8 expert weights take minutes of host torch). A model
  - checks when that compile returned: ptodist's front end, verifier and passes accepted it;
  - compiles to PTO when it also wrote .pto files and no codegen_errors.txt.
"""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MODELS = (
    "models/deepseek_v4_flash_dspark/prefill_kv_allgather.py",
    "models/deepseek_v4_flash_dspark/moe.py",
    "models/deepseek_v4_flash_mtp/moe.py",
    "models/deepseek_v4_pro/moe.py",
)


def export(git_dir, out):
    out.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "HEAD", "models", "golden"], check=True, capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)


def first_error(text):
    """The located error line (file:line:col: error: ...) or the last line of a traceback."""
    lines = [l for l in text.splitlines() if l.strip()]
    for l in lines:
        if ": error: " in l:
            return l.strip()
    return lines[-1].strip() if lines else ""


# Run in the model's folder, as the model's own driver: import it, compile its @pl.jit.host function.
COMPILE = """
import importlib, sys
from ptodist.jit import JitFunction
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import RunConfig
sys.argv = [sys.argv[1]]
mod = importlib.import_module(sys.argv[0])
host = [v for v in vars(mod).values() if isinstance(v, JitFunction) and v.kind == "jit.host"][-1]
ranks = getattr(mod, "N_RANKS", None) or getattr(mod, "TP_SIZE")
host.compile(config=RunConfig(platform="a2a3sim", distributed_config=DistributedConfig(device_ids=list(range(ranks)))))
print("[RUN] PASS", host.__name__, ranks, "ranks")
"""


def run_model(src, model, build):
    env = dict(os.environ, PYTHONPATH=f"{REPO / 'python'}:{src}", PTODIST_PLATFORM="ptodist",
               PYPTO_PROG_BUILD_DIR=str(build))
    folder = src / Path(model).parent
    p = subprocess.run(
        [sys.executable, "-c", COMPILE, Path(model).stem],
        cwd=folder, env=dict(env, PYTHONPATH=f"{folder}:{env['PYTHONPATH']}"),
        capture_output=True, text=True, timeout=900,
    )
    out = p.stdout + p.stderr
    checks = p.returncode == 0 and "[RUN] PASS" in out
    pto = sorted(build.rglob("*.pto"))
    codegen = sorted(build.rglob("codegen_errors.txt"))
    why = "" if checks else first_error(out)
    if checks and codegen:
        why = first_error(codegen[0].read_text())
    return checks, checks and bool(pto) and not codegen, len(pto), why


def main():
    git_dir = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("/tmp/ptodist-pypto-lib")
    pattern = sys.argv[3] if len(sys.argv) > 3 else ""
    export(git_dir, out)
    models = [m for m in MODELS if pattern in m]
    checked = compiled = 0
    for model in models:
        build = out / "build" / model.replace("/", "_").removesuffix(".py")
        subprocess.run(["rm", "-rf", str(build)], check=True)
        checks, pto, n_pto, why = run_model(out, model, build)
        checked += checks
        compiled += pto
        state = "PTO" if pto else ("CHECKS" if checks else "FAIL")
        print(f"{state:6} {model}: checks {'yes' if checks else 'no'}, PTO {'yes' if pto else 'no'} "
              f"({n_pto} kernel files)" + (f"\n       {why}" if why else ""), flush=True)
    print(f"== {checked}/{len(models)} model files check, {compiled}/{len(models)} compile to PTO")


if __name__ == "__main__":
    main()
