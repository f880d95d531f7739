// convert-tensor-to-tile: gives tensor-level transfers (and, through tile_values.cpp, values) their
// tile-level form.
#include "ptodist/transforms/convert_tensor_to_tile.h"

#include <algorithm>

#include "ptodist/ir/op_table.h"
#include "rewrite_util.h"
#include "tile_matmul.h"
#include "tile_scratch.h"
#include "tile_values.h"

namespace ptodist::transforms {

using namespace ir;
using detail::OpMaker;
using detail::VarFactory;

namespace {

// Bytes of the DMA completion scratch a session keeps in UB (DESIGN.md §4): [1, 256] INT8.
constexpr long long kScratchCols = 256;
// Without chunk_rows, a staging tile is kept to at most this many bytes (a third of the a2a3 UB) by
// taking fewer rows, a divisor of the row count so every chunk is whole; the transfer loops over chunks.
constexpr long long kDefaultStageBytes = 64 * 1024;

long long fit_rows(long long rows, long long cols, int elem_bytes) {
  long long best = 1;
  for (long long r = 1; r <= rows; ++r)
    if (rows % r == 0 && r * cols * elem_bytes <= kDefaultStageBytes) best = r;
  return best;
}

class Converter {
 public:
  Converter(PassContext& cx, const Program& p, const Function& f)
      : cx_(cx), make_(cx.diags, p, f), vars_(p, f) {}

  Block convert(const Stmt& s) {
    const OpCall* c = detail::stmt_op_call(s);
    if (!c) return {s};
    switch (c->op->id) {
      case OpId::Put:
        return staged(s, *c, OpId::TilePut);
      case OpId::Get:
        return staged(s, *c, OpId::TileGet);
      case OpId::PutAsync:
        return async_transfer(s, *c, OpId::TilePutAsync);
      case OpId::GetAsync:
        return async_transfer(s, *c, OpId::TileGetAsync);
      case OpId::AsyncSession:
        return session(s, *c);
      default:
        return {s};
    }
  }

  bool failed() const { return failed_; }

 private:
  // The statement `s` with its top-level call replaced by `value`.
  Stmt replace_value(const Stmt& s, Expr value) {
    auto c = detail::copy_stmt(*s);
    if (auto* a = dynamic_cast<Assign*>(c.get()))
      a->value = std::move(value);
    else
      static_cast<ExprStmt*>(c.get())->value = std::move(value);
    return c;
  }

  Block fail() {
    failed_ = true;
    return {};
  }

  // The staging tile's [rows, cols]: the transfer flattened to [prod(leading dims), last dim], each
  // capped by chunk_rows / chunk_cols, so one tile holds one chunk of the copy.
  std::optional<std::pair<long long, long long>> stage_dims(const OpCall& c) {
    if (!c.arg("src") || !c.arg("src")->type) return std::nullopt;
    auto chunk_rows = c.arg("chunk_rows") ? as_const_int(c.arg("chunk_rows")) : std::nullopt;
    auto chunk_cols = c.arg("chunk_cols") ? as_const_int(c.arg("chunk_cols")) : std::nullopt;
    std::vector<Expr> dims;
    if (const std::vector<Expr>* shape = as_list(c.arg("shape")))
      dims = *shape;
    else if (c.arg("src") && c.arg("src")->type)
      dims = c.arg("src")->type->shape;
    long long rows = 1, cols = 1;
    bool known = !dims.empty();
    for (size_t i = 0; i < dims.size(); ++i) {
      auto d = as_const_int(dims[i]);
      if (!d)
        known = false;
      else if (i + 1 < dims.size())
        rows *= *d;
      else
        cols = *d;
    }
    if (!known) {
      if (chunk_rows && chunk_cols) return std::make_pair(*chunk_rows, *chunk_cols);
      cx_.diags.error(c.span, c.op->spelling +
                                  ": the transfer shape is not static, so its staging tile cannot be "
                                  "sized; pass shape= with constants, or chunk_rows= and chunk_cols=");
      return std::nullopt;
    }
    if (chunk_cols) cols = std::min(cols, *chunk_cols);
    if (chunk_rows)
      rows = std::min(rows, *chunk_rows);
    else
      rows = fit_rows(rows, cols, dtype_bytes(c.arg("src")->type->dtype));
    return std::make_pair(rows, cols);
  }

  // `name = pl.create_tile([rows, cols], dtype=dt, target_memory=pl.Mem.Vec)`.
  Var create_tile(Block& out, const std::string& name, long long rows, long long cols, DType dt,
                  SourceSpan span) {
    Expr value = make_.vec_tile({rows, cols}, dt, span);
    if (!value) return nullptr;
    Var v = vars_.make(name, value->type, span);
    out.push_back(detail::make_assign(v, value, span));
    return v;
  }

  bool pipelined(const OpCall& c) {
    auto* b = c.arg("pipeline") ? c.arg("pipeline")->as<BoolImm>() : nullptr;
    return b && b->value;
  }

  Block staged(const Stmt& s, const OpCall& c, OpId tile_op) {
    auto dims = stage_dims(c);
    Expr src = c.arg("src");
    if (!dims || !src || !src->type) return fail();
    Block out;
    Var stage = create_tile(out, "stage", dims->first, dims->second, src->type->dtype, c.span);
    Var stage2 = pipelined(c) ? create_tile(out, "stage", dims->first, dims->second, src->type->dtype, c.span)
                              : nullptr;
    if (!stage || (pipelined(c) && !stage2)) return fail();
    Expr call;
    Expr s2 = stage2 ? make_.ref(stage2, c.span) : nullptr;
    if (tile_op == OpId::TilePut) {
      call = make_.call(tile_op,
                        {{"dst", c.arg("dst")},
                         {"peer", c.arg("peer")},
                         {"src", src},
                         {"stage", make_.ref(stage, c.span)},
                         {"dst_offsets", c.arg("dst_offsets")},
                         {"src_offsets", c.arg("src_offsets")},
                         {"shape", c.arg("shape")},
                         {"atomic", c.arg("atomic")},
                         {"stage2", s2}},
                        c.span);
    } else {
      call = make_.call(tile_op,
                        {{"dst", c.arg("dst")},
                         {"peer", c.arg("peer")},
                         {"src", src},
                         {"stage", make_.ref(stage, c.span)},
                         {"dst_offsets", c.arg("dst_offsets")},
                         {"src_offsets", c.arg("src_offsets")},
                         {"shape", c.arg("shape")},
                         {"stage2", s2}},
                        c.span);
    }
    if (!call) return fail();
    out.push_back(replace_value(s, call));
    return out;
  }

  Block async_transfer(const Stmt& s, const OpCall& c, OpId tile_op) {
    Expr src = c.arg("src");
    // The DMA engine copies GM to GM: a tile lives in a core's UB, which the engine cannot read.
    if (src && src->type && src->type->kind == TypeKind::Tile) {
      cx_.diags.error(src->span.valid() ? src->span : c.span,
                      c.op->spelling +
                          ": 'src' is a computed tile, but the DMA engine copies GM to GM; store the "
                          "tile to a Tensor or DistributedTensor first and put from there");
      return fail();
    }
    Expr call = make_.call(tile_op,
                           {{"dst", c.arg("dst")},
                            {"peer", c.arg("peer")},
                            {"src", src},
                            {"session", c.arg("session")},
                            {"dst_offsets", c.arg("dst_offsets")},
                            {"src_offsets", c.arg("src_offsets")},
                            {"shape", c.arg("shape")}},
                           c.span);
    if (!call) return fail();
    return {replace_value(s, call)};
  }

  Block session(const Stmt& s, const OpCall& c) {
    Block out;
    Var scratch = create_tile(out, "scratch", 1, kScratchCols, DType::INT8, c.span);
    if (!scratch) return fail();
    Expr call = make_.call(OpId::TileAsyncSession,
                           {{"scratch", make_.ref(scratch, c.span)},
                            {"sync_id", c.arg("sync_id")},
                            {"block_bytes", c.arg("block_bytes")}},
                           c.span);
    if (!call) return fail();
    out.push_back(replace_value(s, call));
    return out;
  }

  PassContext& cx_;
  OpMaker make_;
  VarFactory vars_;
  bool failed_ = false;
};

}  // namespace

Program convert_tensor_to_tile(const Program& p, PassContext& cx) {
  return detail::map_kernels(p, [&](const Function& kernel) -> Function {
    Function values = detail::convert_tile_values(p, detail::convert_tile_matmuls(p, kernel, cx), cx);
    if (!values) return nullptr;
    Function f = detail::convert_tile_scratch(p, values, cx);
    Converter conv(cx, p, f);
    Block body = detail::map_blocks(f->body, [&](const Stmt& s) { return conv.convert(s); });
    return conv.failed() ? nullptr : detail::with_body(f, std::move(body));
  });
}

}  // namespace ptodist::transforms
