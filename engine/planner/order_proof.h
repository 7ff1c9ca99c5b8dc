// Whether an access path delivers the order ORDER BY asks for, so that the
// sort can be skipped. A wrong "yes" returns rows in the wrong order (issue
// 14); a wrong "no" only costs a sort. So the rule is a proof from what the
// walk guarantees, and anything it cannot prove sorts.
#pragma once

#include <cstdint>
#include <vector>

namespace engine::plan {

// Sentinel column for an ORDER BY term that is not a plain, BINARY-collated
// column of the first FROM item (an expression, another FROM item, a
// COLLATE NOCASE term): nothing can prove its order.
inline constexpr int kUnorderedTerm = -2;

struct OrderTerm {
  int col = kUnorderedTerm;  // table column, -1: the rowid
  bool desc = false;
};

// What walking an access path forwards guarantees about its rows.
struct DeliveredOrder {
  // The walk visits rows sorted by these keys, in order (a column, -1 for the
  // rowid, and its direction). A key equal to -1 (the rowid) is unique: rows
  // never tie on it, so terms after it cannot be violated.
  std::vector<OrderTerm> keys;
  // The inner loops of a join may give one row of this walk several output
  // rows: its rowid then no longer tells output rows apart, and terms that
  // are not its own columns (kUnorderedTerm) decide between them.
  bool repeats = false;
  // Columns bound by an equality for the whole walk: every row ties on them.
  std::vector<int> fixed;
  bool at_most_one_row = false;  // a rowid equality: its own columns are constant
  bool can_reverse = true;       // the executor can walk it backwards
};

enum class OrderProof : uint8_t {
  kSort,     // not proven: sort
  kForward,  // the walk as it is delivers the order
  kReverse,  // walking it backwards delivers the order
};

// Proves that `terms` (ORDER BY, in order) hold for rows delivered as `d`.
// Terms on fixed columns, and terms repeating an earlier key, are skipped
// (every row ties on them); the rest must be the keys' prefix with one
// consistent direction: all as the keys are (forwards) or all flipped
// (backwards, when the walk can reverse).
OrderProof ProveOrder(const std::vector<OrderTerm>& terms, const DeliveredOrder& d);

}  // namespace engine::plan
