#include "engine/planner/view_columns.h"

#include <cctype>
#include <set>

#include "engine/planner/planner.h"
#include "engine/sql/parser.h"

namespace engine::plan {
namespace {

// The declared type of visible column `i` of select `sel`: SQLite takes it
// from the leftmost core of a compound.
std::string DeclaredType(const Program& prog, const Select& sel, size_t i, int depth) {
  if (sel.cores.empty() || depth > 64) return "";
  const Core& core = sel.cores[0];
  if (core.values || i >= core.results.size()) return "";
  const Node* n = &prog.node(core.results[i]);
  // A grouped column is captured per group; its capture is the column.
  if (n->op == Op::kGroupCol && n->col >= 0 && static_cast<size_t>(n->col) < core.captures.size()) {
    n = &prog.node(core.captures[static_cast<size_t>(n->col)]);
  }
  if (n->op != Op::kColumn) return "";
  for (const Level& level : core.levels) {
    if (level.src != n->src) continue;
    if (level.table != nullptr) {
      if (n->col < 0 || n->col == level.table->rowid_alias) return "INTEGER";
      return level.table->columns[static_cast<size_t>(n->col)].type;
    }
    if (level.subquery >= 0 && n->col >= 0) {
      const Select& sub = prog.selects[static_cast<size_t>(level.subquery)];
      return DeclaredType(prog, sub, static_cast<size_t>(n->col), depth + 1);
    }
  }
  return "";
}

}  // namespace

std::vector<std::string> UniqueColumnNames(std::vector<std::string> names) {
  std::set<std::string> seen;
  for (std::string& name : names) {
    unsigned count = 0;
    while (seen.count(catalog::LowerCase(name)) != 0) {
      // A name that already ends in ":<digits>" has that suffix replaced.
      size_t base = name.size();
      size_t j = name.size();
      while (j > 1 && std::isdigit(static_cast<unsigned char>(name[j - 1]))) --j;
      if (j > 0 && j < name.size() && name[j - 1] == ':') base = j - 1;
      name = name.substr(0, base) + ":" + std::to_string(++count);
    }
    seen.insert(catalog::LowerCase(name));
  }
  return names;
}

Result<std::vector<ViewColumn>> ViewColumns(const catalog::Schema& schema,
                                            const catalog::ViewInfo& view) {
  if (!view.columns.empty()) {
    // A column list names the columns; sqlite3 gives them types only when
    // the SELECT has as many results (else the mismatch is an error when
    // the view is read, not here).
    auto parsed = sql::ParseStatement(view.sql);
    if (!parsed.ok()) return parsed.status();
    const auto* cv = parsed->as<sql::CreateViewStmt>();
    if (cv == nullptr) return Status::SqlError("malformed view " + view.name);
    const sql::Select& body = parsed->ast.select(cv->select);
    size_t width = 0;
    bool star = false;
    if (!body.cores.empty()) {
      const sql::SelectCore& core = body.cores[0];
      width = core.is_values() ? core.values[0].size() : core.columns.size();
      for (const sql::ResultColumn& rc : core.columns)
        star |= rc.kind != sql::ResultColumn::Kind::kExpr;
    }
    if (!star && width != view.columns.size()) {
      std::vector<ViewColumn> out;
      for (const std::string& name : view.columns) out.push_back({name, ""});
      return out;
    }
  }
  // Planning "SELECT * FROM view" reports the view's errors as a statement
  // over it does, the column count check included.
  std::string quoted;
  for (char c : view.name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  const std::string sql = "SELECT * FROM \"" + quoted + "\"";
  auto parsed = sql::ParseStatement(sql);
  if (!parsed.ok()) return parsed.status();
  Program prog;
  Planner planner(schema, &prog);
  const auto* sel = parsed->as<sql::SelectStmt>();
  if (sel == nullptr) return Status::SqlError("malformed view " + view.name);
  ENGINE_ASSIGN_OR_RETURN(int top, planner.PlanSelect(parsed->ast, sel->select, nullptr));
  const Select& outer = prog.selects[static_cast<size_t>(top)];
  std::vector<ViewColumn> out;
  for (size_t i = 0; i < static_cast<size_t>(outer.visible); ++i) {
    out.push_back({outer.names[i], DeclaredType(prog, outer, i, 0)});
  }
  return out;
}

}  // namespace engine::plan
