// Traversal of the IR: a Walker visits every node (children first by default), a Rewriter returns
// replacements and rebuilds a parent only when a child changed.
#pragma once

#include "ptodist/ir/function.h"

namespace ptodist::ir {

class Walker {
 public:
  virtual ~Walker() = default;
  virtual void visit_expr(const Expr& e);  // dispatches, then walks children
  virtual void visit_stmt(const Stmt& s);  // dispatches, then walks children and nested blocks
  virtual void visit_block(const Block& b);
  void visit_function(const Function& f);
};

class Rewriter {
 public:
  virtual ~Rewriter() = default;
  // Default: rewrite the children and rebuild the node when any changed, else return it unchanged.
  virtual Expr rewrite_expr(const Expr& e);
  // A statement may become zero or more statements; the default keeps one.
  virtual Block rewrite_stmt(const Stmt& s);
  virtual Block rewrite_block(const Block& b);
  Function rewrite_function(const Function& f);
};

}  // namespace ptodist::ir
