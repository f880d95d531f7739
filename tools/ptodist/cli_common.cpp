// Shared CLI helpers: file loading, -D bindings, program choice, pass contexts and error conventions.
#include "cli_common.h"

#include <cctype>
#include <charconv>
#include <filesystem>
#include <iostream>

#include "ptodist/frontend/parser.h"

namespace ptodist::cli {

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string program_names(const ir::Module& m) {
  std::string out;
  for (const ir::Program& p : m->programs)
    if (p) out += (out.empty() ? "" : ", ") + p->name;
  return out;
}

std::string factory_param_names(const ir::ProgramNode& p) {
  std::string out;
  for (const ir::FactoryParam& fp : p.factory_params)
    if (fp.var) out += (out.empty() ? "" : ", ") + fp.var->name;
  return out;
}

}  // namespace

// The names PyPTO's distributed programs give the factory parameter that sets the rank count
// (`n_ranks` in its tests and examples; `world_size` after pld.world_size()).
bool is_rank_count_name(const std::string& name) {
  return name == "world_size" || name == "n_ranks" || name == "nranks" || name == "num_ranks";
}

void usage_error(const std::string& message) {
  std::cerr << "ptodist: error: " << one_line(message) << "\n";
  exit_with(kExitUsage);
}

// CLI11 hands a RuntimeError's code back from app.exit() without printing anything.
void exit_with(int code) {
  throw CLI::RuntimeError(code);
}

void add_program_options(CLI::App* sub, ProgramOptions& o) {
  sub->add_option("file", o.file, "kernel file (.py, PyPTO syntax)")->required();
  sub->add_option("--program", o.program,
                  "use only this program (default: every program of the file in turn; bench needs one)");
  sub->add_option(
         "-D", o.defines,
         "bind a factory parameter: -D name=value (an integer, a dtype such as pl.FP16 or an enum member)")
      ->allow_extra_args(false)
      ->type_name("NAME=VALUE");
  sub->add_option("--ranks", o.ranks,
                  "number of ranks; binds the factory parameter world_size, n_ranks, nranks or num_ranks")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            // CLI11's PositiveNumber prints its bound, DBL_MAX, in 309 digits: say what is allowed.
            constexpr long long kMaxRanks = 4096;
            long long n = 0;
            size_t used = 0;
            try {
              n = std::stoll(v, &used);
            } catch (const std::exception&) {
              used = 0;
            }
            if (used == 0 || used != v.size() || n < 1 || n > kMaxRanks)
              return "expected a rank count from 1 to " + std::to_string(kMaxRanks) + ", got '" + v + "'";
            return "";
          },
          "N"))
      ->capture_default_str();
}

namespace {

// `pl.FP16`, `pld.ReduceOp.Max`: a dotted name, bound by the parser rather than by specialize.
bool is_symbolic_define(const std::string& text) {
  return !text.empty() && std::isalpha(static_cast<unsigned char>(text[0])) &&
         text.find('.') != std::string::npos;
}

}  // namespace

std::unique_ptr<LoadedFile> load_file(const std::string& path, const std::vector<std::string>& defines,
                                      const std::string& program) {
  auto lf = std::make_unique<LoadedFile>();
  std::string error;
  std::error_code ec;
  // An ifstream opens a directory and reads nothing; say what is wrong instead of "no program".
  if (std::filesystem::is_directory(path, ec))
    usage_error("'" + path + "' is a directory, not a kernel file");
  lf->file = lf->sources.load(path, &error);
  if (!lf->file) usage_error(error.empty() ? "cannot read '" + path + "'" : error);
  frontend::ConstantDefines symbolic;
  symbolic.only_program = program;
  for (const std::string& d : defines)
    if (size_t eq = d.find('='); eq != std::string::npos && is_symbolic_define(d.substr(eq + 1)))
      symbolic.values[d.substr(0, eq)] = d.substr(eq + 1);
  lf->module = frontend::parse_module(*lf->file, lf->diags, &lf->sources, &symbolic);
  if (!symbolic.error.empty()) usage_error(symbolic.error);
  for (const std::string& d : defines) {  // an integer for a dtype or enum parameter
    std::string name = d.substr(0, d.find('='));
    auto it = symbolic.non_integer.find(name);
    if (it != symbolic.non_integer.end() && !symbolic.integer.count(name) && !symbolic.values.count(name))
      usage_error("-D " + d + ": " + it->second);
  }
  for (const auto& [name, value] : symbolic.values)
    if (lf->module && !symbolic.used.count(name))
      usage_error("-D " + name + "=" + value + ": no program factory of the file has a parameter '" + name +
                  "'");
  return lf;
}

std::map<std::string, long long> parse_defines(const std::vector<std::string>& defines) {
  std::map<std::string, long long> out;
  std::map<std::string, std::string> seen;  // a repeated -D would silently keep the last value
  for (const std::string& d : defines) {
    size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0)
      usage_error("bad -D '" + d + "': expected -D name=value, e.g. -D comm_cores=8");
    std::string name = d.substr(0, eq), text = d.substr(eq + 1);
    if (auto [it, fresh] = seen.emplace(name, d); !fresh)
      usage_error("-D " + name + " is given twice ('" + it->second + "' and '" + d + "')");
    if (is_symbolic_define(text)) continue;
    long long value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
      usage_error("bad -D '" + d + "': the value of '" + name +
                  "' must be an integer, a dtype such as pl.FP16 or an enum member such as pld.ReduceOp.Max");
    out[name] = value;
  }
  return out;
}

ir::Program select_program(const ir::Module& m, const std::string& name) {
  if (!m || m->programs.empty())
    usage_error("the file defines no program (@pl.program class or @pl.jit functions)");
  if (!name.empty()) {
    ir::Program p = m->find(name);
    if (!p) usage_error("no program named '" + name + "'; the file defines: " + program_names(m));
    // Two factories may build classes of one name; picking the first would run the wrong one.
    std::string where;
    for (const ir::Program& q : m->programs)
      if (q->name == name)
        where += (where.empty() ? "" : ", ") + std::string("line ") + std::to_string(q->span.line) +
                 (q->factory_name.empty() ? "" : " (factory '" + q->factory_name + "')");
    if (where.find(',') != std::string::npos)
      usage_error("the file defines several programs named '" + name + "' (" + where + "); rename one");
    return p;
  }
  if (m->programs.size() > 1)
    usage_error("the file defines several programs (" + program_names(m) +
                "); choose one with --program NAME");
  return m->programs[0];
}

std::vector<ir::Program> select_programs(const ir::Module& m, const std::string& name) {
  if (!name.empty() || !m || m->programs.size() <= 1) return {select_program(m, name)};
  return m->programs;
}

namespace {

bool has_factory_param(const ir::ProgramNode& p, const std::string& name) {
  for (const ir::FactoryParam& fp : p.factory_params)
    if (fp.var && fp.var->name == name) return true;
  return false;
}

}  // namespace

std::map<std::string, long long> bind_factory(const ir::Module& m, const ir::Program& p,
                                              const std::map<std::string, long long>& defines, int ranks) {
  std::map<std::string, long long> out;
  for (const auto& [name, value] : defines) {
    if (has_factory_param(*p, name)) {
      out[name] = value;
      continue;
    }
    // A file of several programs: a -D may be meant for another program's factory.
    bool elsewhere = false;
    for (const ir::Program& other : m ? m->programs : std::vector<ir::Program>{})
      elsewhere |= other && other != p && has_factory_param(*other, name);
    if (elsewhere) continue;
    if (p->factory_params.empty())
      usage_error("-D " + name + ": program '" + p->name +
                  "' is not built by a factory and takes no parameters");
    usage_error("-D " + name + ": '" + name + "' is not a parameter of factory '" + p->factory_name +
                "' (parameters: " + factory_param_names(*p) + ")");
  }
  out.emplace("world_size", ranks);  // also what pld.world_size() folds to
  for (const ir::FactoryParam& fp : p->factory_params)
    if (fp.var && is_rank_count_name(fp.var->name)) out.emplace(fp.var->name, ranks);
  return out;
}

void require_known_pass(const std::string& flag) {
  if (transforms::find_pass(flag)) return;
  std::string names;
  for (const transforms::PassInfo& info : transforms::registered_passes())
    names += (names.empty() ? "" : ", ") + std::string(info.flag);
  usage_error("unknown pass '" + flag + "'; passes: " + names);
}

transforms::PassContext make_pass_context(DiagnosticEngine& diags, const ir::Module& m, const ir::Program& p,
                                          const ProgramOptions& o,
                                          const std::vector<std::string>& disabled_passes) {
  transforms::PassContext cx{.diags = diags,
                             .profile = ChipProfile{},
                             .bindings = bind_factory(m, p, parse_defines(o.defines), o.ranks),
                             .disabled = {},
                             .module = m};
  for (const std::string& flag : disabled_passes) {
    require_known_pass(flag);
    cx.disabled.insert(flag);
  }
  return cx;
}

// CLI11 would call a mistyped command a missing one; name it instead.
void check_command_name(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == argv[1]) return;
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  usage_error("unknown command '" + std::string(argv[1]) + "'; commands: " + names);
}

int run_cli(CLI::App& app, int argc, char** argv) {
  try {
    check_command_name(app, argc, argv);
    app.parse(argc, argv);
    return 0;
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // --help and friends are "errors" with exit code 0; CLI11 prints them as usual.
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "ptodist: error: " << one_line(e.what()) << " (run 'ptodist --help' for usage)\n";
    return kExitUsage;
  }
}

}  // namespace ptodist::cli
