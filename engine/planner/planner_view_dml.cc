// INSERT, UPDATE and DELETE on a view that has INSTEAD OF triggers for the
// event: the statement changes nothing itself; per row it hands NEW / OLD to
// the triggers (exec/trigger_run.h). The rows are an INSERT's source, or
// the view's rows that match the WHERE, read through a SELECT over the view
// with the SET values as extra columns.
#include "engine/planner/planner.h"
#include "engine/planner/view_columns.h"
#include "engine/sql/parser.h"
#include "engine/sql/render.h"

namespace engine::plan {

using catalog::EqualsNoCase;
using Event = sql::CreateTriggerStmt::Event;

namespace {

// The view's columns as a table without a B-tree, carrying its triggers.
Result<std::unique_ptr<catalog::TableInfo>> ViewTable(const catalog::Schema& schema,
                                                      const catalog::ViewInfo& v) {
  ENGINE_ASSIGN_OR_RETURN(std::vector<ViewColumn> cols, ViewColumns(schema, v));
  auto t = std::make_unique<catalog::TableInfo>();
  t->name = v.name;
  for (const ViewColumn& c : cols) {
    catalog::ColumnInfo ci;
    ci.name = c.name;
    ci.type = c.type;
    t->columns.push_back(std::move(ci));
  }
  t->db = v.db;
  t->triggers = v.triggers;
  return t;
}

}  // namespace

const catalog::ViewInfo* Planner::InsteadOfView(const std::string& schema, const std::string& name,
                                                Event event) const {
  Result<catalog::DbScope> scope = ScopeOfRef(schema, name);
  if (!scope.ok()) return nullptr;  // WritableTable reports it
  if (schema_.FindTable(name, *scope) != nullptr) return nullptr;
  const catalog::ViewInfo* v = schema_.FindView(name, *scope);
  if (v == nullptr) return nullptr;
  for (const catalog::TriggerInfo* t : v->triggers) {
    if (t->event == event && t->timing == sql::CreateTriggerStmt::Timing::kInsteadOf) return v;
  }
  return nullptr;
}

Status Planner::PlanViewInsert(const sql::Ast& ast, const sql::InsertStmt& st,
                               const catalog::ViewInfo& v) {
  ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<catalog::TableInfo> vt, ViewTable(schema_, v));
  auto dml = std::make_unique<Dml>();
  dml->kind = Dml::Kind::kInsert;
  dml->conflict = st.conflict;
  // A view has no rowid to name.
  ENGINE_RETURN_IF_ERROR(PlanInsertColumns(ast, st, *vt, false, dml.get()));
  dml->defaults.assign(vt->columns.size(), -1);
  dml->table = vt.get();
  dml->view = std::move(vt);
  prog_->dml = std::move(dml);
  return Status::OK();
}

Status Planner::PlanViewChange(
    const sql::Ast& ast, const catalog::ViewInfo& v, const std::string& alias, sql::ExprId where,
    const std::vector<std::pair<std::string, sql::ExprId>>* assignments) {
  ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<catalog::TableInfo> vt, ViewTable(schema_, v));
  auto dml = std::make_unique<Dml>();
  dml->kind = assignments != nullptr ? Dml::Kind::kUpdate : Dml::Kind::kDelete;
  std::vector<std::pair<int, sql::ExprId>> sets;
  if (assignments != nullptr) {
    for (const auto& [name, expr] : *assignments) {
      const int c = vt->FindColumn(name);
      if (c < 0) return Status::SqlError("no such column: " + name);
      bool replaced = false;
      for (auto& s : sets) {
        if (s.first == c) {
          s.second = expr;  // the last assignment to a column wins
          replaced = true;
        }
      }
      if (!replaced) sets.push_back({c, expr});
    }
  }
  // The view's rows through SQL text: the expressions are rendered back
  // from the tree, so their errors carry no offset into the statement.
  std::string sql = "SELECT *";
  for (const auto& s : sets) {
    sql += ", " + sql::RenderExpr(ast, s.second);
    dml->sets.push_back({s.first, -1});
  }
  sql += " FROM " + sql::QuoteIdentifier(v.name);
  if (!alias.empty()) sql += " AS " + sql::QuoteIdentifier(alias);
  if (where != sql::kNoExpr) sql += " WHERE " + sql::RenderExpr(ast, where);
  auto parsed = sql::ParseStatement(sql);
  if (!parsed.ok()) return Status(parsed.status()).WithOffset(-1);
  views_.push_back(std::make_unique<sql::Statement>(std::move(*parsed)));
  const sql::Statement& rows = *views_.back();
  const auto* sel = rows.as<sql::SelectStmt>();
  if (sel == nullptr) return Status::SqlError("malformed view " + v.name);
  Result<int> planned = PlanSelect(rows.ast, sel->select, nullptr);
  if (!planned.ok()) return Status(planned.status()).WithOffset(-1);
  dml->view_rows = *planned;
  dml->table = vt.get();
  dml->view = std::move(vt);
  prog_->dml = std::move(dml);
  return Status::OK();
}

}  // namespace engine::plan
