// Functions (kernels and orchestrators), programs, and the module a kernel file defines.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ptodist/ir/stmt.h"

namespace ptodist::ir {

// The level a function runs at. InCore/AIC/AIV are kernels on one core (AIC: cube, AIV: vector;
// InCore leaves the choice to the compiler); Orchestration runs per chip; Host is the L3 orchestrator.
// A Group (PyPTO's FunctionType.Group) launches its AIC and AIV kernels together on one core cluster, so
// that they can talk through cross-core pipes; an orchestration calls it like a kernel.
enum class FunctionKind { InCore, AIC, AIV, Orchestration, Host, Group };

bool is_kernel(FunctionKind k);  // InCore, AIC or AIV
std::string_view function_kind_name(FunctionKind k);

enum class Direction { In, Out, InOut };

struct Param {
  Var var;
  Direction direction = Direction::In;
};

struct FunctionNode {
  std::string name;
  FunctionKind kind = FunctionKind::InCore;
  std::vector<Param> params;
  std::vector<Type> return_types;  // empty when not annotated
  Block body;
  SourceSpan span;        // the `def` line
  std::string docstring;  // kept so a dump reads like the source
  // A SubWorker (`@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)`): host Python with no
  // body here, run by the interpreter that embeds the runtime (the Python entry point) when the host
  // orchestrator calls it. Its kind is Host; it is never the program's host orchestrator.
  bool host_callback = false;
  // A kernel lower-collectives generated for a collective called from the host orchestrator: the name
  // of PyPTO's built-in it stands for ("builtin.tensor.allreduce__sum__fp32"), so the Python entry
  // point lays its PTO out where PyPTO puts that built-in (next_levels/<builtin>/). Empty otherwise.
  std::string builtin;
};
using Function = std::shared_ptr<const FunctionNode>;

// A named compile-time constant: `M_TILE = 128` at module level or inside a factory.
struct Constant {
  Var var;
  Expr value;
};

// A factory parameter: `def make_program(world_size, comm_cores=4)`. Bound by specialize.
struct FactoryParam {
  Var var;
  Expr default_value;  // null when none
};

enum class ProgramStyle { Class, Jit };

struct ProgramNode {
  std::string name;  // class name, or the host function's name in jit style
  ProgramStyle style = ProgramStyle::Class;
  std::string factory_name;  // empty when the program is not built by a factory
  std::vector<FactoryParam> factory_params;
  std::vector<Constant> factory_constants;  // constants defined inside the factory body
  std::vector<Function> functions;          // in source order
  SourceSpan span;

  Function find(std::string_view name) const;
};
using Program = std::shared_ptr<const ProgramNode>;

// Everything a kernel file defines.
struct ModuleNode {
  std::vector<std::pair<std::string, std::string>> imports;  // (module, alias): ("pypto.language", "pl")
  std::vector<Constant> constants;                           // module-level constants, in order
  std::vector<Program> programs;

  Program find(std::string_view name) const;
};
using Module = std::shared_ptr<const ModuleNode>;

}  // namespace ptodist::ir
