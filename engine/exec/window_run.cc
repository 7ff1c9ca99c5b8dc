// Window functions at run time. Per window: one stable sort of the rows by
// PARTITION BY then ORDER BY (O(n log n)), then per partition its peer
// groups and, per call, one pass over the rows. Aggregates move their frame
// incrementally: a row is stepped once when the frame's end passes it and
// taken back (Aggregate::Inverse) once when the start does, so the default
// frame and sliding frames cost O(n); min, max and group_concat, which
// cannot take a row back, start over whenever the frame's start moves.
// Frames with an EXCLUDE clause are computed row by row, as SQLite does.
#include "engine/exec/window_run.h"

#include <algorithm>

#include "engine/exec/exec_context.h"
#include "engine/func/affinity.h"
#include "engine/func/arith.h"
#include "engine/func/cast.h"
#include "engine/func/collation.h"

namespace engine::exec {

namespace {

using sql::FrameBound;
using sql::FrameExclude;
using sql::FrameUnit;

class StageRun {
 public:
  StageRun(ExecContext* ctx, const plan::WindowStage& stage, const RowStore& in)
      : ctx_(ctx), stage_(stage), in_(in), n_(in.size()), ncalls_(stage.calls.size()) {}

  Status Run(RowStore* out) {
    perm_.resize(n_);
    for (size_t i = 0; i < n_; ++i) perm_[i] = static_cast<uint32_t>(i);
    results_.assign(n_ * ncalls_, Value::Null());
    for (int s : stage_.spec_order) ENGINE_RETURN_IF_ERROR(RunSpec(s));
    const int w = stage_.inner_width;
    out->Reset(w + static_cast<int>(ncalls_));
    std::vector<Value> row(static_cast<size_t>(w) + ncalls_);
    for (uint32_t r : perm_) {
      const Value* src = in_.row(r);
      std::copy(src, src + w, row.begin());
      for (size_t c = 0; c < ncalls_; ++c)
        row[static_cast<size_t>(w) + c] = results_[r * ncalls_ + c];
      out->Add(row.data());
    }
    return Status::OK();
  }

 private:
  const Value& Cell(size_t pos, int column) const { return in_.row(perm_[pos])[column]; }
  Value& Result(size_t pos, size_t call) { return results_[perm_[pos] * ncalls_ + call]; }

  int CompareOrder(uint32_t a, uint32_t b) const {
    const Value* x = in_.row(a);
    const Value* y = in_.row(b);
    for (const plan::WindowOrderKey& k : spec_->order) {
      const Value& u = x[k.column];
      const Value& v = y[k.column];
      if (u.is_null() || v.is_null()) {
        if (u.is_null() && v.is_null()) continue;
        return u.is_null() == k.nulls_first ? -1 : 1;
      }
      const int c = func::CompareCollated(u, v, k.coll);
      if (c != 0) return k.desc ? -c : c;
    }
    return 0;
  }
  int ComparePartition(uint32_t a, uint32_t b) const {
    const Value* x = in_.row(a);
    const Value* y = in_.row(b);
    for (size_t i = 0; i < spec_->partition.size(); ++i) {
      const int col = spec_->partition[i];
      const int c = func::CompareCollated(x[col], y[col], spec_->partition_coll[i]);
      if (c != 0) return c;
    }
    return 0;
  }

  // A frame offset: ROWS and GROUPS take a non-negative integer, RANGE a
  // non-negative number.
  Status Offset(int32_t node, bool start, Value* out) {
    if (node < 0) return Status::OK();
    Value v;
    ENGINE_RETURN_IF_ERROR(ctx_->Eval(node, &v));
    const std::string which = start ? "starting" : "ending";
    if (spec_->unit == FrameUnit::kRange) {
      v = func::ApplyNumericAffinity(v, true);
      const bool ok = (v.type() == ValueType::kInteger && v.as_int() >= 0) ||
                      (v.type() == ValueType::kReal && v.as_real() >= 0);
      if (!ok) return Status::SqlError("frame " + which + " offset must be a non-negative number");
    } else {
      v = func::IntegerAffinity(func::ApplyNumericAffinity(v, true));
      if (v.type() != ValueType::kInteger || v.as_int() < 0) {
        return Status::SqlError("frame " + which + " offset must be a non-negative integer");
      }
    }
    *out = v;
    return Status::OK();
  }

  Status RunSpec(int s) {
    spec_ = &stage_.specs[static_cast<size_t>(s)];
    std::stable_sort(perm_.begin(), perm_.end(), [this](uint32_t a, uint32_t b) {
      const int c = ComparePartition(a, b);
      if (c != 0) return c < 0;
      return CompareOrder(a, b) < 0;
    });
    if (n_ == 0) return Status::OK();
    ENGINE_RETURN_IF_ERROR(Offset(spec_->start_expr, true, &start_off_));
    ENGINE_RETURN_IF_ERROR(Offset(spec_->end_expr, false, &end_off_));
    size_t ps = 0;
    while (ps < n_) {
      size_t pe = ps + 1;
      while (pe < n_ && ComparePartition(perm_[ps], perm_[pe]) == 0) ++pe;
      ENGINE_RETURN_IF_ERROR(RunPartition(s, ps, pe));
      ps = pe;
    }
    return Status::OK();
  }

  Status RunPartition(int s, size_t ps, size_t pe) {
    ps_ = ps;
    pe_ = pe;
    // Peer groups: rows equal on every ORDER BY term (all rows without one).
    group_of_.resize(pe - ps);
    group_starts_.clear();
    for (size_t i = ps; i < pe; ++i) {
      if (i == ps || CompareOrder(perm_[i - 1], perm_[i]) != 0) group_starts_.push_back(i);
      group_of_[i - ps] = group_starts_.size() - 1;
    }
    // RANGE offsets search the rows whose key is not NULL.
    if (spec_->unit == FrameUnit::kRange && spec_->order.size() == 1) {
      const int col = spec_->order[0].column;
      nn_begin_ = ps;
      nn_end_ = pe;
      while (nn_begin_ < pe && Cell(nn_begin_, col).is_null()) ++nn_begin_;
      while (nn_end_ > nn_begin_ && Cell(nn_end_ - 1, col).is_null()) --nn_end_;
    }
    for (size_t c = 0; c < ncalls_; ++c) {
      const plan::WindowCall& call = stage_.calls[c];
      if (call.spec != s) continue;
      if (call.aggregate) {
        ENGINE_RETURN_IF_ERROR(RunAggregate(call, c));
      } else {
        ENGINE_RETURN_IF_ERROR(RunFunction(call, c));
      }
    }
    return Status::OK();
  }

  size_t GroupStart(size_t i) const { return group_starts_[group_of_[i - ps_]]; }
  size_t GroupEnd(size_t i) const {
    const size_t g = group_of_[i - ps_] + 1;
    return g < group_starts_.size() ? group_starts_[g] : pe_;
  }
  size_t GroupIndexStart(int64_t g) const {
    if (g < 0) return ps_;
    if (static_cast<uint64_t>(g) >= group_starts_.size()) return pe_;
    return group_starts_[static_cast<size_t>(g)];
  }

  // First position (from nn_begin_) whose key is not before `target`
  // (after: whose key is after it), in the window's order.
  size_t RangeSearch(const Value& target, bool after) const {
    const plan::WindowOrderKey& k = spec_->order[0];
    size_t lo = nn_begin_, hi = nn_end_;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      int c = func::CompareCollated(Cell(mid, k.column), target, k.coll);
      if (k.desc) c = -c;
      const bool go_right = after ? c <= 0 : c < 0;
      if (go_right) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  // The RANGE bound of row i: `sign` +1 for FOLLOWING, -1 for PRECEDING.
  size_t RangeBound(size_t i, const Value& off, int sign, bool end) const {
    const plan::WindowOrderKey& k = spec_->order[0];
    const Value& v = Cell(i, k.column);
    if (v.is_null()) return end ? GroupEnd(i) : GroupStart(i);
    Value target = v;
    if (v.type() == ValueType::kInteger || v.type() == ValueType::kReal) {
      const bool add = (sign > 0) != k.desc;
      target = add ? func::Add(v, off) : func::Subtract(v, off);
    }
    return RangeSearch(target, end);
  }

  static int64_t Off(const Value& v) { return v.type() == ValueType::kInteger ? v.as_int() : 0; }

  size_t FrameStart(size_t i) const {
    switch (spec_->start) {
      case FrameBound::kUnboundedPreceding:
        return ps_;
      case FrameBound::kCurrentRow:
        return spec_->unit == FrameUnit::kRows ? i : GroupStart(i);
      case FrameBound::kPreceding:
      case FrameBound::kFollowing: {
        const int sign = spec_->start == FrameBound::kPreceding ? -1 : 1;
        if (spec_->unit == FrameUnit::kRange) return RangeBound(i, start_off_, sign, false);
        const int64_t n = Off(start_off_);
        const int64_t base = spec_->unit == FrameUnit::kRows
                                 ? static_cast<int64_t>(i - ps_)
                                 : static_cast<int64_t>(group_of_[i - ps_]);
        const int64_t at =
            sign < 0 ? (n > base ? -1 : base - n) : (n > INT64_MAX - base ? INT64_MAX : base + n);
        if (spec_->unit == FrameUnit::kGroups) return GroupIndexStart(at);
        if (at < 0) return ps_;
        return std::min(pe_, ps_ + static_cast<size_t>(std::min<int64_t>(at, pe_ - ps_)));
      }
      case FrameBound::kUnboundedFollowing:
        return pe_;
    }
    return ps_;
  }

  size_t FrameEnd(size_t i) const {
    switch (spec_->end) {
      case FrameBound::kUnboundedFollowing:
        return pe_;
      case FrameBound::kCurrentRow:
        return spec_->unit == FrameUnit::kRows ? i + 1 : GroupEnd(i);
      case FrameBound::kPreceding:
      case FrameBound::kFollowing: {
        const int sign = spec_->end == FrameBound::kPreceding ? -1 : 1;
        if (spec_->unit == FrameUnit::kRange) return RangeBound(i, end_off_, sign, true);
        const int64_t n = Off(end_off_);
        const int64_t base = spec_->unit == FrameUnit::kRows
                                 ? static_cast<int64_t>(i - ps_)
                                 : static_cast<int64_t>(group_of_[i - ps_]);
        // The last row (or group) in the frame, then one past it.
        const int64_t at = sign < 0 ? (n > base ? -1 : base - n)
                                    : (n > INT64_MAX - base - 1 ? INT64_MAX - 1 : base + n);
        if (at < 0) return ps_;
        if (spec_->unit == FrameUnit::kGroups) return GroupIndexStart(at + 1);
        return ps_ + static_cast<size_t>(std::min<int64_t>(at + 1, pe_ - ps_));
      }
      case FrameBound::kUnboundedPreceding:
        return ps_;
    }
    return pe_;
  }

  bool Excluded(size_t i, size_t j) const {
    switch (spec_->exclude) {
      case FrameExclude::kNoOthers:
        return false;
      case FrameExclude::kCurrentRow:
        return i == j;
      case FrameExclude::kGroup:
        return j >= GroupStart(i) && j < GroupEnd(i);
      case FrameExclude::kTies:
        return j != i && j >= GroupStart(i) && j < GroupEnd(i);
    }
    return false;
  }

  void Args(const plan::WindowCall& call, size_t pos, Value* args) const {
    for (int a = 0; a < call.nargs; ++a) args[a] = Cell(pos, call.args[a]);
  }

  Status Store(size_t pos, size_t c, const Value& v) {
    Result(pos, c) = arena_.Copy(v);
    return Status::OK();
  }

  Status RunAggregate(const plan::WindowCall& call, size_t c) {
    func::Aggregate agg(call.agg, false, call.coll);
    Value args[3];
    Value v;
    if (spec_->row_by_row) {
      for (size_t i = ps_; i < pe_; ++i) {
        agg.Reset();
        const size_t b = FrameStart(i), e = std::max(b, FrameEnd(i));
        for (size_t j = b; j < e; ++j) {
          if (Excluded(i, j)) continue;
          Args(call, j, args);
          agg.Step(args, call.nargs);
        }
        ENGINE_RETURN_IF_ERROR(agg.Finish(&v));
        ENGINE_RETURN_IF_ERROR(Store(i, c, v));
      }
      return Status::OK();
    }
    const bool minmax =
        call.agg == func::AggregateKind::kMin || call.agg == func::AggregateKind::kMax;
    if (minmax && spec_->start != FrameBound::kUnboundedPreceding) {
      // SQLite keeps such a frame's values in an index and takes, of equal
      // extremes (1 and 1.0), the one that entered last: stepping the
      // frame backwards keeps that one.
      for (size_t i = ps_; i < pe_; ++i) {
        agg.Reset();
        const size_t b = FrameStart(i), e = std::max(b, FrameEnd(i));
        for (size_t j = e; j-- > b;) {
          Args(call, j, args);
          agg.Step(args, call.nargs);
        }
        ENGINE_RETURN_IF_ERROR(agg.Finish(&v));
        ENGINE_RETURN_IF_ERROR(Store(i, c, v));
      }
      return Status::OK();
    }
    const bool inverse = agg.HasInverse();
    size_t lo = ps_, hi = ps_;  // the rows [lo, hi) are in the aggregate
    for (size_t i = ps_; i < pe_; ++i) {
      const size_t b = FrameStart(i), e = std::max(b, FrameEnd(i));
      if (b != lo && !inverse) {
        agg.Reset();
        lo = hi = b;
      }
      // SQLite steps every row of the partition up to the frame's end and
      // takes back those before its start, even rows no frame held: a
      // sum() stays REAL once it saw one, so they count for its type.
      for (; lo < b; ++lo) {
        Args(call, lo, args);
        if (lo == hi) {
          agg.Step(args, call.nargs);
          ++hi;
        }
        agg.Inverse(args, call.nargs);
      }
      for (; hi < e; ++hi) {
        Args(call, hi, args);
        agg.Step(args, call.nargs);
      }
      ENGINE_RETURN_IF_ERROR(agg.Finish(&v));
      ENGINE_RETURN_IF_ERROR(Store(i, c, v));
    }
    return Status::OK();
  }

  Status RunFunction(const plan::WindowCall& call, size_t c) {
    const size_t rows = pe_ - ps_;
    using func::WindowFunction;
    switch (call.fn) {
      case WindowFunction::kRowNumber:
        for (size_t i = ps_; i < pe_; ++i)
          Result(i, c) = Value::Integer(static_cast<int64_t>(i - ps_ + 1));
        return Status::OK();
      case WindowFunction::kRank:
        for (size_t i = ps_; i < pe_; ++i) {
          Result(i, c) = Value::Integer(static_cast<int64_t>(GroupStart(i) - ps_ + 1));
        }
        return Status::OK();
      case WindowFunction::kDenseRank:
        for (size_t i = ps_; i < pe_; ++i) {
          Result(i, c) = Value::Integer(static_cast<int64_t>(group_of_[i - ps_] + 1));
        }
        return Status::OK();
      case WindowFunction::kPercentRank:
        for (size_t i = ps_; i < pe_; ++i) {
          const double rank = static_cast<double>(GroupStart(i) - ps_);
          Result(i, c) = Value::Real(rows > 1 ? rank / static_cast<double>(rows - 1) : 0.0);
        }
        return Status::OK();
      case WindowFunction::kCumeDist:
        for (size_t i = ps_; i < pe_; ++i) {
          Result(i, c) =
              Value::Real(static_cast<double>(GroupEnd(i) - ps_) / static_cast<double>(rows));
        }
        return Status::OK();
      case WindowFunction::kNtile: {
        // The bucket count of the partition's first row, as SQLite reads it.
        const int64_t buckets = func::IntValue(Cell(ps_, call.args[0]));
        if (buckets <= 0) return Status::SqlError("argument of ntile must be a positive integer");
        for (size_t i = ps_; i < pe_; ++i) {
          Result(i, c) = Value::Integer(func::NtileBucket(static_cast<int64_t>(i - ps_),
                                                          static_cast<int64_t>(rows), buckets));
        }
        return Status::OK();
      }
      case WindowFunction::kLag:
      case WindowFunction::kLead:
        // SQLite adds the offset to the row's number in the partition (SQL
        // arithmetic) and seeks that row: an offset that is NULL, or leaves
        // a fraction, finds none and gives the default; 'x' is 0.
        for (size_t i = ps_; i < pe_; ++i) {
          const Value at = Value::Integer(static_cast<int64_t>(i - ps_ + 1));
          Value target;
          if (call.nargs >= 2) {
            const Value& off = Cell(i, call.args[1]);
            target = call.fn == WindowFunction::kLag ? func::Subtract(at, off) : func::Add(at, off);
          } else {
            target = Value::Integer(at.as_int() + (call.fn == WindowFunction::kLag ? -1 : 1));
          }
          target = func::IntegerAffinity(func::ApplyNumericAffinity(target, true));
          if (target.type() == ValueType::kInteger && target.as_int() >= 1 &&
              target.as_int() <= static_cast<int64_t>(rows)) {
            Result(i, c) = Cell(ps_ + static_cast<size_t>(target.as_int() - 1), call.args[0]);
          } else {
            Result(i, c) = call.nargs >= 3 ? Cell(i, call.args[2]) : Value::Null();
          }
        }
        return Status::OK();
      case WindowFunction::kFirstValue:
      case WindowFunction::kLastValue:
      case WindowFunction::kNthValue:
        for (size_t i = ps_; i < pe_; ++i) {
          int64_t nth = 1;
          if (call.fn == WindowFunction::kNthValue) {
            const std::optional<int64_t> k = func::NthValueIndex(Cell(i, call.args[1]));
            if (!k || *k <= 0) {
              return Status::SqlError("second argument to nth_value must be a positive integer");
            }
            nth = *k;
          }
          const size_t b = FrameStart(i), e = std::max(b, FrameEnd(i));
          Value v = Value::Null();
          if (call.fn == WindowFunction::kLastValue) {
            for (size_t j = e; j-- > b;) {
              if (Excluded(i, j)) continue;
              v = Cell(j, call.args[0]);
              break;
            }
          } else if (spec_->exclude == FrameExclude::kNoOthers) {
            if (static_cast<uint64_t>(nth) <= e - b)
              v = Cell(b + static_cast<size_t>(nth) - 1, call.args[0]);
          } else {
            for (size_t j = b; j < e; ++j) {
              if (Excluded(i, j) || --nth > 0) continue;
              v = Cell(j, call.args[0]);
              break;
            }
          }
          Result(i, c) = v;
        }
        return Status::OK();
    }
    return Status::OK();
  }

  ExecContext* ctx_;
  const plan::WindowStage& stage_;
  const RowStore& in_;
  const size_t n_;
  const size_t ncalls_;
  std::vector<uint32_t> perm_;  // the rows in the order of the window last sorted
  std::vector<Value> results_;  // by input row, then call
  func::ValueArena arena_{4096};
  // The window and partition being computed.
  const plan::WindowSpec* spec_ = nullptr;
  Value start_off_, end_off_;
  size_t ps_ = 0, pe_ = 0;
  std::vector<size_t> group_of_;      // by position - ps_: its peer group
  std::vector<size_t> group_starts_;  // first position of each peer group
  size_t nn_begin_ = 0, nn_end_ = 0;  // RANGE: the positions whose key is not NULL
};

}  // namespace

Status RunWindowStage(ExecContext* ctx, const plan::WindowStage& stage, const RowStore& in,
                      RowStore* out) {
  StageRun run(ctx, stage, in);
  return run.Run(out);
}

}  // namespace engine::exec
