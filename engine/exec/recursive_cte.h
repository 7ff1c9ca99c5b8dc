// A recursive common table expression at run time (plan::RecursiveCte).
//
// As in SQLite: the setup select's rows go into a queue; each row taken out
// of the queue is the next result row and becomes the current row the step
// select reads, whose rows go into the queue in turn. The queue is FIFO, or
// a priority queue ordered by the CTE's ORDER BY (ties FIFO). UNION keeps
// the set of every row ever queued and drops a row already in it; UNION ALL
// keeps nothing but the queue. LIMIT and OFFSET count result rows (a row
// skipped by OFFSET still runs the step), so a LIMIT ends any recursion.
//
// Rows are pulled: the step of a row runs when the next row is asked for,
// so a consumer that stops early (an outer LIMIT on a streamed CTE) never
// pays for the steps it does not need, and memory holds only the queue.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <vector>

#include "engine/exec/exec_context.h"
#include "engine/func/collation.h"
#include "engine/planner/plan.h"

namespace engine::exec {

class RecursiveRun {
 public:
  RecursiveRun(ExecContext* ctx, int index);
  // Starts over: evaluates LIMIT and OFFSET, runs the setup into the queue.
  Status Open();
  // The next result row (then row() holds it); false when done.
  Result<bool> Next();
  const Value* row() const { return current_.data(); }
  // Every row into `store` (Open, then Next until done), under the
  // columns' affinities as SQLite's materialised CTE holds them.
  Status Materialize(RowStore* store);
  // row() under the columns' affinities, into `out` (TEXT into `arena`).
  void WithAffinity(std::vector<Value>* out, func::ValueArena* arena) const;

 private:
  struct Queued {
    std::vector<OwnedValue> values;
    uint64_t seq = 0;  // arrival order: FIFO among rows the ORDER BY ties
  };
  Status Push(const Value* row);
  Status RunStep();
  // Heap order: true when `a` comes out after `b`.
  bool After(const Queued& a, const Queued& b) const;

  // Orders rows of seen_ by index under the columns' collations, and finds
  // a row not stored yet.
  struct SeenLess {
    using is_transparent = void;
    const RowStore* store = nullptr;
    const std::vector<func::Collation>* collations = nullptr;
    bool Less(const Value* a, const Value* b) const {
      for (size_t i = 0; i < collations->size(); ++i) {
        const int c = func::CompareCollated(a[i], b[i], (*collations)[i]);
        if (c != 0) return c < 0;
      }
      return false;
    }
    bool operator()(size_t a, size_t b) const { return Less(store->row(a), store->row(b)); }
    bool operator()(const Value* a, size_t b) const { return Less(a, store->row(b)); }
    bool operator()(size_t a, const Value* b) const { return Less(store->row(a), b); }
  };

  ExecContext* ctx_;
  const plan::RecursiveCte* plan_;
  std::deque<Queued> fifo_;
  std::vector<Queued> heap_;
  RowStore seen_;                                       // UNION: every row queued so far
  std::optional<std::set<size_t, SeenLess>> seen_set_;  // ordered indices into seen_
  Queued current_owned_;
  std::vector<Value> current_;
  std::vector<size_t> real_columns_;  // columns of REAL affinity
  bool pending_step_ = false;         // the step of the current row has not run yet
  int64_t limit_ = -1, offset_ = 0, emitted_ = 0;
  uint64_t seq_ = 0;
};

}  // namespace engine::exec
