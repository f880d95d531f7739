// `continue` and `break` in loops. PTO's structured control flow (scf.for, scf.while, scf.if) has no
// jumps, so, as PyPTO's CtrlFlowTransform does before its codegen, the frontend writes them as structured
// code, which the runtime and the PTO emitter then run alike:
//
//   - an exit assigns True to a bool flag of its loop (one flag for continue, one for break);
//   - the statements that follow, in every block from the exit out to the loop body, run only while no
//     flag is set (`if not __continue_1: ...rest...`);
//   - the continue flag is cleared at the top of each iteration;
//   - the break flag is cleared before the loop; a while loop tests it before its condition, and a
//     counted loop skips its remaining iterations (scf.for cannot stop early).
#include "parser_impl.h"
#include "stmt_nodes.h"

namespace ptodist::frontend {

void Parser::parse_loop_exit(ir::Block& out) {
  const Token& t = advance();  // 'continue' or 'break'
  if (exits_.empty()) {
    error(t.span,
          "'" + t.text + "' outside a loop (the body of a with pl.at(...) scope is a function of its own)");
    return;
  }
  LoopExits& loop = *exits_.back();
  bool is_break = t.text == "break";
  ir::Var& flag = is_break ? loop.break_flag : loop.continue_flag;
  if (!flag)
    flag = b_->make_var((is_break ? "__break_" : "__continue_") + std::to_string(++exit_flags_),
                        ir::scalar_type(ir::DType::BOOL), t.span);
  out.push_back(make_assign({flag}, b_->bool_imm(true, t.span), t.span));
  ++loop.written;
}

// `not flag` for each flag the loop has so far, joined by `and`.
ir::Expr Parser::exit_guard(const LoopExits& exits, const SourceSpan& span) {
  ir::Expr guard;
  for (const ir::Var& flag : {exits.continue_flag, exits.break_flag}) {
    if (!flag) continue;
    ir::Expr clear = b_->unary(ir::UnaryOpKind::Not, b_->var_ref(flag, span), span);
    guard = guard ? b_->bool_op(ir::BoolOpKind::And, guard, clear, span) : clear;
  }
  return guard;
}

// Called by parse_block_body right after a statement that wrote an exit: the rest of the block goes
// into `if <no exit taken>:`.
void Parser::guard_after_exit(ir::Block& out, LowerCtx& cx) {
  SourceSpan span = peek().span;
  ir::Expr guard = exit_guard(*exits_.back(), span);
  ir::Block rest = parse_block_body(cx, nullptr);
  if (rest.empty() || !guard) {
    out.insert(out.end(), rest.begin(), rest.end());
    return;
  }
  auto s = std::make_shared<ir::If>();
  s->span = rest.front()->span;
  s->cond = guard;
  s->then_body = std::move(rest);
  out.push_back(s);
}

// The loop's body with its flags cleared where they must be; the break flag's clearing goes to
// `before_loop`, and for a while loop `*while_cond` is made to test it.
ir::Block Parser::finish_loop_body(const LoopExits& exits, ir::Block body, ir::Block& before_loop,
                                   ir::Expr* while_cond) {
  if (exits.continue_flag)
    body.insert(body.begin(),
                make_assign({exits.continue_flag}, b_->bool_imm(false, exits.span), exits.span));
  if (!exits.break_flag) return body;
  before_loop.push_back(make_assign({exits.break_flag}, b_->bool_imm(false, exits.span), exits.span));
  ir::Expr not_broken =
      b_->unary(ir::UnaryOpKind::Not, b_->var_ref(exits.break_flag, exits.span), exits.span);
  if (while_cond) {
    if (*while_cond) *while_cond = b_->bool_op(ir::BoolOpKind::And, not_broken, *while_cond, exits.span);
    return body;
  }
  auto skip = std::make_shared<ir::If>();
  skip->span = exits.span;
  skip->cond = not_broken;
  skip->then_body = std::move(body);
  return {skip};
}

}  // namespace ptodist::frontend
