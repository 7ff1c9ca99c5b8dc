// INSERT, UPDATE and DELETE at run time: type affinity on the way in,
// NOT NULL / CHECK / UNIQUE / PRIMARY KEY checks with SQLite's messages and its
// conflict resolutions (ABORT, IGNORE, REPLACE), and every index kept in step
// with its table. Rows to change are gathered first, then changed, so that a
// statement never sees its own writes.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "engine/exec/exec_context.h"
#include "engine/exec/trigger_run.h"
#include "engine/storage/record.h"

namespace engine::exec {

class DmlRun {
 public:
  DmlRun(ExecContext* ctx, const plan::Dml* dml);
  ~DmlRun();
  // Plans the triggers the statement fires (none: nothing to do, and
  // nothing is paid per row). `parent`: the trigger programs running it.
  Status PrepareTriggers(const catalog::Schema* schema, const TriggerFrame* parent);
  // Runs the statement once; *changes counts rows written, *last_rowid is
  // the rowid of the last row inserted (unchanged when none was).
  Status Execute(int64_t* changes, int64_t* last_rowid);
  // The resolved conflict action (ABORT, FAIL or ROLLBACK) of the
  // constraint that failed the last execution: what the API undoes.
  sql::ConflictAction failed_action() const { return failed_; }
  // No failure can stop the statement half-way but an I/O error: it checks
  // every constraint it can fail before its first write (one VALUES row;
  // an UPDATE of at most one row: by rowid or by every column of a UNIQUE
  // index), or it cannot fail one at all (a DELETE; an UPDATE of many rows
  // whose SETs touch no NOT NULL, CHECKed or indexed column and whose values
  // cannot fail to evaluate); no trigger, REPLACE or UPSERT. SQLite runs
  // these without a statement journal (sqlite3MultiWrite and
  // sqlite3MayAbort). Valid after PrepareTriggers.
  bool NeedsNoStatementJournal() const { return stops_only_on_io_errors_ && !triggers_; }

 private:
  // NeedsNoStatementJournal's test but for triggers (they are planned
  // later, by PrepareTriggers), made once by the constructor.
  bool StopsOnlyOnIoErrors() const;
  Status RunInsert(int64_t* changes, int64_t* last_rowid);
  Status RunUpdate(int64_t* changes);
  Status RunDelete(int64_t* changes);
  Status CollectRowids();
  // Inserts one row of table-ordered values (affinity already applied).
  Status InsertRow(Value* vals, const Value* rowid_in, bool* skipped, int64_t* rowid_out);
  // Checks NOT NULL in SQLite's two passes (REPLACE takes the default);
  // *skip for IGNORE.
  Status CheckNotNull(Value* vals, bool* skip);
  // The CHECK constraints `which` (positions in dml_->checks, in
  // declaration order; null: all of them) on the row `vals` (table order)
  // that will have rowid `rowid`, after NOT NULL and before UNIQUE as in
  // sqlite3. A check fails only when it is false (NULL passes); the
  // statement's OR clause decides, REPLACE as ABORT; *skip for IGNORE.
  Status CheckConstraints(const Value* vals, int64_t rowid, const std::vector<uint32_t>* which,
                          bool* skip);
  // The rowid (when check_rowid) and UNIQUE checks in SQLite's order; fills
  // doomed_ with the rows REPLACE deletes; *skip for IGNORE. `touched`
  // (UPDATE) limits the checks to the indexes whose key changes.
  Status CheckUnique(const Value* vals, int64_t rowid, const int64_t* self, bool check_rowid,
                     const std::vector<bool>* touched, bool* skip);
  // The rowid check alone: another row has `rowid`; its ON CONFLICT (or an
  // UPSERT on the rowid) decides, as in CheckUnique. The miss, nearly every
  // insert, is one seek; the hit goes to RowidHit.
  Status CheckRowid(int64_t rowid, bool* skip);
  Status RowidHit(int64_t rowid, bool* skip);
  // The action for a constraint declared with `declared`: the statement's
  // OR clause wins, then the constraint's, then ABORT.
  sql::ConflictAction Resolve(sql::ConflictAction declared) const;
  Status Fail(sql::ConflictAction action, Status st);
  // The first ON CONFLICT clause that covers constraint `ix` (-1: rowid).
  const plan::Dml::Upsert* UpsertFor(int ix) const;
  // DO UPDATE: the row `rowid` in the way of `proposed` updated by `u`.
  // UPDATE and UPSERT's DO UPDATE share these. The row's new values into
  // row_: the old row (old_) with the SET values in place; *new_rowid is the
  // rowid after them.
  Status ApplySets(const std::vector<std::pair<int, int32_t>>& sets, const Value* newvals,
                   int64_t rowid, int64_t* new_rowid);
  // Which indexes the SETs change (all of them when the rowid moves);
  // whether any.
  bool MarkTouched(const std::vector<std::pair<int, int32_t>>& sets, bool rowid_changed,
                   std::vector<bool>* touched) const;
  // Writes row_ over the row `rowid` (at new_rowid), its touched index
  // entries and the rows CheckUnique doomed; written_ then points at the
  // new values (row_, or fresh_ when a doomed row's delete reloads old_).
  Status WriteUpdatedRow(int64_t rowid, int64_t new_rowid, bool rowid_changed,
                         const std::vector<bool>& touched, BtCursor* hint);
  Status UpsertUpdate(int64_t rowid, const plan::Dml::Upsert& u, const Value* proposed,
                      int64_t proposed_rowid, bool* updated);
  Status RowidError() const;
  // Finds the rowid of a row other than `*self` (the row an UPDATE changes;
  // null for an INSERT) that has the same key in unique index `ix`; none
  // when there is none (any rowid, -1 too, may be the one found).
  Result<std::optional<int64_t>> UniqueConflict(size_t ix, const Value* vals, int64_t rowid,
                                                const int64_t* self);
  Status UniqueError(size_t ix) const;
  Status DeleteRow(int64_t rowid, bool* deleted = nullptr);
  // Fires `run`'s triggers (null: the statement's own).
  Status FireTriggers(TriggerRun::Timing t, const Value* old_row, const Value* new_row,
                      bool* ignore, TriggerRun* run = nullptr);
  Status RunDeleteWithTriggers(int64_t* changes);
  // A view's rows handed to its INSTEAD OF triggers.
  Status RunView();
  Status DeleteIndexEntry(size_t ix, const Value* vals, int64_t rowid);
  Status InsertIndexEntry(size_t ix, const Value* vals, int64_t rowid);
  const Value* BuildKey(size_t ix, const Value* vals, int64_t rowid);
  BtCursor& IndexCursor(size_t ix);
  BtCursor& TableCursor();
  Result<int64_t> NewRowid();
  // Reads the row into old_ / row_; row_cur_ is then the cursor on it.
  Status LoadRow(int64_t rowid, bool* found);
  void Release();

  ExecContext* ctx_;
  const plan::Dml* dml_;
  const catalog::TableInfo* table_;
  const bool has_checks_;  // dml_->checks is not empty: one test per inserted row
  std::optional<BtCursor> table_cur_;
  BtCursor* row_cur_ = nullptr;  // on the row LoadRow read (the scan's or table_cur_)
  std::deque<std::optional<BtCursor>> index_cur_;
  std::unique_ptr<CoreRun> scan_;
  RecordBuilder builder_;
  RecordReader reader_;
  std::vector<Value> key_;
  std::vector<Value> row_;  // values in table order
  std::vector<Value> ins_;  // the row being inserted
  RowStore old_;            // the row being updated or deleted, copied out of its page
  std::vector<int64_t> rowids_;
  std::vector<int64_t> doomed_;
  RowStore source_rows_;
  RowStore fresh_;                  // an updated row's new values, when row_ cannot keep them
  const Value* written_ = nullptr;  // the last WriteUpdatedRow's new values
  int64_t next_rowid_ = 0;
  bool next_rowid_known_ = false;
  // Unique indexes in the order SQLite checks them: the reverse of the
  // table's list (SQLite prepends each index it adds), those declared ON
  // CONFLICT REPLACE last (SQLite keeps them at the end of its list), so
  // that no row is deleted for a row that another constraint then refuses.
  // The declared action decides, not the statement's OR clause.
  std::vector<size_t> check_order_;
  // The NOT NULL columns but the rowid alias: most tables have few or none,
  // and CheckNotNull runs per row.
  std::vector<size_t> not_null_cols_;
  std::vector<sql::ConflictAction> index_action_;  // resolved, by index
  sql::ConflictAction rowid_action_ = sql::ConflictAction::kAbort;
  bool defer_rowid_ = false;  // a REPLACE rowid check runs after the indexes'
  bool upsert_ = false;       // the INSERT has ON CONFLICT clauses
  size_t upsert_first_ = 0;   // check_order_ begins with this many UPSERT targets
  const plan::Dml::Upsert* upsert_hit_ = nullptr;  // the clause a conflict met
  int64_t upsert_row_ = 0;                         // and the row in the way
  bool upserted_ = false;                          // a DO UPDATE changed a row
  bool force_abort_ = false;                       // checking a DO UPDATE: all ABORT
  RowStore excluded_;
  std::vector<std::unique_ptr<TriggerRun>> upsert_triggers_;  // UPDATE's, per DO UPDATE
  sql::ConflictAction failed_ = sql::ConflictAction::kAbort;
  std::unique_ptr<TriggerRun> triggers_;  // null: the statement fires none
  bool stops_only_on_io_errors_ = false;  // StopsOnlyOnIoErrors(), made once
  RowStore trig_old_;                     // OLD of the row an UPDATE changes
  std::vector<Value> trig_row_;
  std::vector<Value> set_vals_;  // an UPDATE's SET values for one row
  std::vector<bool> touched_;    // by index: does the UPDATE change its key
};

}  // namespace engine::exec
