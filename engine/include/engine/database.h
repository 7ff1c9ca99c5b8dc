// The engine's public API: a connection to one database file. Statements
// are prepared once (parsed, planned, their executor built) and stepped any
// number of times; errors come back as values with SQLite's messages.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/options.h"
#include "engine/statement.h"
#include "engine/status.h"

namespace engine {

class BTree;
class Env;
namespace catalog {
class Schema;
}
namespace exec {
struct PragmaSettings;
struct Trees;
}  // namespace exec

class Database {
 public:
  // `path` names a database file, or, as in sqlite3_open_v2: ":memory:", a
  // private in-memory database (each Open a new one, gone on close); "", a
  // private temporary database (an unnamed file, gone on close); with
  // options.uri, a "file:" URI (engine/include/engine/options.h).
  static Result<std::unique_ptr<Database>> Open(const std::string& path,
                                                const DatabaseOptions& options = {});
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // The first statement of `sql`; *tail receives the offset just past it.
  // An empty or comment-only text gives a null statement. Statements must
  // not outlive their Database.
  Result<std::unique_ptr<Statement>> Prepare(std::string_view sql, size_t* tail = nullptr);
  // Runs every statement of the script, discarding rows; stops at the first error.
  Status Exec(std::string_view sql);

  int64_t changes() const { return changes_; }
  int64_t last_insert_rowid() const { return last_insert_rowid_; }
  // True inside BEGIN ... COMMIT / ROLLBACK.
  bool in_transaction() const { return explicit_txn_; }

  // What a statement that failed on a constraint leaves behind: SQLite's
  // conflict resolutions ABORT (the default), FAIL and ROLLBACK. Other
  // errors always undo the statement.
  enum class OnConstraint : uint8_t { kUndoStatement, kKeepChanges, kUndoTransaction };

 private:
  friend class Statement;
  Database(std::unique_ptr<Env> env, std::unique_ptr<BTree> tree);

  // Loads or reloads the catalog when the schema cookie moved. Needs a read.
  Status EnsureSchema();
  Status ReloadSchema();
  // Makes sure the catalog is current outside any statement.
  Status RefreshSchema();
  Status AcquireRead();
  void ReleaseRead();
  // Opens the write transaction if needed.
  Status BeginStatementWrite();
  // Inside an explicit transaction, the statement's savepoint, so that a
  // failure undoes this statement only; opened once the statement is
  // planned. `needed` false, for a statement that no constraint can stop
  // half-way (exec::DmlRun::NeedsNoStatementJournal): as SQLite, none, so
  // no page image is copied per page the statement changes; should it fail
  // after writing (an I/O error), the transaction is rolled back, as SQLite
  // does, and failing before, nothing is.
  Status BeginStatementSavepoint(bool needed);
  // Autocommit: commits, or rolls back on error. Explicit transaction: keeps
  // the statement, or undoes it alone on error.
  Status EndStatementWrite(Status st, OnConstraint on_constraint = OnConstraint::kUndoStatement);
  void EndAutocommitRead();
  Status Begin(bool immediate);
  Status Commit();
  Status Rollback();
  // The temp database (TEMP tables, views, triggers), made in memory on
  // first use in the transaction state main is in. Until then a connection
  // pays nothing for it.
  Status EnsureTemp();
  exec::Trees trees() const;
  // A transaction step on main, then on temp when there is one: the two
  // move through their transactions together. The first error is returned.
  enum class TreeOp : uint8_t {
    kBeginRead,
    kEndRead,
    kBeginWrite,
    kCommit,
    kBeginStatement,
    kEndStatement,
    kRollbackStatement
  };
  Status OnEachTree(TreeOp op);
  static Status Step(BTree& t, TreeOp op);
  [[gnu::noinline, gnu::cold]] Status TempStep(TreeOp op);
  Status RollbackEach();

  // The Env of an in-memory or temporary database, which holds its bytes
  // (null for a file): declared first, so that it outlives the tree.
  std::unique_ptr<Env> env_;
  std::unique_ptr<BTree> tree_;
  std::unique_ptr<Env> temp_env_;  // before temp_tree_, as env_ before tree_
  std::unique_ptr<BTree> temp_tree_;
  std::unique_ptr<catalog::Schema> schema_;
  // Earlier catalogs stay alive: a running statement's plan may still point at them.
  std::vector<std::unique_ptr<catalog::Schema>> old_schemas_;
  uint32_t schema_cookie_ = 0;
  uint32_t temp_cookie_ = 0;  // temp's, when there is one
  uint64_t schema_generation_ = 0;
  bool explicit_txn_ = false;
  // The running statement opened no savepoint (BeginStatementSavepoint), and
  // the main pager's write_count() when it did.
  bool stmt_unjournaled_ = false;
  uint64_t stmt_writes_at_ = 0;
  int readers_ = 0;
  int64_t changes_ = 0;
  int64_t last_insert_rowid_ = 0;
  std::unique_ptr<exec::PragmaSettings> settings_;  // what PRAGMAs set (ignore_check_constraints)
};

}  // namespace engine
