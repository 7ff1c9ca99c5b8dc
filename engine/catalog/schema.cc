#include "engine/catalog/schema.h"

#include <algorithm>
#include <cctype>

#include "engine/catalog/absent_value.h"

namespace engine::catalog {

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string LowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int TableInfo::FindColumn(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (EqualsNoCase(columns[i].name, column)) return static_cast<int>(i);
  }
  return -1;
}

std::optional<DbScope> ScopeOfQualifier(std::string_view qualifier) {
  if (qualifier.empty()) return DbScope::kAny;
  if (EqualsNoCase(qualifier, "main")) return DbScope::kMain;
  if (EqualsNoCase(qualifier, "temp")) return DbScope::kTemp;
  return std::nullopt;
}

Result<DbScope> KnownQualifier(std::string_view qualifier) {
  std::optional<DbScope> scope = ScopeOfQualifier(qualifier);
  if (!scope) return Status::SqlError("unknown database " + std::string(qualifier));
  return *scope;
}

template <typename T>
const T* Schema::Find(Map<T> Schema::*member, std::string_view name, DbScope scope) const {
  auto in = [&](const Schema* part) -> const T* {
    if (part == nullptr) return nullptr;
    auto it = (part->*member).find(LowerCase(name));
    return it == (part->*member).end() ? nullptr : it->second.get();
  };
  if (scope != DbScope::kAny) return in(Part(scope));
  if (const T* found = in(temp_.get())) return found;
  return in(this);
}

const TableInfo* Schema::FindTable(std::string_view name, DbScope scope) const {
  // "temp.sqlite_master" is the temp database's own schema table; without
  // the qualifier the name is main's.
  if (scope == DbScope::kTemp &&
      (EqualsNoCase(name, "sqlite_master") || EqualsNoCase(name, "sqlite_schema"))) {
    name = "sqlite_temp_master";
  }
  return Find(&Schema::tables_, name, scope);
}
const IndexInfo* Schema::FindIndex(std::string_view name, DbScope scope) const {
  return Find(&Schema::indexes_, name, scope);
}
const ViewInfo* Schema::FindView(std::string_view name, DbScope scope) const {
  return Find(&Schema::views_, name, scope);
}
const TriggerInfo* Schema::FindTrigger(std::string_view name, DbScope scope) const {
  return Find(&Schema::triggers_, name, scope);
}

void Schema::SetTemp(std::unique_ptr<Schema> temp) {
  temp_ = std::move(temp);
  // sqlite3 fires a main table's TEMP triggers before its own, and those
  // oldest first (its list is built by prepending the temp hash's newest-
  // first walk); the table's own stay newest first.
  for (const TriggerInfo* t : temp_->unlinked_triggers_) {
    std::vector<const TriggerInfo*>* list = nullptr;
    if (auto it = tables_.find(LowerCase(t->table)); it != tables_.end()) {
      list = &it->second->triggers;
    } else if (auto v = views_.find(LowerCase(t->table)); v != views_.end()) {
      list = &v->second->triggers;
    }
    if (list == nullptr) continue;
    // After the TEMP ones already placed, before the table's own.
    auto pos = std::find_if(list->begin(), list->end(),
                            [](const TriggerInfo* x) { return x->db != Db::kTemp; });
    list->insert(pos, t);
  }
}

TableInfo* Schema::AddTable(std::unique_ptr<TableInfo> t) {
  TableInfo* raw = t.get();
  std::unique_ptr<TableInfo>& slot = tables_[LowerCase(t->name)];
  if (slot) std::erase(table_order_, slot.get());
  slot = std::move(t);
  table_order_.push_back(raw);
  return raw;
}

const IndexInfo* Schema::AddIndex(std::unique_ptr<IndexInfo> ix) {
  const IndexInfo* raw = ix.get();
  auto it = tables_.find(LowerCase(ix->table));
  if (it != tables_.end()) it->second->indexes.push_back(raw);
  indexes_[LowerCase(ix->name)] = std::move(ix);
  return raw;
}

void Schema::AddView(std::unique_ptr<ViewInfo> v) { views_[LowerCase(v->name)] = std::move(v); }

void Schema::AddTrigger(std::unique_ptr<TriggerInfo> t) {
  auto table = tables_.find(LowerCase(t->table));
  if (t->table_db != t->db) {
    unlinked_triggers_.push_back(t.get());  // SetTemp links it
  } else if (table != tables_.end()) {
    auto& list = table->second->triggers;
    list.insert(list.begin(), t.get());
  } else if (auto view = views_.find(LowerCase(t->table)); view != views_.end()) {
    auto& list = view->second->triggers;
    list.insert(list.begin(), t.get());
  }
  triggers_[LowerCase(t->name)] = std::move(t);
}

namespace {

bool IsIntegerType(std::string_view type) { return EqualsNoCase(type, "INTEGER"); }

// sqlite3 (3.37 on) stores the six standard type names in upper case,
// whatever case they were written in; every other type as written.
std::string CanonicalType(const std::string& type) {
  for (const char* std_type : {"ANY", "BLOB", "INT", "INTEGER", "REAL", "TEXT"}) {
    if (EqualsNoCase(type, std_type)) return std_type;
  }
  return type;
}

}  // namespace

Status UniqueFailed(const TableInfo& table, const IndexInfo& ix) {
  std::string msg = "UNIQUE constraint failed: ";
  for (size_t i = 0; i < ix.columns.size(); ++i) {
    if (i > 0) msg += ", ";
    msg += table.name + "." + table.columns[static_cast<size_t>(ix.columns[i])].name;
  }
  return Status::Constraint(msg);
}

Status NoSuchColumn(const sql::IndexedColumn& ic) {
  return Status::SqlError("no such column: " + ic.name).WithOffset(static_cast<int>(ic.offset));
}

Result<std::unique_ptr<TableInfo>> TableFromAst(const sql::CreateTableStmt& st,
                                                const sql::Ast& ast) {
  auto t = std::make_unique<TableInfo>();
  t->name = st.name;
  t->without_rowid = st.without_rowid;
  int pk_count = 0;
  for (const sql::ColumnDef& cd : st.columns) {
    if (t->FindColumn(cd.name) >= 0) return Status::SqlError("duplicate column name: " + cd.name);
    ColumnInfo c;
    c.name = cd.name;
    c.type = CanonicalType(cd.type);
    c.affinity = AffinityOfType(cd.type);
    c.collation = func::CollationByName(cd.collation).value_or(func::Collation::kBinary);
    c.not_null = cd.not_null;
    c.not_null_conflict = cd.not_null_conflict;
    c.primary_key = cd.primary_key;
    if (cd.default_value != sql::kNoExpr) c.default_sql = cd.default_text;
    for (const sql::CheckDef& check : cd.checks) {
      t->checks.push_back({check.name.empty() ? check.text : check.name, check.text});
    }
    if (cd.primary_key) {
      ++pk_count;
      // "INTEGER PRIMARY KEY DESC" is famously not a rowid alias.
      if (IsIntegerType(cd.type) && cd.primary_key_order != sql::SortOrder::kDesc) {
        t->rowid_alias = static_cast<int>(t->columns.size());
        t->rowid_conflict = cd.primary_key_conflict;
      }
    }
    t->columns.push_back(std::move(c));
  }
  auto absent_bytes = std::make_shared<func::ValueArena>(64);
  std::vector<Value> absent;
  for (size_t i = 0; i < st.columns.size(); ++i) {
    const Value v = AbsentValue(ast, st.columns[i], t->columns[i].affinity, *absent_bytes);
    if (v.is_null()) continue;
    absent.resize(st.columns.size());
    absent[i] = v;
  }
  if (!absent.empty()) {
    t->absent = std::move(absent);
    t->absent_bytes = std::move(absent_bytes);
  }
  for (const sql::TableConstraint& tc : st.constraints) {
    if (tc.kind == sql::TableConstraint::Kind::kCheck) {
      t->checks.push_back({tc.check.name.empty() ? tc.check.text : tc.check.name, tc.check.text});
    }
    if (tc.kind == sql::TableConstraint::Kind::kForeignKey) {
      for (const sql::IndexedColumn& ic : tc.columns) {
        if (t->FindColumn(ic.name) < 0) {
          return Status::SqlError("unknown column \"" + ic.name + "\" in foreign key definition");
        }
      }
    }
    if (tc.kind == sql::TableConstraint::Kind::kUnique) {
      // AutoIndexes builds the index; its columns are checked here, as
      // sqlite3 checks them when it parses the constraint.
      for (const sql::IndexedColumn& ic : tc.columns) {
        if (t->FindColumn(ic.name) < 0) return NoSuchColumn(ic);
      }
    }
    if (tc.kind != sql::TableConstraint::Kind::kPrimaryKey) continue;
    ++pk_count;
    for (const sql::IndexedColumn& ic : tc.columns) {
      int col = t->FindColumn(ic.name);
      if (col < 0) return NoSuchColumn(ic);
      t->columns[static_cast<size_t>(col)].primary_key = true;
    }
    if (tc.columns.size() == 1) {
      int col = t->FindColumn(tc.columns[0].name);
      if (IsIntegerType(t->columns[static_cast<size_t>(col)].type)) {
        t->rowid_alias = col;
        t->rowid_conflict = tc.conflict;
      }
    }
  }
  if (pk_count > 1) {
    return Status::SqlError("table \"" + st.name + "\" has more than one primary key");
  }
  if (pk_count == 1 && t->rowid_alias < 0) {
    // Only the alias case is settled above; a composite or non-INTEGER key
    // stays an ordinary (indexed) set of columns.
  }
  if (t->columns.empty()) return Status::SqlError("no such table: " + st.name);
  return t;
}

namespace {

// The collation of one index key column: the index definition's COLLATE,
// else the table column's (SQLite's rule). Unknown names were refused when
// the statement was checked; here they fall back to BINARY.
func::Collation KeyCollation(const TableInfo& table, int col, const std::string& explicit_name) {
  if (!explicit_name.empty()) {
    return func::CollationByName(explicit_name).value_or(func::Collation::kBinary);
  }
  return table.columns[static_cast<size_t>(col)].collation;
}

void AddKey(IndexInfo* ix, int col, bool desc, func::Collation coll) {
  ix->columns.push_back(col);
  ix->keys.push_back({desc, coll});
  if (coll != func::Collation::kBinary) ix->binary_collation = false;
}

}  // namespace

std::vector<std::unique_ptr<IndexInfo>> AutoIndexesFor(const sql::CreateTableStmt& st,
                                                       const TableInfo& table) {
  std::vector<std::unique_ptr<IndexInfo>> out;
  auto add = [&](std::unique_ptr<IndexInfo> ix, sql::ConflictAction conflict) {
    for (const auto& have : out) {
      if (have->columns == ix->columns) {
        // SQLite skips a duplicate constraint, keeping an ON CONFLICT the
        // first one did not give.
        if (have->conflict == sql::ConflictAction::kDefault) have->conflict = conflict;
        return;
      }
    }
    ix->table = table.name;
    ix->unique = true;
    ix->automatic = true;
    ix->conflict = conflict;
    ix->name = "sqlite_autoindex_" + table.name + "_" + std::to_string(out.size() + 1);
    out.push_back(std::move(ix));
  };
  for (size_t i = 0; i < st.columns.size(); ++i) {
    const sql::ColumnDef& cd = st.columns[i];
    const int col = static_cast<int>(i);
    if (cd.primary_key && table.rowid_alias != col) {
      auto ix = std::make_unique<IndexInfo>();
      AddKey(ix.get(), col, cd.primary_key_order == sql::SortOrder::kDesc,
             table.columns[i].collation);
      add(std::move(ix), cd.primary_key_conflict);
    }
    if (cd.unique) {
      auto ix = std::make_unique<IndexInfo>();
      AddKey(ix.get(), col, false, table.columns[i].collation);
      add(std::move(ix), cd.unique_conflict);
    }
  }
  for (const sql::TableConstraint& tc : st.constraints) {
    if (tc.kind != sql::TableConstraint::Kind::kPrimaryKey &&
        tc.kind != sql::TableConstraint::Kind::kUnique) {
      continue;
    }
    if (tc.kind == sql::TableConstraint::Kind::kPrimaryKey && table.rowid_alias >= 0) continue;
    auto ix = std::make_unique<IndexInfo>();
    for (const sql::IndexedColumn& ic : tc.columns) {
      // TableFromAst refused the statement when a key column is missing.
      const int col = table.FindColumn(ic.name);
      AddKey(ix.get(), col, ic.order == sql::SortOrder::kDesc,
             KeyCollation(table, col, ic.collation));
    }
    add(std::move(ix), tc.conflict);
  }
  return out;
}

Result<std::unique_ptr<IndexInfo>> IndexFromAst(const sql::CreateIndexStmt& st,
                                                const TableInfo& table) {
  auto ix = std::make_unique<IndexInfo>();
  ix->name = st.name;
  ix->table = table.name;
  ix->unique = st.unique;
  ix->partial = st.where != sql::kNoExpr;
  for (const sql::IndexedColumn& ic : st.columns) {
    int col = table.FindColumn(ic.name);
    if (col < 0) return NoSuchColumn(ic);
    AddKey(ix.get(), col, ic.order == sql::SortOrder::kDesc,
           KeyCollation(table, col, ic.collation));
  }
  return ix;
}

}  // namespace engine::catalog
