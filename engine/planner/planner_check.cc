// CHECK constraints: compiled once per prepared statement against the row
// the statement proposes, with what each reads, so that an UPDATE evaluates
// only those that read a column it sets (sqlite3's rule).
#include <algorithm>

#include "engine/planner/planner.h"
#include "engine/sql/parser.h"

namespace engine::plan {

Result<int32_t> Planner::CompileCheck(const sql::Ast& ast, sql::ExprId id, const Scope& scope) {
  // sqlite3 refuses a subquery or a parameter in a CHECK when the table is
  // created; a stored one that has either is refused the same way here.
  const bool saved = in_check_;
  in_check_ = true;
  Result<int32_t> node = Compile(ast, id, &scope);
  in_check_ = saved;
  return node;
}

namespace {

Scope RowScope(const catalog::TableInfo& t, int src) {
  ScopeItem item;
  item.name = t.name;
  item.table = &t;
  item.src = src;
  Scope scope;
  scope.items.push_back(std::move(item));
  scope.first_src = src;
  return scope;
}

}  // namespace

Status Planner::CompileChecks(const catalog::TableInfo& t, int src, std::vector<CheckPlan>* out) {
  const Scope scope = RowScope(t, src);
  for (const catalog::CheckInfo& info : t.checks) {
    auto parsed = sql::ParseStatement("SELECT " + info.sql);
    if (!parsed.ok()) return parsed.status();
    views_.push_back(std::make_unique<sql::Statement>(std::move(*parsed)));
    const sql::Statement& cs = *views_.back();
    const auto* sel = cs.as<sql::SelectStmt>();
    if (sel == nullptr) return Status::SqlError("malformed CHECK constraint on " + t.name);
    const sql::Select& s = cs.ast.select(sel->select);
    if (s.cores.size() != 1 || s.cores[0].columns.size() != 1) {
      return Status::SqlError("malformed CHECK constraint on " + t.name);
    }
    const size_t first = prog_->nodes.size();
    CheckPlan check;
    ENGINE_ASSIGN_OR_RETURN(check.node, CompileCheck(cs.ast, s.cores[0].columns[0].expr, scope));
    check.label = &info.label;
    // No subqueries: every node of the expression was added just now.
    for (size_t i = first; i < prog_->nodes.size(); ++i) {
      const Node& n = prog_->nodes[i];
      if (n.op != Op::kColumn || n.src != src) continue;
      if (n.col < 0) {
        check.reads_rowid = true;
      } else if (std::find(check.columns.begin(), check.columns.end(), n.col) ==
                 check.columns.end()) {
        check.columns.push_back(n.col);
      }
    }
    out->push_back(std::move(check));
  }
  return Status::OK();
}

Status Planner::ValidateChecks(const sql::Ast& ast, const sql::CreateTableStmt& st,
                               const catalog::TableInfo& t) {
  const Scope scope = RowScope(t, NewSource());
  for (const sql::ColumnDef& cd : st.columns) {
    for (const sql::CheckDef& check : cd.checks) {
      ENGINE_RETURN_IF_ERROR(CompileCheck(ast, check.expr, scope).status());
    }
  }
  for (const sql::TableConstraint& tc : st.constraints) {
    if (tc.kind != sql::TableConstraint::Kind::kCheck) continue;
    ENGINE_RETURN_IF_ERROR(CompileCheck(ast, tc.check.expr, scope).status());
  }
  return Status::OK();
}

namespace {

// Which checks a write that SETs `sets` evaluates: those reading a column
// it sets, or the rowid when it sets that (sqlite3's
// sqlite3ExprReferencesUpdatedColumn). A check that reads no column at all
// is never evaluated by an UPDATE, as in sqlite3.
std::vector<uint32_t> ChecksFor(const std::vector<CheckPlan>& checks,
                                const std::vector<std::pair<int, int32_t>>& sets) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < checks.size(); ++i) {
    bool hit = false;
    for (const auto& s : sets) {
      if (s.first < 0) {
        hit |= checks[i].reads_rowid;
      } else {
        hit |= std::find(checks[i].columns.begin(), checks[i].columns.end(), s.first) !=
               checks[i].columns.end();
      }
    }
    if (hit) out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

}  // namespace

Status Planner::PlanChecks(Dml* dml) {
  const catalog::TableInfo* t = dml->table;
  if (t->checks.empty() || dml->kind == Dml::Kind::kDelete) return Status::OK();
  dml->check_src = NewSource();
  ENGINE_RETURN_IF_ERROR(CompileChecks(*t, dml->check_src, &dml->checks));
  if (dml->kind == Dml::Kind::kUpdate) dml->update_checks = ChecksFor(dml->checks, dml->sets);
  for (Dml::Upsert& u : dml->upsert) {
    if (!u.nothing) u.checks = ChecksFor(dml->checks, u.sets);
  }
  return Status::OK();
}

}  // namespace engine::plan
