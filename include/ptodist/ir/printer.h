// Prints IR in the kernel language's own syntax, deterministically, so that parse(print(m)) prints the
// same text again and golden tests read like source.
#pragma once

#include <string>

#include "ptodist/ir/function.h"

namespace ptodist::ir {

std::string print_module(const Module& m);
std::string print_program(const Program& p);  // with the module's imports and constants left out
std::string print_function(const Function& f);
std::string print_expr(const Expr& e);
std::string print_stmt(const Stmt& s, int indent = 0);

}  // namespace ptodist::ir
