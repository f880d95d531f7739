// The Python entry point's way into the frontend: a kernel's source lines inside the user's file plus
// the values Python bound to the names it uses, instead of a whole file the frontend evaluates itself.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::frontend {

// A value the interpreter bound to a name: a Python int, float, bool, str or None, a path of the
// language ("pl.FP16", "pld.NotifyOp.Set": dtypes and enum members), or a tuple or list of these.
struct BoundValue {
  enum class Kind { Int, Float, Bool, String, None, Path, Tuple, List };
  Kind kind = Kind::None;
  long long int_value = 0;
  double float_value = 0;
  std::string text;               // String: its value; Path: the dotted path
  std::vector<BoundValue> items;  // Tuple, List
};

struct BoundSource {
  std::string path;                         // the user's module, as diagnostics name it
  std::string text;                         // its whole text, so lines and columns are the user's
  std::vector<std::pair<int, int>> ranges;  // the lines to compile (1-based, inclusive): decorators to end
  std::vector<std::pair<std::string, std::string>> imports;  // local name -> module ("pl", "pypto.language")
  std::vector<std::pair<std::string, BoundValue>> names;     // free names of the kernels and their values
  // The Python module's name, by which the other sources import its jit functions.
  std::string module;
  // Jit functions this source calls that another source defines: `from module import name as local`.
  struct JitImport {
    std::string module, name, local;
  };
  std::vector<JitImport> jit_imports;
  // The types Python gave the bare `pl.Tensor` parameters of jit functions (PyPTO's @pl.jit takes a
  // parameter's shape and dtype from the tensor passed at the call: ptodist/jit_shapes.py works them
  // out from the sample tensors through the calls, as PyPTO's specializer does).
  struct JitParamType {
    std::string function, param;
    std::vector<long long> shape;
    std::string dtype;  // "FP32"
  };
  std::vector<JitParamType> jit_param_types;
};

// The name of the parameterless factory a range indented inside a Python function is compiled in.
inline constexpr const char* kWrapperFactory = "__pypto_factory__";

// Parses the programs the ranges of `src` declare, with `names` as module-level constants. Every
// other line of the file is left out, so only the kernels are compiled and diagnostics point into the
// user's file at its own lines and columns. A range indented inside a function (a program built by a
// factory) is compiled as the body of a factory without parameters: the interpreter has bound them.
// A value that has no spelling in the language is a located error at the top of the first range.
// `modules` are the other files whose jit functions the kernels reach (PyPTO follows a jit function's
// callees through the globals of the module that defines it, into sibling modules): each is compiled
// the same way, with its own bound names, when a jit import names it.
// Returns null when any error was reported; the files live in `sources`.
ir::Module parse_bound_source(const BoundSource& src, SourceManager& sources, DiagnosticEngine& diags,
                              const std::vector<BoundSource>& modules = {});

// Whether `file` is the prelude of names a Python interpreter bound (a file parse_bound_source adds).
bool is_bound_names_file(const SourceFile* file);

// The Python spelling of a bound value ("(1, 2)", "pl.FP16", "'abc'"); "" when it has none (nan, inf).
std::string bound_value_spelling(const BoundValue& v);

}  // namespace ptodist::frontend
