// Kernels defined outside a @pl.program class (`@pl.function` at module level or in the factory that
// builds the class, or imported from a kernel file beside this one) and called by bare name from its
// methods: PyPTO's parser resolves such a name to the ir.Function it is bound to and adds that
// function to the program. Here the class's program takes every one its methods reach by name, and
// the ones those reach in turn.
#include "parser_impl.h"

namespace ptodist::frontend {

std::vector<FuncDecl> Parser::reached_externals(const ClassDecl& cls, const Container& c) {
  std::map<std::string, const FuncDecl*> visible;  // the nearest scope's definition of each name
  for (const Container* k = &c; k; k = k->parent)
    for (const FuncDecl& d : k->external_funcs) visible.emplace(d.local.empty() ? d.name : d.local, &d);
  std::vector<FuncDecl> reached;
  if (visible.empty()) return reached;
  std::set<std::string> methods;
  std::vector<const FuncDecl*> work;  // functions whose bodies are still to scan
  for (const FuncDecl& m : cls.methods) {
    methods.insert(m.name);
    work.push_back(&m);
  }
  std::set<std::string> taken;
  while (!work.empty()) {
    const FuncDecl* f = work.back();
    work.pop_back();
    for (const std::string& name : names_mentioned(f->def_pos, skip_suite_from(f->def_pos))) {
      auto it = visible.find(name);
      // A method of the same name is the one `self.<name>` calls; the outside function stays out.
      if (it == visible.end() || methods.count(name) || !taken.insert(name).second) continue;
      reached.push_back(*it->second);
      work.push_back(it->second);
    }
  }
  return reached;
}

}  // namespace ptodist::frontend
