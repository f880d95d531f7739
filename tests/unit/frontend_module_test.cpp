// Module-level parsing: imports and aliases, constants, skipped host code, factories, class and jit programs.
#include <gtest/gtest.h>

#include "frontend_test_util.h"

namespace ptodist::frontend {
namespace {

using test::kImports;
using test::parse_text;

const char* kKernel = R"(
@pl.jit.incore
def kern(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    t = pl.load(x, [0, 0], [1, N])
    y = pl.store(t, [0, 0], y)
    return y
)";

TEST(FrontendModule, ImportsAreRecordedCanonically) {
  auto p = parse_text(
      "import pypto.language as L\nfrom pypto.language import distributed as D\nimport numpy as np\n"
      "from __future__ import annotations\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  ASSERT_EQ(p->module->imports.size(), 2u);
  EXPECT_EQ(p->module->imports[0], (std::pair<std::string, std::string>("pypto.language", "pl")));
  EXPECT_EQ(p->module->imports[1],
            (std::pair<std::string, std::string>("pypto.language.distributed", "pld")));
}

TEST(FrontendModule, ConstantsAndSkippedHostCode) {
  auto p = parse_text(std::string(kImports) + R"(
import torch
N = 1_024
HALF = N // 2
SCALE = 0.5
FLAG = True
SHAPE = (4, N)
BYTES = N * pl.FP16.get_byte()
x = torch.randn(4, N)
y = undefined_thing + 1
def helper(a):
    return a + * weird, never parsed
class Host:
    def run(self): pass
if __name__ == "__main__":
    for i in range(3):
        print(f"{i}")
try:
    import foo
except ImportError:
    pass
)");
  ASSERT_TRUE(p->module) << p->all_errors();
  const auto& cs = p->module->constants;
  ASSERT_EQ(cs.size(), 6u);
  EXPECT_EQ(cs[0].var->name, "N");
  EXPECT_EQ(ir::as_const_int(cs[0].value), 1024);
  EXPECT_EQ(cs[1].var->name, "HALF");
  EXPECT_TRUE(cs[1].value->isa<ir::Binary>());  // a use of N is a VarRef to N's Var
  EXPECT_EQ(cs[5].var->name, "BYTES");
  EXPECT_TRUE(p->module->programs.empty());
}

TEST(FrontendModule, UnterminatedStringInSkippedCodeIsStillAnError) {
  auto p = parse_text("def helper():\n    return 'oops\n");
  EXPECT_FALSE(p->module);
  EXPECT_EQ(p->errors().at(0), "2:12: unterminated string");
}

TEST(FrontendModule, AliasesAreHonoured) {
  auto p = parse_text(R"(
import pypto.language as L
import pypto.language.distributed as D
N = 64
@L.jit.incore
def kern(x: L.Tensor[[1, N], L.FP32], s: D.DistributedTensor[[1, 1], L.INT32]):
    t = L.load(x, [0, 0], [1, N], target_memory=L.MemorySpace.Vec)
    D.system.notify(s, 0, [0, 0], 1, op=D.NotifyOp.Set)
)");
  ASSERT_TRUE(p->module) << p->all_errors();
  ASSERT_EQ(p->module->programs.size(), 1u);
  const auto& f = p->module->programs[0]->functions.at(0);
  EXPECT_EQ(f->params[1].var->type->kind, ir::TypeKind::DistTensor);
  auto call = f->body.at(1)->as<ir::ExprStmt>()->value->as<ir::OpCall>();
  ASSERT_TRUE(call);
  EXPECT_EQ(call->op->spelling, "pld.system.notify");
  auto op = call->arg("op")->as<ir::EnumImm>();
  ASSERT_TRUE(op);
  EXPECT_EQ(op->value, "Set");
}

TEST(FrontendModule, UnaliasedImportPaths) {
  auto p = parse_text(R"(
import pypto.language
from pypto.language import distributed
@pypto.language.jit.incore
def kern(x: pypto.language.Tensor[[1, 8], pypto.language.FP32], s: distributed.DistributedTensor[[1, 1], pypto.language.INT32]):
    t = pypto.language.load(x, [0, 0], [1, 8])
)");
  ASSERT_TRUE(p->module) << p->all_errors();
  ASSERT_EQ(p->module->programs.size(), 1u);
  EXPECT_EQ(p->module->programs[0]->functions[0]->params[1].var->type->kind, ir::TypeKind::DistTensor);
}

TEST(FrontendModule, JitProgramIsHostPlusReachableFunctions) {
  auto p = parse_text(std::string(kImports) + "N = 64\n" + kKernel + R"(
@pl.jit.incore
def unused(x: pl.Tensor[[1, N], pl.FP32]):
    pass

@pl.jit
def chip(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    return kern(x, y)

@pl.jit.host
def main_prog(x: pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32], y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        chip(x[r], y[r], device=r)
)");
  ASSERT_TRUE(p->module) << p->all_errors();
  ASSERT_EQ(p->module->programs.size(), 1u);
  const auto& prog = p->module->programs[0];
  EXPECT_EQ(prog->name, "main_prog");
  EXPECT_EQ(prog->style, ir::ProgramStyle::Jit);
  ASSERT_EQ(prog->functions.size(), 3u);
  EXPECT_EQ(prog->functions[0]->name, "kern");
  EXPECT_EQ(prog->functions[0]->kind, ir::FunctionKind::InCore);
  EXPECT_EQ(prog->functions[1]->name, "chip");
  EXPECT_EQ(prog->functions[1]->kind, ir::FunctionKind::Orchestration);
  EXPECT_EQ(prog->functions[2]->kind, ir::FunctionKind::Host);
  EXPECT_TRUE(prog->functions[2]->params[0].var->type->shape[0]->isa<ir::Dynamic>());
  EXPECT_EQ(prog->functions[0]->params[1].direction, ir::Direction::Out);
}

TEST(FrontendModule, JitWithoutHostMakesOneProgramPerOrchestration) {
  auto p = parse_text(std::string(kImports) + "N = 64\n" + kKernel + R"(
@pl.jit
def chip_a(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    return kern(x, y)

@pl.jit
def chip_b(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    return kern(x, y)
)");
  ASSERT_TRUE(p->module) << p->all_errors();
  ASSERT_EQ(p->module->programs.size(), 2u);
  EXPECT_EQ(p->module->programs[0]->name, "chip_a");
  EXPECT_EQ(p->module->programs[1]->name, "chip_b");
  EXPECT_EQ(p->module->programs[1]->functions.size(), 2u);
}

TEST(FrontendModule, CallsMayPrecedeTheCalleeDefinition) {
  auto p = parse_text(std::string(kImports) + R"(
N = 64
@pl.jit
def chip(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    return kern(x, y)
)" + kKernel);
  ASSERT_TRUE(p->module) << p->all_errors();
  EXPECT_EQ(p->module->programs.at(0)->functions.size(), 2u);
}

const char* kFactory = R"(
import pypto.language as pl
import pypto.language.distributed as pld

TILE = 64

def build_it(world_size, cores=4, rows=TILE * 2):
    """Builds the program."""
    if rows % TILE != 0:
        raise ValueError("rows must be a multiple of TILE")
    ROWS = rows
    TILES = ROWS // TILE
    handle = open("x")

    @pl.program
    class Prog:
        """A program."""
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, a: pl.Tensor[[ROWS, TILE], pl.FP16], o: pl.Out[pl.Tensor[[ROWS, TILE], pl.FP16]]) -> pl.Tensor[[ROWS, TILE], pl.FP16]:
            """Copies a to o."""
            for i in pl.range(TILES):
                t = pl.load(a, [i * TILE, 0], [TILE, TILE])
                o = pl.store(t, [i * TILE, 0], o)
            return o

        @pl.function(type=pl.FunctionType.Orchestration)
        def orch(self, a: pl.Tensor[[ROWS, TILE], pl.FP16], o: pl.Out[pl.Tensor[[ROWS, TILE], pl.FP16]]) -> pl.Tensor[[ROWS, TILE], pl.FP16]:
            with pl.manual_scope():
                o, task = pl.spmd_submit(self.kernel, a, o, core_num=cores)
            return o

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, a: pl.Tensor[[world_size, ROWS, TILE], pl.FP16], o: pl.Out[pl.Tensor[[world_size, ROWS, TILE], pl.FP16]]):
            for r in pl.range(pld.world_size()):
                self.orch(a[r], o[r], device=r)

    return Prog

def not_a_factory(x):
    return x
)";

TEST(FrontendModule, ClassStyleFactory) {
  auto p = parse_text(kFactory);
  ASSERT_TRUE(p->module) << p->all_errors();
  ASSERT_EQ(p->module->programs.size(), 1u);
  const auto& prog = p->module->programs[0];
  EXPECT_EQ(prog->name, "Prog");
  EXPECT_EQ(prog->style, ir::ProgramStyle::Class);
  EXPECT_EQ(prog->factory_name, "build_it");
  ASSERT_EQ(prog->factory_params.size(), 3u);
  EXPECT_EQ(prog->factory_params[0].var->name, "world_size");
  EXPECT_FALSE(prog->factory_params[0].default_value);
  EXPECT_EQ(ir::as_const_int(prog->factory_params[1].default_value), 4);
  EXPECT_TRUE(prog->factory_params[2].default_value);
  ASSERT_EQ(prog->factory_constants.size(), 2u);  // `handle = open(...)` is skipped
  EXPECT_EQ(prog->factory_constants[0].var->name, "ROWS");
  EXPECT_EQ(prog->factory_constants[1].var->name, "TILES");
  ASSERT_EQ(prog->functions.size(), 3u);
  EXPECT_EQ(prog->functions[0]->docstring, "Copies a to o.");
  EXPECT_EQ(prog->functions[0]->return_types.size(), 1u);
  EXPECT_EQ(prog->functions[2]->kind, ir::FunctionKind::Host);
  // The orchestrator's submit names the kernel through self.
  auto scope = prog->functions[1]->body.at(0)->as<ir::ManualScope>();
  ASSERT_TRUE(scope);
  auto assign = scope->body.at(0)->as<ir::Assign>();
  ASSERT_TRUE(assign);
  EXPECT_EQ(assign->targets.size(), 2u);
  auto submit = assign->value->as<ir::OpCall>();
  ASSERT_TRUE(submit);
  auto ref = submit->args.at(0)->as<ir::FuncRef>();
  ASSERT_TRUE(ref);
  EXPECT_TRUE(ref->via_self);
  EXPECT_EQ(ref->callee, "kernel");
  // The host's call carries device=r.
  auto loop = prog->functions[2]->body.at(0)->as<ir::For>();
  ASSERT_TRUE(loop);
  auto call = loop->body.at(0)->as<ir::ExprStmt>()->value->as<ir::FuncCall>();
  ASSERT_TRUE(call);
  EXPECT_TRUE(call->via_self);
  EXPECT_TRUE(call->device);
}

TEST(FrontendModule, JitFactoryUsesTheHostName) {
  auto p = parse_text(std::string(kImports) + R"(
def factory(world_size, n=64):
    N = n
)" + std::string(R"(
    @pl.jit.incore
    def kern(x: pl.Tensor[[1, N], pl.FP32]):
        pass

    @pl.jit.host
    def run_me(x: pl.Tensor[[world_size, 1, N], pl.FP32]):
        pass

    return run_me
)"));
  ASSERT_TRUE(p->module) << p->all_errors();
  ASSERT_EQ(p->module->programs.size(), 1u);
  EXPECT_EQ(p->module->programs[0]->name, "run_me");
  EXPECT_EQ(p->module->programs[0]->factory_name, "factory");
  EXPECT_EQ(p->module->programs[0]->functions.size(), 1u);  // kern is not reached from run_me
}

TEST(FrontendModule, SeveralProgramsInSourceOrder) {
  auto p = parse_text(std::string(kImports) + R"(
@pl.program
class First:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32]):
        pass

@pl.program
class Second:
    @pl.function(type=pl.FunctionType.AIC)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32]):
        pass
)");
  ASSERT_TRUE(p->module) << p->all_errors();
  ASSERT_EQ(p->module->programs.size(), 2u);
  EXPECT_EQ(p->module->programs[0]->name, "First");
  EXPECT_EQ(p->module->programs[0]->functions[0]->kind, ir::FunctionKind::AIV);
  EXPECT_EQ(p->module->programs[1]->functions[0]->kind, ir::FunctionKind::AIC);
}

TEST(FrontendModule, DefaultAliasesWithoutImports) {
  auto p = parse_text("@pl.jit.incore\ndef k(x: pl.Tensor[[1, 8], pl.FP32]):\n    pass\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  EXPECT_EQ(p->module->programs.size(), 1u);
}

}  // namespace
}  // namespace ptodist::frontend
