// The connection: catalog caching keyed by the schema cookie, autocommit and
// explicit transactions, and the read transaction that active statements share.
#include "engine/database.h"

#include <utility>

#include "engine/api/open_path.h"
#include "engine/catalog/schema_loader.h"
#include "engine/exec/pragma_run.h"
#include "engine/exec/trees.h"
#include "engine/sql/parser.h"
#include "engine/storage/btree.h"
#include "engine/storage/mem_env.h"

namespace engine {

Database::Database(std::unique_ptr<Env> env, std::unique_ptr<BTree> tree)
    : env_(std::move(env)),
      tree_(std::move(tree)),
      settings_(std::make_unique<exec::PragmaSettings>()) {}

Database::~Database() {
  // A destructor has no caller to report to. A rollback that fails leaves a
  // hot journal, which the next open of the file rolls back; temp is memory.
  (void)RollbackEach();
  for (BTree* t : {tree_.get(), temp_tree_.get()}) {
    if (t != nullptr && t->pager().in_read()) (void)t->EndRead();
  }
}

// Each step on main runs inline as it did before temp existed; temp's
// follows out of line (TempStep): most connections never make one, and an
// inlined second step cost every statement (perfci: point_lookup +1.3% Ir,
// AcquireRead and EndAutocommitRead no longer inlined into Statement).
Status Database::Step(BTree& t, TreeOp op) {
  switch (op) {
    case TreeOp::kBeginRead:
      return t.BeginRead();
    case TreeOp::kEndRead:
      return t.EndRead();
    case TreeOp::kBeginWrite:
      return t.BeginWrite();
    case TreeOp::kCommit:
      return t.Commit();
    case TreeOp::kBeginStatement:
      return t.BeginStatement();
    case TreeOp::kEndStatement:
      t.EndStatement();
      return Status::OK();
    case TreeOp::kRollbackStatement:
      return t.RollbackStatement();
  }
  return Status::OK();
}

Status Database::TempStep(TreeOp op) { return Step(*temp_tree_, op); }

Status Database::OnEachTree(TreeOp op) {
  ENGINE_RETURN_IF_ERROR(Step(*tree_, op));
  if (temp_tree_ != nullptr) [[unlikely]]
    return TempStep(op);
  return Status::OK();
}

// Rolls back every tree in a write, each even when another fails.
Status Database::RollbackEach() {
  Status first;
  for (BTree* t : {tree_.get(), temp_tree_.get()}) {
    if (t == nullptr || !t->pager().in_write()) continue;
    Status st = t->Rollback();
    if (first.ok()) first = st;
  }
  return first;
}

exec::Trees Database::trees() const { return exec::Trees{tree_.get(), temp_tree_.get()}; }

Status Database::EnsureTemp() {
  if (temp_tree_) return Status::OK();
  auto env = NewMemEnv();
  DatabaseOptions opts;
  opts.env = env.get();
  opts.create_if_missing = true;
  ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<BTree> tree, BTree::Open(":memory:", opts));
  const Pager& main = tree_->pager();
  if (main.in_read()) ENGINE_RETURN_IF_ERROR(tree->BeginRead());
  if (main.in_write()) ENGINE_RETURN_IF_ERROR(tree->BeginWrite());
  if (main.in_statement()) ENGINE_RETURN_IF_ERROR(tree->BeginStatement());
  temp_env_ = std::move(env);
  temp_tree_ = std::move(tree);
  temp_cookie_ = temp_tree_->pager().schema_cookie();
  return Status::OK();
}

Result<std::unique_ptr<Database>> Database::Open(const std::string& path,
                                                 const DatabaseOptions& options) {
  ENGINE_ASSIGN_OR_RETURN(OpenPath target, ResolveOpenPath(path, options));
  DatabaseOptions opts = options;
  opts.read_only = target.read_only;
  opts.create_if_missing = target.create_if_missing;
  std::unique_ptr<Env> env;
  std::string file = target.file;
  if (target.kind != OpenPath::Kind::kFile) {
    // The names only this connection's Env knows.
    env = target.kind == OpenPath::Kind::kMemory
              ? NewMemEnv()
              : NewTempFileEnv(options.env != nullptr ? options.env : Env::Default());
    opts.env = env.get();
    file = target.kind == OpenPath::Kind::kMemory ? ":memory:" : "";
    if (opts.read_only) {
      // sqlite3 opens a fresh one read-only as an empty database; the pager
      // opens read-only only what exists, so it is made first.
      DatabaseOptions init = opts;
      init.read_only = false;
      init.create_if_missing = true;
      ENGINE_RETURN_IF_ERROR(BTree::Open(file, init).status());
    }
    opts.create_if_missing = true;
  }
  ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<BTree> tree, BTree::Open(file, opts));
  std::unique_ptr<Database> db(new Database(std::move(env), std::move(tree)));
  ENGINE_RETURN_IF_ERROR(db->RefreshSchema());
  return db;
}

Status Database::ReloadSchema() {
  ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<catalog::Schema> s, catalog::LoadSchema(*tree_));
  if (temp_tree_) {
    ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<catalog::Schema> temp,
                            catalog::LoadSchema(*temp_tree_, catalog::Db::kTemp));
    s->SetTemp(std::move(temp));
    temp_cookie_ = temp_tree_->pager().schema_cookie();
  } else {
    s->SetTemp(catalog::EmptyTempSchema());
  }
  if (schema_) old_schemas_.push_back(std::move(schema_));
  schema_ = std::move(s);
  schema_cookie_ = tree_->pager().schema_cookie();
  ++schema_generation_;
  return Status::OK();
}

Status Database::EnsureSchema() {
  // Temp's cookie too: a rolled-back TEMP table leaves main's unchanged.
  if (schema_ && tree_->pager().schema_cookie() == schema_cookie_ &&
      (!temp_tree_ || temp_tree_->pager().schema_cookie() == temp_cookie_)) {
    return Status::OK();
  }
  return ReloadSchema();
}

Status Database::RefreshSchema() {
  if (tree_->pager().in_read()) return EnsureSchema();
  ENGINE_RETURN_IF_ERROR(OnEachTree(TreeOp::kBeginRead));
  Status st = EnsureSchema();
  Status end = OnEachTree(TreeOp::kEndRead);
  return st.ok() ? end : st;
}

Status Database::AcquireRead() {
  // Every statement passes here: main's step is written out (LTO then
  // inlines this into Statement, as it did before temp), temp's is cold.
  if (!tree_->pager().in_read()) {
    ENGINE_RETURN_IF_ERROR(tree_->BeginRead());
    if (temp_tree_ != nullptr) [[unlikely]]
      ENGINE_RETURN_IF_ERROR(TempStep(TreeOp::kBeginRead));
  }
  ++readers_;
  return Status::OK();
}

void Database::ReleaseRead() {
  if (readers_ > 0) --readers_;
  EndAutocommitRead();
}

// Every write statement passes here and through EndStatementWrite: main's
// steps are written out, as in AcquireRead.
Status Database::BeginStatementWrite() {
  stmt_unjournaled_ = false;
  if (!tree_->pager().in_write()) {
    ENGINE_RETURN_IF_ERROR(tree_->BeginWrite());
    if (temp_tree_ != nullptr) [[unlikely]]
      ENGINE_RETURN_IF_ERROR(TempStep(TreeOp::kBeginWrite));
  }
  return Status::OK();
}

Status Database::BeginStatementSavepoint(bool needed) {
  // Autocommit needs no savepoint: the statement is the whole transaction.
  if (!explicit_txn_) return Status::OK();
  // The temp database keeps the savepoint path: one tree to reason about.
  if (!needed && temp_tree_ == nullptr) {
    stmt_unjournaled_ = true;
    stmt_writes_at_ = tree_->pager().write_count();
    return Status::OK();
  }
  ENGINE_RETURN_IF_ERROR(tree_->BeginStatement());
  if (temp_tree_ != nullptr) [[unlikely]]
    ENGINE_RETURN_IF_ERROR(TempStep(TreeOp::kBeginStatement));
  return Status::OK();
}

void Database::EndAutocommitRead() {
  if (readers_ == 0 && !explicit_txn_ && !tree_->pager().in_write() && tree_->pager().in_read()) {
    // Ending a read only drops the shared lock; the pager counts itself out
    // of the read first, so a failed unlock leaves nothing to retry or undo.
    (void)tree_->EndRead();
    if (temp_tree_ != nullptr) [[unlikely]]
      (void)TempStep(TreeOp::kEndRead);
  }
}

Status Database::EndStatementWrite(Status st, OnConstraint on_constraint) {
  if (!tree_->pager().in_write()) return st;
  const OnConstraint on_error = st.IsConstraint() ? on_constraint : OnConstraint::kUndoStatement;
  if (explicit_txn_) {
    const bool unjournaled = std::exchange(stmt_unjournaled_, false);
    if (st.ok() || on_error == OnConstraint::kKeepChanges) {
      tree_->EndStatement();
      if (temp_tree_ != nullptr) [[unlikely]]
        (void)TempStep(TreeOp::kEndStatement);
      return st;
    }
    if (unjournaled) {
      // No savepoint to undo to: a statement that failed before its first
      // write (a constraint, checked first) leaves nothing to undo; one
      // that failed after it takes the transaction with it, below.
      if (on_error == OnConstraint::kUndoStatement &&
          tree_->pager().write_count() == stmt_writes_at_)
        return st;
    } else if (on_error == OnConstraint::kUndoStatement) {
      Status undo = OnEachTree(TreeOp::kRollbackStatement);
      if (undo.ok()) {
        // A failed DDL may have moved the cookie before the undo put it back.
        // The statement's own error is the one reported; a catalog that
        // cannot be reloaded now is reloaded by the next statement's
        // EnsureSchema (the cookie still differs).
        (void)RefreshSchema();
        return st;
      }
    }
    // OR ROLLBACK, or a statement that could not be undone alone: the whole
    // transaction goes, as SQLite does. The statement's error is the one
    // reported, as sqlite3 reports it (a failed rollback leaves a hot journal).
    (void)Rollback();
    return st;
  }
  if (st.ok() || on_error == OnConstraint::kKeepChanges) {
    // OR FAIL keeps the rows written before the failing one, even in autocommit.
    Status c = tree_->Commit();
    if (temp_tree_ != nullptr && c.ok()) [[unlikely]]
      c = TempStep(TreeOp::kCommit);
    if (!c.ok()) {
      // The commit's error is the one reported; the undo is best effort (a
      // failed rollback leaves a hot journal), and so is the reload.
      (void)RollbackEach();
      (void)ReloadSchema();
      EndAutocommitRead();
      return c;
    }
  } else {
    // The statement's error is the one reported; the undo and the catalog
    // reload are best effort, as above.
    (void)RollbackEach();
    (void)RefreshSchema();
  }
  EndAutocommitRead();
  return st;
}

Status Database::Begin(bool immediate) {
  if (explicit_txn_) return Status::SqlError("cannot start a transaction within a transaction");
  explicit_txn_ = true;
  if (immediate) {
    Status st = OnEachTree(TreeOp::kBeginWrite);
    if (!st.ok()) {
      (void)RollbackEach();
      explicit_txn_ = false;
      return st;
    }
  }
  return Status::OK();
}

Status Database::Commit() {
  if (!explicit_txn_) return Status::SqlError("cannot commit - no transaction is active");
  explicit_txn_ = false;
  Status st;
  if (tree_->pager().in_write()) st = OnEachTree(TreeOp::kCommit);
  if (!st.ok()) {
    // The commit's error is the one reported; undo and reload are best effort.
    (void)RollbackEach();
    (void)ReloadSchema();
  }
  EndAutocommitRead();
  return st;
}

Status Database::Rollback() {
  if (!explicit_txn_) return Status::SqlError("cannot rollback - no transaction is active");
  explicit_txn_ = false;
  Status st;
  if (tree_->pager().in_write()) {
    st = RollbackEach();
    Status r = RefreshSchema();
    if (st.ok()) st = r;
  }
  EndAutocommitRead();
  return st;
}

Result<std::unique_ptr<Statement>> Database::Prepare(std::string_view sql, size_t* tail) {
  sql::Parser parser(sql);
  auto next = parser.Next();
  if (!next.ok()) return next.status();
  if (tail != nullptr) *tail = parser.offset();
  if (!next->has_value()) return std::unique_ptr<Statement>();
  std::unique_ptr<Statement> stmt(new Statement(this));
  stmt->ast_ = std::make_unique<sql::Statement>(std::move(**next));
  ENGINE_RETURN_IF_ERROR(stmt->Compile());
  return stmt;
}

Status Database::Exec(std::string_view sql) {
  size_t pos = 0;
  while (pos < sql.size()) {
    size_t tail = 0;
    ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<Statement> stmt, Prepare(sql.substr(pos), &tail));
    if (!stmt) break;
    for (;;) {
      ENGINE_ASSIGN_OR_RETURN(bool row, stmt->Step());
      if (!row) break;
    }
    if (tail == 0) break;
    pos += tail;
  }
  return Status::OK();
}

}  // namespace engine
