"""The MPI backend from Python: a PyPTO script under mpirun, one rank per process (platform
"ptodist-mpi"), and the errors outside mpirun or against its process count."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig

import ring_programs

HERE = Path(__file__).resolve().parent


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="mpirun is not installed")
def test_ring_under_mpirun():
    env = dict(os.environ)
    for k in [k for k in env if k.startswith(("OMPI_", "PMIX_", "PMI_"))]:
        del env[k]  # a fresh launch, even when pytest itself runs under mpirun
    r = subprocess.run(
        ["mpirun", "-np", "2", "--oversubscribe", "--allow-run-as-root", sys.executable,
         str(HERE / "mpi_ring_script.py"), "2"],
        capture_output=True, text=True, timeout=240, env=env,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    # mpirun forwards each process's output as it comes: two lines can arrive joined ("rank 0 okrank 1 ok").
    assert sorted(re.findall(r"rank (\d+) ok", r.stdout)) == ["0", "1"], r.stdout


def test_mpi_platform_outside_mpirun_says_how_to_launch():
    if any(k.startswith("OMPI_COMM_WORLD") for k in os.environ):
        pytest.skip("running under mpirun")
    with pytest.raises(ValueError, match="launch the script as 'mpirun -np N python3"):
        ir.compile(ring_programs.make_ring(64), platform="ptodist-mpi", distributed_config=DistributedConfig([0, 1]))
