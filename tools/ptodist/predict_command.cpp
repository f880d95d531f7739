// `ptodist predict FILE --ranks N [--profile a2a3] [-D ...] [--json] [--trace T]`: predicted device
// time from the timing model. The program runs once on the CPU (fast mode) to learn its control flow
// and communication; the model replays that run in virtual time (docs/timing.md).
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "predict_common.h"

namespace ptodist::cli {
namespace {

struct PredictOptions {
  RunFlags flags;
  bool json = false;
  std::string trace;
};

int predict_one(const PredictOptions& o, const RunFlags& f, nlohmann::json* all) {
  std::string error;
  std::optional<timing::Prediction> p = predict_run(f, !o.trace.empty(), &error);
  if (!p) usage_error("predict: " + error);
  if (!o.trace.empty()) {
    p->timeline.title = f.program.file + " (predicted, profile " + p->profile + ")";
    if (!runtime::trace::write_chrome_json(p->timeline, o.trace, &error)) usage_error(error);
  }
  if (o.json)
    (*all)[f.program.program.empty() ? "program" : f.program.program] =
        nlohmann::json::parse(timing::prediction_json(*p));
  else
    std::cout << timing::format_prediction(*p);
  return 0;
}

// Without --program a file of several programs is predicted program by program, then compared: the
// async and sync twins of an overlap kernel show the saving side by side.
int run_predict(const PredictOptions& o) {
  std::vector<std::string> names;
  if (o.flags.program.program.empty()) {
    parse_defines(o.flags.program.defines);
    std::unique_ptr<LoadedFile> lf = load_file(o.flags.program.file, o.flags.program.defines);
    if (lf->module && lf->module->programs.size() > 1)
      for (const ir::Program& p : lf->module->programs) names.push_back(p->name);
  }
  nlohmann::json all = nlohmann::json::object();
  if (names.empty()) {
    predict_one(o, o.flags, &all);
  } else {
    for (const std::string& name : names) {
      if (!o.json) std::cout << "== program " << name << " ==\n";
      RunFlags f = o.flags;
      f.program.program = name;
      predict_one(o, f, &all);
    }
  }
  if (o.json) std::cout << all.dump(2) << "\n";
  return 0;
}

}  // namespace

void add_predict_command(CLI::App& app) {
  auto o = std::make_shared<PredictOptions>();
  CLI::App* sub =
      app.add_subcommand("predict", "predict device time on N ranks from the profile's timing model");
  add_program_options(sub, o->flags.program);
  sub->add_option("--in", o->flags.inputs,
                  "host input: name=FILE.npy, name=rand:SEED or name=zeros (default rand:0)")
      ->allow_extra_args(false);
  sub->add_option("--dim", o->flags.dims, "NAME=N: the value of a pl.dynamic dim no input fixes")
      ->allow_extra_args(false);
  sub->add_option("--entry", o->flags.entry, "NAME: the chip orchestration of an L2 program to run");
  sub->add_option("--profile", o->flags.profile,
                  "chip profile with timing parameters (profiles/<name>.json or a path)")
      ->capture_default_str();
  sub->add_option_function<std::string>(
         "--watchdog", [o](const std::string& v) { o->flags.watchdog = parse_watchdog(v); },
         "seconds without progress of the recording run before a hang is reported (default 10), or 'off'")
      ->type_name("S|off");
  sub->add_flag("--json", o->json, "print the prediction as JSON");
  sub->add_option("--trace", o->trace, "write the predicted timeline as Chrome trace-event JSON (Perfetto)");
  sub->callback([o, sub] {
    if (sub->count("--trace") && o->trace.empty()) usage_error("--trace: the file name is empty");
    int code = run_predict(*o);
    if (code != 0) exit_with(code);
  });
}

}  // namespace ptodist::cli
