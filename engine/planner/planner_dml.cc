// INSERT, UPDATE and DELETE planning: column mapping, defaults, SET
// expressions, and the access path that finds the rows to change.
#include <algorithm>

#include "engine/planner/planner.h"
#include "engine/sql/parser.h"

namespace engine::plan {

using catalog::EqualsNoCase;

namespace {

bool IsRowidName(std::string_view n) {
  return EqualsNoCase(n, "rowid") || EqualsNoCase(n, "oid") || EqualsNoCase(n, "_rowid_");
}

}  // namespace

Result<const catalog::TableInfo*> Planner::WritableTable(const std::string& schema,
                                                         const std::string& name) {
  ENGINE_ASSIGN_OR_RETURN(const catalog::DbScope scope, ScopeOfRef(schema, name));
  const catalog::TableInfo* t = Used(schema_.FindTable(name, scope));
  if (t == nullptr) {
    if (schema_.FindView(name, scope) != nullptr) {
      return Status::SqlError("cannot modify " + name + " because it is a view");
    }
    return Status::SqlError("no such table: " + (schema.empty() ? "" : schema + ".") + name);
  }
  if (t->root == 1) return Status::SqlError("table " + t->name + " may not be modified");
  if (t->without_rowid) return Status::NotSupported("WITHOUT ROWID tables are not supported");
  return t;
}

Status Planner::PlanInsert(const sql::Ast& ast, const sql::InsertStmt& st) {
  WithScope with(this, ast, ast.statement_with);
  if (const auto* v = InsteadOfView(st.schema, st.table, sql::CreateTriggerStmt::Event::kInsert)) {
    return PlanViewInsert(ast, st, *v);
  }
  ENGINE_ASSIGN_OR_RETURN(const catalog::TableInfo* t, WritableTable(st.schema, st.table));
  auto dml = std::make_unique<Dml>();
  dml->kind = Dml::Kind::kInsert;
  dml->table = t;
  dml->conflict = st.conflict;
  ENGINE_RETURN_IF_ERROR(PlanInsertColumns(ast, st, *t, true, dml.get()));
  if (st.select) {
    // Reading the table being written needs the rows gathered first.
    for (size_t i = static_cast<size_t>(dml->source); i < prog_->selects.size(); ++i) {
      for (const Core& core : prog_->selects[i].cores) {
        dml->materialize_source |= !core.levels.empty();
      }
    }
  }
  ENGINE_RETURN_IF_ERROR(CompileDefaults(dml.get()));
  ENGINE_RETURN_IF_ERROR(PlanUpsert(ast, st, dml.get()));
  ENGINE_RETURN_IF_ERROR(PlanChecks(dml.get()));
  prog_->dml = std::move(dml);
  return Status::OK();
}

Status Planner::PlanInsertColumns(const sql::Ast& ast, const sql::InsertStmt& st,
                                  const catalog::TableInfo& t, bool rowid_names, Dml* dml) {
  const size_t ncol = t.columns.size();
  dml->column_map.assign(ncol, -1);
  size_t supplied = ncol;
  if (!st.columns.empty()) {
    supplied = st.columns.size();
    for (size_t i = 0; i < st.columns.size(); ++i) {
      const int c = t.FindColumn(st.columns[i]);
      if (c < 0) {
        if (rowid_names && IsRowidName(st.columns[i])) {
          dml->rowid_source = static_cast<int>(i);
          continue;
        }
        return Status::SqlError("table " + t.name + " has no column named " + st.columns[i]);
      }
      dml->column_map[static_cast<size_t>(c)] = static_cast<int>(i);
    }
  } else if (!st.default_values) {
    for (size_t c = 0; c < ncol; ++c) dml->column_map[c] = static_cast<int>(c);
  }
  if (!st.select) return Status::OK();
  ENGINE_ASSIGN_OR_RETURN(dml->source, PlanSelect(ast, *st.select, nullptr));
  const Select& src = prog_->selects[static_cast<size_t>(dml->source)];
  if (static_cast<size_t>(src.visible) == supplied) return Status::OK();
  if (st.columns.empty()) {
    return Status::SqlError("table " + t.name + " has " + std::to_string(ncol) + " columns but " +
                            std::to_string(src.visible) + " values were supplied");
  }
  return Status::SqlError(std::to_string(src.visible) + " values for " + std::to_string(supplied) +
                          " columns");
}

Status Planner::PlanUpsert(const sql::Ast& ast, const sql::InsertStmt& st, Dml* dml) {
  const catalog::TableInfo* t = dml->table;
  if (st.upsert.empty()) return Status::OK();
  // DO UPDATE reads the row in the way by the table's name and the row
  // proposed as "excluded".
  Scope scope;
  ScopeItem target;
  target.name = st.alias.empty() ? t->name : st.alias;
  target.table = t;
  target.src = NewSource();
  ScopeItem excluded;
  excluded.name = "excluded";
  for (const catalog::ColumnInfo& c : t->columns) {
    excluded.columns.push_back(c.name);
    excluded.affinities.push_back(c.affinity);
  }
  excluded.hidden_rowid = false;
  excluded.using_hidden = excluded.columns;  // only "excluded.x" names it
  excluded.src = NewSource();
  dml->upsert_src = target.src;
  dml->excluded_src = excluded.src;
  scope.items = {target, excluded};
  scope.first_src = target.src;
  for (const sql::UpsertClause& clause : st.upsert) {
    Dml::Upsert u;
    u.nothing = clause.do_nothing;
    if (!clause.target.empty()) {
      std::vector<int> cols;
      for (const sql::IndexedColumn& ic : clause.target) {
        const int c = t->FindColumn(ic.name);
        if (c < 0) return catalog::NoSuchColumn(ic);
        cols.push_back(c);
      }
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
      int match = -2;
      if (cols.size() == 1 && cols[0] == t->rowid_alias) match = -1;
      for (size_t ix = 0; ix < t->indexes.size() && match == -2; ++ix) {
        const catalog::IndexInfo* info = t->indexes[ix];
        if (!info->unique || info->partial) continue;
        std::vector<int> key = info->columns;
        std::sort(key.begin(), key.end());
        if (key == cols) match = static_cast<int>(ix);
      }
      if (match == -2) {
        return Status::SqlError(
            "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint");
      }
      u.target = match;
    }
    for (const auto& [name, expr] : clause.assignments) {
      int c = t->FindColumn(name);
      if (c < 0 && IsRowidName(name)) {
        c = -1;
      } else if (c < 0) {
        return Status::SqlError("no such column: " + name);
      }
      if (c == t->rowid_alias) c = -1;
      ENGINE_ASSIGN_OR_RETURN(int32_t v, Compile(ast, expr, &scope));
      bool replaced = false;
      for (auto& s : u.sets) {
        if (s.first == c) {
          s.second = v;
          replaced = true;
        }
      }
      if (!replaced) u.sets.push_back({c, v});
    }
    if (clause.where != sql::kNoExpr) {
      ENGINE_ASSIGN_OR_RETURN(u.where, Compile(ast, clause.where, &scope));
    }
    dml->upsert.push_back(std::move(u));
  }
  return Status::OK();
}

Status Planner::CompileDefaults(Dml* dml) {
  const catalog::TableInfo* t = dml->table;
  const size_t ncol = t->columns.size();
  dml->defaults.assign(ncol, -1);
  for (size_t c = 0; c < ncol; ++c) {
    const auto& def = t->columns[c].default_sql;
    if (!def) continue;
    // An INSERT needs the defaults of the columns it does not supply; a
    // NOT NULL ON CONFLICT REPLACE (or OR REPLACE) needs its column's
    // default in place of a NULL, in an UPDATE too.
    const bool omitted = dml->kind == Dml::Kind::kInsert && dml->column_map[c] < 0;
    if (!omitted && !t->columns[c].not_null) continue;
    auto parsed = sql::ParseStatement("SELECT " + *def);
    if (!parsed.ok()) return parsed.status();
    views_.push_back(std::make_unique<sql::Statement>(std::move(*parsed)));
    const sql::Statement& ds = *views_.back();
    const auto* sel = ds.as<sql::SelectStmt>();
    if (sel == nullptr) return Status::SqlError("malformed default for " + t->columns[c].name);
    const sql::Select& s = ds.ast.select(sel->select);
    ENGINE_ASSIGN_OR_RETURN(dml->defaults[c], Compile(ds.ast, s.cores[0].columns[0].expr, nullptr));
  }
  return Status::OK();
}

Status Planner::PlanTarget(const sql::Ast& ast, const catalog::TableInfo* t,
                           const std::string& alias, sql::ExprId where, Scope* scope, Dml* dml,
                           const std::string& indexed_by, bool not_indexed) {
  ScopeItem item;
  item.name = alias.empty() ? t->name : alias;
  item.table = t;
  item.src = NewSource();
  scope->items.push_back(item);
  scope->first_src = item.src;
  dml->table = t;
  dml->level.src = item.src;
  dml->level.table = t;
  dml->level.display = item.name;
  ENGINE_RETURN_IF_ERROR(ApplyIndexHint(t, indexed_by, not_indexed, &dml->level));
  std::vector<sql::ExprId> terms;
  SplitAnd(ast, where, &terms);
  for (sql::ExprId e : terms) {
    ENGINE_ASSIGN_OR_RETURN(int32_t c, Compile(ast, e, scope));
    dml->filters.push_back(c);
  }
  return Status::OK();
}

void Planner::FinishScan(Dml* dml) {
  Level lv = dml->level;
  lv.on_filters = dml->filters;
  dml->scan.levels.push_back(std::move(lv));
}

Status Planner::PlanUpdate(const sql::Ast& ast, const sql::UpdateStmt& st) {
  WithScope with(this, ast, ast.statement_with);
  if (const auto* v = InsteadOfView(st.schema, st.table, sql::CreateTriggerStmt::Event::kUpdate)) {
    return PlanViewChange(ast, *v, st.alias, st.where, &st.assignments);
  }
  ENGINE_ASSIGN_OR_RETURN(const catalog::TableInfo* t, WritableTable(st.schema, st.table));
  auto dml = std::make_unique<Dml>();
  dml->kind = Dml::Kind::kUpdate;
  dml->conflict = st.conflict;
  Scope scope;
  ENGINE_RETURN_IF_ERROR(
      PlanTarget(ast, t, st.alias, st.where, &scope, dml.get(), st.indexed_by, st.not_indexed));
  for (const auto& [name, expr] : st.assignments) {
    int c = t->FindColumn(name);
    if (c < 0 && IsRowidName(name))
      c = -1;
    else if (c < 0)
      return Status::SqlError("no such column: " + name);
    if (c == t->rowid_alias) c = -1;
    ENGINE_ASSIGN_OR_RETURN(int32_t v, Compile(ast, expr, &scope));
    bool replaced = false;
    for (auto& s : dml->sets) {
      if (s.first == c) {
        s.second = v;  // the last assignment to a column wins, as in SQLite
        replaced = true;
      }
    }
    if (!replaced) dml->sets.push_back({c, v});
  }
  ENGINE_RETURN_IF_ERROR(CompileDefaults(dml.get()));
  ENGINE_RETURN_IF_ERROR(PlanChecks(dml.get()));
  SetSingleLevel(dml->level.src);
  ChooseAccess(&dml->level, dml->filters, 0);
  FinishScan(dml.get());
  prog_->dml = std::move(dml);
  return Status::OK();
}

Status Planner::PlanDelete(const sql::Ast& ast, const sql::DeleteStmt& st) {
  WithScope with(this, ast, ast.statement_with);
  if (const auto* v = InsteadOfView(st.schema, st.table, sql::CreateTriggerStmt::Event::kDelete)) {
    return PlanViewChange(ast, *v, st.alias, st.where, nullptr);
  }
  ENGINE_ASSIGN_OR_RETURN(const catalog::TableInfo* t, WritableTable(st.schema, st.table));
  auto dml = std::make_unique<Dml>();
  dml->kind = Dml::Kind::kDelete;
  Scope scope;
  ENGINE_RETURN_IF_ERROR(
      PlanTarget(ast, t, st.alias, st.where, &scope, dml.get(), st.indexed_by, st.not_indexed));
  SetSingleLevel(dml->level.src);
  ChooseAccess(&dml->level, dml->filters, 0);
  FinishScan(dml.get());
  prog_->dml = std::move(dml);
  return Status::OK();
}

}  // namespace engine::plan
