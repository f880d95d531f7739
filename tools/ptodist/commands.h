// The subcommands of the ptodist CLI; each lives in its own <name>_command.cpp.
#pragma once

#include <CLI/CLI.hpp>

namespace ptodist::cli {

void add_check_command(CLI::App& app);
void add_compile_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_predict_command(CLI::App& app);

}  // namespace ptodist::cli
