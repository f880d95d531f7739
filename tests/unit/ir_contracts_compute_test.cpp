// Contracts of the compute and GM access ops (pl.), built directly through the Builder.
#include "ir_test_util.h"

namespace ptodist::ir::testing {
namespace {

using IrCompute = IrTest;

TEST_F(IrCompute, LoadChecksRankBoundsAndMemory) {
  EXPECT_FALSE(call("pl.load", {tensor({8, 8}), ints({0}), ints({8, 8})}));
  EXPECT_EQ(
      first_error(),
      "pl.load: 'offsets' must be a list of 2 integers (the rank of 'tensor'), got a list of 1 element");
  diags.clear();
  EXPECT_FALSE(call("pl.load", {tensor({8, 8}), ints({4, 0}), ints({8, 8})}));
  EXPECT_EQ(first_error(), "pl.load: region [4, 12) in dim 0 is out of bounds of 'tensor' (size 8)");
  diags.clear();
  EXPECT_FALSE(
      call("pl.load", {tensor({8, 8}), ints({0, 0}), ints({8, 8})}, {{"target_memory", mem("Left")}}));
  EXPECT_EQ(first_error(),
            "pl.load: 'target_memory' must be pl.Mem.Vec or pl.Mem.Mat (GM loads land in UB or L1), got "
            "pl.Mem.Left; load into pl.Mem.Mat and use pl.move(t, target_memory=pl.Mem.Left)");
  diags.clear();
  EXPECT_FALSE(call("pl.load", {tile({8, 8}), ints({0, 0}), ints({8, 8})}));
  EXPECT_EQ(first_error(),
            "pl.load: 'tensor' must be a tensor in GM (pl.Tensor or pld.DistributedTensor), got "
            "pl.Tile[[8, 8], pl.FP16, pl.Mem.Vec]");
  Expr ok = call("pl.load", {tensor({8, 8}), ints({0, 0}), ints({4, 8})}, {{"target_memory", mem("Mat")}});
  ASSERT_TRUE(ok);
  EXPECT_EQ(type_str(ok->type), "pl.Tile[[4, 8], pl.FP16, pl.Mem.Mat]");
}

TEST_F(IrCompute, StoreReturnsTheTensor) {
  Expr t = tensor({8, 8}, DType::FP32);
  Expr r = call("pl.store", {tile({4, 8}, DType::FP32), ints({4, 0}), t});
  ASSERT_TRUE(r) << first_error();
  EXPECT_TRUE(type_equal(r->type, t->type));
  EXPECT_FALSE(call("pl.store", {tile({4, 8}, DType::FP16), ints({0, 0}), t}));
  EXPECT_EQ(first_error(),
            "pl.store: 'tile' dtype pl.FP16 must match 'output_tensor' dtype pl.FP32; use pl.cast first");
  diags.clear();
  EXPECT_FALSE(call("pl.store", {tile({8, 8}, DType::FP32), ints({4, 0}), t}));
  EXPECT_EQ(first_error(), "pl.store: region [4, 12) in dim 0 is out of bounds of 'output_tensor' (size 8)");
}

TEST_F(IrCompute, MatmulNeedsLeftRightAndMatchingK) {
  Expr l = tile({16, 32}, DType::FP16, Memory::Left), r = tile({32, 8}, DType::FP16, Memory::Right);
  Expr c = call("pl.matmul", {l, r});
  ASSERT_TRUE(c) << first_error();
  EXPECT_EQ(type_str(c->type), "pl.Tile[[16, 8], pl.FP32, pl.Mem.Acc]");
  EXPECT_TRUE(call("pl.matmul_acc", {c, l, r}));
  EXPECT_FALSE(call("pl.matmul", {tile({16, 32}, DType::FP16, Memory::Mat), r}));
  EXPECT_EQ(first_error(),
            "pl.matmul: 'lhs' must be a tile in pl.Mem.Left, got pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat]; "
            "use pl.move(x, target_memory=pl.Mem.Left)");
  diags.clear();
  EXPECT_FALSE(call("pl.matmul", {l, tile({16, 8}, DType::FP16, Memory::Right)}));
  EXPECT_EQ(first_error(),
            "pl.matmul: 'rhs' shape [16, 8] does not fit 'lhs' shape [16, 32]: the K dims (lhs dim 1, "
            "rhs dim 0) must be equal");
  diags.clear();
  EXPECT_FALSE(call("pl.matmul", {tile({16, 32}, DType::INT32, Memory::Left), r}));
  EXPECT_EQ(first_error(),
            "pl.matmul: 'lhs' must have dtype pl.INT8, pl.FP16, pl.BF16 or pl.FP32 (the cube unit's inputs), "
            "got pl.INT32; use pl.cast first");
  diags.clear();
  EXPECT_FALSE(call("pl.matmul_acc", {tile({16, 4}, DType::FP32, Memory::Acc), l, r}));
  EXPECT_EQ(first_error(),
            "pl.matmul_acc: 'acc' must be pl.Tile[[16, 8], pl.FP32, pl.Mem.Acc] (the product's type), "
            "got pl.Tile[[16, 4], pl.FP32, pl.Mem.Acc]");
}

TEST_F(IrCompute, ElementwiseAndMoves) {
  EXPECT_TRUE(call("pl.add", {tile({4, 4}), tile({4, 4})}));
  EXPECT_FALSE(call("pl.add", {tile({4, 4}), tile({4, 8})}));
  EXPECT_EQ(first_error(), "pl.add: 'rhs' shape [4, 8] must match 'lhs' shape [4, 4]");
  diags.clear();
  EXPECT_FALSE(call("pl.mul", {tile({4, 4}), tile({4, 4}, DType::FP32)}));
  EXPECT_EQ(first_error(), "pl.mul: 'rhs' dtype pl.FP32 must match 'lhs' dtype pl.FP16; use pl.cast");
  diags.clear();
  EXPECT_TRUE(call("pl.adds", {tile({4, 4}), b.float_imm(1.0)}));
  EXPECT_FALSE(call("pl.exp", {tile({4, 4}, DType::INT32)}));
  EXPECT_EQ(first_error(),
            "pl.exp: 'input' must have a float dtype (pl.FP32, pl.FP16 or pl.BF16), got pl.INT32");
  diags.clear();
  EXPECT_EQ(type_str(call("pl.move", {tile({4, 4}, DType::FP16, Memory::Mat), mem("Left")})->type),
            "pl.Tile[[4, 4], pl.FP16, pl.Mem.Left]");
  EXPECT_FALSE(call("pl.move", {tile({4, 4}), mem("Acc")}));
  EXPECT_EQ(first_error(),
            "pl.move: cannot move a tile from pl.Mem.Vec to pl.Mem.Acc; supported moves are Mat->Left, "
            "Mat->Right, Acc->Vec, Acc->Mat and Vec->Vec, and in an InCore kernel Vec->Mat, Vec->Left, "
            "Vec->Right and Mat->Vec (between its cube and vector halves)");
  diags.clear();
  EXPECT_EQ(type_str(call("pl.cast", {tile({4, 4}), b.dtype_imm(DType::FP32)})->type),
            "pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec]");
  EXPECT_EQ(type_str(call("pl.row_sum", {tile({4, 16}, DType::FP32)})->type),
            "pl.Tile[[4, 1], pl.FP32, pl.Mem.Vec]");
  EXPECT_EQ(
      type_str(
          call("pl.zeros", {ints({16, 8}), b.dtype_imm(DType::FP32)}, {{"target_memory", mem("Acc")}})->type),
      "pl.Tile[[16, 8], pl.FP32, pl.Mem.Acc]");
  EXPECT_FALSE(call("pl.full", {ints({0, 8}), b.dtype_imm(DType::FP32), b.float_imm(0.0)}));
  EXPECT_EQ(first_error(), "pl.full: 'shape' must have positive dims, but dim 0 is 0");
}

TEST_F(IrCompute, ReadAndWriteScalars) {
  Expr t = tensor({4, 4}, DType::INT32);
  EXPECT_EQ(type_str(call("pl.read", {t, ints({3, 3})})->type), "pl.Scalar[pl.INT32]");
  EXPECT_FALSE(call("pl.read", {t, ints({4, 0})}));
  EXPECT_EQ(first_error(), "pl.read: region [4, 5) in dim 0 is out of bounds of 'src' (size 4)");
  diags.clear();
  EXPECT_TRUE(call("pl.write", {t, ints({0, 0}), i(1)}));
  EXPECT_FALSE(call("pl.write", {t, ints({0, 0}), tile({1, 1})}));
  EXPECT_EQ(first_error(), "pl.write: 'value' must be a scalar, got pl.Tile[[1, 1], pl.FP16, pl.Mem.Vec]");
}

}  // namespace
}  // namespace ptodist::ir::testing
