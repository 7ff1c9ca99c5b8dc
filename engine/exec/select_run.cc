// A whole SELECT at run time: its cores (one, or a compound), ORDER BY,
// LIMIT and OFFSET. Rows stream straight from the core when no sort or set
// operation is needed, so LIMIT stops the scan early.
#include <algorithm>

#include "engine/exec/exec_context.h"
#include "engine/func/affinity.h"
#include "engine/func/cast.h"
#include "engine/func/collation.h"

namespace engine::exec {

namespace {

// Switches the context to a query's own scratch arena for the duration of a call.
class ArenaScope {
 public:
  ArenaScope(ExecContext* ctx, func::ValueArena* arena) : ctx_(ctx), saved_(&ctx->arena()) {
    ctx->set_arena(arena);
  }
  ~ArenaScope() { ctx_->set_arena(saved_); }
  ArenaScope(const ArenaScope&) = delete;
  ArenaScope& operator=(const ArenaScope&) = delete;

 private:
  ExecContext* ctx_;
  func::ValueArena* saved_;
};

}  // namespace

SelectRun::SelectRun(ExecContext* ctx, int select_index)
    : ctx_(ctx), sel_(&ctx->prog().selects[static_cast<size_t>(select_index)]) {
  for (const plan::Core& core : sel_->cores) {
    cores_.push_back(std::make_unique<CoreRun>(ctx, sel_, &core));
  }
  for (const plan::CollationOf& c : sel_->collations) {
    if (c.coll != func::Collation::kBinary) {
      for (const plan::CollationOf& k : sel_->collations) set_colls_.push_back(k.coll);
      break;
    }
  }
}

void SelectRun::Close() {
  for (auto& c : cores_) c->Close();
}

Status SelectRun::Open() {
  ArenaScope scope(ctx_, &arena_);
  arena_.Reset();
  limit_ = -1;
  offset_ = 0;
  emitted_ = 0;
  pos_ = 0;
  core_ = 0;
  if (sel_->limit >= 0) {
    Value v;
    ENGINE_RETURN_IF_ERROR(ctx_->Eval(sel_->limit, &v));
    v = func::IntegerAffinity(v);
    if (v.type() != ValueType::kInteger) return Status::SqlError("datatype mismatch");
    limit_ = v.as_int();
  }
  if (sel_->offset >= 0) {
    Value v;
    ENGINE_RETURN_IF_ERROR(ctx_->Eval(sel_->offset, &v));
    v = func::IntegerAffinity(v);
    if (v.type() != ValueType::kInteger) return Status::SqlError("datatype mismatch");
    offset_ = v.as_int() < 0 ? 0 : v.as_int();
  }
  bool set_ops = false;
  for (sql::CompoundOp op : sel_->ops) set_ops |= op != sql::CompoundOp::kUnionAll;
  materialized_ = sel_->sort_needed || set_ops;
  for (auto& c : cores_) c->Close();
  if (materialized_) {
    store_.Reset(sel_->cores.size() > 1 ? sel_->visible : sel_->width);
    order_.clear();
    // LIMIT 0 computes nothing, so it meets no error (a window frame's
    // offset, an overflowing sum) either, as in SQLite.
    if (limit_ != 0) ENGINE_RETURN_IF_ERROR(Fill());
  } else {
    ENGINE_RETURN_IF_ERROR(cores_[0]->Open());
  }
  return Status::OK();
}

Status SelectRun::Fill() {
  const int vis = sel_->visible;
  // Compound: fold the cores left to right into store_.
  ENGINE_RETURN_IF_ERROR(cores_[0]->Open());
  for (;;) {
    arena_.Reset();
    ENGINE_ASSIGN_OR_RETURN(bool have, cores_[0]->Next());
    if (!have) break;
    store_.Add(cores_[0]->row());
  }
  for (size_t i = 1; i < cores_.size(); ++i) {
    const sql::CompoundOp op = sel_->ops[i - 1];
    if (op == sql::CompoundOp::kUnionAll) {
      ENGINE_RETURN_IF_ERROR(cores_[i]->Open());
      for (;;) {
        arena_.Reset();
        ENGINE_ASSIGN_OR_RETURN(bool have, cores_[i]->Next());
        if (!have) break;
        store_.Add(cores_[i]->row());
      }
      continue;
    }
    // Distinct left side, then merge the right side into it. Which of
    // equal rows (1 and 1.0; 'a' and 'A' under NOCASE) stands for them is
    // SQLite's: within one side the later one (its ephemeral index replaces
    // an equal key), or under ORDER BY the first (its sorted merge keeps the
    // first of a run); across the sides UNION's right one, INTERSECT's and
    // EXCEPT's left one.
    const bool keep_first = !sel_->order.empty();
    auto upsert = [keep_first](RowSet& set, size_t idx) {
      auto [it, inserted] = set.insert(idx);
      if (!inserted && !keep_first) {
        set.erase(it);
        set.insert(idx);
      }
    };
    const func::Collation* colls = set_colls_.empty() ? nullptr : set_colls_.data();
    RowSet left{RowIndexLess{&store_, vis, colls}};
    for (size_t r = 0; r < store_.size(); ++r) upsert(left, r);
    set_rows_.Reset(vis);
    RowSet right{RowIndexLess{&set_rows_, vis, colls}};
    ENGINE_RETURN_IF_ERROR(cores_[i]->Open());
    for (;;) {
      arena_.Reset();
      ENGINE_ASSIGN_OR_RETURN(bool have, cores_[i]->Next());
      if (!have) break;
      set_rows_.Add(cores_[i]->row());
      upsert(right, set_rows_.size() - 1);
    }
    RowStore merged;
    merged.Reset(vis);
    auto lit = left.begin();
    auto rit = right.begin();
    while (lit != left.end() || rit != right.end()) {
      int c;
      if (lit == left.end())
        c = 1;
      else if (rit == right.end())
        c = -1;
      else
        c = CompareRows(store_.row(*lit), set_rows_.row(*rit), vis, colls);
      if (c < 0) {
        if (op != sql::CompoundOp::kIntersect) merged.Add(store_.row(*lit));
        ++lit;
      } else if (c > 0) {
        if (op == sql::CompoundOp::kUnion) merged.Add(set_rows_.row(*rit));
        ++rit;
      } else {
        if (op == sql::CompoundOp::kUnion) merged.Add(set_rows_.row(*rit));
        if (op == sql::CompoundOp::kIntersect) merged.Add(store_.row(*lit));
        ++lit;
        ++rit;
      }
    }
    store_.Reset(vis);
    for (size_t r = 0; r < merged.size(); ++r) store_.Add(merged.row(r));
  }
  order_.resize(store_.size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<uint32_t>(i);
  if (sel_->sort_needed) {
    std::stable_sort(order_.begin(), order_.end(), [this](uint32_t a, uint32_t b) {
      const Value* x = store_.row(a);
      const Value* y = store_.row(b);
      for (const plan::SortKey& k : sel_->order) {
        const int c = func::CompareCollated(x[k.column], y[k.column], k.coll);
        if (c != 0) return k.desc ? c > 0 : c < 0;
      }
      return false;
    });
  }
  pos_ = 0;
  return Status::OK();
}

// Inline into Next: a call per row otherwise.
ENGINE_ALWAYS_INLINE Result<bool> SelectRun::NextUnsorted() {
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, cores_[core_]->Next());
    if (have) {
      row_ = cores_[core_]->row();
      return true;
    }
    if (core_ + 1 >= cores_.size()) return false;
    ++core_;
    ENGINE_RETURN_IF_ERROR(cores_[core_]->Open());
  }
}

Result<bool> SelectRun::Next() {
  ArenaScope scope(ctx_, &arena_);
  for (;;) {
    if (limit_ >= 0 && emitted_ >= limit_) return false;
    if (materialized_) {
      if (pos_ >= order_.size()) return false;
      row_ = store_.row(order_[pos_++]);
    } else {
      arena_.Reset();
      ENGINE_ASSIGN_OR_RETURN(bool have, NextUnsorted());
      if (!have) return false;
    }
    if (offset_ > 0) {
      --offset_;
      continue;
    }
    ++emitted_;
    return true;
  }
}

Status SelectRun::Materialize(RowStore* store) {
  ENGINE_RETURN_IF_ERROR(Open());
  store->Reset(sel_->visible);
  if (sel_->store_affinity) return MaterializeWithAffinity(store);
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, Next());
    if (!have) break;
    store->Add(row_);
  }
  Close();
  return Status::OK();
}

Status SelectRun::MaterializeWithAffinity(RowStore* store) {
  std::vector<Value> row(static_cast<size_t>(sel_->visible));
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, Next());
    if (!have) break;
    // The converted TEXT lives in arena_ until the next row; Add copies it.
    for (size_t i = 0; i < row.size(); ++i) {
      row[i] = func::ApplyAffinity(row_[i], sel_->affinities[i], arena_);
    }
    store->Add(row.data());
  }
  Close();
  return Status::OK();
}

}  // namespace engine::exec
