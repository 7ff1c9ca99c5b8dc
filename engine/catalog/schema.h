// The in-memory schema: tables with their columns' affinities, the rowid
// alias, indexes (named and sqlite_autoindex_*) and views, built from the
// CREATE statements stored in sqlite_schema. Names match case-insensitively,
// as in SQLite.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/func/affinity.h"
#include "engine/func/collation.h"
#include "engine/func/value_arena.h"
#include "engine/sql/ast.h"
#include "engine/status.h"
#include "engine/storage/key_column.h"

namespace engine::catalog {

using func::Affinity;
using func::AffinityOfType;
using func::IsNumericAffinity;

// The databases of a connection: the file ("main") and the connection's own
// in-memory "temp" database, which holds TEMP tables, views and triggers.
enum class Db : uint8_t { kMain, kTemp };

// Where a name is looked up: SQLite searches temp, then main, for a name
// without a qualifier; "main." or "temp." names one database.
enum class DbScope : uint8_t { kAny, kMain, kTemp };
inline DbScope ScopeOf(Db db) { return db == Db::kTemp ? DbScope::kTemp : DbScope::kMain; }
// The scope a qualifier names ("" is kAny), or nothing for an unknown database.
std::optional<DbScope> ScopeOfQualifier(std::string_view qualifier);
// The same, or sqlite3's "unknown database x" where a statement names a
// database to create or look in (FROM items say "no such table" instead).
Result<DbScope> KnownQualifier(std::string_view qualifier);

struct ColumnInfo {
  std::string name;
  std::string type;  // declared type as written
  Affinity affinity = Affinity::kBlob;
  // COLLATE of the definition: comparisons, GROUP BY, DISTINCT, compound
  // selects, min()/max(), ORDER BY and the column's indexes use it.
  func::Collation collation = func::Collation::kBinary;
  bool not_null = false;
  bool primary_key = false;
  std::optional<std::string> default_sql;  // DEFAULT expression as SQL text
  sql::ConflictAction not_null_conflict = sql::ConflictAction::kDefault;  // NOT NULL ON CONFLICT
};

struct IndexInfo {
  std::string name;
  std::string table;
  Db db = Db::kMain;  // its table's database
  uint32_t root = 0;
  std::vector<int> columns;  // table column positions, in key order
  // Per key column: its direction and collation (the COLLATE of the index
  // definition, else the table column's). The rowid that follows is
  // ascending and BINARY. The B-tree is ordered by these.
  std::vector<KeyColumn> keys;
  bool unique = false;
  bool binary_collation = true;  // every key column is BINARY
  bool partial = false;          // WHERE clause: never used by the planner
  bool automatic = false;        // sqlite_autoindex_*: sql is NULL
  // ON CONFLICT of the UNIQUE / PRIMARY KEY constraint behind an automatic
  // index; CREATE UNIQUE INDEX has none (kDefault: ABORT).
  sql::ConflictAction conflict = sql::ConflictAction::kDefault;

  // The key order as BtCursor and BTree::InsertIndex take it: empty when
  // every column is ascending and BINARY, which compares on the fast path.
  KeyOrder key_order() const {
    for (const KeyColumn& k : keys) {
      if (k != KeyColumn{}) return keys;
    }
    return {};
  }
};

// A CHECK constraint of a table, from its CREATE TABLE text.
struct CheckInfo {
  std::string label;  // what "CHECK constraint failed: " names: its name, else its text
  std::string sql;    // the expression as written
};

struct TriggerInfo;

struct TableInfo {
  std::string name;
  Db db = Db::kMain;  // the B-tree file `root` is a page of
  uint32_t root = 0;
  std::vector<ColumnInfo> columns;
  int rowid_alias = -1;  // INTEGER PRIMARY KEY column, or -1
  // ON CONFLICT of that INTEGER PRIMARY KEY: what a rowid collision does.
  sql::ConflictAction rowid_conflict = sql::ConflictAction::kDefault;
  bool without_rowid = false;
  std::vector<const IndexInfo*> indexes;  // owned by the Schema
  // In the order SQLite fires them: TEMP triggers on a main table first,
  // then the last created first. Owned by the Schema (the temp part's by
  // it); empty for almost every table, which is all a DML statement
  // looks at when it has none.
  std::vector<const TriggerInfo*> triggers;
  // In declaration order (column constraints, then the table's), the order
  // sqlite3 evaluates them in. Empty for most tables: a write then pays
  // nothing for them.
  std::vector<CheckInfo> checks;
  // What each column reads as in a row whose record ends before it (written
  // before sqlite3's ALTER TABLE ADD COLUMN): its DEFAULT as sqlite3 reads
  // it there (catalog/absent_value.h). Empty when all would read NULL, as
  // for nearly every table; RecordReader::set_absent takes it.
  std::vector<Value> absent;
  std::shared_ptr<func::ValueArena> absent_bytes;  // the text and blob bytes of `absent`

  int FindColumn(std::string_view name) const;  // -1 when absent
};

struct TriggerInfo {
  std::string name;
  Db db = Db::kMain;        // where it is stored
  Db table_db = Db::kMain;  // its table's or view's: a TEMP trigger may fire on a main table
  std::string table;        // as the CREATE TRIGGER names it
  std::string sql;          // CREATE TRIGGER ..., as stored in sqlite_schema
  sql::CreateTriggerStmt::Timing timing = sql::CreateTriggerStmt::Timing::kBefore;
  sql::CreateTriggerStmt::Event event = sql::CreateTriggerStmt::Event::kInsert;
  std::vector<std::string> columns;  // UPDATE OF; empty: any column
};

struct ViewInfo {
  std::string name;
  Db db = Db::kMain;  // a main view's body names main's tables only
  std::string sql;
  std::vector<std::string> columns;          // explicit column names, if any
  std::vector<const TriggerInfo*> triggers;  // INSTEAD OF, newest first
};

bool EqualsNoCase(std::string_view a, std::string_view b);
std::string LowerCase(std::string_view s);

// The catalog of the main database, with the temp database's beside it.
// Find* search as SQLite does (temp first for kAny); the listings below are
// of this database only.
class Schema {
 public:
  const TableInfo* FindTable(std::string_view name, DbScope scope = DbScope::kAny) const;
  const IndexInfo* FindIndex(std::string_view name, DbScope scope = DbScope::kAny) const;
  const ViewInfo* FindView(std::string_view name, DbScope scope = DbScope::kAny) const;
  const TriggerInfo* FindTrigger(std::string_view name, DbScope scope = DbScope::kAny) const;
  // The temp database's catalog; null until the connection has one.
  const Schema* temp() const { return temp_.get(); }
  // Adopts the temp catalog and lists its triggers on main's tables and
  // views first among theirs, as SQLite fires them.
  void SetTemp(std::unique_ptr<Schema> temp);
  const std::map<std::string, std::unique_ptr<TriggerInfo>>& triggers() const { return triggers_; }
  const std::map<std::string, std::unique_ptr<TableInfo>>& tables() const { return tables_; }
  const std::map<std::string, std::unique_ptr<ViewInfo>>& views() const { return views_; }
  // Tables in the order they were added (sqlite_schema's order, when
  // loaded): sqlite3 reports some things, integrity_check's, in it.
  const std::vector<const TableInfo*>& tables_in_order() const { return table_order_; }

  TableInfo* AddTable(std::unique_ptr<TableInfo> t);
  const IndexInfo* AddIndex(std::unique_ptr<IndexInfo> ix);
  void AddView(std::unique_ptr<ViewInfo> v);
  // Also lists it first among its table's triggers (when the table exists
  // and is of this database).
  void AddTrigger(std::unique_ptr<TriggerInfo> t);

 private:
  template <typename T>
  using Map = std::map<std::string, std::unique_ptr<T>>;
  // One search order for every kind of object: temp first, then main,
  // unless the scope names one of them.
  template <typename T>
  const T* Find(Map<T> Schema::*member, std::string_view name, DbScope scope) const;
  // The schema a scope other than kAny names: this one or temp_ (null: none).
  const Schema* Part(DbScope scope) const { return scope == DbScope::kTemp ? temp_.get() : this; }

  std::unique_ptr<Schema> temp_;
  std::map<std::string, std::unique_ptr<TableInfo>> tables_;  // keyed by lower-case name
  std::vector<const TableInfo*> table_order_;
  std::map<std::string, std::unique_ptr<IndexInfo>> indexes_;
  std::map<std::string, std::unique_ptr<ViewInfo>> views_;
  std::map<std::string, std::unique_ptr<TriggerInfo>> triggers_;
  // Triggers on a table or view of another database (TEMP triggers on main
  // objects), in the order added.
  std::vector<const TriggerInfo*> unlinked_triggers_;
};

// A table's description from its CREATE TABLE (root page filled by the caller).
Result<std::unique_ptr<TableInfo>> TableFromAst(const sql::CreateTableStmt& st,
                                                const sql::Ast& ast);
// The automatic indexes a CREATE TABLE implies (UNIQUE columns and
// constraints, a PRIMARY KEY that is not a rowid alias), in SQLite's order
// and with SQLite's names: sqlite_autoindex_<table>_<N>. `table` is what
// TableFromAst made of `st` (it checked every key column exists).
std::vector<std::unique_ptr<IndexInfo>> AutoIndexesFor(const sql::CreateTableStmt& st,
                                                       const TableInfo& table);
Result<std::unique_ptr<IndexInfo>> IndexFromAst(const sql::CreateIndexStmt& st,
                                                const TableInfo& table);
// "no such column: x" for a key column (index, constraint, UPSERT target)
// the table lacks, at the name's offset, as sqlite3 reports it.
Status NoSuchColumn(const sql::IndexedColumn& ic);
// "UNIQUE constraint failed: t.a, t.b": sqlite3's message for a duplicate
// key of `ix`, from an insert, an update or an index build alike.
Status UniqueFailed(const TableInfo& table, const IndexInfo& ix);

}  // namespace engine::catalog
