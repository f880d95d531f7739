// The sort and gather ops in PTO text: pto.tsort32, pto.tmrgsort (both formats), pto.tgather (the
// index and the mask form) and pto.tci, as PyPTO's backend writes them.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

bool FunctionEmitter::emit_sort_gather_op(const CallSite& site) {
  const OpCall& c = site.call;
  switch (c.op->id) {
    case OpId::Sort32: {
      // PyPTO's MakeSort32CodegenPTO: ins(src, idx) outs(dst).
      const TileRef* src = tile_of(c.arg("src"), c, "src");
      const TileRef* idx = tile_of(c.arg("idx"), c, "idx");
      const TileRef* out = result_tile(site);
      if (src && idx && out) line("pto.tsort32 " + ins_outs({src, idx}, "", "", *out));
      return true;
    }
    case OpId::MrgSort:
      emit_mrgsort(site);
      return true;
    case OpId::TileGather: {
      // PyPTO's tile.gather: pto.tgather ins(src, indices, tmp) outs(dst) (the index form).
      const TileRef* src = tile_of(c.arg("src"), c, "src");
      const TileRef* idx = tile_of(c.arg("indices"), c, "indices");
      const TileRef* tmp = tile_of(c.arg("tmp"), c, "tmp");
      const TileRef* out = result_tile(site);
      if (src && idx && tmp && out) line("pto.tgather " + ins_outs({src, idx, tmp}, "", "", *out));
      return true;
    }
    case OpId::TileGatherMask: {
      // PyPTO's MakeGatherMaskCodegenPTO: the pattern rides in ins() after the source, with "row".
      static const char* kPatterns[] = {"P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"};
      const TileRef* src = tile_of(c.arg("src"), c, "src");
      const TileRef* out = result_tile(site);
      auto p = as_const_int(c.arg("mask_pattern"));
      if (src && out && p && *p >= 1 && *p <= 7)
        line("pto.tgather ins(" + src->ssa + ", {maskPattern = #pto.mask_pattern<" + kPatterns[*p - 1] +
             ">} : " + src->type + ", \"row\") outs(" + out->ssa + " : " + out->type + ")");
      return true;
    }
    case OpId::Arange: {
      // PyPTO's tile.ci: pto.tci ins(start) outs(tile) {descending = ...} (its MakeCiCodegenPTO).
      const TileRef* out = result_tile(site);
      // arith constants are signless: a UINT32 ramp starts from an i32 (as PyPTO's scalar codegen
      // strips the `u`).
      std::string type = value_type(c.type->dtype);
      Value start = emit_scalar_as(c.arg("start"), type);
      const auto* desc = c.arg("descending") ? c.arg("descending")->as<BoolImm>() : nullptr;
      if (out && start.valid())
        line("pto.tci ins(" + start.ssa + " : " + type + ") outs(" + out->ssa + " : " + out->type +
             ") {descending = " + (desc && desc->value ? "true" : "false") + "}");
      return true;
    }
    default:
      return false;
  }
}

// PyPTO's MakeMrgSort1CodegenPTO (format1: ins(src, blockLen : T, i32)) and MakeMrgSortCodegenPTO
// (format2: the sources, then tmp with the exhausted attribute; outs(dst, executed) with the executed
// counts as a vector<4xi16> that nothing reads).
// The device's merge reads its sources while it writes the result, so they may not share a buffer
// (PyPTO's tile.mrgsort_format1 is not in-place safe). Plan-memory gives them one when a variable carries
// the merged row around a loop (`row = pl.tile.mrgsort(row, ...)`); PyPTO moves the result into the
// carried buffer instead, which ptodist does not write yet: a located error, not a wrong merge.
bool FunctionEmitter::merge_in_place(const OpCall& c, const TileRef& src, const TileRef& out,
                                     const char* operand) {
  const ir::TypeNode& a = *src.ir_type;
  const ir::TypeNode& b = *out.ir_type;
  if (a.addr < 0 || a.addr != b.addr || a.memory != b.memory) return false;
  fail(c.span, c.op->spelling + ": the result shares the buffer of '" + operand +
                   "' (a variable carries the merged row around a loop), and the device's merge cannot "
                   "run in place, and moving the result into the carried buffer (as PyPTO does) has no PTO "
                   "lowering yet");
  return true;
}

void FunctionEmitter::emit_mrgsort(const CallSite& site) {
  const OpCall& c = site.call;
  const TileRef* out = result_tile(site);
  const Expr& bl = c.arg("block_len");
  if (bl && !bl->isa<NoneImm>()) {
    const TileRef* src = tile_of(c.arg("src0"), c, "src0");
    if (src && out && merge_in_place(c, *src, *out, "src0")) return;
    Value len = emit_scalar_as(bl, "i32");
    if (src && out && len.valid())
      line("pto.tmrgsort ins(" + src->ssa + ", " + len.ssa + " : " + src->type + ", i32) outs(" + out->ssa +
           " : " + out->type + ")");
    return;
  }
  std::vector<const TileRef*> srcs;
  for (const char* s : {"src0", "src1", "src2", "src3"}) {
    const Expr& e = c.arg(s);
    if (!e || e->isa<NoneImm>()) continue;
    srcs.push_back(tile_of(e, c, s));
    if (!srcs.back() || (out && merge_in_place(c, *srcs.back(), *out, s))) return;
  }
  const TileRef* tmp = tile_of(c.arg("tmp"), c, "tmp");
  if (!tmp || !out) return;
  std::string executed = fresh("executed_vec");
  line(executed + " = arith.constant dense<0> : vector<4xi16>");
  std::string names, types;
  for (const TileRef* s : srcs) {
    names += s->ssa + ", ";
    types += s->type + ", ";
  }
  line("pto.tmrgsort ins(" + names + tmp->ssa + " {exhausted = false} : " + types + tmp->type + ") outs(" +
       out->ssa + ", " + executed + " : " + out->type + ", vector<4xi16>)");
}

}  // namespace ptodist::codegen::pto
