// specialize: factory parameters bound from -D, defaults and the rank count; constants folded in
// bodies and types; constant ifs pruned; a parameter with neither value is a located error.
#include "ptodist/ir/type.h"
#include "transforms_test_util.h"

namespace ptodist::transforms::testing {
namespace {

const char* kFactory = R"(def make_program(world_size, comm_cores, tile=64):
    ROWS = tile * world_size

    @pl.jit.incore
    def kernel(x: pl.Tensor[[ROWS, 128], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, 128], pl.FP32]]):
        t = pl.load(x, [0, 0], [tile, 128])
        if comm_cores > 2:
            t = pl.add(t, t)
        y = pl.store(t, [tile // 2, 0], y)
        return y

    return kernel
)";

using SpecializeTest = PassTest;

TEST_F(SpecializeTest, BindsParametersAndFoldsShapes) {
  bindings = {{"world_size", 4}, {"comm_cores", 4}};
  ir::Program p = run(kFactory, {"specialize"});
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_TRUE(p->factory_params.empty());
  EXPECT_TRUE(p->factory_constants.empty());
  ir::Function k = kernel(p);
  auto x = k->params[0].var->type->static_shape();
  ASSERT_TRUE(x);
  EXPECT_EQ(*x, (std::vector<long long>{256, 128}));  // ROWS = 64 * 4
  ir::Var t = defined_var(k, "t");
  ASSERT_TRUE(t);
  EXPECT_EQ(*t->type->static_shape(), (std::vector<long long>{64, 128}));
}

TEST_F(SpecializeTest, ConstantIfKeepsOnlyTheTakenBranch) {
  bindings = {{"world_size", 2}, {"comm_cores", 4}};
  ir::Program p = run(kFactory, {"specialize"});
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(op_sequence(kernel(p)->body),
            (std::vector<std::string>{"pl.load", "pl.add", "pl.store", "return"}));
  bindings["comm_cores"] = 1;
  diags.clear();
  p = run(kFactory, {"specialize"});
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(op_sequence(kernel(p)->body), (std::vector<std::string>{"pl.load", "pl.store", "return"}));
}

TEST_F(SpecializeTest, FoldsOffsetExpressions) {
  bindings = {{"world_size", 2}, {"comm_cores", 1}, {"tile", 32}};
  ir::Program p = run(kFactory, {"specialize"});
  ASSERT_TRUE(p) << all_diagnostics();
  std::vector<ir::Stmt> all;
  flatten(kernel(p)->body, all);
  const ir::OpCall* store = top_call(all[1]);
  ASSERT_TRUE(store);
  EXPECT_EQ(ir::print_expr(store->arg("offsets")), "[16, 0]");
}

TEST_F(SpecializeTest, ParameterWithoutValueIsALocatedError) {
  bindings = {{"world_size", 2}};
  ir::Program p = run(kFactory, {"specialize"});
  EXPECT_FALSE(p);
  EXPECT_EQ(first_error(), "factory parameter 'comm_cores' has no default; pass -D comm_cores=N");
  ASSERT_FALSE(diags.diagnostics().empty());
  EXPECT_EQ(diags.diagnostics().front().span.line, 5);
}

TEST_F(SpecializeTest, DivisionByZeroInAConstantIsReported) {
  bindings = {{"world_size", 2}, {"comm_cores", 1}, {"tile", 0}};
  ir::Program p = run(kFactory, {"specialize"});
  EXPECT_FALSE(p);
  EXPECT_NE(all_diagnostics().find("error"), std::string::npos);
}

TEST_F(SpecializeTest, ModuleConstantsAndPlainProgramsPassThrough) {
  ir::Program p = run(R"(SIZE = 256


@pl.jit.incore
def kernel(x: pl.Tensor[[1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]):
    t = pl.load(x, [0, 0], [1, SIZE // 2])
    y = pl.store(t, [0, SIZE // 2], y)
    return y
)",
                      {"specialize"});
  ASSERT_TRUE(p) << all_diagnostics();
  ir::Var t = defined_var(kernel(p), "t");
  ASSERT_TRUE(t);
  EXPECT_EQ(*t->type->static_shape(), (std::vector<long long>{1, 128}));
}

}  // namespace
}  // namespace ptodist::transforms::testing
