# RUN: ptodist compile %s --emit=pto | FileCheck %s
# Peer views are computed inline in the kernel from the CommContext that follows the window in the
# signature: rank id and window bases by pto.load_scalar, the element delta, pto.addptr, then the
# tensor view and the partition view. No helper function is emitted.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class PeerLoad:
    @pl.function(type=pl.FunctionType.InCore)
    def peek(
        self,
        out: pl.Out[pl.Tensor[[4, 64], pl.FP32]],
        win: pld.DistributedTensor[[8, 64], pl.FP32],
    ):
        t = pld.tile.remote_load(win, peer=3, offsets=[4, 0], shape=[4, 64])
        out = pl.store(t, [0, 0], out)


# CHECK: module {
# CHECK-NEXT: func.func @peek(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i64>)
# CHECK: %rank_pair = pto.load_scalar %arg2[%c2] : !pto.ptr<i64> -> i64
# CHECK-NEXT: %win_rank = arith.trunci %rank_pair : i64 to i32
# CHECK-NEXT: %win_rank_idx = arith.index_cast %win_rank : i32 to index
# CHECK-NEXT: %win_local_slot = arith.addi %c4, %win_rank_idx : index
# CHECK-NEXT: %win_local_base = pto.load_scalar %arg2[%win_local_slot] : !pto.ptr<i64> -> i64
# CHECK-NEXT: %win_peer_slot = arith.addi %c4, %c3 : index
# CHECK-NEXT: %win_peer_base = pto.load_scalar %arg2[%win_peer_slot] : !pto.ptr<i64> -> i64
# CHECK-NEXT: %win_delta_bytes = arith.subi %win_peer_base, %win_local_base : i64
# CHECK-NEXT: %win_delta_elems_i64 = arith.divsi %win_delta_bytes, %c4_i64 : i64
# CHECK-NEXT: %win_delta_elems = arith.index_cast %win_delta_elems_i64 : i64 to index
# CHECK-NEXT: %win_peer_ptr = pto.addptr %arg1, %win_delta_elems : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %win_peer_view = pto.make_tensor_view %win_peer_ptr, shape = [%c8, %c64], strides = [%c64, %c1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %win_peer = pto.partition_view %win_peer_view, offsets = [%c4, %c0], sizes = [%c4, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x64xf32>
# CHECK-NEXT: pto.tload ins(%win_peer : !pto.partition_tensor_view<4x64xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=64
# CHECK: return
# CHECK-NEXT: }
# CHECK-NEXT: }
# CHECK-NOT: func.func
