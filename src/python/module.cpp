// `_ptodist_core`: the C++ library as a Python extension. Python evaluates the user's module and hands
// over a kernel's source lines and the values of the names it uses (frontend/bound_source.h); this
// module compiles that into a program, runs it on N in-process ranks over the caller's own buffers
// (numpy arrays, torch tensors: no copy) and raises the compiler's and the runtime's reports as
// exceptions. The `ptodist` and `pypto` Python packages (python/) are the user-facing layer on top.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "ptodist/codegen/pto.h"
#include "ptodist/frontend/bound_source.h"
#include "ptodist/ir/functor.h"
#include "ptodist/runtime/l2_entry.h"
#include "ptodist/runtime/mpi.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/transforms/pass.h"

namespace py = pybind11;

namespace ptodist::python {

namespace {

// Raised as the Python classes registered below; the message is the located report.
struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct HazardError : RunError {
  using RunError::RunError;
};
struct HangError : RunError {
  using RunError::RunError;
};

std::string diagnostics_text(const DiagnosticEngine& diags) {
  std::ostringstream os;
  diags.print(os);
  std::string s = os.str();
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

frontend::BoundValue bound_value(const py::handle& v, const std::string& name) {
  using K = frontend::BoundValue::Kind;
  frontend::BoundValue out;
  if (v.is_none()) {
    out.kind = K::None;
  } else if (py::isinstance<py::bool_>(v)) {
    out.kind = K::Bool;
    out.int_value = v.cast<bool>();
  } else if (py::isinstance<py::int_>(v)) {
    out.kind = K::Int;
    out.int_value = v.cast<long long>();
  } else if (py::isinstance<py::float_>(v)) {
    out.kind = K::Float;
    out.float_value = v.cast<double>();
  } else if (py::isinstance<py::str>(v)) {
    out.kind = K::String;
    out.text = v.cast<std::string>();
  } else if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
    out.kind = py::isinstance<py::tuple>(v) ? K::Tuple : K::List;
    for (const py::handle& item : v) out.items.push_back(bound_value(item, name));
  } else if (py::hasattr(v, "__ptodist_path__")) {
    out.kind = K::Path;
    out.text = v.attr("__ptodist_path__").cast<std::string>();
  } else {
    throw py::type_error("'" + name + "' is bound to a value of type " +
                         py::str(py::type::of(v).attr("__name__")).cast<std::string>() +
                         ", which a kernel cannot use");
  }
  return out;
}

// A numpy view of a tensor in host memory (no copy), for a SubWorker: BF16, which numpy lacks, is
// viewed as uint16 and reinterpreted by the Python side.
py::array array_of(const runtime::TensorView& t) {
  static const std::map<ir::DType, const char*> formats = {
      {ir::DType::FP32, "f4"},  {ir::DType::FP16, "f2"},  {ir::DType::BF16, "u2"},  {ir::DType::INT32, "i4"},
      {ir::DType::INT16, "i2"}, {ir::DType::INT8, "i1"},  {ir::DType::UINT8, "u1"}, {ir::DType::INT64, "i8"},
      {ir::DType::BOOL, "?"},   {ir::DType::UINT32, "u4"}};
  auto it = formats.find(t.dtype);
  if (it == formats.end())
    throw RunError("a SubWorker cannot take a tensor of dtype " + std::string(ir::dtype_name(t.dtype)));
  const long long bytes = ir::dtype_bytes(t.dtype);
  std::vector<py::ssize_t> shape(t.shape.begin(), t.shape.end()), strides;
  for (long long s : t.strides) strides.push_back(static_cast<py::ssize_t>(s * bytes));
  // The base keeps a computed tensor's storage alive as long as the array (null for host tensors).
  auto* keep = new std::shared_ptr<std::byte[]>(t.storage);
  py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<std::byte[]>*>(p); });
  return py::array(py::dtype(it->second), shape, strides, t.data, base);
}

// The names of the functions a function calls, or passes by reference (pl.spmd_submit).
struct Callees : ir::Walker {
  std::set<std::string> names;
  void visit_expr(const ir::Expr& e) override {
    if (const auto* c = e->as<ir::FuncCall>()) names.insert(c->callee);
    if (const auto* r = e->as<ir::FuncRef>()) names.insert(r->callee);
    ir::Walker::visit_expr(e);
  }
};

// One compiled program and its runtime, kept across calls (windows are zeroed between rounds). The
// sources stay alive with it: every IR node's span, and so every run-time report, points into them.
class Compiled {
 public:
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Module module;
  ir::Program lowered;
  ChipProfile profile;
  runtime::RunOptions options;
  std::unique_ptr<runtime::Runtime> rt;

  std::string entry_error;             // set when the program needs a chip orchestration chosen to run
  runtime::MpiBackend* mpi = nullptr;  // the MPI backend: this process runs one rank (docs/mpi.md)
  // Runs a SubWorker: callback(name, [numpy views of its tensors]); an exception it raises ends the
  // round and is raised again, as it is, from run().
  py::object callback;
  std::optional<py::error_already_set> callback_error;

  std::string run_callback(const ir::FunctionNode& fn, const std::vector<runtime::TensorView>& args) {
    py::gil_scoped_acquire gil;
    try {
      py::list arrays;
      for (const runtime::TensorView& t : args) arrays.append(array_of(t));
      callback(fn.name, arrays);
      return "";
    } catch (py::error_already_set& e) {
      std::string what = e.what();
      callback_error = std::move(e);
      return "SubWorker '" + fn.name + "' raised " + what.substr(0, what.find('\n'));
    } catch (const std::exception& e) {
      return "SubWorker '" + fn.name + "': " + e.what();
    }
  }

  std::string name() const { return lowered->name; }

  // The chip orchestrations of a program without a host orchestrator, in program order.
  std::vector<std::string> orchestrations() const {
    std::vector<std::string> out;
    for (const ir::Function& f : lowered->functions) {
      if (f->kind == ir::FunctionKind::Host && !f->host_callback) return {};
      if (f->kind == ir::FunctionKind::Orchestration) out.push_back(f->name);
    }
    return out;
  }

  // (PyPTO's built-in name, generated kernel) of each collective the host orchestrator calls
  // (FunctionNode::builtin), in program order; one per built-in variant, as PyPTO builds each once.
  std::vector<std::pair<std::string, std::string>> builtins() const {
    std::vector<std::pair<std::string, std::string>> out;
    std::set<std::string> seen;
    for (const ir::Function& f : lowered->functions)
      if (!f->builtin.empty() && seen.insert(f->builtin).second) out.emplace_back(f->builtin, f->name);
    return out;
  }

  // (name, dtype, shape, direction) of each host parameter; a dynamic dim is its expression's text.
  py::list params() const {
    py::list out;
    const ir::FunctionNode* host = rt ? rt->host_function() : nullptr;
    if (!host) return out;
    for (const ir::Param& p : host->params) {
      py::list shape;
      for (const ir::Expr& d : p.var->type->shape) {
        if (auto v = ir::as_const_int(d))
          shape.append(*v);
        else
          shape.append(py::none());
      }
      const char* dir = p.direction == ir::Direction::In    ? "in"
                        : p.direction == ir::Direction::Out ? "out"
                                                            : "inout";
      out.append(py::make_tuple(p.var->name, std::string(ir::dtype_name(p.var->type->dtype)), shape, dir));
    }
    return out;
  }

  // How many values the function the program is called through returns (PyPTO's
  // CompiledProgram.has_return): the host orchestrator, or for an L2 program the chip orchestration its
  // generated host calls; its annotated results, or unannotated (a @pl.jit function's `return c`) what
  // its return statement gives.
  size_t results() const {
    const ir::FunctionNode* fn = rt ? rt->host_function() : nullptr;
    if (!fn) return 0;
    const auto* only = fn->body.size() == 1 ? fn->body[0]->as<ir::ExprStmt>() : nullptr;
    const auto* call = only && only->value ? only->value->as<ir::FuncCall>() : nullptr;
    if (call && fn->name == "host_of_" + call->callee)  // runtime::with_l2_entry's host
      for (const ir::Function& f : lowered->functions)
        if (f->name == call->callee) fn = f.get();
    if (!fn->return_types.empty()) return fn->return_types.size();
    struct Returns : ir::Walker {
      size_t values = 0;
      void visit_stmt(const ir::Stmt& s) override {
        if (const auto* r = s->as<ir::Return>()) values = std::max(values, r->values.size());
        ir::Walker::visit_stmt(s);
      }
    } returns;
    returns.visit_block(fn->body);
    return returns.values;
  }

  // (address, dtype name, shape) per host parameter, in order, each dense row-major memory the caller
  // keeps alive.
  using Buffers = std::vector<std::tuple<uintptr_t, std::string, std::vector<long long>>>;

  // The runtime's host arguments over the caller's memory, by address (no copy).
  std::map<std::string, runtime::HostTensor> host_args(const ir::FunctionNode*& host,
                                                       const Buffers& buffers) {
    if (!rt) throw RunError(entry_error);
    host = rt->host_function();
    if (!host)
      throw RunError("program '" + name() + "' has no host orchestrator (level=pl.Level.HOST) to run");
    if (buffers.size() != host->params.size())
      throw py::type_error("program '" + name() + "' takes " + std::to_string(host->params.size()) +
                           " tensors, got " + std::to_string(buffers.size()));
    std::map<std::string, runtime::HostTensor> args;
    for (size_t i = 0; i < buffers.size(); ++i) {
      const auto& [addr, dtype, shape] = buffers[i];
      runtime::HostTensor t;
      auto dt = ir::dtype_from_name(dtype);
      if (!dt) throw py::type_error("unsupported dtype '" + dtype + "'");
      t.dtype = *dt;
      t.shape = shape;
      t.external = reinterpret_cast<std::byte*>(addr);
      args.emplace(host->params[i].var->name, std::move(t));
    }
    return args;
  }

  // Runs `rounds` rounds over `buffers` back to back from C++, with no Python between them (as the
  // command line's `ptodist bench` does): the wall time of each round around Runtime::run, and the
  // runtime's own figure, in seconds. For bench/python_overhead.py: the same run, from C++, in the
  // same process and at the same moment as the Python calls it is compared with. Fast mode, no
  // SubWorker methods, in-process ranks.
  py::tuple run_rounds(const Buffers& buffers, int rounds) {
    const ir::FunctionNode* host = nullptr;
    std::map<std::string, runtime::HostTensor> args = host_args(host, buffers);
    if (mpi || callback) throw py::value_error("run_rounds times in-process runs without SubWorker methods");
    std::vector<double> wall, inner;
    std::string error;
    {
      py::gil_scoped_release release;
      for (int i = 0; i < rounds && error.empty(); ++i) {
        auto t0 = std::chrono::steady_clock::now();
        runtime::RoundResult r = rt->run(args);
        wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        inner.push_back(r.seconds);
        if (r.status != runtime::RoundResult::Status::Ok) error = r.message;
      }
    }
    if (!error.empty()) throw RunError(error);
    return py::make_tuple(wall, inner);
  }

  // Runs one round over `buffers`. Returns (seconds, per-rank seconds, digest).
  py::tuple run(const Buffers& buffers) {
    const ir::FunctionNode* host = nullptr;
    std::map<std::string, runtime::HostTensor> args = host_args(host, buffers);
    runtime::RoundResult r;
    callback_error.reset();
    // MPI: an output not sliced by rank is merged from what each process changed in the round.
    std::map<std::string, runtime::HostTensor> before;
    if (mpi) before = owned_outputs(*host, args);
    {
      py::gil_scoped_release release;
      r = rt->run(args);
    }
    if (callback_error) {
      py::error_already_set e = std::move(*callback_error);
      callback_error.reset();
      throw e;
    }
    using S = runtime::RoundResult::Status;
    if (r.status == S::Error) throw RunError(r.message);
    if (r.status == S::Hazard) throw HazardError(r.message);
    if (r.status == S::Hang) throw HangError(r.message);
    if (mpi) gather_outputs(*host, args, before);
    return py::make_tuple(r.seconds, r.rank_seconds, r.schedule_digest);
  }

  // Owned copies of the Out/InOut tensors of `args` (the MPI gather works on owned host buffers).
  static std::map<std::string, runtime::HostTensor> owned_outputs(
      const ir::FunctionNode& host, const std::map<std::string, runtime::HostTensor>& args) {
    std::map<std::string, runtime::HostTensor> owned;
    for (const ir::Param& p : host.params) {
      if (p.direction == ir::Direction::In) continue;
      const runtime::HostTensor& t = args.at(p.var->name);
      runtime::HostTensor copy = runtime::HostTensor::zeros(t.dtype, t.shape);
      std::memcpy(copy.data.data(), t.external, copy.data.size());
      owned.emplace(p.var->name, std::move(copy));
    }
    return owned;
  }

  // MPI: each process computed its own rank's share of the outputs; rank 0 collects slice r of every
  // rank-sliced output from process r (other outputs element by element from the rank that changed
  // them), into the caller's tensors, through owned copies (the only copies on this path).
  void gather_outputs(const ir::FunctionNode& host, std::map<std::string, runtime::HostTensor>& args,
                      const std::map<std::string, runtime::HostTensor>& before) {
    std::map<std::string, runtime::HostTensor> owned = owned_outputs(host, args);
    std::string why;
    {
      py::gil_scoped_release release;
      why = runtime::gather_host_outputs(*mpi, host, owned, before);
    }
    if (!why.empty()) throw RunError(why);
    for (auto& [name, t] : owned) std::memcpy(args.at(name).external, t.data.data(), t.data.size());
  }

  // The kernels `root` reaches through calls, transitively (what a chip orchestration's sub-build
  // holds in PyPTO's next_levels/<orchestration>/ layout).
  std::vector<std::string> kernels_reached(const std::string& root) const {
    std::set<std::string> seen{root};
    std::vector<std::string> work{root}, kernels;
    while (!work.empty()) {
      ir::Function f = lowered->find(work.back());
      work.pop_back();
      if (!f) continue;
      if (ir::is_kernel(f->kind)) kernels.push_back(f->name);
      Callees callees;
      callees.visit_function(f);
      for (const std::string& n : callees.names)
        if (seen.insert(n).second) work.push_back(n);
    }
    return kernels;
  }

  // Writes the PTO text of every kernel (of those named in `only`, when given) and the manifest to `dir`.
  void write_pto(const std::string& dir, const std::optional<std::vector<std::string>>& only) {
    DiagnosticEngine d;
    ir::Program program = lowered;
    if (only) {
      auto subset = std::make_shared<ir::ProgramNode>(*lowered);
      std::erase_if(subset->functions, [&](const ir::Function& f) {
        return ir::is_kernel(f->kind) && std::find(only->begin(), only->end(), f->name) == only->end();
      });
      program = subset;
    }
    codegen::PtoResult res = codegen::emit_pto(program, profile, d);
    if (d.has_errors() || !res.ok) throw CompileError(diagnostics_text(d));
    std::string error;
    if (!codegen::write_pto(res, dir, &error)) throw RunError(error);
  }
};

// One source Python hands over: (module, path, text, ranges, imports, names, jit imports, jit parameter
// types), where a jit import is (module, name, local) of a jit function that another of the sources
// defines, and a jit parameter type (function, parameter, shape, dtype name) the type of a bare
// `pl.Tensor` parameter (ptodist/jit_shapes.py).
using SourceTuple =
    std::tuple<std::string, std::string, std::string, std::vector<std::pair<int, int>>, py::dict, py::dict,
               std::vector<std::tuple<std::string, std::string, std::string>>,
               std::vector<std::tuple<std::string, std::string, std::vector<long long>, std::string>>>;

frontend::BoundSource bound_source(const SourceTuple& t) {
  const auto& [module, path, text, ranges, imports, names, jit_imports, jit_types] = t;
  frontend::BoundSource src{path, text, ranges, {}, {}, module, {}, {}};
  for (auto [k, v] : imports) src.imports.emplace_back(k.cast<std::string>(), v.cast<std::string>());
  for (auto [k, v] : names) {
    std::string n = k.cast<std::string>();
    src.names.emplace_back(n, bound_value(v, n));
  }
  for (const auto& [m, name, local] : jit_imports) src.jit_imports.push_back({m, name, local});
  for (const auto& [fn, param, shape, dtype] : jit_types) {
    if (!ir::dtype_from_name(dtype))
      throw py::value_error("jit parameter type of " + fn + "." + param + ": unknown dtype " + dtype);
    src.jit_param_types.push_back({fn, param, shape, dtype});
  }
  return src;
}

// The MPI backend for a run of `ranks` ranks: this process is one of mpirun's -np processes.
runtime::MpiBackend* start_mpi(int ranks, const std::string& mode) {
  if (mode == "check")
    throw py::value_error("check mode runs every rank in one process; it cannot use the MPI backend");
  if (!runtime::launched_by_mpi())
    throw py::value_error(
        "the MPI backend runs one rank per MPI process: launch the script as 'mpirun -np N python3 ...'");
  std::string error;
  runtime::MpiBackend* mpi = runtime::MpiBackend::start(&error);
  if (!mpi) throw py::value_error("the MPI backend: " + error);
  if (mpi->size() != ranks)
    throw py::value_error("the program runs " + std::to_string(ranks) + " ranks but mpirun started " +
                          std::to_string(mpi->size()) + " processes; with the MPI backend they must agree");
  return mpi;
}

ir::Program choose(const ir::Module& m, const std::string& program) {
  for (const ir::Program& p : m->programs)
    if (p && p->name == program) return p;
  std::string names;
  for (const ir::Program& p : m->programs) names += (names.empty() ? "" : ", ") + p->name;
  throw CompileError("no program named '" + program + "' in the source handed over (found: " + names + ")");
}

// Compiles `program` from `sources` (the first holds it; the others are files its jit functions reach).
std::unique_ptr<Compiled> compile(const std::vector<SourceTuple>& sources, const std::string& program,
                                  int ranks, const std::string& mode, uint64_t seed, double watchdog,
                                  const std::string& profile_name, const std::string& entry, bool persistent,
                                  const py::object& callback, const std::string& backend) {
  if (ranks < 1 || ranks > 4096) throw py::value_error("the rank count must be from 1 to 4096");
  if (mode != "fast" && mode != "check") throw py::value_error("mode must be 'fast' or 'check'");
  if (backend != "inproc" && backend != "mpi") throw py::value_error("backend must be 'inproc' or 'mpi'");
  runtime::MpiBackend* mpi = nullptr;
  if (backend == "mpi") mpi = start_mpi(ranks, mode);
  if (mpi && !callback.is_none())
    throw py::value_error("SubWorker methods run only on the in-process backend, not on the MPI backend");
  auto c = std::make_unique<Compiled>();
  if (sources.empty()) throw py::value_error("no source to compile");
  frontend::BoundSource src = bound_source(sources.front());
  std::vector<frontend::BoundSource> modules;
  for (size_t i = 1; i < sources.size(); ++i) modules.push_back(bound_source(sources[i]));
  std::string error;
  const char* env = std::getenv("PTODIST_PROFILE_DIR");
  auto profile = load_profile(profile_name, &error, env ? env : PTODIST_PROFILE_DIR);
  if (!profile) throw py::value_error(error);
  c->profile = *profile;
  {
    py::gil_scoped_release release;
    c->module = frontend::parse_bound_source(src, c->sources, c->diags, modules);
  }
  if (!c->module) throw CompileError(diagnostics_text(c->diags));
  ir::Program p = choose(c->module, program);
  transforms::PassContext cx{.diags = c->diags, .profile = c->profile, .bindings = {}, .module = c->module};
  cx.bindings["world_size"] = ranks;
  {
    py::gil_scoped_release release;
    c->lowered = transforms::run_pipeline(p, cx);
  }
  if (!c->lowered || c->diags.has_errors()) throw CompileError(diagnostics_text(c->diags));
  ir::Program runnable = runtime::with_l2_entry(c->lowered, entry, error);
  if (!runnable) {
    // An L2 program of several chip orchestrations runs one chosen by name (PyPTO's compiled["name"]):
    // it stays compiled, and a run without a choice says so.
    if (!entry.empty() || c->orchestrations().size() < 2) throw CompileError(error);
    c->entry_error = error;
    return c;
  }
  c->lowered = runnable;
  c->options.ranks = ranks;
  c->options.profile = c->profile;
  c->options.watchdog_seconds = watchdog;
  c->options.mode = mode == "check" ? runtime::RunOptions::Mode::Check : runtime::RunOptions::Mode::Fast;
  c->options.seed = seed;
  c->options.persistent = persistent;
  if (mpi) {
    c->mpi = mpi;
    c->options.make_transport = [mpi] { return mpi->make_transport(); };
  }
  if (!callback.is_none()) {
    c->callback = callback;
    Compiled* self = c.get();
    c->options.host_callback = [self](const ir::FunctionNode& fn, const std::vector<runtime::TensorView>& a) {
      return self->run_callback(fn, a);
    };
  }
  c->rt = std::make_unique<runtime::Runtime>(c->lowered, c->options);
  return c;
}

}  // namespace

}  // namespace ptodist::python

PYBIND11_MODULE(_ptodist_core, m) {
  using namespace ptodist::python;
  m.doc() = "ptodist's compiler and runtime (use the ptodist and pypto packages)";
  py::object compile_error = py::register_exception<CompileError>(m, "CompileError");
  py::object run_error = py::register_exception<RunError>(m, "RunError");
  py::register_exception<HazardError>(m, "HazardError", run_error);
  py::register_exception<HangError>(m, "HangError", run_error);
  (void)compile_error;
  py::class_<Compiled>(m, "Compiled")
      .def_property_readonly("name", &Compiled::name)
      .def_property_readonly("ranks", [](const Compiled& c) { return c.options.ranks; })
      .def("params", &Compiled::params)
      .def("results", &Compiled::results)
      .def("orchestrations", &Compiled::orchestrations)
      .def("builtins", &Compiled::builtins)
      .def("run", &Compiled::run)
      .def("run_rounds", &Compiled::run_rounds, py::arg("buffers"), py::arg("rounds"))
      .def("kernels_reached", &Compiled::kernels_reached)
      .def("write_pto", &Compiled::write_pto, py::arg("dir"), py::arg("only") = py::none());
  m.def("compile", &compile, py::arg("sources"), py::arg("program"), py::arg("ranks") = 2,
        py::arg("mode") = "fast", py::arg("seed") = 1, py::arg("watchdog") = 10.0,
        py::arg("profile") = "a2a3", py::arg("entry") = "", py::arg("persistent") = false,
        py::arg("callback") = py::none(), py::arg("backend") = "inproc");
  m.def("mpi_rank", [] {
    ptodist::runtime::MpiBackend* mpi = ptodist::runtime::MpiBackend::get();
    return mpi ? mpi->rank() : -1;
  });
  m.def("bound_value_spelling",
        [](const py::handle& v) { return ptodist::frontend::bound_value_spelling(bound_value(v, "value")); });
}
