#include "engine/exec/ddl_run.h"

#include <algorithm>
#include <optional>

#include "engine/exec/trigger_ddl.h"
#include "engine/planner/planner.h"
#include "engine/storage/btree_cursor.h"
#include "engine/storage/key_sorter.h"
#include "engine/storage/record.h"
#include "engine/storage/schema_table.h"

namespace engine::exec {

using catalog::EqualsNoCase;

namespace {

bool Reserved(const std::string& name) {
  return name.size() >= 7 && EqualsNoCase(name.substr(0, 7), "sqlite_");
}

// A new object's name against those of the database it goes into, `in`
// (a TEMP table may share a main table's name). `name_at`: where the name is
// in the statement's text (-1: unknown), which SQLite reports for the
// "already exists" errors of CREATE TABLE and VIEW.
Status CheckNewName(const catalog::Schema& schema, catalog::DbScope in, const std::string& name,
                    const char* kind, int name_at = -1) {
  if (Reserved(name)) return Status::SqlError("object name reserved for internal use: " + name);
  if (const catalog::TableInfo* t = schema.FindTable(name, in)) {
    if (std::string(kind) == "index")
      return Status::SqlError("there is already a table named " + t->name);
    return Status::SqlError("table " + name + " already exists").WithOffset(name_at);
  }
  if (schema.FindView(name, in) != nullptr) {
    if (std::string(kind) == "index")
      return Status::SqlError("there is already a table named " + name);
    return Status::SqlError("view " + name + " already exists").WithOffset(name_at);
  }
  if (schema.FindIndex(name, in) != nullptr) {
    if (std::string(kind) == "index") return Status::SqlError("index " + name + " already exists");
    return Status::SqlError("there is already an index named " + name);
  }
  return Status::OK();
}

// What an index build may hold in memory before it writes sorted runs to a
// temporary file: the page cache's size, as SQLite's sorter takes its
// budget from cache_size, and never less than 1 MiB.
size_t SortBudget(BTree& tree) {
  return std::max<size_t>(tree.pager().cache_bytes(), size_t{1} << 20);
}

// Fills a new (empty) index from its table's rows: the keys are sorted
// (KeySorter; runs spill to a temporary file past the budget) and the tree
// is built bottom-up from them (BTree::BulkLoadIndex), as sqlite3 builds an
// index from its sorter. A UNIQUE index fails on the first two neighbours
// in that order whose columns are equal and not NULL.
Status PopulateIndex(BTree& tree, const catalog::TableInfo& t, const catalog::IndexInfo& ix) {
  const KeyOrder order = ix.key_order();
  KeySorter sorter(tree.pager().env(), order, SortBudget(tree), tree.file_format());
  {
    BtCursor rows(&tree, t.root);
    RecordReader reader;
    reader.set_absent(t.absent);
    std::vector<Value> key;
    ENGINE_RETURN_IF_ERROR(rows.first());
    while (rows.valid()) {
      std::span<const uint8_t> payload;
      ENGINE_RETURN_IF_ERROR(rows.payload(&payload));
      ENGINE_RETURN_IF_ERROR(reader.Parse(payload.data(), payload.size()));
      const int64_t rowid = rows.rowid();
      key.clear();
      for (int c : ix.columns)
        key.push_back(c == t.rowid_alias ? Value::Integer(rowid) : reader.column(c));
      key.push_back(Value::Integer(rowid));
      ENGINE_RETURN_IF_ERROR(sorter.Add(key));  // copies the row's bytes it keeps
      ENGINE_RETURN_IF_ERROR(rows.next());
    }
  }
  ENGINE_RETURN_IF_ERROR(sorter.Finish());
  const int ncols = static_cast<int>(ix.columns.size());
  std::vector<uint8_t> prev;  // the previous key's record (never empty), for the UNIQUE check
  return tree.BulkLoadIndex(ix.root, [&](std::span<const uint8_t>* out) -> Result<bool> {
    ENGINE_ASSIGN_OR_RETURN(bool more, sorter.Next());
    if (!more) return false;
    if (ix.unique) {
      const std::span<const Value> key = sorter.key();
      bool has_null = false;
      for (int i = 0; i < ncols; ++i) has_null |= key[static_cast<size_t>(i)].is_null();
      if (!prev.empty() && !has_null) {
        int c = 0;
        ENGINE_RETURN_IF_ERROR(
            compare_record(prev.data(), prev.size(), key.data(), ncols, order, &c));
        if (c == 0) return catalog::UniqueFailed(t, ix);
      }
      prev.assign(sorter.record().begin(), sorter.record().end());
    }
    *out = sorter.record();
    return true;
  });
}

// A TEMP object's name takes no qualifier (`refused` says so); otherwise
// "temp." makes it one.
Result<catalog::Db> NamedTarget(bool temporary, const std::string& qualifier, const char* refused) {
  if (temporary) {
    if (!qualifier.empty()) return Status::SqlError(refused);
    return catalog::Db::kTemp;
  }
  ENGINE_ASSIGN_OR_RETURN(catalog::DbScope scope, catalog::KnownQualifier(qualifier));
  return scope == catalog::DbScope::kTemp ? catalog::Db::kTemp : catalog::Db::kMain;
}

bool NamesTemp(const std::vector<sql::TableRef>& refs) {
  for (const sql::TableRef& r : refs) {
    if (catalog::ScopeOfQualifier(r.schema) == catalog::DbScope::kTemp || NamesTemp(r.group)) {
      return true;
    }
  }
  return false;
}

// The table CREATE INDEX names: in main for "main.", else temp then main.
const catalog::TableInfo* IndexTable(const catalog::Schema& schema, catalog::DbScope scope,
                                     const sql::CreateIndexStmt& st) {
  return schema.FindTable(st.table,
                          scope == catalog::DbScope::kMain ? scope : catalog::DbScope::kAny);
}

}  // namespace

Result<catalog::Db> CreateTarget(const sql::Statement& s, const catalog::Schema& schema) {
  if (const auto* st = s.as<sql::CreateTableStmt>()) {
    return NamedTarget(st->temporary, st->schema, "temporary table name must be unqualified");
  }
  if (const auto* st = s.as<sql::CreateViewStmt>()) {
    return NamedTarget(st->temporary, st->schema, "temporary table name must be unqualified");
  }
  if (const auto* st = s.as<sql::CreateIndexStmt>()) {
    ENGINE_ASSIGN_OR_RETURN(catalog::DbScope scope, catalog::KnownQualifier(st->schema));
    const catalog::TableInfo* t = IndexTable(schema, scope, *st);
    if (t == nullptr)
      return scope == catalog::DbScope::kTemp ? catalog::Db::kTemp : catalog::Db::kMain;
    if (scope == catalog::DbScope::kTemp && t->db == catalog::Db::kMain) {
      return Status::SqlError("cannot create a TEMP index on non-TEMP table \"" + t->name + "\"");
    }
    return t->db;
  }
  if (const auto* st = s.as<sql::CreateTriggerStmt>()) {
    ENGINE_ASSIGN_OR_RETURN(
        catalog::Db db,
        NamedTarget(st->temporary, st->schema, "temporary trigger may not have qualified name"));
    ENGINE_ASSIGN_OR_RETURN(catalog::DbScope table_scope,
                            catalog::KnownQualifier(st->table_schema));
    if (db == catalog::Db::kTemp) return db;
    const bool in_temp = schema.FindTable(st->table, catalog::DbScope::kTemp) != nullptr ||
                         schema.FindView(st->table, catalog::DbScope::kTemp) != nullptr;
    if (table_scope == catalog::DbScope::kTemp) {
      // A main trigger may not name the temp database.
      if (!st->schema.empty() || !in_temp) {
        return Status::SqlError("trigger " + st->name +
                                " cannot reference objects in database temp")
            .WithOffset(static_cast<int>(st->name_at));
      }
      return catalog::Db::kTemp;
    }
    // A trigger on a temp table is a TEMP trigger, unless its name says main
    // (then main's table of that name is looked for).
    if (table_scope == catalog::DbScope::kAny && st->schema.empty() && in_temp) {
      return catalog::Db::kTemp;
    }
    return db;
  }
  return catalog::Db::kMain;
}

Status CreateTable(BTree& tree, catalog::Db target, const catalog::Schema& schema,
                   const sql::CreateTableStmt& st, const sql::Ast& ast) {
  const catalog::DbScope in = catalog::ScopeOf(target);
  if (st.as_select) return Status::NotSupported("CREATE TABLE ... AS SELECT is not supported");
  if (st.without_rowid) return Status::NotSupported("WITHOUT ROWID tables are not supported");
  if (schema.FindTable(st.name, in) != nullptr || schema.FindView(st.name, in) != nullptr) {
    if (st.if_not_exists) return Status::OK();
  }
  ENGINE_RETURN_IF_ERROR(CheckNewName(schema, in, st.name, "table", static_cast<int>(st.name_at)));
  // Only the built-in collations exist: a column or key ordered by another
  // could not be compared (sqlite3 refuses it here too).
  auto known = [](const std::string& name) {
    return name.empty() || func::CollationByName(name).has_value();
  };
  for (const sql::ColumnDef& cd : st.columns) {
    if (!known(cd.collation))
      return Status::SqlError("no such collation sequence: " + cd.collation);
  }
  for (const sql::TableConstraint& tc : st.constraints) {
    for (const sql::IndexedColumn& ic : tc.columns) {
      if (!known(ic.collation)) {
        return Status::SqlError("no such collation sequence: " + ic.collation);
      }
    }
  }
  ENGINE_ASSIGN_OR_RETURN(auto table, catalog::TableFromAst(st, ast));
  table->db = target;
  if (!table->checks.empty()) {
    // sqlite3 resolves a CHECK when the table is created: an unknown
    // column or function, a subquery or a parameter is refused then.
    plan::Program scratch;
    plan::Planner planner(schema, &scratch);
    ENGINE_RETURN_IF_ERROR(planner.ValidateChecks(ast, st, *table));
  }
  ENGINE_ASSIGN_OR_RETURN(table->root, tree.CreateTable());
  SchemaEntry e;
  e.type = "table";
  e.name = st.name;
  e.tbl_name = st.name;
  e.rootpage = table->root;
  e.sql = st.schema_sql;
  ENGINE_RETURN_IF_ERROR(AddSchemaEntry(tree, &e));
  for (auto& ix : catalog::AutoIndexesFor(st, *table)) {
    SchemaEntry ie;
    ie.type = "index";
    ie.name = ix->name;
    ie.tbl_name = st.name;
    ENGINE_ASSIGN_OR_RETURN(ie.rootpage, tree.CreateIndex());
    ENGINE_RETURN_IF_ERROR(AddSchemaEntry(tree, &ie));
  }
  return Status::OK();
}

Status CreateIndex(BTree& tree, catalog::Db target, const catalog::Schema& schema,
                   const sql::CreateIndexStmt& st) {
  const catalog::DbScope in = catalog::ScopeOf(target);
  if (schema.FindIndex(st.name, in) != nullptr && st.if_not_exists) return Status::OK();
  ENGINE_ASSIGN_OR_RETURN(catalog::DbScope scope, catalog::KnownQualifier(st.schema));
  const catalog::TableInfo* t = IndexTable(schema, scope, st);
  if (t == nullptr) {
    if (schema.FindView(st.table, in) != nullptr)
      return Status::SqlError("views may not be indexed");
    // sqlite3 names main for an unqualified index, nothing for "temp.".
    return Status::SqlError(
        "no such table: " + std::string(scope == catalog::DbScope::kTemp ? "" : "main.") +
        st.table);
  }
  if (t->root == 1 || Reserved(t->name)) {
    return Status::SqlError("table " + t->name + " may not be indexed");
  }
  ENGINE_RETURN_IF_ERROR(CheckNewName(schema, in, st.name, "index"));
  if (st.where != sql::kNoExpr) return Status::NotSupported("partial indexes are not supported");
  for (const sql::IndexedColumn& ic : st.columns) {
    if (!ic.collation.empty() && !func::CollationByName(ic.collation)) {
      return Status::SqlError("no such collation sequence: " + ic.collation);
    }
  }
  ENGINE_ASSIGN_OR_RETURN(auto ix, catalog::IndexFromAst(st, *t));
  ENGINE_ASSIGN_OR_RETURN(ix->root, tree.CreateIndex());
  ENGINE_RETURN_IF_ERROR(PopulateIndex(tree, *t, *ix));
  SchemaEntry e;
  e.type = "index";
  e.name = st.name;
  e.tbl_name = t->name;
  e.rootpage = ix->root;
  e.sql = st.schema_sql;
  return AddSchemaEntry(tree, &e);
}

Result<std::vector<const catalog::IndexInfo*>> ReindexTargets(const catalog::Schema& schema,
                                                              const sql::ReindexStmt& st) {
  std::vector<const catalog::IndexInfo*> out;
  // Every index of every database, or those with a key column under `coll`.
  auto every = [&](std::optional<func::Collation> coll) {
    for (const catalog::Schema* part : {&schema, schema.temp()}) {
      if (part == nullptr) continue;
      for (const catalog::TableInfo* t : part->tables_in_order()) {
        for (const catalog::IndexInfo* ix : t->indexes) {
          if (!coll || std::any_of(ix->keys.begin(), ix->keys.end(),
                                   [&](const KeyColumn& k) { return k.coll == *coll; }))
            out.push_back(ix);
        }
      }
    }
  };
  if (st.name.empty()) {
    every(std::nullopt);
    return out;
  }
  if (st.schema.empty()) {
    if (const auto coll = func::CollationByName(st.name)) {
      every(coll);
      return out;
    }
  }
  auto scope = catalog::KnownQualifier(st.schema);
  if (!scope.ok()) return Status(scope.status()).WithOffset(static_cast<int>(st.name_at));
  // Unqualified, sqlite3 looks in main only.
  const catalog::DbScope in = st.schema.empty() ? catalog::DbScope::kMain : *scope;
  if (const catalog::TableInfo* t = schema.FindTable(st.name, in)) {
    out.assign(t->indexes.begin(), t->indexes.end());
    return out;
  }
  // A view is a table without indexes to sqlite3: nothing to rebuild.
  if (schema.FindView(st.name, in) != nullptr) return out;
  if (const catalog::IndexInfo* ix = schema.FindIndex(st.name, in)) {
    out.push_back(ix);
    return out;
  }
  return Status::SqlError("unable to identify the object to be reindexed");
}

Status Reindex(const Trees& trees, const catalog::Schema& schema, const sql::ReindexStmt& st) {
  ENGINE_ASSIGN_OR_RETURN(auto indexes, ReindexTargets(schema, st));
  for (const catalog::IndexInfo* ix : indexes) {
    const catalog::TableInfo* t = schema.FindTable(ix->table, catalog::ScopeOf(ix->db));
    if (t == nullptr) return Status::Corruption("index " + ix->name + " has no table " + ix->table);
    // The engine cannot evaluate a partial index's WHERE here, nor build a
    // WITHOUT ROWID table's keys: refused rather than built wrong.
    if (ix->partial)
      return Status::NotSupported("cannot rebuild partial index " + ix->name +
                                  " (partial indexes are not supported)");
    if (t->without_rowid)
      return Status::NotSupported("cannot rebuild index " + ix->name + " of WITHOUT ROWID table " +
                                  t->name);
    BTree& tree = *trees.of(ix->db);
    ENGINE_RETURN_IF_ERROR(tree.ClearTree(ix->root));
    ENGINE_RETURN_IF_ERROR(PopulateIndex(tree, *t, *ix));
  }
  return Status::OK();
}

Status CreateView(BTree& tree, catalog::Db target, const catalog::Schema& schema,
                  const sql::CreateViewStmt& st, const sql::Ast& ast) {
  // A main view outlives the connection's temp database: sqlite3 refuses
  // one that names it ("temp.t" anywhere in its body, subqueries too).
  if (target == catalog::Db::kMain) {
    for (const sql::Select& sel : ast.selects) {
      for (const sql::SelectCore& core : sel.cores) {
        if (NamesTemp(core.from)) {
          return Status::SqlError("view " + st.name + " cannot reference objects in database temp")
              .WithOffset(static_cast<int>(st.name_at));
        }
      }
    }
  }
  const catalog::DbScope in = catalog::ScopeOf(target);
  if (schema.FindView(st.name, in) != nullptr && st.if_not_exists) return Status::OK();
  ENGINE_RETURN_IF_ERROR(CheckNewName(schema, in, st.name, "view", static_cast<int>(st.name_at)));
  SchemaEntry e;
  e.type = "view";
  e.name = st.name;
  e.tbl_name = st.name;
  e.rootpage = 0;
  e.sql = st.schema_sql;
  return AddSchemaEntry(tree, &e);
}

Status Drop(const Trees& trees, const catalog::Schema& schema, const sql::DropStmt& st) {
  if (st.kind == sql::DropStmt::Kind::kTrigger) return DropTrigger(trees, schema, st);
  std::optional<catalog::DbScope> known = catalog::ScopeOfQualifier(st.schema);
  const catalog::DbScope in = known.value_or(catalog::DbScope::kAny);
  // sqlite3 names the object as the statement qualified it.
  const std::string shown = (st.schema.empty() ? "" : st.schema + ".") + st.name;
  const catalog::TableInfo* t = known ? schema.FindTable(st.name, in) : nullptr;
  const catalog::ViewInfo* v = known ? schema.FindView(st.name, in) : nullptr;
  switch (st.kind) {
    case sql::DropStmt::Kind::kTable: {
      if (t == nullptr) {
        // The wrong kind is an error even with IF EXISTS, as in sqlite3.
        if (v != nullptr) return Status::SqlError("use DROP VIEW to delete view " + st.name);
        if (st.if_exists) return Status::OK();
        return Status::SqlError("no such table: " + shown);
      }
      if (t->root == 1 || Reserved(t->name)) {
        return Status::SqlError("table " + t->name + " may not be dropped");
      }
      BTree& tree = *trees.of(t->db);
      ENGINE_RETURN_IF_ERROR(DropTriggersOf(trees, t->triggers));
      for (const catalog::IndexInfo* ix : t->indexes) {
        ENGINE_RETURN_IF_ERROR(tree.DropTree(ix->root));
        ENGINE_RETURN_IF_ERROR(RemoveSchemaEntry(tree, ix->name));
      }
      ENGINE_RETURN_IF_ERROR(tree.DropTree(t->root));
      return RemoveSchemaEntry(tree, t->name);
    }
    case sql::DropStmt::Kind::kIndex: {
      const catalog::IndexInfo* ix = known ? schema.FindIndex(st.name, in) : nullptr;
      if (ix == nullptr) {
        if (st.if_exists) return Status::OK();
        return Status::SqlError("no such index: " + shown);
      }
      if (ix->automatic) {
        return Status::SqlError(
            "index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped");
      }
      BTree& tree = *trees.of(ix->db);
      ENGINE_RETURN_IF_ERROR(tree.DropTree(ix->root));
      return RemoveSchemaEntry(tree, ix->name);
    }
    case sql::DropStmt::Kind::kView: {
      if (v == nullptr) {
        if (t != nullptr) return Status::SqlError("use DROP TABLE to delete table " + st.name);
        if (st.if_exists) return Status::OK();
        return Status::SqlError("no such view: " + shown);
      }
      ENGINE_RETURN_IF_ERROR(DropTriggersOf(trees, v->triggers));
      return RemoveSchemaEntry(*trees.of(v->db), v->name);
    }
    case sql::DropStmt::Kind::kTrigger:
      break;
  }
  return Status::OK();
}

}  // namespace engine::exec
