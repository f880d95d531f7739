// ptodist: the command-line entry point. Flags become library calls in the subcommand files.
#include "cli_common.h"
#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"ptodist: compiler and multi-rank runtime for distributed tile kernels (PyPTO syntax)"};
  app.require_subcommand(1);
  ptodist::cli::add_check_command(app);
  ptodist::cli::add_compile_command(app);
  ptodist::cli::add_run_command(app);
  ptodist::cli::add_bench_command(app);
  ptodist::cli::add_predict_command(app);
  return ptodist::cli::run_cli(app, argc, argv);
}
