// The runtime of one prepared statement: the current row of every source,
// the bound parameters, per-query scratch arenas, the runners of every
// SELECT in the plan (built once, reused by every execution), and the
// expression evaluator.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/exec/row_store.h"
#include "engine/exec/trees.h"
#include "engine/func/aggregates.h"
#include "engine/func/date_time.h"
#include "engine/func/value_arena.h"
#include "engine/planner/plan.h"
#include "engine/storage/btree.h"
#include "engine/storage/btree_cursor.h"
#include "engine/storage/record.h"

namespace engine::exec {

// Orders row indices of a RowStore by the rows' first n columns, each under
// its collation (GROUP BY terms, DISTINCT and compound columns: rows equal
// under them are one row).
struct RowIndexLess {
  const RowStore* store = nullptr;
  int n = 0;
  const func::Collation* colls = nullptr;  // n of them, or null: all BINARY
  bool operator()(size_t a, size_t b) const {
    return CompareRows(store->row(a), store->row(b), n, colls) < 0;
  }
};
using RowSet = std::set<size_t, RowIndexLess>;

struct SourceRow {
  RecordReader reader;  // table row, or index key for covering access
  int64_t rowid = 0;
  bool null_row = false;          // LEFT JOIN without a match
  const Value* values = nullptr;  // materialised sources
};

class ExecContext;
class SelectRun;
class RecursiveRun;

// One FROM item's cursor(s) inside a nested loop.
struct LevelRun {
  const plan::Level* plan = nullptr;
  SourceRow* row = nullptr;
  std::optional<BtCursor> table;
  std::optional<BtCursor> index;
  std::vector<Value> key;          // index seek key: equality values then the lower bound
  func::ValueArena key_arena{64};  // bytes of TEXT keys
  Value hi;                        // index upper bound (after affinity)
  bool has_hi = false;
  Value lo;  // index lower bound, for a walk downwards (plan reverse)
  bool has_lo = false;
  int64_t rlo = 0, rhi = 0;      // rowid range, inclusive
  std::vector<int64_t> in_keys;  // kRowidIn: sorted distinct rowids still to visit
  bool fresh = true;
  bool matched = false;
  bool exhausted = false;
  bool exact = false;  // the rowid seek's keys were integers: residual filters suffice
  size_t pos = 0;      // materialised sources
  RowStore rows;
  RowStore window_rows;     // Level::window: the rows before the window stage
  uint64_t generation = 0;  // execution whose rows `rows` holds
  RecordReader ikey;        // index entry of a non-covering index walk
};

class CoreRun {
 public:
  CoreRun(ExecContext* ctx, const plan::Select* sel, const plan::Core* core);
  Status Open();
  Result<bool> Next();
  const Value* row() const { return out_.data(); }
  void Close();
  // The table cursor of FROM item `level`, when it has one (DML reuses the
  // position its scan found).
  BtCursor* table_cursor(size_t level) {
    return level < levels_.size() && levels_[level].table ? &*levels_[level].table : nullptr;
  }

 private:
  Result<bool> JoinNext();
  Result<bool> First(LevelRun& lv);
  Result<bool> Advance(LevelRun& lv);
  // kRecursive and kRecursiveRow levels (recursive_cte.cc).
  Result<bool> FirstRecursive(LevelRun& lv);
  Result<bool> AdvanceRecursive(LevelRun& lv);
  Result<bool> NextStreamed(LevelRun& lv, RecursiveRun* run);
  Result<bool> NextInKey(LevelRun& lv);
  Result<bool> LoadIndexEntry(LevelRun& lv, bool* in_range);
  Status LoadTableRow(LevelRun& lv);
  Result<bool> Filters(const std::vector<int32_t>& filters);
  Status Accumulate();
  Status EmitGroup(size_t g, bool* keep);
  Status Project();

  ExecContext* ctx_;
  const plan::Select* sel_;
  const plan::Core* core_;
  // Sized once in the constructor and never grown (cursors are not
  // movable); a vector, not a deque, so levels_[i] is one add per row.
  std::vector<LevelRun> levels_;
  std::vector<Value> out_;
  bool started_ = false;
  bool done_ = false;
  size_t value_row_ = 0;
  // Aggregation.
  struct Group {
    std::vector<func::Aggregate> aggs;
    std::vector<OwnedValue> captures;
    bool seen_row = false;
  };
  RowStore group_keys_;
  std::vector<Group> groups_;
  std::vector<Value> key_scratch_;
  std::vector<Value> captured_;
  std::vector<Value> agg_values_;
  std::vector<size_t> group_order_;
  size_t group_pos_ = 0;
  bool single_minmax_ = false;
  // DISTINCT.
  RowStore distinct_rows_;
  std::optional<RowSet> distinct_set_;
  std::optional<RowSet> group_set_;
};

class SelectRun {
 public:
  SelectRun(ExecContext* ctx, int select_index);
  Status Open();
  Result<bool> Next();
  const Value* row() const { return row_; }
  int width() const { return sel_->width; }
  int visible() const { return sel_->visible; }
  void Close();
  // All rows (visible columns) into `store`, in the query's order.
  Status Materialize(RowStore* store);

 private:
  Result<bool> NextUnsorted();
  Status Fill();
  Status MaterializeWithAffinity(RowStore* store);

  ExecContext* ctx_;
  const plan::Select* sel_;
  std::vector<std::unique_ptr<CoreRun>> cores_;
  size_t core_ = 0;
  const Value* row_ = nullptr;
  int64_t limit_ = -1, offset_ = 0, emitted_ = 0;
  bool materialized_ = false;
  RowStore store_;
  std::vector<uint32_t> order_;
  size_t pos_ = 0;
  RowStore set_rows_;  // compound UNION / INTERSECT / EXCEPT
  // The compound's column collations when one is not BINARY, else empty.
  std::vector<func::Collation> set_colls_;
  func::ValueArena arena_{1024};
  friend class CoreRun;
};

class ExecContext {
 public:
  ExecContext(Trees trees, const plan::Program* prog);
  ~ExecContext();

  // The B-tree that holds `db`'s objects.
  BTree* tree(catalog::Db db) const { return trees_.of(db); }
  const Trees& trees() const { return trees_; }
  const plan::Program& prog() const { return *prog_; }
  std::vector<SourceRow>& sources() { return sources_; }
  std::vector<Value>& params() { return params_; }
  func::ValueArena& arena() { return *arena_; }
  void set_arena(func::ValueArena* a) { arena_ = a; }
  // A new execution: subquery results computed by the last one are stale,
  // and 'now' is read afresh.
  void NewExecution() {
    ++generation_;
    func::BeginStatementTime();
  }
  uint64_t generation() const { return generation_; }

  SelectRun* Run(int select_index);
  // The runner of recursive CTE `index` (Program::ctes), built on first use.
  RecursiveRun* Recursive(int index);
  Status Eval(int32_t node, Value* out);
  // Eval with a column or a parameter read inline, for the operands that
  // nearly always are one: a seek key (read_join paid ~80 Ir a row for
  // Eval's dispatch on the join column d.bucket).
  // Always inline: clang kept it out of line in CoreRun::First (perfci's
  // contract caught it), a call where the point is to save one.
  ENGINE_ALWAYS_INLINE Status EvalOperand(int32_t node, Value* out) {
    const plan::Node& n = prog_->node(node);
    if (n.op == plan::Op::kColumn) [[likely]] {
      EvalColumn(n, out);
      return Status::OK();
    }
    if (n.op == plan::Op::kParam) {
      *out = params_[static_cast<size_t>(n.col)];
      return Status::OK();
    }
    return Eval(node, out);
  }
  // A kColumn node's value: the current row's column, the rowid, NULL for a
  // LEFT JOIN's missing row. It cannot fail; a projection of plain columns
  // takes it without Eval's dispatch and Status (perfci: read_full_scan's
  // SELECT * paid ~6 Ir a row for them).
  void EvalColumn(const plan::Node& n, Value* out) const {
    const SourceRow& s = sources_[static_cast<size_t>(n.src)];
    if (s.null_row) {
      *out = Value::Null();
    } else if (n.col < 0) {
      *out = Value::Integer(s.rowid);
    } else if (s.values != nullptr) {
      *out = s.values[n.col];
    } else {
      *out = s.reader.column(n.col);
      if ((n.flags & plan::Node::kRealColumn) && out->type() == ValueType::kInteger) {
        *out = Value::Real(static_cast<double>(out->as_int()));
      }
    }
  }
  // 1 true, 0 false, -1 NULL.
  Result<int> Truth(int32_t node);

  // What the last RAISE() evaluated asked for (kDefault: none); only a
  // trigger program can hold one.
  sql::ConflictAction raised = sql::ConflictAction::kDefault;
  // PRAGMA ignore_check_constraints of the connection, as it is when the
  // statement runs: a write then evaluates no CHECK.
  bool ignore_checks = false;

  // The current group while evaluating aggregate-mode expressions.
  const Value* group_captures = nullptr;
  const Value* group_aggs = nullptr;

 private:
  Status EvalSubquery(const plan::Node& n, Value* out);
  Status EvalIn(const plan::Node& n, Value* out);
  Status EvalCase(const plan::Node& n, Value* out);
  Status EvalFunction(const plan::Node& n, Value* out);
  Status EvalInSelect(const plan::Node& n, Value* out);

  Trees trees_;
  const plan::Program* prog_;
  std::vector<SourceRow> sources_;
  std::vector<Value> params_;
  func::ValueArena base_arena_;
  func::ValueArena* arena_;
  std::vector<std::unique_ptr<SelectRun>> runs_;
  std::vector<std::unique_ptr<RecursiveRun>> recursive_runs_;
  struct Cache {
    uint64_t generation = 0;
    Value scalar;
    bool exists = false;
    RowStore rows;  // IN lists, sorted
    bool has_null = false;
  };
  std::vector<std::unique_ptr<Cache>> caches_;
  uint64_t generation_ = 1;
  std::vector<Value> args_;
};

}  // namespace engine::exec
