// The entry points of PTO code generation: one fresh emitter per kernel (a kernel that fails leaves
// nothing behind for the next), the combined text, and writing the .pto files and manifest to disk.
#include <filesystem>
#include <fstream>

#include "emitter.h"
#include "manifest.h"
#include "ptodist/codegen/pto.h"

namespace ptodist::codegen {

PtoResult emit_pto(const ir::Program& program, const ChipProfile& profile, DiagnosticEngine& diags) {
  PtoResult result;
  std::vector<pto::KernelInfo> infos;
  if (!program) {
    result.ok = false;
    return result;
  }
  const pto::GmPipeLayout gm_pipes = pto::gm_pipe_layout(*program);
  for (const ir::Function& f : program->functions) {
    if (!f || !ir::is_kernel(f->kind)) continue;
    pto::FunctionEmitter emitter(*f, profile, diags);
    emitter.gm_pipes = &gm_pipes;
    if (!emitter.emit()) {
      result.ok = false;
      continue;
    }
    result.kernels.push_back({f->name, emitter.text()});
    infos.push_back(emitter.info());
  }
  // A Group has no PTO of its own: the manifest says which kernels it launches together.
  std::vector<pto::GroupInfo> groups;
  for (const ir::Function& f : program->functions) {
    if (!f || f->kind != ir::FunctionKind::Group) continue;
    pto::GroupInfo g{f->name, {}};
    for (const ir::Stmt& s : f->body) {
      ir::Expr e = s->as<ir::Assign>()     ? s->as<ir::Assign>()->value
                   : s->as<ir::ExprStmt>() ? s->as<ir::ExprStmt>()->value
                                           : nullptr;
      if (const auto* call = e ? e->as<ir::FuncCall>() : nullptr) g.kernels.push_back(call->callee);
    }
    groups.push_back(std::move(g));
  }
  result.manifest_json = pto::manifest_json(program->name, profile, infos, groups);
  return result;
}

std::string pto_text(const PtoResult& result) {
  std::string out;
  for (const PtoKernel& k : result.kernels) out += "// kernel: " + k.name + "\n" + k.text;
  return out;
}

namespace {

bool write_file(const std::filesystem::path& path, const std::string& text, std::string* error) {
  std::ofstream os(path, std::ios::binary | std::ios::trunc);
  if (os) os << text;
  if (os) os.close();
  if (!os) {
    if (error) *error = "cannot write " + path.string();
    return false;
  }
  return true;
}

}  // namespace

bool write_pto(const PtoResult& result, const std::string& dir, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    if (error) *error = "cannot create directory " + dir + ": " + ec.message();
    return false;
  }
  std::filesystem::path base(dir);
  for (const PtoKernel& k : result.kernels)
    if (!write_file(base / (k.name + ".pto"), k.text, error)) return false;
  return write_file(base / "manifest.json", result.manifest_json, error);
}

}  // namespace ptodist::codegen
