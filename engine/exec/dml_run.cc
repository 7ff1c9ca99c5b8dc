#include "engine/exec/dml_run.h"

#include <algorithm>
#include <limits>

#include "engine/func/affinity.h"
#include "engine/func/date_time.h"

namespace engine::exec {

using sql::ConflictAction;

DmlRun::DmlRun(ExecContext* ctx, const plan::Dml* dml)
    : ctx_(ctx),
      dml_(dml),
      table_(dml->table),
      has_checks_(!dml->checks.empty()),
      builder_(ctx->tree(dml->table->db)->file_format()) {
  index_cur_.resize(table_->indexes.size());
  // The readers of this table's rows: the old row, and the sources SET and
  // DO UPDATE read it through. Once here, not per row: a row older than
  // ALTER TABLE ADD COLUMN reads the column's DEFAULT.
  reader_.set_absent(table_->absent);
  for (int src : {dml->level.src, dml->upsert_src})
    if (src >= 0) ctx->sources()[static_cast<size_t>(src)].reader.set_absent(table_->absent);
  for (size_t c = 0; c < table_->columns.size(); ++c) {
    if (table_->columns[c].not_null && static_cast<int>(c) != table_->rowid_alias) {
      not_null_cols_.push_back(c);
    }
  }
  if (dml->kind != plan::Dml::Kind::kInsert && !dml->view) {
    scan_ = std::make_unique<CoreRun>(ctx, &dml->scan_select, &dml->scan);
  }
  const size_t nix = table_->indexes.size();
  for (size_t ix = 0; ix < nix; ++ix)
    index_action_.push_back(Resolve(table_->indexes[ix]->conflict));
  // An UPSERT's target constraints are checked first, in its clauses' order.
  auto targeted = [&](int ix) {
    for (const plan::Dml::Upsert& u : dml->upsert) {
      if (u.target == ix) return true;
    }
    return false;
  };
  for (const plan::Dml::Upsert& u : dml->upsert) {
    const int ix = u.target;
    if (ix >= 0 && std::find(check_order_.begin(), check_order_.end(), static_cast<size_t>(ix)) ==
                       check_order_.end()) {
      check_order_.push_back(static_cast<size_t>(ix));
    }
  }
  upsert_first_ = check_order_.size();
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = nix; i-- > 0;) {
      if (!table_->indexes[i]->unique || targeted(static_cast<int>(i))) continue;
      const bool replace = table_->indexes[i]->conflict == ConflictAction::kReplace;
      if (replace == (pass == 1)) check_order_.push_back(i);
    }
  }
  upsert_ = !dml->upsert.empty();
  rowid_action_ = Resolve(table_->rowid_conflict);
  defer_rowid_ = rowid_action_ == ConflictAction::kReplace &&
                 dml->conflict != ConflictAction::kReplace && !check_order_.empty() &&
                 !targeted(-1);
  // Once per plan, not per execution: the expression walks below are not
  // free, and a prepared UPDATE runs many times.
  stops_only_on_io_errors_ = StopsOnlyOnIoErrors();
}

DmlRun::~DmlRun() = default;

Status DmlRun::PrepareTriggers(const catalog::Schema* schema, const TriggerFrame* parent) {
  triggers_.reset();
  if (table_->triggers.empty()) return Status::OK();
  ENGINE_ASSIGN_OR_RETURN(triggers_, TriggerRun::Prepare(schema, ctx_->trees(), *dml_, parent));
  // A DO UPDATE fires the table's UPDATE triggers, as an UPDATE OR ABORT.
  upsert_triggers_.clear();
  for (const plan::Dml::Upsert& u : dml_->upsert) {
    std::unique_ptr<TriggerRun> run;
    if (!u.nothing) {
      plan::Dml update;
      update.kind = plan::Dml::Kind::kUpdate;
      update.table = table_;
      update.sets = u.sets;
      update.conflict = ConflictAction::kAbort;
      ENGINE_ASSIGN_OR_RETURN(run, TriggerRun::Prepare(schema, ctx_->trees(), update, parent));
    }
    upsert_triggers_.push_back(std::move(run));
  }
  return Status::OK();
}

namespace {

// An expression whose evaluation cannot fail: columns, parameters,
// constants and the operators that always produce a value (integer overflow
// goes to REAL, division by zero to NULL). Functions, subqueries and the
// rest are left out, whatever they are.
bool CannotFail(const plan::Program& prog, int32_t id) {
  if (id < 0) return true;
  const plan::Node& n = prog.node(id);
  switch (n.op) {
    case plan::Op::kConst:
    case plan::Op::kParam:
    case plan::Op::kColumn:
      return true;
    case plan::Op::kUnary:
    case plan::Op::kBinary:
    case plan::Op::kIsNull:
    case plan::Op::kBetween:
    case plan::Op::kCast:
      return CannotFail(prog, n.a) && CannotFail(prog, n.b) && CannotFail(prog, n.c);
    default:
      return false;
  }
}

}  // namespace

bool DmlRun::StopsOnlyOnIoErrors() const {
  if (dml_->view || upsert_ || rowid_action_ == ConflictAction::kReplace ||
      dml_->conflict == ConflictAction::kReplace)
    return false;
  for (ConflictAction a : index_action_) {
    if (a == ConflictAction::kReplace) return false;
  }
  const bool one_row = dml_->level.access == plan::Access::kRowidEq || dml_->level.unique_eq();
  switch (dml_->kind) {
    case plan::Dml::Kind::kInsert: {
      if (dml_->source < 0) return true;  // DEFAULT VALUES
      const plan::Select& s = ctx_->prog().selects[static_cast<size_t>(dml_->source)];
      return s.cores.size() == 1 && s.cores[0].values && s.cores[0].value_rows.size() == 1;
    }
    case plan::Dml::Kind::kDelete:
      // The rows are found before the first is deleted, and a delete checks
      // no constraint.
      return true;
    case plan::Dml::Kind::kUpdate: {
      if (one_row) return true;
      // Many rows: only when no row can fail a constraint or its SET
      // values (no NOT NULL, CHECK or index on a column it sets, not the
      // rowid, values that cannot fail to evaluate).
      if (!dml_->update_checks.empty()) return false;
      for (const auto& [col, node] : dml_->sets) {
        if (col < 0 || col == table_->rowid_alias) return false;
        if (table_->columns[static_cast<size_t>(col)].not_null) return false;
        for (const catalog::IndexInfo* ix : table_->indexes) {
          if (std::find(ix->columns.begin(), ix->columns.end(), col) != ix->columns.end())
            return false;
        }
        if (!CannotFail(ctx_->prog(), node)) return false;
      }
      return true;
    }
  }
  return false;
}

Status DmlRun::FireTriggers(TriggerRun::Timing t, const Value* old_row, const Value* new_row,
                            bool* ignore, TriggerRun* run) {
  ConflictAction failed = ConflictAction::kAbort;
  TriggerRun* fired = run != nullptr ? run : triggers_.get();
  fired->set_ignore_checks(ctx_->ignore_checks);
  Status st = fired->Fire(t, old_row, new_row, ignore, &failed);
  if (!st.ok()) failed_ = failed;
  // A body may have written this table: the cached largest rowid is stale.
  next_rowid_known_ = false;
  return st;
}

ConflictAction DmlRun::Resolve(ConflictAction declared) const {
  if (force_abort_) return ConflictAction::kAbort;
  if (dml_->conflict != ConflictAction::kDefault) return dml_->conflict;
  return declared == ConflictAction::kDefault ? ConflictAction::kAbort : declared;
}

const plan::Dml::Upsert* DmlRun::UpsertFor(int ix) const {
  for (const plan::Dml::Upsert& u : dml_->upsert) {
    if (u.target == ix || u.target == plan::Dml::Upsert::kAnyConstraint) return &u;
  }
  return nullptr;
}

Status DmlRun::Fail(ConflictAction action, Status st) {
  failed_ = action;
  return st;
}

Status DmlRun::RowidError() const {
  const std::string col = table_->rowid_alias >= 0
                              ? table_->columns[static_cast<size_t>(table_->rowid_alias)].name
                              : "rowid";
  return Status::Constraint("UNIQUE constraint failed: " + table_->name + "." + col);
}

BtCursor& DmlRun::TableCursor() {
  if (!table_cur_) table_cur_.emplace(ctx_->tree(table_->db), table_->root);
  return *table_cur_;
}

BtCursor& DmlRun::IndexCursor(size_t ix) {
  auto& c = index_cur_[ix];
  if (!c) {
    const catalog::IndexInfo* info = table_->indexes[ix];
    c.emplace(ctx_->tree(table_->db), info->root, info->key_order());
  }
  return *c;
}

void DmlRun::Release() {
  // Cursors stay for the next execution; the index probes let go of their
  // pages. The table cursor keeps its place (on the row last written) until
  // the transaction ends or another change to the table saves it: the next
  // execution's seek then often stays in that leaf, and a rowid-order
  // INSERT appends without a descent. Commit, rollback and the end of the
  // read transaction save every cursor, so no page stays pinned past them.
  for (auto& c : index_cur_) {
    if (c) c->close();
  }
  if (scan_) scan_->Close();
}

Status DmlRun::Execute(int64_t* changes, int64_t* last_rowid) {
  *changes = 0;
  next_rowid_known_ = false;
  failed_ = ConflictAction::kAbort;
  if (dml_->view) [[unlikely]]
    return RunView();
  Status st;
  switch (dml_->kind) {
    case plan::Dml::Kind::kInsert:
      st = RunInsert(changes, last_rowid);
      break;
    case plan::Dml::Kind::kUpdate:
      st = RunUpdate(changes);
      break;
    case plan::Dml::Kind::kDelete:
      st = RunDelete(changes);
      break;
  }
  Release();
  return st;
}

const Value* DmlRun::BuildKey(size_t ix, const Value* vals, int64_t rowid) {
  const catalog::IndexInfo* info = table_->indexes[ix];
  key_.clear();
  for (int c : info->columns) {
    key_.push_back(c == table_->rowid_alias ? Value::Integer(rowid) : vals[c]);
  }
  key_.push_back(Value::Integer(rowid));
  return key_.data();
}

Status DmlRun::InsertIndexEntry(size_t ix, const Value* vals, int64_t rowid) {
  const Value* key = BuildKey(ix, vals, rowid);
  auto rec = builder_.Build(key, static_cast<int>(key_.size()));
  // A UNIQUE index's cursor still sits where the conflict probe ended,
  // which is where the key goes.
  return ctx_->tree(table_->db)
      ->InsertIndex(table_->indexes[ix]->root, rec, table_->indexes[ix]->key_order(),
                    index_cur_[ix] ? &*index_cur_[ix] : nullptr);
}

Status DmlRun::DeleteIndexEntry(size_t ix, const Value* vals, int64_t rowid) {
  const Value* key = BuildKey(ix, vals, rowid);
  BtCursor& cur = IndexCursor(ix);
  bool exact = false;
  ENGINE_RETURN_IF_ERROR(cur.seek_index(key, static_cast<int>(key_.size()), SeekOp::kGE, &exact));
  if (!exact) return Status::Corruption("database disk image is malformed");
  return ctx_->tree(table_->db)->Delete(&cur);
}

Result<std::optional<int64_t>> DmlRun::UniqueConflict(size_t ix, const Value* vals, int64_t rowid,
                                                      const int64_t* self) {
  const catalog::IndexInfo* info = table_->indexes[ix];
  if (!info->unique) return std::optional<int64_t>();
  const Value* key = BuildKey(ix, vals, rowid);
  const int n = static_cast<int>(info->columns.size());
  for (int i = 0; i < n; ++i) {
    if (key[i].is_null()) return std::optional<int64_t>();  // NULLs are distinct in a UNIQUE index
  }
  BtCursor& cur = IndexCursor(ix);
  bool exact = false;
  ENGINE_RETURN_IF_ERROR(cur.seek_index(key, n, SeekOp::kGE, &exact));
  while (exact && cur.valid()) {
    std::span<const uint8_t> payload;
    ENGINE_RETURN_IF_ERROR(cur.payload(&payload));
    RecordReader r;
    ENGINE_RETURN_IF_ERROR(r.Parse(payload));
    for (int i = 0; i < n; ++i) {
      // Equal under the index's collation: 'a' and 'A' collide in a
      // UNIQUE NOCASE index.
      if (func::CompareCollated(r.column(i), key[i], info->keys[static_cast<size_t>(i)].coll) !=
          0) {
        return std::optional<int64_t>();
      }
    }
    const int64_t other = r.column(n).as_int();
    if (self == nullptr || other != *self) return std::optional<int64_t>(other);
    ENGINE_RETURN_IF_ERROR(cur.next());
  }
  return std::optional<int64_t>();
}

Status DmlRun::UniqueError(size_t ix) const {
  return catalog::UniqueFailed(*table_, *table_->indexes[ix]);
}

Status DmlRun::CheckNotNull(Value* vals, bool* skip) {
  *skip = false;
  bool replaced = false;
  for (size_t c : not_null_cols_) {
    const catalog::ColumnInfo& col = table_->columns[c];
    if (!vals[c].is_null()) continue;
    const ConflictAction action = Resolve(col.not_null_conflict);
    if (action == ConflictAction::kIgnore) {
      *skip = true;
      return Status::OK();
    }
    if (action == ConflictAction::kReplace && c < dml_->defaults.size() && dml_->defaults[c] >= 0) {
      ENGINE_RETURN_IF_ERROR(ctx_->Eval(dml_->defaults[c], &vals[c]));
      vals[c] = func::ApplyAffinity(vals[c], col.affinity, ctx_->arena());
      replaced = true;
      continue;
    }
    return Fail(action == ConflictAction::kReplace ? ConflictAction::kAbort : action,
                Status::Constraint("NOT NULL constraint failed: " + table_->name + "." + col.name));
  }
  // SQLite's second pass: a REPLACE whose default is NULL fails as ABORT,
  // after every other column's check.
  for (size_t k = 0; replaced && k < not_null_cols_.size(); ++k) {
    const size_t c = not_null_cols_[k];
    const catalog::ColumnInfo& col = table_->columns[c];
    if (vals[c].is_null()) {
      return Status::Constraint("NOT NULL constraint failed: " + table_->name + "." + col.name);
    }
  }
  return Status::OK();
}

Status DmlRun::CheckConstraints(const Value* vals, int64_t rowid,
                                const std::vector<uint32_t>* which, bool* skip) {
  *skip = false;
  if (ctx_->ignore_checks) return Status::OK();
  SourceRow& row = ctx_->sources()[static_cast<size_t>(dml_->check_src)];
  row.null_row = false;
  row.values = vals;
  row.rowid = rowid;  // the INTEGER PRIMARY KEY column reads it too
  const func::PureContext pure("a CHECK constraint");
  const size_t n = which != nullptr ? which->size() : dml_->checks.size();
  for (size_t i = 0; i < n; ++i) {
    const plan::CheckPlan& check = dml_->checks[which != nullptr ? (*which)[i] : i];
    ENGINE_ASSIGN_OR_RETURN(int truth, ctx_->Truth(check.node));
    if (truth != 0) continue;
    // A CHECK has no ON CONFLICT of its own (sqlite3 parses a table
    // constraint's and ignores it): the statement's OR clause, else ABORT.
    const ConflictAction action = Resolve(ConflictAction::kDefault);
    if (action == ConflictAction::kIgnore) {
      *skip = true;
      return Status::OK();
    }
    return Fail(action == ConflictAction::kReplace ? ConflictAction::kAbort : action,
                Status::Constraint("CHECK constraint failed: " + *check.label));
  }
  return Status::OK();
}

inline Status DmlRun::CheckRowid(int64_t rowid, bool* skip) {
  bool found = false;
  ENGINE_RETURN_IF_ERROR(TableCursor().seek(rowid, &found));
  if (!found) [[likely]]
    return Status::OK();
  return RowidHit(rowid, skip);
}

Status DmlRun::RowidHit(int64_t rowid, bool* skip) {
  if (upsert_) {
    if (const plan::Dml::Upsert* u = UpsertFor(-1)) {
      *skip = true;
      upsert_hit_ = u;
      upsert_row_ = rowid;
      return Status::OK();
    }
  }
  const ConflictAction action = force_abort_ ? ConflictAction::kAbort : rowid_action_;
  switch (action) {
    case ConflictAction::kIgnore:
      *skip = true;
      return Status::OK();
    case ConflictAction::kReplace:
      doomed_.push_back(rowid);
      return Status::OK();
    default:
      return Fail(action, RowidError());
  }
}

Status DmlRun::CheckUnique(const Value* vals, int64_t rowid, const int64_t* self, bool check_rowid,
                           const std::vector<bool>* touched, bool* skip) {
  *skip = false;
  doomed_.clear();
  auto rowid_check = [&]() { return CheckRowid(rowid, skip); };
  // The rowid goes first, or right after an UPSERT's target indexes.
  if (check_rowid && !defer_rowid_ && upsert_first_ == 0) {
    ENGINE_RETURN_IF_ERROR(rowid_check());
    if (*skip) return Status::OK();
  }
  for (size_t k = 0; k < check_order_.size(); ++k) {
    if (k == upsert_first_ && k > 0 && check_rowid && !defer_rowid_) [[unlikely]] {
      ENGINE_RETURN_IF_ERROR(rowid_check());
      if (*skip) return Status::OK();
    }
    const size_t ix = check_order_[k];
    if (touched != nullptr && !(*touched)[ix]) continue;
    ENGINE_ASSIGN_OR_RETURN(std::optional<int64_t> conflict, UniqueConflict(ix, vals, rowid, self));
    if (!conflict) continue;
    const int64_t other = *conflict;
    if (upsert_) {
      if (const plan::Dml::Upsert* u = UpsertFor(static_cast<int>(ix))) {
        *skip = true;
        upsert_hit_ = u;
        upsert_row_ = other;
        return Status::OK();
      }
    }
    const ConflictAction action = force_abort_ ? ConflictAction::kAbort : index_action_[ix];
    switch (action) {
      case ConflictAction::kIgnore:
        *skip = true;
        return Status::OK();
      case ConflictAction::kReplace:
        doomed_.push_back(other);
        break;
      default:
        return Fail(action, UniqueError(ix));
    }
  }
  const bool rowid_last =
      defer_rowid_ || (upsert_first_ > 0 && upsert_first_ == check_order_.size());
  if (check_rowid && rowid_last) ENGINE_RETURN_IF_ERROR(rowid_check());
  return Status::OK();
}

Result<int64_t> DmlRun::NewRowid() {
  if (!next_rowid_known_) {
    BtCursor& cur = TableCursor();
    ENGINE_RETURN_IF_ERROR(cur.last());
    next_rowid_ = cur.valid() ? cur.rowid() : 0;
    next_rowid_known_ = true;
  }
  if (next_rowid_ == std::numeric_limits<int64_t>::max()) {
    return Status::SqlError("database or disk is full");
  }
  return next_rowid_ + 1;
}

Status DmlRun::LoadRow(int64_t rowid, bool* found) {
  // The scan that found the rowid usually still sits on its row (a
  // single-row UPDATE or DELETE): read it there instead of seeking again.
  BtCursor* scan = scan_ ? scan_->table_cursor(0) : nullptr;
  if (scan != nullptr && scan->at_rowid(rowid)) {
    row_cur_ = scan;
    *found = true;
  } else {
    row_cur_ = &TableCursor();
    ENGINE_RETURN_IF_ERROR(row_cur_->seek(rowid, found));
    if (!*found) return Status::OK();
  }
  BtCursor& cur = *row_cur_;
  std::span<const uint8_t> payload;
  ENGINE_RETURN_IF_ERROR(cur.payload(&payload));
  ENGINE_RETURN_IF_ERROR(reader_.Parse(payload));
  const size_t n = table_->columns.size();
  if (row_.size() != n + 1) row_.resize(n + 1);
  for (size_t c = 0; c < n; ++c) row_[c] = reader_.column(static_cast<int>(c));
  if (table_->rowid_alias >= 0)
    row_[static_cast<size_t>(table_->rowid_alias)] = Value::Integer(rowid);
  row_[n] = Value::Integer(rowid);
  // Copy out of the page: the deletes below rewrite it.
  old_.Reset(static_cast<int>(n + 1));
  old_.Add(row_.data());
  return Status::OK();
}

Status DmlRun::DeleteRow(int64_t rowid, bool* deleted) {
  bool found = false;
  if (deleted != nullptr) *deleted = false;
  ENGINE_RETURN_IF_ERROR(LoadRow(rowid, &found));
  if (!found) return Status::OK();
  if (deleted != nullptr) *deleted = true;
  const Value* vals = old_.row(0);
  for (size_t ix = 0; ix < table_->indexes.size(); ++ix) {
    ENGINE_RETURN_IF_ERROR(DeleteIndexEntry(ix, vals, rowid));
  }
  // Index changes leave the table cursor where LoadRow put it.
  BtCursor* cur = row_cur_;
  if (!cur->at_rowid(rowid)) {
    cur = &TableCursor();
    ENGINE_RETURN_IF_ERROR(cur->seek(rowid, &found));
    if (!found) return Status::Corruption("database disk image is malformed");
  }
  return ctx_->tree(table_->db)->Delete(cur);
}

Status DmlRun::InsertRow(Value* vals, const Value* rowid_in, bool* skipped, int64_t* rowid_out) {
  *skipped = false;
  int64_t rowid;
  bool explicit_rowid = false;
  if (rowid_in != nullptr && !rowid_in->is_null()) {
    const Value r = func::ApplyAffinity(*rowid_in, func::Affinity::kInteger, ctx_->arena());
    if (r.type() != ValueType::kInteger) return Status::SqlError("datatype mismatch");
    rowid = r.as_int();
    explicit_rowid = true;
  } else {
    ENGINE_ASSIGN_OR_RETURN(rowid, NewRowid());
  }
  bool skip;
  upsert_hit_ = nullptr;
  ENGINE_RETURN_IF_ERROR(CheckNotNull(vals, &skip));
  if (!skip && has_checks_) [[unlikely]]
    ENGINE_RETURN_IF_ERROR(CheckConstraints(vals, rowid, nullptr, &skip));
  if (!skip) {
    if (check_order_.empty() && !upsert_) [[likely]] {
      // Only the rowid can conflict (no UNIQUE index, no UPSERT): checked
      // here, without CheckUnique's ordering of index and rowid checks
      // (engine/insert_batch: ~100 Ir a row, issue 14's cost).
      doomed_.clear();
      if (explicit_rowid) ENGINE_RETURN_IF_ERROR(CheckRowid(rowid, &skip));
    } else {
      ENGINE_RETURN_IF_ERROR(CheckUnique(vals, rowid, nullptr, explicit_rowid, nullptr, &skip));
    }
  }
  if (skip) {
    *skipped = true;
    if (upsert_hit_ != nullptr && !upsert_hit_->nothing) [[unlikely]] {
      bool updated = false;
      ENGINE_RETURN_IF_ERROR(UpsertUpdate(upsert_row_, *upsert_hit_, vals, rowid, &updated));
      upserted_ = updated;
    }
    return Status::OK();
  }
  if (!doomed_.empty()) [[unlikely]] {
    std::sort(doomed_.begin(), doomed_.end());
    doomed_.erase(std::unique(doomed_.begin(), doomed_.end()), doomed_.end());
    for (int64_t r : doomed_) ENGINE_RETURN_IF_ERROR(DeleteRow(r));
    // A deleted row may have been the largest rowid: the next new rowid is
    // max(rowid) + 1 of the table as it is then, as in SQLite.
    next_rowid_known_ = false;
  }
  const size_t n = table_->columns.size();
  Value alias_saved;
  if (table_->rowid_alias >= 0) {
    // The alias lives in the rowid; the record stores NULL in its place.
    alias_saved = vals[table_->rowid_alias];
    vals[table_->rowid_alias] = Value::Null();
  }
  auto rec = builder_.Build(vals, static_cast<int>(n));
  // The table cursor sits where the rowid check or NewRowid left it: at the
  // insertion point, unless a REPLACE moved it.
  ENGINE_RETURN_IF_ERROR(
      ctx_->tree(table_->db)
          ->Insert(table_->root, rowid, rec, table_cur_ ? &*table_cur_ : nullptr));
  if (table_->rowid_alias >= 0) vals[table_->rowid_alias] = Value::Integer(rowid);
  for (size_t ix = 0; ix < table_->indexes.size(); ++ix) {
    ENGINE_RETURN_IF_ERROR(InsertIndexEntry(ix, vals, rowid));
  }
  if (!next_rowid_known_ || rowid > next_rowid_) {
    if (next_rowid_known_) next_rowid_ = rowid;
  }
  *rowid_out = rowid;
  (void)alias_saved;
  return Status::OK();
}

Status DmlRun::RunInsert(int64_t* changes, int64_t* last_rowid) {
  const size_t n = table_->columns.size();
  std::vector<Value>& vals = ins_;
  auto insert_one = [&](const Value* src) -> Status {
    ctx_->arena().Reset();
    vals.assign(n, Value::Null());
    for (size_t c = 0; c < n; ++c) {
      const int m = dml_->column_map[c];
      if (m >= 0 && src != nullptr) {
        vals[c] = src[m];
      } else if (dml_->defaults[c] >= 0) {
        ENGINE_RETURN_IF_ERROR(ctx_->Eval(dml_->defaults[c], &vals[c]));
      }
    }
    Value rowid_in;
    bool has_rowid = false;
    if (table_->rowid_alias >= 0 && !vals[static_cast<size_t>(table_->rowid_alias)].is_null()) {
      rowid_in = vals[static_cast<size_t>(table_->rowid_alias)];
      has_rowid = true;
    }
    if (dml_->rowid_source >= 0 && src != nullptr && !src[dml_->rowid_source].is_null()) {
      rowid_in = src[dml_->rowid_source];
      has_rowid = true;
    }
    for (size_t c = 0; c < n; ++c) {
      if (static_cast<int>(c) == table_->rowid_alias) continue;
      vals[c] = func::ApplyAffinity(vals[c], table_->columns[c].affinity, ctx_->arena());
    }
    if (triggers_ && triggers_->has(TriggerRun::Timing::kBefore)) [[unlikely]] {
      // NEW.rowid before the insert: the rowid given, else -1, as SQLite.
      Value r = Value::Integer(-1);
      if (has_rowid) {
        r = func::ApplyAffinity(rowid_in, func::Affinity::kInteger, ctx_->arena());
        if (r.type() != ValueType::kInteger) return Status::SqlError("datatype mismatch");
      }
      trig_row_.assign(vals.begin(), vals.end());
      trig_row_.push_back(r);
      if (table_->rowid_alias >= 0) trig_row_[static_cast<size_t>(table_->rowid_alias)] = r;
      bool ignore = false;
      ENGINE_RETURN_IF_ERROR(
          FireTriggers(TriggerRun::Timing::kBefore, nullptr, trig_row_.data(), &ignore));
      if (ignore) return Status::OK();
    }
    bool skipped;
    int64_t rowid = 0;
    ENGINE_RETURN_IF_ERROR(
        InsertRow(vals.data(), has_rowid ? &rowid_in : nullptr, &skipped, &rowid));
    if (upserted_) [[unlikely]] {
      upserted_ = false;
      ++*changes;  // DO UPDATE changed a row; no row was inserted
    }
    if (!skipped) {
      ++*changes;
      *last_rowid = rowid;
      next_rowid_ = std::max(next_rowid_, rowid);
      if (triggers_ && triggers_->has(TriggerRun::Timing::kAfter)) [[unlikely]] {
        trig_row_.assign(vals.begin(), vals.end());
        trig_row_.push_back(Value::Integer(rowid));
        bool ignore = false;
        ENGINE_RETURN_IF_ERROR(
            FireTriggers(TriggerRun::Timing::kAfter, nullptr, trig_row_.data(), &ignore));
      }
    }
    return Status::OK();
  };
  if (dml_->source < 0) return insert_one(nullptr);
  SelectRun* run = ctx_->Run(dml_->source);
  // A trigger may write what the source reads: gather the rows first.
  if (dml_->materialize_source || triggers_) {
    ENGINE_RETURN_IF_ERROR(run->Materialize(&source_rows_));
    for (size_t i = 0; i < source_rows_.size(); ++i) {
      ENGINE_RETURN_IF_ERROR(insert_one(source_rows_.row(i)));
    }
    return Status::OK();
  }
  ENGINE_RETURN_IF_ERROR(run->Open());
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, run->Next());
    if (!have) break;
    Status st = insert_one(run->row());
    if (!st.ok()) {
      run->Close();
      return st;
    }
  }
  run->Close();
  return Status::OK();
}

Status DmlRun::CollectRowids() {
  rowids_.clear();
  ENGINE_RETURN_IF_ERROR(scan_->Open());
  const SourceRow& row = ctx_->sources()[static_cast<size_t>(dml_->level.src)];
  for (;;) {
    ctx_->arena().Reset();
    ENGINE_ASSIGN_OR_RETURN(bool have, scan_->Next());
    if (!have) break;
    rowids_.push_back(row.rowid);
  }
  // The scan stays open (Release closes it): its cursor on the last row
  // found spares LoadRow a seek. A change to the table saves its position.
  return Status::OK();
}

ENGINE_ALWAYS_INLINE Status DmlRun::ApplySets(const std::vector<std::pair<int, int32_t>>& sets,
                                              const Value* newvals, int64_t rowid,
                                              int64_t* new_rowid) {
  const size_t n = table_->columns.size();
  const Value* old = old_.row(0);
  // LoadRow (always before) sized row_ to n + 1, the rowid last: copying
  // over the first n keeps that size, so no resize call runs per row; the
  // callers read the first n.
  std::copy(old, old + n, row_.begin());
  *new_rowid = rowid;
  for (size_t i = 0; i < sets.size(); ++i) {
    const int c = sets[i].first;
    if (c < 0) {
      const Value r = func::ApplyAffinity(newvals[i], func::Affinity::kInteger, ctx_->arena());
      if (r.type() != ValueType::kInteger) return Status::SqlError("datatype mismatch");
      *new_rowid = r.as_int();
      if (table_->rowid_alias >= 0) row_[static_cast<size_t>(table_->rowid_alias)] = r;
      continue;
    }
    row_[static_cast<size_t>(c)] = func::ApplyAffinity(
        newvals[i], table_->columns[static_cast<size_t>(c)].affinity, ctx_->arena());
  }
  return Status::OK();
}

ENGINE_ALWAYS_INLINE bool DmlRun::MarkTouched(const std::vector<std::pair<int, int32_t>>& sets,
                                              bool rowid_changed,
                                              std::vector<bool>* touched) const {
  bool any = false;
  for (size_t ix = 0; ix < table_->indexes.size(); ++ix) {
    bool t = rowid_changed;
    for (int c : table_->indexes[ix]->columns) {
      for (const auto& s : sets) t |= s.first == c || (s.first < 0 && c == table_->rowid_alias);
    }
    (*touched)[ix] = t;
    any |= t;
  }
  return any;
}

ENGINE_ALWAYS_INLINE Status DmlRun::WriteUpdatedRow(int64_t rowid, int64_t new_rowid,
                                                    bool rowid_changed,
                                                    const std::vector<bool>& touched,
                                                    BtCursor* hint) {
  const size_t n = table_->columns.size();
  // row_ views old_'s copy of the row and the arena, never the page; only
  // a doomed row's delete (its LoadRow refills old_) pulls that from under
  // it, and only then are the new values copied first.
  Value* vals = row_.data();
  if (std::any_of(doomed_.begin(), doomed_.end(), [&](int64_t r) { return r != rowid; })) {
    fresh_.Reset(static_cast<int>(n));
    fresh_.Add(row_.data());
    vals = fresh_.mutable_row(0);
  }
  written_ = vals;
  for (size_t ix = 0; ix < table_->indexes.size(); ++ix) {
    if (touched[ix]) ENGINE_RETURN_IF_ERROR(DeleteIndexEntry(ix, old_.row(0), rowid));
  }
  for (int64_t r : doomed_) {
    if (r != rowid) ENGINE_RETURN_IF_ERROR(DeleteRow(r));
  }
  if (rowid_changed) {
    BtCursor& cur = TableCursor();
    bool found = false;
    ENGINE_RETURN_IF_ERROR(cur.seek(rowid, &found));
    if (found) ENGINE_RETURN_IF_ERROR(ctx_->tree(table_->db)->Delete(&cur));
  }
  // A row deleted or moved may have held the largest rowid (an UPSERT's
  // INSERT goes on after it).
  next_rowid_known_ = false;
  if (table_->rowid_alias >= 0) vals[table_->rowid_alias] = Value::Null();
  auto rec = builder_.Build(vals, static_cast<int>(n));
  ENGINE_RETURN_IF_ERROR(ctx_->tree(table_->db)->Insert(table_->root, new_rowid, rec, hint));
  if (table_->rowid_alias >= 0) vals[table_->rowid_alias] = Value::Integer(new_rowid);
  for (size_t ix = 0; ix < table_->indexes.size(); ++ix) {
    if (touched[ix]) ENGINE_RETURN_IF_ERROR(InsertIndexEntry(ix, vals, new_rowid));
  }
  return Status::OK();
}

Status DmlRun::UpsertUpdate(int64_t rowid, const plan::Dml::Upsert& u, const Value* proposed,
                            int64_t proposed_rowid, bool* updated) {
  *updated = false;
  const size_t n = table_->columns.size();
  // The proposed row as "excluded", its rowid in the alias column.
  excluded_.Reset(static_cast<int>(n));
  excluded_.Add(proposed);
  if (table_->rowid_alias >= 0) {
    excluded_.mutable_row(0)[table_->rowid_alias] = Value::Integer(proposed_rowid);
  }
  bool found = false;
  ENGINE_RETURN_IF_ERROR(LoadRow(rowid, &found));
  if (!found) return Status::OK();
  SourceRow& target = ctx_->sources()[static_cast<size_t>(dml_->upsert_src)];
  target.null_row = false;
  target.values = nullptr;
  target.rowid = rowid;
  ENGINE_RETURN_IF_ERROR(target.reader.Parse(reader_.data(), reader_.size()));
  SourceRow& excluded = ctx_->sources()[static_cast<size_t>(dml_->excluded_src)];
  excluded.null_row = false;
  excluded.values = excluded_.row(0);
  excluded.rowid = proposed_rowid;
  if (u.where >= 0) {
    ENGINE_ASSIGN_OR_RETURN(int truth, ctx_->Truth(u.where));
    if (truth != 1) return Status::OK();
  }
  std::vector<Value> newvals(u.sets.size());
  for (size_t i = 0; i < u.sets.size(); ++i) {
    ENGINE_RETURN_IF_ERROR(ctx_->Eval(u.sets[i].second, &newvals[i]));
    newvals[i] = ctx_->arena().Copy(newvals[i]);
  }
  int64_t new_rowid = rowid;
  ENGINE_RETURN_IF_ERROR(ApplySets(u.sets, newvals.data(), rowid, &new_rowid));
  const size_t clause = static_cast<size_t>(&u - dml_->upsert.data());
  TriggerRun* triggers =
      clause < upsert_triggers_.size() ? upsert_triggers_[clause].get() : nullptr;
  if (triggers != nullptr) {
    trig_old_.Reset(static_cast<int>(n + 1));
    trig_old_.Add(old_.row(0));
    if (triggers->has(TriggerRun::Timing::kBefore)) {
      trig_row_.assign(row_.begin(), row_.begin() + static_cast<ptrdiff_t>(n));
      trig_row_.push_back(Value::Integer(new_rowid));
      bool ignore = false;
      ENGINE_RETURN_IF_ERROR(FireTriggers(TriggerRun::Timing::kBefore, trig_old_.row(0),
                                          trig_row_.data(), &ignore, triggers));
      if (ignore) return Status::OK();
      ENGINE_RETURN_IF_ERROR(LoadRow(rowid, &found));
      if (!found) return Status::OK();
      ENGINE_RETURN_IF_ERROR(ApplySets(u.sets, newvals.data(), rowid, &new_rowid));
    }
  }
  const bool rowid_changed = new_rowid != rowid;
  bool skip = false;
  // SQLite runs the DO UPDATE as an UPDATE OR ABORT, whatever the INSERT's
  // OR clause and the constraints' own ON CONFLICT.
  force_abort_ = true;
  Status not_null = CheckNotNull(row_.data(), &skip);
  force_abort_ = false;
  ENGINE_RETURN_IF_ERROR(not_null);
  if (skip) return Status::OK();
  if (!u.checks.empty()) {
    force_abort_ = true;
    Status checked = CheckConstraints(row_.data(), new_rowid, &u.checks, &skip);
    force_abort_ = false;
    ENGINE_RETURN_IF_ERROR(checked);
    if (skip) return Status::OK();
  }
  std::vector<bool> touched(table_->indexes.size());
  MarkTouched(u.sets, rowid_changed, &touched);
  // The update's own conflicts are not the UPSERT's to resolve.
  upsert_ = false;
  force_abort_ = true;
  Status checked = CheckUnique(row_.data(), new_rowid, &rowid, rowid_changed, &touched, &skip);
  force_abort_ = false;
  upsert_ = true;
  ENGINE_RETURN_IF_ERROR(checked);
  if (skip) return Status::OK();
  // The table cursor, not the row's: the deletes may have moved it.
  BtCursor* hint = rowid_changed || !doomed_.empty() ? &TableCursor() : row_cur_;
  ENGINE_RETURN_IF_ERROR(WriteUpdatedRow(rowid, new_rowid, rowid_changed, touched, hint));
  const Value* vals = written_;
  *updated = true;
  if (triggers != nullptr && triggers->has(TriggerRun::Timing::kAfter)) {
    trig_row_.assign(vals, vals + n);
    trig_row_.push_back(Value::Integer(new_rowid));
    bool ignore = false;
    ENGINE_RETURN_IF_ERROR(FireTriggers(TriggerRun::Timing::kAfter, trig_old_.row(0),
                                        trig_row_.data(), &ignore, triggers));
  }
  return Status::OK();
}

Status DmlRun::RunView() {
  // The rows first: the triggers may write what they are read from. A view's
  // rows changed through INSTEAD OF triggers count in no changes().
  const size_t n = table_->columns.size();
  if (!triggers_) return Status::OK();
  const bool insert = dml_->kind == plan::Dml::Kind::kInsert;
  const int select = insert ? dml_->source : dml_->view_rows;
  if (select >= 0) {
    ENGINE_RETURN_IF_ERROR(ctx_->Run(select)->Materialize(&source_rows_));
  } else {
    source_rows_.Reset(0);  // DEFAULT VALUES: one row of NULLs
  }
  const size_t rows = select >= 0 ? source_rows_.size() : 1;
  std::vector<Value> old_row(n + 1), new_row(n + 1);
  for (size_t i = 0; i < rows; ++i) {
    const Value* r = select >= 0 ? source_rows_.row(i) : nullptr;
    std::fill(new_row.begin(), new_row.end(), Value::Null());
    std::fill(old_row.begin(), old_row.end(), Value::Null());
    const Value* old_arg = nullptr;
    const Value* new_arg = nullptr;
    if (insert) {
      for (size_t c = 0; c < n; ++c) {
        const int m = dml_->column_map[c];
        if (m >= 0 && r != nullptr) new_row[c] = r[m];
      }
      new_arg = new_row.data();
    } else {
      for (size_t c = 0; c < n; ++c) old_row[c] = r[c];
      old_arg = old_row.data();
      if (dml_->kind == plan::Dml::Kind::kUpdate) {
        new_row = old_row;
        for (size_t k = 0; k < dml_->sets.size(); ++k) {
          new_row[static_cast<size_t>(dml_->sets[k].first)] = r[n + k];
        }
        new_arg = new_row.data();
      }
    }
    bool ignore = false;
    ENGINE_RETURN_IF_ERROR(FireTriggers(TriggerRun::Timing::kInsteadOf, old_arg, new_arg, &ignore));
  }
  return Status::OK();
}

Status DmlRun::RunDeleteWithTriggers(int64_t* changes) {
  const size_t n = table_->columns.size();
  for (int64_t rowid : rowids_) {
    bool found = false;
    ENGINE_RETURN_IF_ERROR(LoadRow(rowid, &found));
    if (!found) continue;
    trig_old_.Reset(static_cast<int>(n + 1));
    trig_old_.Add(old_.row(0));
    bool ignore = false;
    if (triggers_->has(TriggerRun::Timing::kBefore)) {
      ENGINE_RETURN_IF_ERROR(
          FireTriggers(TriggerRun::Timing::kBefore, trig_old_.row(0), nullptr, &ignore));
      if (ignore) continue;
    }
    // A BEFORE trigger may have deleted the row already: then nothing more.
    bool deleted = false;
    ENGINE_RETURN_IF_ERROR(DeleteRow(rowid, &deleted));
    if (!deleted) continue;
    ++*changes;
    if (triggers_->has(TriggerRun::Timing::kAfter)) {
      ENGINE_RETURN_IF_ERROR(
          FireTriggers(TriggerRun::Timing::kAfter, trig_old_.row(0), nullptr, &ignore));
    }
  }
  return Status::OK();
}

Status DmlRun::RunDelete(int64_t* changes) {
  ENGINE_RETURN_IF_ERROR(CollectRowids());
  if (triggers_) [[unlikely]]
    return RunDeleteWithTriggers(changes);
  for (int64_t rowid : rowids_) {
    ENGINE_RETURN_IF_ERROR(DeleteRow(rowid));
    ++*changes;
  }
  return Status::OK();
}

Status DmlRun::RunUpdate(int64_t* changes) {
  ENGINE_RETURN_IF_ERROR(CollectRowids());
  const size_t n = table_->columns.size();
  SourceRow& src = ctx_->sources()[static_cast<size_t>(dml_->level.src)];
  // Members, sized once: a single-row UPDATE would otherwise pay a heap
  // allocation per execution for them.
  std::vector<Value>& newvals = set_vals_;
  std::vector<bool>& touched = touched_;
  if (newvals.size() != dml_->sets.size()) newvals.resize(dml_->sets.size());
  if (touched.size() != table_->indexes.size()) touched.resize(table_->indexes.size());
  for (int64_t rowid : rowids_) {
    ctx_->arena().Reset();
    bool found = false;
    ENGINE_RETURN_IF_ERROR(LoadRow(rowid, &found));
    if (!found) continue;
    // SET expressions see the old row.
    src.null_row = false;
    src.values = nullptr;
    src.rowid = rowid;
    ENGINE_RETURN_IF_ERROR(src.reader.Parse(reader_.data(), reader_.size()));
    for (size_t i = 0; i < dml_->sets.size(); ++i) {
      ENGINE_RETURN_IF_ERROR(ctx_->Eval(dml_->sets[i].second, &newvals[i]));
      newvals[i] = ctx_->arena().Copy(newvals[i]);
    }
    int64_t new_rowid = rowid;
    ENGINE_RETURN_IF_ERROR(ApplySets(dml_->sets, newvals.data(), rowid, &new_rowid));
    if (triggers_) [[unlikely]] {
      trig_old_.Reset(static_cast<int>(n + 1));
      trig_old_.Add(old_.row(0));
      if (triggers_->has(TriggerRun::Timing::kBefore)) {
        trig_row_.assign(row_.begin(), row_.begin() + static_cast<ptrdiff_t>(n));
        trig_row_.push_back(Value::Integer(new_rowid));
        bool ignore = false;
        ENGINE_RETURN_IF_ERROR(
            FireTriggers(TriggerRun::Timing::kBefore, trig_old_.row(0), trig_row_.data(), &ignore));
        if (ignore) continue;
        // As SQLite: a row the trigger deleted is not updated; the columns
        // not SET are read again, the trigger may have changed them.
        ENGINE_RETURN_IF_ERROR(LoadRow(rowid, &found));
        if (!found) continue;
        ENGINE_RETURN_IF_ERROR(ApplySets(dml_->sets, newvals.data(), rowid, &new_rowid));
      }
    }
    bool skip;
    ENGINE_RETURN_IF_ERROR(CheckNotNull(row_.data(), &skip));
    if (skip) continue;
    if (!dml_->update_checks.empty()) [[unlikely]] {
      ENGINE_RETURN_IF_ERROR(CheckConstraints(row_.data(), new_rowid, &dml_->update_checks, &skip));
      if (skip) continue;
    }
    const bool rowid_changed = new_rowid != rowid;
    bool ignore_row = false;
    const bool keys_change = MarkTouched(dml_->sets, rowid_changed, &touched);
    if (keys_change || rowid_changed) {
      ENGINE_RETURN_IF_ERROR(
          CheckUnique(row_.data(), new_rowid, &rowid, rowid_changed, &touched, &ignore_row));
      if (ignore_row) continue;
    } else {
      doomed_.clear();  // no key and no rowid changes: nothing can conflict
    }
    // LoadRow left row_cur_ on the row: no second descent.
    ENGINE_RETURN_IF_ERROR(WriteUpdatedRow(rowid, new_rowid, rowid_changed, touched, row_cur_));
    const Value* vals = written_;
    ++*changes;
    if (triggers_ && triggers_->has(TriggerRun::Timing::kAfter)) [[unlikely]] {
      trig_row_.assign(vals, vals + n);
      trig_row_.push_back(Value::Integer(new_rowid));
      bool ignore = false;
      ENGINE_RETURN_IF_ERROR(
          FireTriggers(TriggerRun::Timing::kAfter, trig_old_.row(0), trig_row_.data(), &ignore));
    }
  }
  return Status::OK();
}

}  // namespace engine::exec
