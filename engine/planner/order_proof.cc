#include "engine/planner/order_proof.h"

#include <algorithm>

namespace engine::plan {

OrderProof ProveOrder(const std::vector<OrderTerm>& terms, const DeliveredOrder& d) {
  if (d.at_most_one_row && !d.repeats) return OrderProof::kForward;
  // Columns every row still ties on: the fixed ones, then each key matched;
  // all of them once the walk's rowid is fixed.
  std::vector<int> tied = d.fixed;
  bool all_tied = d.at_most_one_row;
  auto is_tied = [&](int col) {
    return all_tied || std::find(tied.begin(), tied.end(), col) != tied.end();
  };
  size_t pos = 0;
  int direction = 0;  // 0: undecided, 1: forwards, -1: backwards
  for (const OrderTerm& t : terms) {
    if (t.col == kUnorderedTerm) return OrderProof::kSort;
    if (is_tied(t.col)) continue;
    // The next term must be the next key: a later key only orders rows that
    // tie on every key before it.
    if (pos >= d.keys.size() || d.keys[pos].col != t.col) return OrderProof::kSort;
    const int want = t.desc == d.keys[pos].desc ? 1 : -1;
    if (direction == 0) direction = want;
    if (direction != want) return OrderProof::kSort;
    if (direction < 0 && !d.can_reverse) return OrderProof::kSort;
    if (t.col == -1) {
      if (!d.repeats) break;  // the rowid is unique: no ties left to order
      all_tied = true;
      continue;
    }
    tied.push_back(t.col);
    ++pos;
  }
  return direction < 0 ? OrderProof::kReverse : OrderProof::kForward;
}

}  // namespace engine::plan
