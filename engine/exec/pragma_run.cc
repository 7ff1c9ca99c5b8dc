// Each pragma's answer is built the way sqlite3 3.40's pragma.c builds it:
// the same columns, the same row order, the same types (integers where it
// returns integers), so that the shell's output diffs clean.
#include "engine/exec/pragma_run.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>
#include <optional>

#include "engine/exec/integrity_check.h"
#include "engine/planner/view_columns.h"

namespace engine::exec {
namespace {

using catalog::EqualsNoCase;

enum class Pragma {
  kNone,  // not a pragma sqlite3 knows: a no-op
  kUnsupported,
  kTableInfo,
  kTableXinfo,
  kIndexList,
  kIndexInfo,
  kIndexXinfo,
  kDatabaseList,
  kPageSize,
  kPageCount,
  kFreelistCount,
  kSchemaVersion,
  kUserVersion,
  kApplicationId,
  kEncoding,
  kJournalMode,
  kIntegrityCheck,
  kQuickCheck,
  kIgnoreCheckConstraints,
};

struct PragmaDef {
  const char* name;
  Pragma pragma;
  std::vector<std::string> columns;
};

const std::vector<PragmaDef>& Pragmas() {
  // Every pragma of sqlite3 3.40's `PRAGMA pragma_list`: the ones not
  // implemented here must fail rather than answer nothing.
  static const std::vector<PragmaDef> defs = [] {
    std::vector<PragmaDef> d = {
        {"table_info", Pragma::kTableInfo, {"cid", "name", "type", "notnull", "dflt_value", "pk"}},
        {"table_xinfo",
         Pragma::kTableXinfo,
         {"cid", "name", "type", "notnull", "dflt_value", "pk", "hidden"}},
        {"index_list", Pragma::kIndexList, {"seq", "name", "unique", "origin", "partial"}},
        {"index_info", Pragma::kIndexInfo, {"seqno", "cid", "name"}},
        {"index_xinfo", Pragma::kIndexXinfo, {"seqno", "cid", "name", "desc", "coll", "key"}},
        {"database_list", Pragma::kDatabaseList, {"seq", "name", "file"}},
        {"page_size", Pragma::kPageSize, {"page_size"}},
        {"page_count", Pragma::kPageCount, {"page_count"}},
        {"freelist_count", Pragma::kFreelistCount, {"freelist_count"}},
        {"schema_version", Pragma::kSchemaVersion, {"schema_version"}},
        {"user_version", Pragma::kUserVersion, {"user_version"}},
        {"application_id", Pragma::kApplicationId, {"application_id"}},
        {"encoding", Pragma::kEncoding, {"encoding"}},
        {"journal_mode", Pragma::kJournalMode, {"journal_mode"}},
        {"integrity_check", Pragma::kIntegrityCheck, {"integrity_check"}},
        {"quick_check", Pragma::kQuickCheck, {"quick_check"}},
        {"ignore_check_constraints", Pragma::kIgnoreCheckConstraints, {"ignore_check_constraints"}},
    };
    for (const char* name : {"analysis_limit",
                             "auto_vacuum",
                             "automatic_index",
                             "busy_timeout",
                             "cache_size",
                             "cache_spill",
                             "case_sensitive_like",
                             "cell_size_check",
                             "checkpoint_fullfsync",
                             "collation_list",
                             "compile_options",
                             "count_changes",
                             "data_version",
                             "default_cache_size",
                             "defer_foreign_keys",
                             "empty_result_callbacks",
                             "foreign_key_check",
                             "foreign_key_list",
                             "foreign_keys",
                             "full_column_names",
                             "fullfsync",
                             "function_list",
                             "hard_heap_limit",
                             "incremental_vacuum",
                             "journal_size_limit",
                             "legacy_alter_table",
                             "locking_mode",
                             "max_page_count",
                             "mmap_size",
                             "module_list",
                             "optimize",
                             "pragma_list",
                             "query_only",
                             "read_uncommitted",
                             "recursive_triggers",
                             "reverse_unordered_selects",
                             "secure_delete",
                             "short_column_names",
                             "shrink_memory",
                             "soft_heap_limit",
                             "synchronous",
                             "table_list",
                             "temp_store",
                             "temp_store_directory",
                             "threads",
                             "trusted_schema",
                             "wal_autocheckpoint",
                             "wal_checkpoint",
                             "writable_schema"}) {
      d.push_back({name, Pragma::kUnsupported, {}});
    }
    return d;
  }();
  return defs;
}

const PragmaDef* FindPragma(std::string_view name) {
  for (const PragmaDef& d : Pragmas()) {
    if (EqualsNoCase(d.name, name)) return &d;
  }
  return nullptr;
}

// The database "PRAGMA x.name" names: kAny without a qualifier.
Result<catalog::DbScope> PragmaScope(const sql::PragmaStmt& p) {
  Result<catalog::DbScope> scope = catalog::KnownQualifier(p.schema);
  if (!scope.ok()) return Status(scope.status()).WithOffset(static_cast<int>(p.name_at));
  return *scope;
}

std::optional<int64_t> ParseInt(const std::string& s) {
  int64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e || b == e) return std::nullopt;
  return v;
}

class Rows {
 public:
  explicit Rows(PragmaResult* out) : out_(out) {}
  Rows& Add() {
    out_->rows.emplace_back();
    return *this;
  }
  Rows& Int(int64_t v) {
    out_->rows.back().push_back(Value::Integer(v));
    return *this;
  }
  Rows& Text(std::string s) {
    out_->text.push_back(std::move(s));
    out_->rows.back().push_back(Value::Text(out_->text.back()));
    return *this;
  }
  Rows& Null() {
    out_->rows.back().push_back(Value::Null());
    return *this;
  }

 private:
  PragmaResult* out_;
};

// Position of each column in the primary key (1-based), 0 for the others:
// the rowid alias, else the automatic index of the PRIMARY KEY, whose
// columns are in the key's order.
std::vector<int> PrimaryKeyPositions(const catalog::TableInfo& t) {
  std::vector<int> pos(t.columns.size(), 0);
  if (t.rowid_alias >= 0) {
    pos[static_cast<size_t>(t.rowid_alias)] = 1;
    return pos;
  }
  std::vector<int> pk;
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].primary_key) pk.push_back(static_cast<int>(c));
  }
  for (const catalog::IndexInfo* ix : t.indexes) {
    if (!ix->automatic || ix->columns.size() != pk.size()) continue;
    std::vector<int> sorted = ix->columns;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != pk) continue;
    for (size_t i = 0; i < ix->columns.size(); ++i) {
      pos[static_cast<size_t>(ix->columns[i])] = static_cast<int>(i + 1);
    }
    return pos;
  }
  for (size_t i = 0; i < pk.size(); ++i) pos[static_cast<size_t>(pk[i])] = static_cast<int>(i + 1);
  return pos;
}

Status TableInfo(const catalog::Schema& schema, catalog::DbScope in, const std::string& name,
                 bool xinfo, Rows* rows) {
  const catalog::TableInfo* t = schema.FindTable(name, in);
  if (t == nullptr) {
    if (const catalog::ViewInfo* v = schema.FindView(name, in)) {
      // sqlite3 answers with the view's result columns and their declared
      // types; nothing else applies to a view.
      ENGINE_ASSIGN_OR_RETURN(std::vector<plan::ViewColumn> cols, plan::ViewColumns(schema, *v));
      for (size_t c = 0; c < cols.size(); ++c) {
        rows->Add().Int(static_cast<int64_t>(c)).Text(cols[c].name).Text(cols[c].type);
        rows->Int(0).Null().Int(0);
        if (xinfo) rows->Int(0);
      }
      return Status::OK();
    }
    return Status::OK();  // sqlite3: no rows
  }
  const std::vector<int> pk = PrimaryKeyPositions(*t);
  for (size_t c = 0; c < t->columns.size(); ++c) {
    const catalog::ColumnInfo& col = t->columns[c];
    rows->Add().Int(static_cast<int64_t>(c)).Text(col.name).Text(col.type);
    // A WITHOUT ROWID table's key columns are NOT NULL implicitly.
    rows->Int(col.not_null || (t->without_rowid && col.primary_key) ? 1 : 0);
    if (col.default_sql) {
      rows->Text(*col.default_sql);
    } else {
      rows->Null();
    }
    rows->Int(pk[c]);
    if (xinfo) rows->Int(0);
  }
  return Status::OK();
}

void IndexList(const catalog::Schema& schema, catalog::DbScope in, const std::string& name,
               Rows* rows) {
  const catalog::TableInfo* t = schema.FindTable(name, in);
  if (t == nullptr) return;
  const std::vector<int> pk = PrimaryKeyPositions(*t);
  size_t npk = 0;
  for (int p : pk) npk += p != 0;
  // sqlite3 keeps a table's indexes newest first.
  int64_t seq = 0;
  for (auto it = t->indexes.rbegin(); it != t->indexes.rend(); ++it) {
    const catalog::IndexInfo& ix = **it;
    const char* origin = "c";
    if (ix.automatic) {
      origin = "u";
      // Duplicate constraints share one automatic index, so at most one
      // has the key's columns in the key's order.
      bool is_pk = t->rowid_alias < 0 && npk == ix.columns.size();
      for (size_t i = 0; i < ix.columns.size() && is_pk; ++i) {
        is_pk = pk[static_cast<size_t>(ix.columns[i])] == static_cast<int>(i + 1);
      }
      if (is_pk) origin = "pk";
    }
    rows->Add().Int(seq++).Text(ix.name).Int(ix.unique ? 1 : 0).Text(origin);
    rows->Int(ix.partial ? 1 : 0);
  }
}

const char* CollationName(func::Collation c) {
  switch (c) {
    case func::Collation::kNoCase:
      return "NOCASE";
    case func::Collation::kRtrim:
      return "RTRIM";
    case func::Collation::kBinary:
      break;
  }
  return "BINARY";
}

// index_info: the key columns; index_xinfo adds each one's direction and
// collation, and the rowid that ends every key.
void IndexInfo(const catalog::Schema& schema, catalog::DbScope in, const std::string& name,
               bool xinfo, Rows* rows) {
  const catalog::IndexInfo* ix = schema.FindIndex(name, in);
  if (ix == nullptr) return;
  const catalog::TableInfo* t = schema.FindTable(ix->table, catalog::ScopeOf(ix->db));
  if (t == nullptr) return;
  for (size_t i = 0; i < ix->columns.size(); ++i) {
    const int c = ix->columns[i];
    rows->Add().Int(static_cast<int64_t>(i)).Int(c).Text(t->columns[static_cast<size_t>(c)].name);
    if (xinfo) {
      rows->Int(ix->keys[i].desc ? 1 : 0).Text(CollationName(ix->keys[i].coll)).Int(1);
    }
  }
  if (xinfo) {
    rows->Add().Int(static_cast<int64_t>(ix->columns.size())).Int(-1).Null();
    rows->Int(0).Text("BINARY").Int(0);
  }
}

Status JournalMode(const Pager& pager, const std::optional<std::string>& value, Rows* rows) {
  // The engine writes a rollback journal and deletes it at commit; an
  // in-memory database keeps it in memory, which is SQLite's MEMORY mode.
  const bool in_memory = pager.storage_kind() == Env::Kind::kMemory;
  const char* mode = in_memory ? "memory" : "delete";
  if (value) {
    const std::string v = catalog::LowerCase(*value);
    const bool known = v == "delete" || v == "truncate" || v == "persist" || v == "memory" ||
                       v == "wal" || v == "off";
    // sqlite3 answers an unknown mode with the current one, and so it does
    // for an in-memory database asked for any mode but MEMORY and OFF: it
    // keeps its journal in memory.
    if (known && v != mode && (!in_memory || v == "off")) {
      return Status::NotSupported("journal_mode " + v + " is not supported");
    }
  }
  rows->Add().Text(mode);
  return Status::OK();
}

// sqlite3GetBoolean(z, 0): a leading digit reads as a number, else one of
// on/yes/true (1) or off/no/false (0) whole, case-insensitively; anything
// else is false.
bool PragmaBoolean(const std::string& z) {
  if (!z.empty() && std::isdigit(static_cast<unsigned char>(z[0]))) {
    int64_t n = 0;
    for (size_t i = 0; i < z.size() && std::isdigit(static_cast<unsigned char>(z[i])); ++i) {
      n = n * 10 + (z[i] - '0');
      if (n > std::numeric_limits<int32_t>::max()) break;
    }
    return n != 0;
  }
  for (const char* yes : {"on", "yes", "true"}) {
    if (EqualsNoCase(z, yes)) return true;
  }
  return false;
}

// Of one database: `schema` is its own catalog (main's, or main's temp()).
Status Integrity(BTree& tree, const catalog::Schema& schema, const sql::PragmaStmt& p, bool quick,
                 bool check_constraints, Rows* rows, PragmaResult* rows_out) {
  IntegrityOptions opts;
  opts.quick = quick;
  opts.check_constraints = check_constraints;
  if (p.value) {
    if (std::optional<int64_t> n = ParseInt(*p.value)) {
      if (*n > 0) opts.max_errors = *n > 1000000 ? 1000000 : static_cast<int>(*n);
    } else {
      opts.only = schema.FindTable(*p.value);
      if (opts.only == nullptr) return Status::SqlError("no such table: " + *p.value);
      // sqlite_schema's only tree is page 1, which every check covers.
      if (opts.only->root == 1) opts.only = nullptr;
    }
  }
  Status stopped;
  ENGINE_ASSIGN_OR_RETURN(std::vector<std::string> lines,
                          CheckIntegrity(tree, schema, opts, &stopped));
  if (!stopped.ok()) {
    rows_out->after_rows =
        Status::Corruption("database disk image is malformed (" + stopped.message() + ")");
  }
  for (std::string& l : lines) rows->Add().Text(std::move(l));
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> PragmaColumns(const catalog::Schema& schema,
                                               const sql::PragmaStmt& p) {
  ENGINE_ASSIGN_OR_RETURN(const catalog::DbScope in, PragmaScope(p));
  const PragmaDef* d = FindPragma(p.name);
  if (d == nullptr) return std::vector<std::string>();
  if (d->pragma == Pragma::kUnsupported) {
    return Status::NotSupported("PRAGMA " + catalog::LowerCase(p.name) + " is not supported");
  }
  if ((d->pragma == Pragma::kIntegrityCheck || d->pragma == Pragma::kQuickCheck) && p.value &&
      !ParseInt(*p.value) && schema.FindTable(*p.value, in) == nullptr) {
    return Status::SqlError("no such table: " + *p.value);
  }
  return d->columns;
}

Status RunPragma(const Trees& trees, const catalog::Schema& schema, const sql::PragmaStmt& p,
                 PragmaSettings* settings, PragmaResult* out) {
  out->rows.clear();
  out->text.clear();
  out->after_rows = Status::OK();
  ENGINE_ASSIGN_OR_RETURN(const catalog::DbScope in, PragmaScope(p));
  // The pragmas of one database answer for main unless "temp." names temp
  // (which the caller has made).
  const bool temp = in == catalog::DbScope::kTemp;
  BTree& tree = *trees.of(temp ? catalog::Db::kTemp : catalog::Db::kMain);
  const PragmaDef* d = FindPragma(p.name);
  if (d == nullptr) return Status::OK();
  Rows rows(out);
  Pager& pager = tree.pager();
  const std::string arg = p.value.value_or("");
  // Assignments the engine cannot honour fail; reads answer.
  auto read_only_header = [&](int offset) -> Status {
    if (p.value) {
      return Status::NotSupported("PRAGMA " + std::string(d->name) + " = ... is not supported");
    }
    rows.Add().Int(static_cast<int32_t>(pager.header_u32(offset)));
    return Status::OK();
  };
  switch (d->pragma) {
    case Pragma::kNone:
    case Pragma::kUnsupported:
      return Status::NotSupported("PRAGMA " + catalog::LowerCase(p.name) + " is not supported");
    case Pragma::kTableInfo:
    case Pragma::kTableXinfo:
      if (!p.value) return Status::OK();
      return TableInfo(schema, in, arg, d->pragma == Pragma::kTableXinfo, &rows);
    case Pragma::kIndexList:
      if (p.value) IndexList(schema, in, arg, &rows);
      return Status::OK();
    case Pragma::kIndexInfo:
    case Pragma::kIndexXinfo:
      if (p.value) IndexInfo(schema, in, arg, d->pragma == Pragma::kIndexXinfo, &rows);
      return Status::OK();
    case Pragma::kDatabaseList: {
      // An in-memory or temporary database has no file name to show; temp
      // is listed once the connection has one, as sqlite3 lists it.
      const Pager& main = trees.main->pager();
      if (main.storage_kind() != Env::Kind::kFiles) {
        rows.Add().Int(0).Text("main").Text("");
      } else {
        std::error_code ec;
        std::filesystem::path abs = std::filesystem::absolute(main.path(), ec);
        rows.Add().Int(0).Text("main").Text(ec ? main.path() : abs.lexically_normal().string());
      }
      if (trees.temp != nullptr) rows.Add().Int(1).Text("temp").Text("");
      return Status::OK();
    }
    case Pragma::kPageSize:
      if (p.value) {
        // sqlite3 applies a new size to an empty file, or remembers it for
        // the next VACUUM; the engine does neither.
        std::optional<int64_t> n = ParseInt(arg);
        if (n && *n == pager.page_size()) return Status::OK();
        return Status::NotSupported("changing page_size is not supported");
      }
      rows.Add().Int(pager.page_size());
      return Status::OK();
    case Pragma::kPageCount:
      rows.Add().Int(pager.page_count());
      return Status::OK();
    case Pragma::kFreelistCount:
      rows.Add().Int(pager.freelist_count());
      return Status::OK();
    case Pragma::kSchemaVersion:
      return read_only_header(hdr::kSchemaCookie);
    case Pragma::kUserVersion:
      return read_only_header(60);
    case Pragma::kApplicationId:
      return read_only_header(68);
    case Pragma::kEncoding:
      // Setting the encoding of an existing database is a no-op in sqlite3;
      // the engine reads only UTF-8 files.
      if (!p.value) rows.Add().Text("UTF-8");
      return Status::OK();
    case Pragma::kJournalMode:
      return JournalMode(pager, p.value, &rows);
    case Pragma::kIntegrityCheck:
    case Pragma::kQuickCheck:
      // Both evaluate CHECK constraints, unless they are being ignored.
      return Integrity(tree, temp ? *schema.temp() : schema, p, d->pragma == Pragma::kQuickCheck,
                       !settings->ignore_check_constraints, &rows, out);
    case Pragma::kIgnoreCheckConstraints:
      if (p.value) {
        settings->ignore_check_constraints = PragmaBoolean(*p.value);
      } else {
        rows.Add().Int(settings->ignore_check_constraints ? 1 : 0);
      }
      return Status::OK();
  }
  return Status::OK();
}

}  // namespace engine::exec
