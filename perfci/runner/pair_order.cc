#include "perfci/runner/pair_order.h"

namespace perfci {

bool PairOrder::next_a_first() {
  if (have_pending_) {
    have_pending_ = false;
    return pending_;
  }
  // Independent of the standard library's distribution implementations, so
  // the same seed gives the same order with libstdc++ and libc++.
  bool first = (rng_() >> 63) != 0;
  pending_ = !first;
  have_pending_ = true;
  return first;
}

}  // namespace perfci
