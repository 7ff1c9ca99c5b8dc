#include "engine/exec/recursive_cte.h"

#include <algorithm>

#include "engine/func/affinity.h"
#include "engine/func/cast.h"
#include "engine/func/collation.h"

namespace engine::exec {

namespace {

// LIMIT / OFFSET as SQLite takes them: an integer, or "datatype mismatch".
Result<int64_t> EvalCount(ExecContext* ctx, int32_t node) {
  Value v;
  ENGINE_RETURN_IF_ERROR(ctx->Eval(node, &v));
  v = func::IntegerAffinity(v);
  if (v.type() != ValueType::kInteger) return Status::SqlError("datatype mismatch");
  return v.as_int();
}

}  // namespace

RecursiveRun::RecursiveRun(ExecContext* ctx, int index)
    : ctx_(ctx), plan_(&ctx->prog().ctes[static_cast<size_t>(index)]) {
  current_.resize(static_cast<size_t>(plan_->width));
  for (size_t i = 0; i < plan_->affinities.size(); ++i) {
    if (plan_->affinities[i] == catalog::Affinity::kReal) real_columns_.push_back(i);
  }
}

void RecursiveRun::WithAffinity(std::vector<Value>* out, func::ValueArena* arena) const {
  out->resize(current_.size());
  for (size_t i = 0; i < current_.size(); ++i) {
    (*out)[i] = func::ApplyAffinity(current_[i], plan_->affinities[i], *arena);
  }
}

bool RecursiveRun::After(const Queued& a, const Queued& b) const {
  for (const plan::SortKey& k : plan_->order) {
    const size_t c = static_cast<size_t>(k.column);
    const int r = func::CompareCollated(a.values[c].get(), b.values[c].get(), k.coll);
    if (r != 0) return k.desc ? r < 0 : r > 0;
  }
  return a.seq > b.seq;
}

Status RecursiveRun::Open() {
  fifo_.clear();
  heap_.clear();
  pending_step_ = false;
  emitted_ = 0;
  offset_ = 0;
  limit_ = -1;
  seq_ = 0;
  if (plan_->distinct) {
    seen_.Reset(plan_->width);
    seen_set_.emplace(SeenLess{&seen_, &plan_->collations});
  }
  if (plan_->limit >= 0) {
    ENGINE_ASSIGN_OR_RETURN(limit_, EvalCount(ctx_, plan_->limit));
  }
  if (plan_->offset >= 0) {
    ENGINE_ASSIGN_OR_RETURN(offset_, EvalCount(ctx_, plan_->offset));
    offset_ = std::max<int64_t>(offset_, 0);
  }
  // LIMIT 0 runs nothing, not even the setup.
  if (limit_ == 0) return Status::OK();
  SelectRun* setup = ctx_->Run(plan_->setup);
  ENGINE_RETURN_IF_ERROR(setup->Open());
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, setup->Next());
    if (!have) break;
    ENGINE_RETURN_IF_ERROR(Push(setup->row()));
  }
  setup->Close();
  return Status::OK();
}

Status RecursiveRun::Push(const Value* row) {
  if (seen_set_) {
    if (seen_set_->find(row) != seen_set_->end()) return Status::OK();
    seen_.Add(row);
    seen_set_->insert(seen_.size() - 1);
  }
  Queued q;
  q.values.resize(static_cast<size_t>(plan_->width));
  for (size_t i = 0; i < q.values.size(); ++i) q.values[i].Set(row[i]);
  q.seq = seq_++;
  if (plan_->order.empty()) {
    fifo_.push_back(std::move(q));
  } else {
    heap_.push_back(std::move(q));
    std::push_heap(heap_.begin(), heap_.end(),
                   [this](const Queued& a, const Queued& b) { return After(a, b); });
  }
  return Status::OK();
}

Status RecursiveRun::RunStep() {
  SelectRun* step = ctx_->Run(plan_->step);
  ENGINE_RETURN_IF_ERROR(step->Open());
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, step->Next());
    if (!have) break;
    ENGINE_RETURN_IF_ERROR(Push(step->row()));
  }
  step->Close();
  return Status::OK();
}

Result<bool> RecursiveRun::Next() {
  for (;;) {
    if (limit_ >= 0 && emitted_ >= limit_) return false;
    if (pending_step_) {
      pending_step_ = false;
      ENGINE_RETURN_IF_ERROR(RunStep());
    }
    if (plan_->order.empty()) {
      if (fifo_.empty()) return false;
      current_owned_ = std::move(fifo_.front());
      fifo_.pop_front();
    } else {
      if (heap_.empty()) return false;
      std::pop_heap(heap_.begin(), heap_.end(),
                    [this](const Queued& a, const Queued& b) { return After(a, b); });
      current_owned_ = std::move(heap_.back());
      heap_.pop_back();
    }
    for (size_t i = 0; i < current_.size(); ++i) current_[i] = current_owned_.values[i].get();
    // The step and the consumer read a REAL column as a REAL.
    for (size_t i : real_columns_) {
      if (current_[i].type() == ValueType::kInteger) {
        current_[i] = Value::Real(static_cast<double>(current_[i].as_int()));
      }
    }
    pending_step_ = true;
    if (offset_ > 0) {
      --offset_;
      continue;
    }
    ++emitted_;
    return true;
  }
}

Status RecursiveRun::Materialize(RowStore* store) {
  ENGINE_RETURN_IF_ERROR(Open());
  store->Reset(plan_->width);
  std::vector<Value> row;
  func::ValueArena arena{256};
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, Next());
    if (!have) break;
    arena.Reset();
    WithAffinity(&row, &arena);
    store->Add(row.data());
  }
  return Status::OK();
}

}  // namespace engine::exec

namespace engine::exec {

// A recursive CTE as a FROM item. The outermost loop streams it, as SQLite
// runs it as a co-routine there (an outer LIMIT then ends an endless
// recursion); an inner loop, which rescans it per outer row, keeps its rows
// for the execution, like any materialised subquery. The step's own
// reference reads the current row.
Result<bool> CoreRun::FirstRecursive(LevelRun& lv) {
  const plan::Level& p = *lv.plan;
  RecursiveRun* run = ctx_->Recursive(p.subquery);
  if (p.access == plan::Access::kRecursiveRow) {
    lv.row->values = run->row();
    return true;
  }
  if (&lv == &levels_.front()) {
    ENGINE_RETURN_IF_ERROR(run->Open());
    return NextStreamed(lv, run);
  }
  const plan::RecursiveCte& rc = ctx_->prog().ctes[static_cast<size_t>(p.subquery)];
  const bool correlated = ctx_->prog().selects[static_cast<size_t>(rc.setup)].correlated ||
                          ctx_->prog().selects[static_cast<size_t>(rc.step)].correlated;
  if (lv.generation != ctx_->generation() || correlated) {
    ENGINE_RETURN_IF_ERROR(run->Materialize(&lv.rows));
    lv.generation = ctx_->generation();
  }
  lv.pos = 0;
  if (lv.rows.size() == 0) return false;
  lv.row->values = lv.rows.row(0);
  return true;
}

// Where SQLite would materialise the CTE rather than run it as a co-routine
// (it is not alone, and the next loop is an inner join), its rows take the
// columns' affinities; the level's seek-key scratch (unused by this access)
// holds the converted row.
Result<bool> CoreRun::NextStreamed(LevelRun& lv, RecursiveRun* run) {
  ENGINE_ASSIGN_OR_RETURN(bool have, run->Next());
  if (!have) return false;
  const bool coroutine =
      levels_.size() == 1 || levels_[1].plan->left_join || levels_[1].plan->cross_join;
  if (coroutine) {
    lv.row->values = run->row();
    return true;
  }
  lv.key_arena.Reset();
  run->WithAffinity(&lv.key, &lv.key_arena);
  lv.row->values = lv.key.data();
  return true;
}

Result<bool> CoreRun::AdvanceRecursive(LevelRun& lv) {
  const plan::Level& p = *lv.plan;
  if (p.access == plan::Access::kRecursiveRow) return false;
  if (&lv == &levels_.front()) return NextStreamed(lv, ctx_->Recursive(p.subquery));
  if (++lv.pos >= lv.rows.size()) return false;
  lv.row->values = lv.rows.row(lv.pos);
  return true;
}

}  // namespace engine::exec
