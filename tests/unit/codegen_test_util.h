// Helpers for PTO emitter unit tests: a kernel built statement by statement through ir::Builder, tiles at
// plan-memory style addresses, and text checks (needles in order, the line after a needle).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ir_test_util.h"
#include "ptodist/codegen/pto.h"

namespace ptodist::ir::testing {

// Builds one kernel statement by statement; tiles get plan-memory style addresses when asked.
class PtoTest : public IrTest {
 protected:
  std::vector<Param> params;
  Block body;
  std::vector<Block*> blocks{&body};

  Var param(const std::string& name, Type t, Direction d = Direction::In) {
    Var v = b.make_var(name, std::move(t));
    params.push_back({v, d});
    return v;
  }
  Expr ref(const Var& v) { return b.var_ref(v); }
  Type planned(Type t, long long addr) {
    auto n = std::make_shared<TypeNode>(*t);
    n->addr = addr;
    return n;
  }
  Var let(const std::string& name, Expr value, long long addr = -1) {
    EXPECT_TRUE(value) << first_error();
    Type t = value ? value->type : nullptr;
    if (t && t->kind == TypeKind::Tile && addr >= 0) t = planned(t, addr);
    Var v = b.make_var(name, t);
    auto a = std::make_shared<Assign>();
    a->targets = {v};
    a->value = value;
    blocks.back()->push_back(a);
    return v;
  }
  // Rebinds an existing variable (a loop-carried or branch-joined value).
  void set(const Var& v, Expr value) {
    EXPECT_TRUE(value) << first_error();
    auto a = std::make_shared<Assign>();
    a->targets = {v};
    a->value = value;
    blocks.back()->push_back(a);
  }
  // `for iv in pl.range(stop):` with the statements `fill(iv)` adds.
  template <typename Fn>
  void range(const std::string& iv, Expr stop, Fn fill) {
    auto f = std::make_shared<For>();
    f->iv = b.make_var(iv, scalar_type(DType::INT64));
    f->start = i(0);
    f->stop = stop;
    f->step = i(1);
    blocks.push_back(&f->body);
    fill(f->iv);
    blocks.pop_back();
    blocks.back()->push_back(f);
  }
  // `if cond: then_fill() else: else_fill()`.
  template <typename Fn, typename Gn>
  void branch(Expr cond, Fn then_fill, Gn else_fill) {
    auto s = std::make_shared<If>();
    s->cond = cond;
    blocks.push_back(&s->then_body);
    then_fill();
    blocks.back() = &s->else_body;
    else_fill();
    blocks.pop_back();
    blocks.back()->push_back(s);
  }
  void stmt(Expr value) {
    EXPECT_TRUE(value) << first_error();
    auto s = std::make_shared<ExprStmt>();
    s->value = value;
    blocks.back()->push_back(s);
  }
  Expr tile_of(std::vector<long long> shape, DType dt, const std::string& m = "Vec") {
    return call("pl.create_tile", {ints(shape), b.dtype_imm(dt)}, {{"target_memory", mem(m)}});
  }
  Program program(const std::string& name = "k", FunctionKind kind = FunctionKind::InCore) {
    auto f = std::make_shared<FunctionNode>();
    f->name = name;
    f->kind = kind;
    f->params = params;
    f->body = body;
    auto p = std::make_shared<ProgramNode>();
    p->name = "P";
    p->functions = {f};
    return p;
  }
  codegen::PtoResult emit(const Program& p) { return codegen::emit_pto(p, ChipProfile{}, diags); }
  std::string text(const Program& p) {
    codegen::PtoResult r = emit(p);
    EXPECT_TRUE(r.ok) << first_error();
    // PTO_DUMP=1 prints what a test saw, for writing new expectations.
    if (std::getenv("PTO_DUMP") && !r.kernels.empty()) std::cerr << r.kernels[0].text << r.manifest_json;
    return r.kernels.empty() ? "" : r.kernels[0].text;
  }

  // A put kernel: dst window, src tensor, one staging tile, the fence the fence pass places.
  Program put_kernel(bool with_fence = true) {
    Var dst = param("dst", dist_tensor_type(dims({1, 256}), DType::FP16), Direction::InOut);
    Var src = param("src", tensor_type(dims({1, 256}), DType::FP16));
    Var stage = let("stage", tile_of({1, 256}, DType::FP16), 0);
    stmt(call("pld.tile.put", {ref(dst), i(1), ref(src), ref(stage)}));
    if (with_fence) stmt(call("pl.system.fence", {}));
    return program();
  }
};

// Each needle found after the previous one.
inline ::testing::AssertionResult in_order(const std::string& text, const std::vector<std::string>& needles) {
  size_t at = 0;
  for (const std::string& n : needles) {
    size_t found = text.find(n, at);
    if (found == std::string::npos)
      return ::testing::AssertionFailure() << "missing (in order) '" << n << "' in:\n" << text;
    at = found + n.size();
  }
  return ::testing::AssertionSuccess();
}

inline size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The line that follows the first line containing `needle`.
inline std::string line_after(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  size_t start = text.find('\n', at) + 1;
  size_t end = text.find('\n', start);
  std::string l = text.substr(start, end - start);
  return l.substr(l.find_first_not_of(' '));
}

}  // namespace ptodist::ir::testing
