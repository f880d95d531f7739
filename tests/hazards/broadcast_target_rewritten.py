# Hazard 1 (unordered read) inside a host broadcast: each round the root stores its row into `payload`
# and broadcasts it; a non-root pulls the root's payload after the broadcast's barrier, and nothing
# makes the root wait for that pull before its next round's store. The report names the data region
# ('payload', not the broadcast's signal, although every op the broadcast lowers to shares its source
# line) and both lines: the broadcast that reads and the store that writes.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# CHECK: error: check: unordered read of window data: rank 1, vector core {{[0-9]+}} (block 0/1 of host_broadcast) reads bytes [0, 64) of 'payload' in rank 0's window
# CHECK-NEXT: payload = pld.tensor.broadcast(payload, signal, root=0)
# CHECK: note: written by rank 0, vector core {{[0-9]+}} (block 0/1 of publish) (pl.store); nothing orders that write before the read
# CHECK-NEXT: payload = pl.store(row, [0, 0], payload)
import pypto.language as pl
import pypto.language.distributed as pld

WIDTH = 16
ROUNDS = 2


@pl.program
class BroadcastRounds:
    @pl.function(type=pl.FunctionType.InCore)
    def publish(
        self,
        x: pl.Tensor[[1, WIDTH], pl.FP32],
        payload: pl.InOut[pld.DistributedTensor[[1, WIDTH], pl.FP32]],
        me: pl.Scalar[pl.INT32],
    ) -> pld.DistributedTensor[[1, WIDTH], pl.FP32]:
        if me == 0:
            row = pl.load(x, [0, 0], [1, WIDTH])
            payload = pl.store(row, [0, 0], payload)
        return payload

    @pl.function(type=pl.FunctionType.Orchestration)
    def publish_chip(
        self,
        x: pl.Tensor[[1, WIDTH], pl.FP32],
        payload: pl.InOut[pld.DistributedTensor[[1, WIDTH], pl.FP32]],
        me: pl.Scalar[pl.INT32],
    ) -> pld.DistributedTensor[[1, WIDTH], pl.FP32]:
        return self.publish(x, payload, me)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[ROUNDS, 1, WIDTH], pl.FP32]):
        payload_buf = pld.alloc_window_buffer([1, WIDTH], dtype=pl.FP32)
        signal_buf = pld.alloc_window_buffer([pld.world_size()], dtype=pl.INT32)
        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)
        for rd in pl.range(ROUNDS):
            for r in pl.range(pld.world_size()):
                payload = pld.window(payload_buf, [1, WIDTH], dtype=pl.FP32)
                self.publish_chip(x[rd], payload, r, device=r)
            payload = pld.window(payload_buf, [1, WIDTH], dtype=pl.FP32)
            payload = pld.tensor.broadcast(payload, signal, root=0)
