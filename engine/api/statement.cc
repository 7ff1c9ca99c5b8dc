// Prepared statements: plan once, then per execution bind, step and read
// columns. A statement whose catalog changed underneath (a DDL since it was
// prepared) re-plans itself on its next run, as sqlite3_prepare_v2 does.
#include "engine/statement.h"

#include "engine/catalog/schema.h"
#include "engine/database.h"
#include "engine/exec/ddl_run.h"
#include "engine/exec/dml_run.h"
#include "engine/exec/exec_context.h"
#include "engine/exec/pragma_run.h"
#include "engine/exec/trees.h"
#include "engine/exec/trigger_ddl.h"
#include "engine/func/cast.h"
#include "engine/func/text_format.h"
#include "engine/planner/explain.h"
#include "engine/planner/planner.h"
#include "engine/sql/ast.h"
#include "engine/storage/btree.h"

namespace engine {
namespace {

// What a constraint failure leaves behind: the resolved action of the
// constraint that failed (the statement's OR clause, else the constraint's
// own ON CONFLICT, else ABORT).
Database::OnConstraint OnConstraintOf(sql::ConflictAction action) {
  switch (action) {
    case sql::ConflictAction::kFail:
      return Database::OnConstraint::kKeepChanges;
    case sql::ConflictAction::kRollback:
      return Database::OnConstraint::kUndoTransaction;
    default:
      return Database::OnConstraint::kUndoStatement;
  }
}

}  // namespace

Statement::Statement(Database* db) : db_(db) {}

Statement::~Statement() { Finish(); }

const std::string& Statement::sql() const { return ast_->text; }

bool Statement::read_only() const {
  // The pragmas the engine runs only read (assignments it cannot honour fail).
  return kind_ == Kind::kSelect || kind_ == Kind::kExplain || kind_ == Kind::kPragma;
}

bool Statement::explains_query_plan() const {
  return kind_ == Kind::kExplain && ast_->explain == sql::ExplainMode::kQueryPlan;
}

Status Statement::Compile() {
  if (!db_->schema_ || db_->tree_->pager().in_read()) return Build();
  const Status st = Plan();
  if (st.ok()) return st;
  const uint64_t generation = db_->schema_generation_;
  ENGINE_RETURN_IF_ERROR(db_->RefreshSchema());
  return db_->schema_generation_ == generation ? st : Plan();
}

Status Statement::Build() {
  ENGINE_RETURN_IF_ERROR(db_->RefreshSchema());
  return Plan();
}

Status Statement::Plan() {
  // Any previous executor points into the old plan.
  select_ = nullptr;
  dml_.reset();
  ctx_.reset();
  auto prog = std::make_unique<plan::Program>();
  plan::Planner planner(*db_->schema_, prog.get());
  const sql::Statement& st = *ast_;
  names_.clear();
  Status planned;
  if (const auto* sel = st.as<sql::SelectStmt>()) {
    kind_ = Kind::kSelect;
    auto r = planner.PlanSelect(st.ast, sel->select, nullptr);
    planned = r.status();
    if (r.ok()) names_ = prog->selects[0].names;
  } else if (const auto* ins = st.as<sql::InsertStmt>()) {
    kind_ = Kind::kDml;
    planned = planner.PlanInsert(st.ast, *ins);
  } else if (const auto* upd = st.as<sql::UpdateStmt>()) {
    kind_ = Kind::kDml;
    planned = planner.PlanUpdate(st.ast, *upd);
  } else if (const auto* del = st.as<sql::DeleteStmt>()) {
    kind_ = Kind::kDml;
    planned = planner.PlanDelete(st.ast, *del);
  } else if (st.as<sql::CreateTableStmt>()) {
    kind_ = Kind::kCreateTable;
  } else if (st.as<sql::CreateIndexStmt>()) {
    kind_ = Kind::kCreateIndex;
  } else if (st.as<sql::CreateViewStmt>()) {
    kind_ = Kind::kCreateView;
  } else if (st.as<sql::CreateTriggerStmt>()) {
    kind_ = Kind::kCreateTrigger;
  } else if (st.as<sql::DropStmt>()) {
    kind_ = Kind::kDrop;
  } else if (st.as<sql::BeginStmt>()) {
    kind_ = Kind::kBegin;
  } else if (st.as<sql::CommitStmt>()) {
    kind_ = Kind::kCommit;
  } else if (st.as<sql::RollbackStmt>()) {
    kind_ = Kind::kRollback;
  } else if (const auto* reindex = st.as<sql::ReindexStmt>()) {
    kind_ = Kind::kReindex;
    // sqlite3 finds what to rebuild when it prepares: its errors are prepare errors.
    planned = exec::ReindexTargets(*db_->schema_, *reindex).status();
  } else if (const auto* pragma = st.as<sql::PragmaStmt>()) {
    kind_ = Kind::kPragma;
    auto cols = exec::PragmaColumns(*db_->schema_, *pragma);
    planned = cols.status();
    if (cols.ok()) names_ = std::move(*cols);
  }
  ENGINE_RETURN_IF_ERROR(planned);
  if (st.explain != sql::ExplainMode::kNone) {
    kind_ = Kind::kExplain;
    names_ = {"id", "parent", "notused", "detail"};
    explain_ = plan::ExplainQueryPlan(*prog);
  }
  const size_t nparams =
      std::max(static_cast<size_t>(prog->parameter_count), st.parameter_names.size());
  binds_.resize(nparams);
  bind_bytes_.resize(nparams);
  // Only sqlite_temp_schema can name temp before it exists: reading it
  // needs the (empty) database.
  if (prog->uses_temp) ENGINE_RETURN_IF_ERROR(db_->EnsureTemp());
  prog_ = std::move(prog);
  ctx_ = std::make_unique<exec::ExecContext>(db_->trees(), prog_.get());
  // Fixed for the plan's life: changing the pragma re-plans every statement.
  ctx_->ignore_checks = db_->settings_->ignore_check_constraints;
  if (kind_ == Kind::kSelect) select_ = ctx_->Run(0);
  if (kind_ == Kind::kDml) {
    dml_ = std::make_unique<exec::DmlRun>(ctx_.get(), prog_->dml.get());
    ENGINE_RETURN_IF_ERROR(dml_->PrepareTriggers(db_->schema_.get(), nullptr));
  }
  text_.assign(names_.size(), std::string());
  schema_generation_ = db_->schema_generation_;
  return Status::OK();
}

int Statement::parameter_count() const { return static_cast<int>(binds_.size()); }

Status Statement::CheckIndex(int i) const {
  if (i < 1 || i > static_cast<int>(binds_.size())) {
    return Status::Range("column index out of range");
  }
  return Status::OK();
}

Status Statement::BindNull(int i) {
  ENGINE_RETURN_IF_ERROR(CheckIndex(i));
  binds_[static_cast<size_t>(i - 1)] = Value::Null();
  return Status::OK();
}

Status Statement::BindInt(int i, int64_t v) {
  ENGINE_RETURN_IF_ERROR(CheckIndex(i));
  binds_[static_cast<size_t>(i - 1)] = Value::Integer(v);
  return Status::OK();
}

Status Statement::BindReal(int i, double v) {
  ENGINE_RETURN_IF_ERROR(CheckIndex(i));
  binds_[static_cast<size_t>(i - 1)] = v != v ? Value::Null() : Value::Real(v);
  return Status::OK();
}

Status Statement::BindText(int i, std::string_view v) {
  ENGINE_RETURN_IF_ERROR(CheckIndex(i));
  std::string& buf = bind_bytes_[static_cast<size_t>(i - 1)];
  buf.assign(v.data(), v.size());
  binds_[static_cast<size_t>(i - 1)] = Value::Text(buf.data(), buf.size());
  return Status::OK();
}

Status Statement::BindBlob(int i, const void* p, size_t n) {
  ENGINE_RETURN_IF_ERROR(CheckIndex(i));
  std::string& buf = bind_bytes_[static_cast<size_t>(i - 1)];
  buf.assign(static_cast<const char*>(p), n);
  binds_[static_cast<size_t>(i - 1)] = Value::Blob(buf.data(), buf.size());
  return Status::OK();
}

void Statement::ClearBindings() {
  for (Value& v : binds_) v = Value::Null();
}

void Statement::Finish() {
  if (select_ != nullptr) select_->Close();
  if (holds_read_) {
    holds_read_ = false;
    db_->ReleaseRead();
  }
  row_ = nullptr;
}

Status Statement::Reset() {
  Finish();
  state_ = State::kIdle;
  return Status::OK();
}

Status Statement::RunOnce() {
  Status st;
  switch (kind_) {
    case Kind::kBegin: {
      const auto* b = ast_->as<sql::BeginStmt>();
      return db_->Begin(b->mode != sql::BeginStmt::Mode::kDeferred);
    }
    case Kind::kCommit:
      return db_->Commit();
    case Kind::kRollback:
      return db_->Rollback();
    default:
      break;
  }
  ENGINE_RETURN_IF_ERROR(db_->BeginStatementWrite());
  Database::OnConstraint on_constraint = Database::OnConstraint::kUndoStatement;
  st = db_->EnsureSchema();
  if (st.ok() && schema_generation_ != db_->schema_generation_) st = Build();
  // The savepoint once the plan is current: it says whether one is needed.
  if (st.ok())
    st = db_->BeginStatementSavepoint(kind_ != Kind::kDml || !dml_->NeedsNoStatementJournal());
  if (st.ok() && kind_ == Kind::kDml) {
    ctx_->NewExecution();
    ctx_->params() = binds_;
    int64_t changes = 0;
    int64_t last = db_->last_insert_rowid_;
    st = dml_->Execute(&changes, &last);
    // As sqlite3: rows an error undoes count for nothing, those OR FAIL
    // keeps do; the last rowid inserted stays even when undone.
    if (!st.ok()) on_constraint = OnConstraintOf(dml_->failed_action());
    db_->changes_ =
        st.ok() || (st.IsConstraint() && on_constraint == Database::OnConstraint::kKeepChanges)
            ? changes
            : 0;
    db_->last_insert_rowid_ = last;
  } else if (st.ok()) {
    // sqlite3 moves a database's schema cookie once per statement, however
    // many sqlite_schema rows the statement writes (a table and its
    // automatic indexes, a DROP TABLE with its indexes and triggers), so
    // PRAGMA schema_version reads as sqlite3's.
    const uint32_t main_before = db_->tree_->pager().schema_cookie();
    // A temp database the statement makes starts at 0, as a new file does.
    const uint32_t temp_before = db_->temp_tree_ ? db_->temp_tree_->pager().schema_cookie() : 0;
    st = RunDdl();
    for (auto [tree, before] : {std::pair{db_->tree_.get(), main_before},
                                std::pair{db_->temp_tree_.get(), temp_before}}) {
      if (st.ok() && tree != nullptr && tree->pager().schema_cookie() != before)
        st = tree->pager().SetSchemaCookie(before + 1);
    }
    if (st.ok()) st = db_->ReloadSchema();
  }
  return db_->EndStatementWrite(st, on_constraint);
}

Status Statement::RunDdl() {
  const catalog::Schema& schema = *db_->schema_;
  if (kind_ == Kind::kDrop) return exec::Drop(db_->trees(), schema, *ast_->as<sql::DropStmt>());
  if (kind_ == Kind::kReindex)
    return exec::Reindex(db_->trees(), schema, *ast_->as<sql::ReindexStmt>());
  // The database a CREATE writes into, made first when it is temp.
  ENGINE_ASSIGN_OR_RETURN(const catalog::Db target, exec::CreateTarget(*ast_, schema));
  if (target == catalog::Db::kTemp) ENGINE_RETURN_IF_ERROR(db_->EnsureTemp());
  BTree& tree = *db_->trees().of(target);
  switch (kind_) {
    case Kind::kCreateTable:
      return exec::CreateTable(tree, target, schema, *ast_->as<sql::CreateTableStmt>(), ast_->ast);
    case Kind::kCreateIndex:
      return exec::CreateIndex(tree, target, schema, *ast_->as<sql::CreateIndexStmt>());
    case Kind::kCreateView:
      return exec::CreateView(tree, target, schema, *ast_->as<sql::CreateViewStmt>(), ast_->ast);
    case Kind::kCreateTrigger:
      return exec::CreateTrigger(tree, target, schema, *ast_->as<sql::CreateTriggerStmt>());
    default:
      return Status::OK();
  }
}

Status Statement::StartPragma() {
  ENGINE_RETURN_IF_ERROR(db_->AcquireRead());
  holds_read_ = true;
  Status st = db_->EnsureSchema();
  // "PRAGMA temp.x" reads the temp database, made empty if there is none.
  if (st.ok() &&
      catalog::ScopeOfQualifier(ast_->as<sql::PragmaStmt>()->schema) == catalog::DbScope::kTemp) {
    st = db_->EnsureTemp();
  }
  if (st.ok()) {
    if (!pragma_) pragma_ = std::make_unique<exec::PragmaResult>();
    const bool ignored = db_->settings_->ignore_check_constraints;
    st = exec::RunPragma(db_->trees(), *db_->schema_, *ast_->as<sql::PragmaStmt>(),
                         db_->settings_.get(), pragma_.get());
    // As sqlite3 expires its statements when ignore_check_constraints
    // changes: each is built again before it next runs, with the new value
    // (an execution then reads nothing for it).
    if (db_->settings_->ignore_check_constraints != ignored) ++db_->schema_generation_;
  }
  // The rows own their bytes: the read transaction is not needed past here.
  Finish();
  explain_pos_ = 0;
  return st;
}

Status Statement::Start() {
  if (kind_ == Kind::kPragma) return StartPragma();
  if (kind_ == Kind::kSelect || kind_ == Kind::kExplain) {
    // A SELECT that names no table (SELECT 1 + 1) takes no read
    // transaction: no lock, no header read, no cookie check — nothing in
    // the file can change its answer (sqlite3's program has no
    // OP_Transaction then).
    if (kind_ == Kind::kExplain || prog_->reads_tables) {
      ENGINE_RETURN_IF_ERROR(db_->AcquireRead());
      holds_read_ = true;
      Status st = db_->EnsureSchema();
      if (st.ok() && schema_generation_ != db_->schema_generation_) st = Build();
      if (!st.ok()) {
        Finish();
        return st;
      }
      if (kind_ == Kind::kExplain) {
        explain_pos_ = 0;
        return Status::OK();
      }
    }
    ctx_->NewExecution();
    ctx_->params() = binds_;
    Status st = select_->Open();
    if (!st.ok()) Finish();
    return st;
  }
  return RunOnce();
}

// The rows of a PRAGMA or EXPLAIN, computed when the statement started.
Result<bool> Statement::StepPrecomputed() {
  if (kind_ == Kind::kPragma) {
    if (explain_pos_ >= pragma_->rows.size()) {
      state_ = State::kDone;
      row_ = nullptr;
      if (!pragma_->after_rows.ok()) return pragma_->after_rows;
      return false;
    }
    row_ = pragma_->rows[explain_pos_++].data();
    return true;
  }
  if (explain_pos_ >= explain_.size()) {
    Finish();
    state_ = State::kDone;
    return false;
  }
  const plan::ExplainRow& r = explain_[explain_pos_++];
  explain_row_ = {Value::Integer(r.id), Value::Integer(r.parent), Value::Integer(0),
                  Value::Text(r.detail)};
  row_ = explain_row_.data();
  return true;
}

Result<bool> Statement::Step() {
  if (state_ == State::kDone) ENGINE_RETURN_IF_ERROR(Reset());
  if (state_ == State::kIdle) {
    Status st = Start();
    if (!st.ok()) {
      state_ = State::kIdle;
      return st;
    }
    state_ = State::kRunning;
    if (kind_ != Kind::kSelect && kind_ != Kind::kExplain && kind_ != Kind::kPragma) {
      state_ = State::kDone;
      return false;
    }
  }
  // One test per row for a SELECT: the pragma and EXPLAIN rows are the rare
  // case (perfci saw a second test cost range_scan +0.29% Ir).
  if (kind_ != Kind::kSelect) [[unlikely]]
    return StepPrecomputed();
  Result<bool> r = select_->Next();
  if (!r.ok() || !*r) {
    Finish();
    state_ = State::kDone;
    if (!r.ok()) return r.status();
    return false;
  }
  row_ = select_->row();
  return true;
}

const Value& Statement::column_value(int i) const {
  static const Value kNull;
  if (row_ == nullptr || i < 0 || i >= column_count()) return kNull;
  return row_[i];
}

int64_t Statement::column_int(int i) const { return func::IntValue(column_value(i)); }

double Statement::column_real(int i) const { return func::RealValue(column_value(i)); }

std::string_view Statement::column_text(int i) const {
  const Value& v = column_value(i);
  switch (v.type()) {
    case ValueType::kNull:
      return {};
    case ValueType::kText:
    case ValueType::kBlob:
      return v.as_text();
    case ValueType::kInteger:
    case ValueType::kReal: {
      char buf[64];
      const size_t n = v.type() == ValueType::kInteger ? func::FormatInteger(v.as_int(), buf)
                                                       : func::FormatReal(v.as_real(), buf);
      std::string& out = text_[static_cast<size_t>(i)];
      out.assign(buf, n);
      return out;
    }
  }
  return {};
}

std::string_view Statement::column_blob(int i) const { return column_text(i); }

}  // namespace engine
