// Types: PyPTO spelling, structural equality, static shapes; constant evaluation of expressions.
#include <climits>

#include "ir_test_util.h"

namespace ptodist::ir::testing {
namespace {

using IrType = IrTest;

TEST_F(IrType, SpellsTypesAsPyPTO) {
  EXPECT_EQ(type_str(tensor_type(dims({128, 256}), DType::FP16)), "pl.Tensor[[128, 256], pl.FP16]");
  EXPECT_EQ(type_str(dist_tensor_type(dims({4, 8}), DType::INT32)),
            "pld.DistributedTensor[[4, 8], pl.INT32]");
  EXPECT_EQ(type_str(tile_type(dims({1, 256}), DType::INT8, Memory::Vec)),
            "pl.Tile[[1, 256], pl.INT8, pl.Mem.Vec]");
  EXPECT_EQ(type_str(scalar_type(DType::INT32)), "pl.Scalar[pl.INT32]");
  EXPECT_EQ(type_str(simple_type(TypeKind::AsyncSession)), "pld.AsyncSession");
  EXPECT_EQ(type_str(simple_type(TypeKind::AsyncEvent)), "pld.AsyncEvent");
  EXPECT_EQ(type_str(simple_type(TypeKind::TaskId)), "pl.TaskId");
  EXPECT_EQ(type_str(tuple_type({simple_type(TypeKind::None), simple_type(TypeKind::TaskId)})),
            "tuple[None, pl.TaskId]");
  EXPECT_EQ(type_str(tensor_type({b.dynamic_dim("NR"), i(64)}, DType::FP32)), "pl.Tensor[[NR, 64], pl.FP32]");
}

TEST_F(IrType, PrintsPlannedTileAddress) {
  auto t = std::make_shared<TypeNode>(*tile_type(dims({16, 16}), DType::FP32, Memory::Acc));
  t->addr = 512;
  EXPECT_EQ(type_str(t), "pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc, addr=512]");
  EXPECT_TRUE(type_equal(t, tile_type(dims({16, 16}), DType::FP32, Memory::Acc)));
}

TEST_F(IrType, EqualityIsStructural) {
  EXPECT_TRUE(type_equal(tensor_type(dims({2, 3}), DType::FP16), tensor_type(dims({2, 3}), DType::FP16)));
  EXPECT_FALSE(type_equal(tensor_type(dims({2, 3}), DType::FP16), tensor_type(dims({2, 4}), DType::FP16)));
  EXPECT_FALSE(
      type_equal(tensor_type(dims({2, 3}), DType::FP16), dist_tensor_type(dims({2, 3}), DType::FP16)));
  EXPECT_FALSE(type_equal(tile_type(dims({2}), DType::FP16, Memory::Vec),
                          tile_type(dims({2}), DType::FP16, Memory::Mat)));
  EXPECT_TRUE(type_equal(tensor_type({b.dynamic_dim("NR")}, DType::FP16),
                         tensor_type({b.dynamic_dim("NR")}, DType::FP16)));
  EXPECT_FALSE(type_equal(scalar_type(DType::INT32), scalar_type(DType::INT64)));
}

TEST_F(IrType, StaticShapes) {
  Type t = tensor_type(dims({4, 5}), DType::FP32);
  ASSERT_TRUE(t->static_shape());
  EXPECT_EQ(*t->static_shape(), (std::vector<long long>{4, 5}));
  Type d = tensor_type({b.dynamic_dim("NR"), i(5)}, DType::FP32);
  EXPECT_FALSE(d->shape_is_static());
  EXPECT_FALSE(d->static_shape());
}

TEST_F(IrType, DTypesAndMemories) {
  EXPECT_EQ(dtype_bytes(DType::BF16), 2);
  EXPECT_EQ(dtype_bytes(DType::INT64), 8);
  EXPECT_EQ(dtype_from_name("UINT8"), DType::UINT8);
  EXPECT_FALSE(dtype_from_name("FP8"));
  EXPECT_TRUE(dtype_is_float(DType::BF16));
  EXPECT_FALSE(dtype_is_int(DType::BOOL));
  EXPECT_EQ(memory_from_name("Acc"), Memory::Acc);
  EXPECT_EQ(memory_name(Memory::Left), "Left");
  EXPECT_EQ(memory_from_name("Bias"), Memory::Bias);
}

TEST_F(IrType, ConstantEvaluation) {
  EXPECT_EQ(as_const_int(i(7)), 7);
  EXPECT_EQ(as_const_float(b.float_imm(0.5)), 0.5);
  EXPECT_EQ(as_const_float(i(3)), 3.0);
  EXPECT_FALSE(as_const_int(b.float_imm(1.0)));
  EXPECT_FALSE(as_const_int(b.dynamic_dim("NR")));
  ASSERT_NE(as_list(ints({1, 2})), nullptr);
  EXPECT_EQ(as_list(ints({1, 2}))->size(), 2u);
  EXPECT_EQ(as_list(i(1)), nullptr);
}

}  // namespace
}  // namespace ptodist::ir::testing

namespace ptodist::ir::testing {
namespace {

TEST_F(IrType, FoldingNeverOverflows) {
  Expr big = i(LLONG_MAX);
  EXPECT_FALSE(as_const_int(b.binary(BinaryOpKind::Add, big, i(1), {})));
  EXPECT_FALSE(as_const_int(b.binary(BinaryOpKind::Mul, big, i(2), {})));
  EXPECT_FALSE(as_const_int(b.binary(BinaryOpKind::Pow, i(2), i(64), {})));
  EXPECT_EQ(as_const_int(b.binary(BinaryOpKind::Pow, i(-1), i(3), {})), -1);
  EXPECT_EQ(as_const_int(b.binary(BinaryOpKind::Pow, i(2), i(10), {})), 1024);
  EXPECT_FALSE(as_const_int(b.binary(BinaryOpKind::FloorDiv, i(LLONG_MIN), i(-1), {})));
  EXPECT_FALSE(as_const_int(b.binary(BinaryOpKind::Mod, i(5), i(0), {})));
  EXPECT_EQ(as_const_int(b.binary(BinaryOpKind::Mod, i(-7), i(3), {})), 2);
  EXPECT_FALSE(as_const_int(b.binary(BinaryOpKind::Shl, i(1), i(64), {})));
  EXPECT_TRUE(b.unary(UnaryOpKind::Neg, i(LLONG_MIN), {}));
}

}  // namespace
}  // namespace ptodist::ir::testing
