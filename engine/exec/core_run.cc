// One SELECT core at run time: the nested loop over its FROM items (each
// positioned by its access path, then filtered), then projection, DISTINCT
// or grouping with aggregates.
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/exec/exec_context.h"
#include "engine/exec/window_run.h"
#include "engine/func/affinity.h"
#include "engine/func/cast.h"

namespace engine::exec {

using plan::Access;

namespace {

enum class Bound { kEmpty, kValue, kNone };

// Turns a seek key into an inclusive rowid bound. Rowids are integers, so a
// REAL key rounds inwards; TEXT and BLOB sort above every number.
Bound RowidBound(Value v, bool lower, bool inclusive, int64_t* out) {
  v = func::ApplyNumericAffinity(v, true);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  switch (v.type()) {
    case ValueType::kNull:
      return Bound::kEmpty;
    case ValueType::kText:
    case ValueType::kBlob:
      return lower ? Bound::kEmpty : Bound::kNone;
    case ValueType::kInteger: {
      int64_t i = v.as_int();
      if (!inclusive) {
        if (lower) {
          if (i == kMax) return Bound::kEmpty;
          ++i;
        } else {
          if (i == kMin) return Bound::kEmpty;
          --i;
        }
      }
      *out = i;
      return Bound::kValue;
    }
    case ValueType::kReal: {
      const double r = v.as_real();
      if (std::isnan(r)) return Bound::kEmpty;
      if (lower) {
        if (r >= 9223372036854775807.0) return Bound::kEmpty;
        if (r < -9223372036854775807.0) return Bound::kNone;
        double c = std::ceil(r);
        if (!inclusive && c == r) c += 1;
        *out = static_cast<int64_t>(c);
      } else {
        if (r < -9223372036854775807.0) return Bound::kEmpty;
        if (r >= 9223372036854775807.0) return Bound::kNone;
        double f = std::floor(r);
        if (!inclusive && f == r) f -= 1;
        *out = static_cast<int64_t>(f);
      }
      return Bound::kValue;
    }
  }
  return Bound::kEmpty;
}

}  // namespace

CoreRun::CoreRun(ExecContext* ctx, const plan::Select* sel, const plan::Core* core)
    : ctx_(ctx), sel_(sel), core_(core), levels_(core->levels.size()) {
  for (size_t i = 0; i < core->levels.size(); ++i) {
    levels_[i].plan = &core->levels[i];
    levels_[i].row = &ctx->sources()[static_cast<size_t>(core->levels[i].src)];
    // A table's row may lack columns added since it was written; a
    // covering index's key never does.
    const plan::Level& p = core->levels[i];
    if (p.table != nullptr && !p.covering) levels_[i].row->reader.set_absent(p.table->absent);
  }
  out_.resize(core->results.size());
}

void CoreRun::Close() {
  // Cursors stay for the next execution; only their pages are let go.
  for (LevelRun& lv : levels_) {
    if (lv.table) lv.table->close();
    if (lv.index) lv.index->close();
  }
}

Status CoreRun::Open() {
  started_ = false;
  done_ = false;
  value_row_ = 0;
  group_pos_ = 0;
  groups_.clear();
  group_order_.clear();
  for (LevelRun& lv : levels_) {
    lv.fresh = true;
    lv.row->null_row = false;
  }
  if (core_->distinct) {
    distinct_rows_.Reset(sel_->visible);
    distinct_set_.emplace(
        RowIndexLess{&distinct_rows_, sel_->visible,
                     core_->distinct_colls.empty() ? nullptr : core_->distinct_colls.data()});
  }
  return Status::OK();
}

Result<bool> CoreRun::Filters(const std::vector<int32_t>& filters) {
  for (int32_t f : filters) {
    ENGINE_ASSIGN_OR_RETURN(int t, ctx_->Truth(f));
    if (t != 1) return false;
  }
  return true;
}

// Inline: once per row of every table scan and seek.
ENGINE_ALWAYS_INLINE Status CoreRun::LoadTableRow(LevelRun& lv) {
  std::span<const uint8_t> payload;
  ENGINE_RETURN_IF_ERROR(lv.table->payload(&payload));
  lv.row->rowid = lv.table->rowid();
  return lv.row->reader.Parse(payload);
}

// Key column j of `ix` against a bound, under the column's collation. One
// function with a predictable branch per comparison, not two instantiations
// behind a dispatch: clang kept the dispatch as an extra frame per entry
// (+0.25% Ir on index_range), and the bounds are compared once per entry.
static ENGINE_ALWAYS_INLINE int CompareKey(const catalog::IndexInfo& ix, size_t j, const Value& a,
                                           const Value& b) {
  if (!ix.binary_collation) [[unlikely]]
    return func::CompareCollated(a, b, ix.keys[j].coll);
  return compare_values(a, b);
}

Result<bool> CoreRun::LoadIndexEntry(LevelRun& lv, bool* in_range) {
  *in_range = false;
  if (lv.index->eof()) return false;
  const plan::Level& p = *lv.plan;
  RecordReader& r = p.covering ? lv.row->reader : lv.ikey;
  std::span<const uint8_t> payload;
  ENGINE_RETURN_IF_ERROR(lv.index->payload(&payload));
  ENGINE_RETURN_IF_ERROR(r.Parse(payload));
  const size_t neq = p.eq.size();
  for (size_t j = 0; j < neq; ++j) {
    if (CompareKey(*p.index, j, r.column(static_cast<int>(j)), lv.key[j]) != 0) return false;
  }
  // Walking down, the seek started at or below hi and prev() only goes lower:
  // like lo on the way up, hi needs no test per entry.
  if (lv.has_hi && !p.reverse) {
    const int c = CompareKey(*p.index, neq, r.column(static_cast<int>(neq)), lv.hi);
    if (c > 0 || (c == 0 && !p.hi_inclusive)) return false;
  }
  if (p.reverse && (p.lo >= 0 || p.hi >= 0)) {
    // Walking down, the range ends at its lower bound, or before the NULLs
    // (which sort first and never satisfy a bound).
    const Value v = r.column(static_cast<int>(neq));
    if (lv.has_lo) {
      const int c = CompareKey(*p.index, neq, v, lv.lo);
      if (c < 0 || (c == 0 && !p.lo_inclusive)) return false;
    } else if (v.is_null()) {
      return false;
    }
  }
  lv.row->rowid = r.column(static_cast<int>(p.index->columns.size())).as_int();
  if (!p.covering) {
    bool found = false;
    ENGINE_RETURN_IF_ERROR(lv.table->seek(lv.row->rowid, &found));
    if (!found) return Status::Corruption("database disk image is malformed");
    ENGINE_RETURN_IF_ERROR(LoadTableRow(lv));
  }
  *in_range = true;
  return true;
}

Result<bool> CoreRun::NextInKey(LevelRun& lv) {
  while (lv.pos < lv.in_keys.size()) {
    bool found = false;
    ENGINE_RETURN_IF_ERROR(lv.table->seek(lv.in_keys[lv.pos++], &found));
    if (found) {
      ENGINE_RETURN_IF_ERROR(LoadTableRow(lv));
      return true;
    }
  }
  return false;
}

Result<bool> CoreRun::First(LevelRun& lv) {
  const plan::Level& p = *lv.plan;
  lv.matched = false;
  lv.exhausted = false;
  lv.exact = false;
  lv.row->null_row = false;
  lv.row->values = nullptr;
  switch (p.access) {
    case Access::kOneRow:
      return true;
    case Access::kRecursive:
    case Access::kRecursiveRow:
      return FirstRecursive(lv);
    case Access::kCorrelatedSubquery:
      lv.generation = 0;  // stale: materialised again below
      [[fallthrough]];
    case Access::kSubquery: {
      // A window stage's rows may read the enclosing query's current row
      // (SELECT (SELECT sum(t.a) OVER ()) FROM t): those are computed anew.
      if (lv.generation != ctx_->generation() ||
          (p.window >= 0 && ctx_->prog().selects[static_cast<size_t>(p.subquery)].correlated)) {
        SelectRun* run = ctx_->Run(p.subquery);
        if (p.window >= 0) {
          // The rows of a core with window functions, widened by their results.
          ENGINE_RETURN_IF_ERROR(run->Materialize(&lv.window_rows));
          ENGINE_RETURN_IF_ERROR(RunWindowStage(
              ctx_, ctx_->prog().windows[static_cast<size_t>(p.window)], lv.window_rows, &lv.rows));
        } else {
          ENGINE_RETURN_IF_ERROR(run->Materialize(&lv.rows));
        }
        lv.generation = ctx_->generation();
      }
      lv.pos = 0;
      if (lv.rows.size() == 0) return false;
      lv.row->values = lv.rows.row(0);
      return true;
    }
    case Access::kScan:
      if (p.index != nullptr) {
        if (!lv.index)
          lv.index.emplace(ctx_->tree(p.table->db), p.index->root, p.index->key_order());
        if (!p.covering && !lv.table) lv.table.emplace(ctx_->tree(p.table->db), p.table->root);
        ENGINE_RETURN_IF_ERROR(p.reverse ? lv.index->last() : lv.index->first());
        bool in_range;
        return LoadIndexEntry(lv, &in_range);
      }
      if (!lv.table) lv.table.emplace(ctx_->tree(p.table->db), p.table->root);
      ENGINE_RETURN_IF_ERROR(p.reverse ? lv.table->last() : lv.table->first());
      if (lv.table->eof()) return false;
      ENGINE_RETURN_IF_ERROR(LoadTableRow(lv));
      return true;
    case Access::kRowidEq: {
      Value k;
      ENGINE_RETURN_IF_ERROR(ctx_->EvalOperand(p.eq[0], &k));
      int64_t id = 0;
      if (k.type() == ValueType::kInteger) {
        // The common key, a join column or a bound integer: exact as it is.
        id = k.as_int();
        lv.exact = true;
      } else {
        int64_t lo_id = 0;
        if (RowidBound(k, true, true, &lo_id) != Bound::kValue ||
            RowidBound(k, false, true, &id) != Bound::kValue || id != lo_id) {
          return false;
        }
        lv.exact = func::ApplyNumericAffinity(k, true).type() == ValueType::kInteger;
      }
      if (!lv.table) lv.table.emplace(ctx_->tree(p.table->db), p.table->root);
      bool found = false;
      bool settled = false;
      // Joins often probe ascending keys: the current entry or the one after
      // it answers without a descent from the root.
      if (lv.table->valid()) {
        const int64_t cur = lv.table->rowid();
        if (cur == id) {
          found = settled = true;
        } else if (cur < id && id - cur == 1) {
          ENGINE_RETURN_IF_ERROR(lv.table->next());
          settled = true;
          found = lv.table->valid() && lv.table->rowid() == id;
        }
      }
      if (!settled) ENGINE_RETURN_IF_ERROR(lv.table->seek(id, &found));
      if (!found) return false;
      ENGINE_RETURN_IF_ERROR(LoadTableRow(lv));
      return true;
    }
    case Access::kRowidIn: {
      lv.in_keys.clear();
      for (int32_t node : p.eq) {
        Value k;
        ENGINE_RETURN_IF_ERROR(ctx_->EvalOperand(node, &k));
        int64_t lo_id = 0, id = 0;
        if (RowidBound(k, true, true, &lo_id) == Bound::kValue &&
            RowidBound(k, false, true, &id) == Bound::kValue && id == lo_id) {
          lv.in_keys.push_back(id);
        }
      }
      std::sort(lv.in_keys.begin(), lv.in_keys.end());
      lv.in_keys.erase(std::unique(lv.in_keys.begin(), lv.in_keys.end()), lv.in_keys.end());
      lv.pos = 0;
      if (!lv.table) lv.table.emplace(ctx_->tree(p.table->db), p.table->root);
      return NextInKey(lv);
    }
    case Access::kRowidRange: {
      lv.rlo = std::numeric_limits<int64_t>::min();
      lv.rhi = std::numeric_limits<int64_t>::max();
      lv.exact = true;
      if (p.lo >= 0) {
        Value v;
        ENGINE_RETURN_IF_ERROR(ctx_->EvalOperand(p.lo, &v));
        lv.exact &= func::ApplyNumericAffinity(v, true).type() == ValueType::kInteger;
        if (RowidBound(v, true, p.lo_inclusive, &lv.rlo) == Bound::kEmpty) return false;
      }
      if (p.hi >= 0) {
        Value v;
        ENGINE_RETURN_IF_ERROR(ctx_->EvalOperand(p.hi, &v));
        lv.exact &= func::ApplyNumericAffinity(v, true).type() == ValueType::kInteger;
        if (RowidBound(v, false, p.hi_inclusive, &lv.rhi) == Bound::kEmpty) return false;
      }
      if (lv.rlo > lv.rhi) return false;
      if (!lv.table) lv.table.emplace(ctx_->tree(p.table->db), p.table->root);
      if (!p.reverse) {
        ENGINE_RETURN_IF_ERROR(lv.table->seek(lv.rlo));
        if (lv.table->eof() || lv.table->rowid() > lv.rhi) return false;
      } else {
        bool found = false;
        ENGINE_RETURN_IF_ERROR(lv.table->seek(lv.rhi, &found));
        if (!found) {
          if (lv.table->eof()) {
            ENGINE_RETURN_IF_ERROR(lv.table->last());
          } else {
            ENGINE_RETURN_IF_ERROR(lv.table->prev());
          }
        }
        if (lv.table->eof() || lv.table->rowid() < lv.rlo) return false;
      }
      ENGINE_RETURN_IF_ERROR(LoadTableRow(lv));
      return true;
    }
    case Access::kIndex: {
      const catalog::TableInfo& t = *p.table;
      const catalog::IndexInfo& ix = *p.index;
      lv.key.clear();
      lv.key_arena.Reset();
      auto key_value = [&](int32_t node, func::Affinity cmp, size_t pos, Value* out) -> Status {
        ENGINE_RETURN_IF_ERROR(ctx_->EvalOperand(node, out));
        if (cmp != func::Affinity::kNone && cmp != func::Affinity::kBlob) {
          const int col = ix.columns[pos];
          const func::Affinity a = col == t.rowid_alias
                                       ? func::Affinity::kInteger
                                       : t.columns[static_cast<size_t>(col)].affinity;
          *out = func::ApplyAffinity(*out, a, ctx_->arena());
        }
        // The key outlives this row's scratch arena: the walk compares against it.
        *out = lv.key_arena.Copy(*out);
        return Status::OK();
      };
      for (size_t j = 0; j < p.eq.size(); ++j) {
        Value v;
        ENGINE_RETURN_IF_ERROR(key_value(p.eq[j], p.eq_aff[j], j, &v));
        if (v.is_null()) return false;
        lv.key.push_back(v);
      }
      lv.has_hi = false;
      if (p.hi >= 0) {
        ENGINE_RETURN_IF_ERROR(key_value(p.hi, p.hi_aff, p.eq.size(), &lv.hi));
        if (lv.hi.is_null()) return false;
        lv.has_hi = true;
      }
      SeekOp op = SeekOp::kGE;
      lv.has_lo = false;
      if (p.reverse) {
        // ORDER BY ... DESC on the index: start at the last entry of the
        // range, (eq, hi) or the eq prefix alone, and walk down to lo.
        if (p.lo >= 0) {
          ENGINE_RETURN_IF_ERROR(key_value(p.lo, p.lo_aff, p.eq.size(), &lv.lo));
          if (lv.lo.is_null()) return false;
          lv.has_lo = true;
        }
        op = SeekOp::kLE;
        if (lv.has_hi) {
          lv.key.push_back(lv.hi);
          if (!p.hi_inclusive) op = SeekOp::kLT;
        }
      } else if (p.lo >= 0) {
        Value v;
        ENGINE_RETURN_IF_ERROR(key_value(p.lo, p.lo_aff, p.eq.size(), &v));
        if (v.is_null()) return false;
        lv.key.push_back(v);
        if (!p.lo_inclusive) op = SeekOp::kGT;
      } else if (p.hi >= 0) {
        // Skip the NULLs at the front of the range: they never compare true.
        lv.key.push_back(Value::Null());
        op = SeekOp::kGT;
      }
      if (!lv.index) lv.index.emplace(ctx_->tree(t.db), ix.root, ix.key_order());
      if (!p.covering && !lv.table) lv.table.emplace(ctx_->tree(t.db), t.root);
      if (lv.key.empty()) {
        ENGINE_RETURN_IF_ERROR(p.reverse ? lv.index->last() : lv.index->first());
      } else {
        ENGINE_RETURN_IF_ERROR(
            lv.index->seek_index(lv.key.data(), static_cast<int>(lv.key.size()), op));
      }
      bool in_range;
      return LoadIndexEntry(lv, &in_range);
    }
  }
  return false;
}

Result<bool> CoreRun::Advance(LevelRun& lv) {
  if (lv.exhausted) return false;
  const plan::Level& p = *lv.plan;
  switch (p.access) {
    case Access::kOneRow:
    case Access::kRowidEq:
      return false;
    case Access::kRowidIn:
      return NextInKey(lv);
    case Access::kRecursive:
    case Access::kRecursiveRow:
      return AdvanceRecursive(lv);
    case Access::kSubquery:
    case Access::kCorrelatedSubquery:
      if (++lv.pos >= lv.rows.size()) return false;
      lv.row->values = lv.rows.row(lv.pos);
      return true;
    case Access::kScan:
      if (p.index != nullptr) {
        ENGINE_RETURN_IF_ERROR(p.reverse ? lv.index->prev() : lv.index->next());
        bool in_range;
        return LoadIndexEntry(lv, &in_range);
      }
      ENGINE_RETURN_IF_ERROR(p.reverse ? lv.table->prev() : lv.table->next());
      if (lv.table->eof()) return false;
      ENGINE_RETURN_IF_ERROR(LoadTableRow(lv));
      return true;
    case Access::kRowidRange:
      ENGINE_RETURN_IF_ERROR(p.reverse ? lv.table->prev() : lv.table->next());
      if (lv.table->eof()) return false;
      if (p.reverse ? lv.table->rowid() < lv.rlo : lv.table->rowid() > lv.rhi) return false;
      ENGINE_RETURN_IF_ERROR(LoadTableRow(lv));
      return true;
    case Access::kIndex: {
      // The one row a UNIQUE key can match was the first: no step onto the
      // next entry to find it differs (an UPDATE by TPC-C's composite keys
      // paid a step, a parse and a compare for it).
      if (p.unique_eq()) return false;
      ENGINE_RETURN_IF_ERROR(p.reverse ? lv.index->prev() : lv.index->next());
      bool in_range;
      return LoadIndexEntry(lv, &in_range);
    }
  }
  return false;
}

Result<bool> CoreRun::JoinNext() {
  const int n = static_cast<int>(levels_.size());
  int i;
  if (!started_) {
    started_ = true;
    ENGINE_ASSIGN_OR_RETURN(bool ok, Filters(core_->constant_filters));
    if (!ok) {
      done_ = true;
      return false;
    }
    if (n == 0) return true;
    i = 0;
    levels_[0].fresh = true;
  } else {
    if (n == 0 || done_) {
      done_ = true;
      return false;
    }
    i = n - 1;
  }
  for (;;) {
    LevelRun& lv = levels_[static_cast<size_t>(i)];
    const plan::Level& p = *lv.plan;
    bool have;
    if (lv.fresh) {
      lv.fresh = false;
      ENGINE_ASSIGN_OR_RETURN(have, First(lv));
    } else {
      ENGINE_ASSIGN_OR_RETURN(have, Advance(lv));
    }
    bool accepted = false;
    // An index seek yields only rows that satisfy the conjuncts it used; a
    // rowid seek does when its keys were integers.
    const std::vector<int32_t>& on_filters =
        p.access == plan::Access::kIndex || (lv.exact && (p.access == plan::Access::kRowidEq ||
                                                          p.access == plan::Access::kRowidRange))
            ? p.residual_filters
            : p.on_filters;
    while (have) {
      bool on = true;
      if (!on_filters.empty()) {
        ENGINE_ASSIGN_OR_RETURN(on, Filters(on_filters));
      }
      if (on) {
        lv.matched = true;
        bool where = true;
        if (!p.where_filters.empty()) {
          ENGINE_ASSIGN_OR_RETURN(where, Filters(p.where_filters));
        }
        if (where) {
          accepted = true;
          break;
        }
      }
      ENGINE_ASSIGN_OR_RETURN(have, Advance(lv));
    }
    if (!accepted && p.left_join && !lv.matched && !lv.exhausted) {
      lv.exhausted = true;
      lv.row->null_row = true;
      ENGINE_ASSIGN_OR_RETURN(bool where, Filters(p.where_filters));
      accepted = where;
    }
    if (!accepted) {
      lv.exhausted = true;
      lv.row->null_row = false;
      if (i == 0) {
        done_ = true;
        return false;
      }
      --i;
      continue;
    }
    if (i == n - 1) return true;
    ++i;
    levels_[static_cast<size_t>(i)].fresh = true;
  }
}

Status CoreRun::Project() {
  const plan::Program& prog = ctx_->prog();
  for (size_t i = 0; i < core_->results.size(); ++i) {
    const plan::Node& n = prog.node(core_->results[i]);
    if (n.op == plan::Op::kColumn) [[likely]] {
      ctx_->EvalColumn(n, &out_[i]);
    } else {
      ENGINE_RETURN_IF_ERROR(ctx_->Eval(core_->results[i], &out_[i]));
    }
  }
  return Status::OK();
}

Status CoreRun::Accumulate() {
  const size_t nkey = core_->group_by.size();
  const size_t naggs = core_->aggs.size();
  const size_t ncap = core_->captures.size();
  group_keys_.Reset(static_cast<int>(nkey));
  group_set_.emplace(
      RowIndexLess{&group_keys_, static_cast<int>(nkey),
                   core_->group_by_colls.empty() ? nullptr : core_->group_by_colls.data()});
  key_scratch_.resize(nkey);
  auto new_group = [&]() {
    groups_.emplace_back();
    for (const plan::AggSpec& spec : core_->aggs)
      groups_.back().aggs.emplace_back(spec.kind, spec.distinct, spec.coll);
    groups_.back().captures.resize(ncap);
  };
  single_minmax_ = naggs == 1 && (core_->aggs[0].kind == func::AggregateKind::kMin ||
                                  core_->aggs[0].kind == func::AggregateKind::kMax);
  if (nkey == 0) new_group();
  func::ValueArena& arena = ctx_->arena();
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, JoinNext());
    if (!have) break;
    arena.Reset();
    size_t g = 0;
    if (nkey > 0) {
      for (size_t k = 0; k < nkey; ++k) {
        ENGINE_RETURN_IF_ERROR(ctx_->EvalOperand(core_->group_by[k], &key_scratch_[k]));
      }
      group_keys_.Add(key_scratch_.data());
      const size_t idx = group_keys_.size() - 1;
      auto [it, inserted] = group_set_->insert(idx);
      if (!inserted) {
        group_keys_.RemoveLast();
        g = *it;
      } else {
        new_group();
        g = idx;
      }
    }
    Group& grp = groups_[g];
    const bool first_row = !grp.seen_row;
    bool best_row = false;
    grp.seen_row = true;
    for (size_t a = 0; a < naggs; ++a) {
      const plan::AggSpec& spec = core_->aggs[a];
      Value args[2];
      int nargs = 0;
      if (spec.arg >= 0) ENGINE_RETURN_IF_ERROR(ctx_->EvalOperand(spec.arg, &args[nargs++]));
      if (spec.arg2 >= 0) ENGINE_RETURN_IF_ERROR(ctx_->EvalOperand(spec.arg2, &args[nargs++]));
      grp.aggs[a].Step(args, nargs);
      best_row |= grp.aggs[a].last_step_was_best();
    }
    // SQLite takes bare columns (and, under a NOCASE or RTRIM GROUP BY,
    // the grouped column's spelling) from a group's first row, or from the
    // row that set a lone min()/max().
    if (!first_row && !(single_minmax_ && best_row)) continue;
    for (size_t c = 0; c < ncap; ++c) {
      Value v;
      ENGINE_RETURN_IF_ERROR(ctx_->Eval(core_->captures[c], &v));
      grp.captures[c].Set(v);
    }
  }
  if (nkey > 0) {
    group_order_.assign(group_set_->begin(), group_set_->end());
  } else {
    group_order_ = {0};
  }
  return Status::OK();
}

Status CoreRun::EmitGroup(size_t g, bool* keep) {
  Group& grp = groups_[g];
  captured_.resize(grp.captures.size());
  for (size_t i = 0; i < grp.captures.size(); ++i) captured_[i] = grp.captures[i].get();
  agg_values_.resize(grp.aggs.size());
  for (size_t i = 0; i < grp.aggs.size(); ++i) {
    ENGINE_RETURN_IF_ERROR(grp.aggs[i].Finish(&agg_values_[i]));
  }
  ctx_->group_captures = captured_.data();
  ctx_->group_aggs = agg_values_.data();
  *keep = true;
  if (core_->having >= 0) {
    ENGINE_ASSIGN_OR_RETURN(int t, ctx_->Truth(core_->having));
    *keep = t == 1;
  }
  if (*keep) ENGINE_RETURN_IF_ERROR(Project());
  return Status::OK();
}

Result<bool> CoreRun::Next() {
  if (core_->values) {
    if (value_row_ >= core_->value_rows.size()) return false;
    const auto& row = core_->value_rows[value_row_++];
    for (size_t i = 0; i < row.size(); ++i) ENGINE_RETURN_IF_ERROR(ctx_->Eval(row[i], &out_[i]));
    return true;
  }
  if (core_->aggregate) {
    if (!started_) ENGINE_RETURN_IF_ERROR(Accumulate());
    while (group_pos_ < group_order_.size()) {
      ctx_->arena().Reset();
      bool keep;
      ENGINE_RETURN_IF_ERROR(EmitGroup(group_order_[group_pos_++], &keep));
      if (!keep) continue;
      if (core_->distinct) {
        distinct_rows_.Add(out_.data());
        if (!distinct_set_->insert(distinct_rows_.size() - 1).second) {
          distinct_rows_.RemoveLast();
          continue;
        }
      }
      return true;
    }
    return false;
  }
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, JoinNext());
    if (!have) return false;
    ENGINE_RETURN_IF_ERROR(Project());
    if (core_->distinct) {
      distinct_rows_.Add(out_.data());
      if (!distinct_set_->insert(distinct_rows_.size() - 1).second) {
        distinct_rows_.RemoveLast();
        continue;
      }
    }
    return true;
  }
}

}  // namespace engine::exec
