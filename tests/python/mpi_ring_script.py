"""Run under `mpirun -np N`: the ring program of ring_programs.py on the MPI backend through PyPTO's
API (platform "ptodist-mpi"). Every process passes the whole inputs and outputs; rank 0 ends with all
of the outputs, rank r != 0 with its own slice. Prints "rank R ok" when its outputs are right."""

import sys

import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig

import ptodist
import ring_programs

n = int(sys.argv[1])
compiled = ir.compile(
    ring_programs.make_ring(64), platform="ptodist-mpi", distributed_config=DistributedConfig(device_ids=list(range(n)))
)
gen = torch.Generator().manual_seed(7)  # every process draws the same inputs
inputs = torch.randn(n, 4, 64, generator=gen)
outputs = torch.zeros(n, 4, 64)
for _ in range(2):  # the compiled runtime (and its MPI windows) is kept across calls
    outputs.zero_()
    compiled(inputs, outputs)
rank = ptodist.mpi_rank()
expected = torch.roll(inputs, 1, dims=0)
good = torch.equal(outputs, expected) if rank == 0 else torch.equal(outputs[rank], expected[rank])
print(f"rank {rank} {'ok' if good else 'WRONG'}", flush=True)
