// SQLite's built-in aggregates as reusable state objects: count(*),
// count(x), sum, total, avg, min, max and group_concat(x [, sep]), with
// results over empty input as SQLite gives them (count 0, total 0.0, the
// others NULL). A state is Reset() between groups; its buffers (the best
// min/max bytes, the group_concat text, the DISTINCT set) keep their
// capacity, so a steady state of same-sized groups allocates nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "engine/func/collation.h"
#include "engine/status.h"
#include "engine/value.h"

namespace engine::func {

enum class AggregateKind : uint8_t {
  kCountStar,
  kCount,
  kSum,
  kTotal,
  kAvg,
  kMin,
  kMax,
  kGroupConcat
};

// The aggregate `name` (any letter case) with n arguments, or nullopt (also
// for min/max with other than one argument: those are scalar functions).
// count(*) is star == true with n == 0.
std::optional<AggregateKind> FindAggregate(std::string_view name, int n, bool star = false);

// The values an aggregate has already seen, compared the way SQLite's
// DISTINCT compares them (1 and 1.0 are the same value; TEXT under the
// argument's collation). Insert() copies the value's bytes.
class DistinctSet {
 public:
  // True when v had not been seen since the last Reset().
  bool Insert(const Value& v, Collation coll = Collation::kBinary);
  void Reset() { seen_.clear(); }
  size_t size() const { return seen_.size(); }

 private:
  std::string key_;  // scratch, reused
  std::unordered_set<std::string> seen_;
};

class Aggregate {
 public:
  explicit Aggregate(AggregateKind kind, bool distinct = false,
                     Collation collation = Collation::kBinary)
      : kind_(kind), distinct_(distinct), collation_(collation) {}

  AggregateKind kind() const { return kind_; }

  // Starts a new group.
  void Reset();

  // Feeds one row: args[0] is the aggregated value (none for count(*)),
  // args[1] group_concat's separator. With DISTINCT, a value seen before in
  // this group is skipped.
  void Step(const Value* args, int n);

  // Takes back one earlier Step() of the same arguments, for a window frame
  // whose start moves on. Only for count(*), count, sum, total and avg
  // (HasInverse): min, max and group_concat are recomputed instead.
  void Inverse(const Value* args, int n);
  bool HasInverse() const {
    return !distinct_ && kind_ != AggregateKind::kMin && kind_ != AggregateKind::kMax &&
           kind_ != AggregateKind::kGroupConcat;
  }

  // True when the last Step() made its value the new min()/max(): SQLite
  // takes bare columns of such a query from that row.
  bool last_step_was_best() const { return last_was_best_; }

  // The group's result; TEXT/BLOB bytes stay valid until the next Step() or
  // Reset(). sum() fails with "integer overflow" as SQLite's does.
  Status Finish(Value* out) const;

 private:
  AggregateKind kind_;
  bool distinct_;
  Collation collation_;
  DistinctSet seen_;
  bool last_was_best_ = false;
  int64_t count_ = 0;
  // sum / total / avg
  double real_sum_ = 0.0;
  int64_t int_sum_ = 0;
  bool approx_ = false;
  bool overflow_ = false;
  // min / max: the best value; TEXT/BLOB bytes are kept in best_bytes_ and
  // viewed by Best(), so that moving the state never leaves a dangling view.
  Value Best() const;
  Value best_;
  std::string best_bytes_;
  // group_concat
  bool has_text_ = false;
  std::string text_;
};

}  // namespace engine::func
