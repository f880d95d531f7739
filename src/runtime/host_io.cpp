// .npy files, seeded random data and zeros as host tensors for the host orchestrator's parameters.
#include "ptodist/runtime/host_io.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <random>

#include "ptodist/ir/functor.h"
#include "ptodist/kernels/tile.h"
#include "ptodist/runtime/host_dims.h"
#include "tile_math.h"

namespace ptodist::runtime {
namespace {

// Finds the dims of host parameters that the host orchestrator indexes by rank: `x[r]` with r a loop
// variable (dim 0), and `x[c, r]` passed to a call whose `device=` is that same r (the dim r stands
// in; the other indices pick a round or a group). A multi-index subscript counts only beside `device=`
// so that `out[g, r]` over a group's members does not claim the rank count.
class RankDimFinder : public ir::Walker {
 public:
  explicit RankDimFinder(const ir::FunctionNode& host) {
    for (const ir::Param& p : host.params) params_.insert(p.var->id);
  }
  void visit_stmt(const ir::Stmt& s) override {
    if (!s) return;
    if (const auto* f = s->as<ir::For>()) loop_vars_.insert(f->iv->id);
    Walker::visit_stmt(s);
  }
  void visit_expr(const ir::Expr& e) override {
    if (!e) return;
    if (const auto* call = e->as<ir::FuncCall>()) {
      const auto* device = call->device ? call->device->as<ir::VarRef>() : nullptr;
      int outer = device_;
      device_ = device && loop_vars_.count(device->var->id) ? device->var->id : -1;
      for (const ir::Expr& a : call->args) visit_expr(a);
      device_ = outer;
      if (call->device) visit_expr(call->device);
      return;
    }
    if (const auto* sub = e->as<ir::Subscript>()) note_subscript(*sub);
    Walker::visit_expr(e);
  }
  std::map<std::string, size_t> dims;
  std::set<std::string> sliced;  // the `x[r]` form: slice r is rank r's alone

 private:
  void note_subscript(const ir::Subscript& sub) {
    const auto* base = sub.value->as<ir::VarRef>();
    if (!base || !params_.count(base->var->id)) return;
    auto loop_var = [&](size_t k) {
      const auto* idx = sub.indices[k]->as<ir::VarRef>();
      return idx && loop_vars_.count(idx->var->id) ? idx->var->id : -1;
    };
    if (sub.indices.size() == 1 && loop_var(0) >= 0) {
      sliced.insert(base->var->name);
      dims.emplace(base->var->name, 0);
      return;
    }
    for (size_t k = 0; k < sub.indices.size(); ++k)
      if (device_ >= 0 && loop_var(k) == device_) dims.emplace(base->var->name, k);
  }
  std::set<int> params_;
  std::set<int> loop_vars_;
  int device_ = -1;  // the loop variable of the enclosing call's `device=`, or -1
};

std::optional<ir::DType> dtype_of_descr(const std::string& descr) {
  auto t = kernels::elem_type_from_npy_descr(descr);
  if (!t) return std::nullopt;
  for (ir::DType d :
       {ir::DType::FP32, ir::DType::FP16, ir::DType::BF16, ir::DType::INT32, ir::DType::INT16,
        ir::DType::INT8, ir::DType::UINT8, ir::DType::UINT32, ir::DType::INT64, ir::DType::BOOL})
    if (elem_type(d) == *t) return d;
  return std::nullopt;
}

struct Spec {
  std::string kind;  // "file", "rand", "zeros"
  std::string path;
  unsigned long long seed = 0;
};

std::string parse_spec(const std::string& text, std::string& name, Spec& spec) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return "--in '" + text + "': expected name=FILE.npy, name=rand:SEED or name=zeros";
  name = text.substr(0, eq);
  std::string v = text.substr(eq + 1);
  if (v == "zeros") {
    spec.kind = "zeros";
  } else if (v.rfind("rand:", 0) == 0) {
    spec.kind = "rand";
    std::string digits = v.substr(5);
    // stoull would take "-1" (as 2^64 - 1) and " 1"; only digits are a seed.
    bool ok = !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
    try {
      if (ok) spec.seed = std::stoull(digits);
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok) return "--in '" + text + "': the seed of rand:SEED must be an integer from 0 to 2^64 - 1";
  } else {
    spec.kind = "file";
    spec.path = v;
  }
  return "";
}

// The program's shape for `p` under the bound dims, or nullopt while a dim uses an unbound name.
std::optional<std::vector<long long>> shape_for(const ir::Param& p, const DimValues& dims) {
  std::vector<long long> out;
  for (const ir::Expr& d : p.var->type->shape) {
    auto v = eval_dim(d, dims);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

// A host tensor's bytes, checked: empty when its size overflows or exceeds the machine's memory.
std::string check_allocation(const std::string& name, ir::DType dtype, const std::vector<long long>& shape) {
  unsigned long long bytes = static_cast<unsigned long long>(ir::dtype_bytes(dtype));
  std::string dims;
  bool overflow = false;
  for (long long d : shape) {
    dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    overflow |= d < 0 || __builtin_mul_overflow(bytes, static_cast<unsigned long long>(d), &bytes);
  }
  const unsigned long long memory = machine_memory_bytes();
  if (!overflow && bytes <= memory) return "";
  return "host tensor '" + name + "' of shape [" + dims + "] needs " +
         (overflow ? std::string("more than 2^64") : std::to_string(bytes)) + " bytes, more than the " +
         std::to_string(memory) + " bytes of memory of this machine";
}

}  // namespace

unsigned long long machine_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return ~0ULL;
  return static_cast<unsigned long long>(pages) * static_cast<unsigned long long>(page);
}

std::map<std::string, size_t> rank_dims(const ir::FunctionNode& host) {
  RankDimFinder f(host);
  f.visit_function(std::make_shared<ir::FunctionNode>(host));
  return f.dims;
}

std::set<std::string> rank_sliced_params(const ir::FunctionNode& host) {
  RankDimFinder f(host);
  f.visit_function(std::make_shared<ir::FunctionNode>(host));
  return f.sliced;
}

bool host_tensor_from_npy(const NpyArray& a, HostTensor& out, std::string& error) {
  auto dt = dtype_of_descr(a.dtype_descr);
  if (!dt) {
    error = "unsupported .npy dtype '" + a.dtype_descr + "'";
    return false;
  }
  out.dtype = *dt;
  out.shape = a.shape;
  out.data.resize(a.data.size());
  std::memcpy(out.data.data(), a.data.data(), a.data.size());
  return true;
}

NpyArray npy_from_host_tensor(const HostTensor& t) {
  NpyArray a;
  a.dtype_descr = std::string(kernels::npy_descr(elem_type(t.dtype)));
  a.shape = t.shape;
  a.data.resize(t.data.size());
  std::memcpy(a.data.data(), t.data.data(), t.data.size());
  return a;
}

HostTensor random_tensor(ir::DType dtype, const std::vector<long long>& shape, unsigned long long seed,
                         const std::string& name) {
  HostTensor t = HostTensor::zeros(dtype, shape);
  std::mt19937_64 gen(seed * 0x9E3779B97F4A7C15ULL ^ std::hash<std::string>{}(name));
  int eb = ir::dtype_bytes(dtype);
  bool small = dtype == ir::DType::UINT8 || dtype == ir::DType::BOOL;
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> integer(small ? 0 : -8, small ? 1 : 7);
  for (long long i = 0; i < t.numel(); ++i) {
    double v = ir::dtype_is_float(dtype) ? real(gen) : integer(gen);
    store_element(t.data.data() + i * eb, dtype, v);
  }
  return t;
}

std::string prepare_host_args(const ir::FunctionNode& host, int ranks, const std::vector<std::string>& specs,
                              std::map<std::string, HostTensor>& out,
                              const std::vector<std::string>& dim_specs) {
  std::map<std::string, Spec> given;
  for (const std::string& text : specs) {
    std::string name;
    Spec spec;
    if (std::string why = parse_spec(text, name, spec); !why.empty()) return why;
    bool known = false;
    for (const ir::Param& p : host.params) known |= p.var->name == name;
    if (!known)
      return "--in '" + name + "': the host orchestrator '" + host.name + "' has no parameter of that name";
    if (!given.emplace(name, spec).second) return "--in '" + name + "' is given twice; give each input once";
  }
  DimValues dims;
  if (std::string why = parse_dim_specs(dim_specs, dims); !why.empty()) return why;
  for (const auto& [name, value] : dims) {
    bool used = false;
    for (const ir::Param& p : host.params)
      for (const std::string& n : dim_names(p)) used |= n == name;
    if (!used)
      return "--dim " + name + "=" + std::to_string(value) + ": no parameter of the host orchestrator '" +
             host.name + "' has a dim named " + name;
  }
  // Tensors given (in `out` already, or as files) first: they bind dynamic dims the generated inputs
  // then follow.
  std::map<std::string, std::vector<long long>> file_shapes;
  for (const auto& [name, t] : out) file_shapes[name] = t.shape;
  for (const ir::Param& p : host.params) {
    auto it = given.find(p.var->name);
    if (it == given.end() || it->second.kind != "file") continue;
    std::string err;
    auto a = read_npy(it->second.path, err);
    if (!a) return err;
    HostTensor t;
    if (!host_tensor_from_npy(*a, t, err)) return it->second.path + ": " + err;
    file_shapes[p.var->name] = t.shape;
    out[p.var->name] = std::move(t);
  }
  if (std::string why = bind_host_dims(host, file_shapes, dims); !why.empty()) return why;
  if (std::string why = bind_rank_dims(host, rank_dims(host), ranks, dims); !why.empty()) return why;
  for (const ir::Param& p : host.params) {
    const std::string& name = p.var->name;
    if (out.count(name)) continue;
    if (!p.var->type->is_tensor_like())
      return "host parameter '" + name + "' is not a tensor; only tensors can be passed";
    auto shape = shape_for(p, dims);
    if (!shape) {
      std::string unbound;
      for (const std::string& n : dim_names(p))
        if (!dims.count(n)) unbound += (unbound.empty() ? "" : ", ") + n;
      if (unbound.empty())
        return "cannot tell the shape of '" + name + "' (" + ir::type_str(p.var->type) +
               "): with the dims given, a dim divides by zero or does not fit in 64 bits";
      return "cannot tell the shape of '" + name + "' (" + ir::type_str(p.var->type) + "): no input binds " +
             unbound + "; pass it as a .npy file or give --dim " + unbound.substr(0, unbound.find(',')) +
             "=<value>";
    }
    if (std::string why = check_allocation(name, p.var->type->dtype, *shape); !why.empty()) return why;
    auto it = given.find(name);
    Spec spec =
        it != given.end() ? it->second : Spec{p.direction == ir::Direction::Out ? "zeros" : "rand", "", 0};
    out[name] = spec.kind == "zeros" ? HostTensor::zeros(p.var->type->dtype, *shape)
                                     : random_tensor(p.var->type->dtype, *shape, spec.seed, name);
  }
  return "";
}

// All or nothing: every file is written beside its final name first and renamed only once all are
// written, so a failure leaves no partial set of outputs behind.
std::string write_host_outputs(const ir::FunctionNode& host, const std::map<std::string, HostTensor>& args,
                               const std::string& dir) {
  if (dir.empty()) return "--out-dir: the directory name is empty";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot create output directory '" + dir + "': " + ec.message();
  std::vector<std::pair<std::string, std::string>> written;  // temporary, final
  auto discard = [&] {
    for (const auto& [tmp, final_path] : written) std::filesystem::remove(tmp, ec);
  };
  for (const ir::Param& p : host.params) {
    if (p.direction == ir::Direction::In) continue;
    auto it = args.find(p.var->name);
    if (it == args.end()) continue;
    std::string err;
    std::string path = (std::filesystem::path(dir) / (p.var->name + ".npy")).string();
    std::string tmp = (std::filesystem::path(dir) / ("." + p.var->name + ".npy.partial")).string();
    // A rename cannot replace a directory: found now, before anything is renamed.
    if (std::filesystem::is_directory(path, ec)) {
      discard();
      return "cannot write '" + path + "': it is a directory";
    }
    written.emplace_back(tmp, path);
    if (!write_npy(tmp, npy_from_host_tensor(it->second), err)) {
      discard();
      return path + ": " + err.substr(err.find(": ") == std::string::npos ? 0 : err.find(": ") + 2);
    }
  }
  for (const auto& [tmp, final_path] : written) {
    std::filesystem::rename(tmp, final_path, ec);
    if (ec) {
      discard();
      return "cannot write '" + final_path + "': " + ec.message();
    }
  }
  return "";
}

}  // namespace ptodist::runtime
