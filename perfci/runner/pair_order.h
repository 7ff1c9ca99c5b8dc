// The order of A and B within each pair of trials. Randomized so that a
// drift of the machine (thermal, a neighbour's job) does not always favour
// the side that runs first, and balanced in blocks of two pairs (one AB, one
// BA) so that any drift cancels over a block. A seed makes a run repeatable.
#pragma once

#include <cstdint>
#include <random>

namespace perfci {

class PairOrder {
 public:
  explicit PairOrder(std::uint64_t seed) : rng_(seed) {}

  // True when A runs first in the next pair.
  bool next_a_first();

 private:
  std::mt19937_64 rng_;
  bool have_pending_ = false;
  bool pending_ = false;
};

}  // namespace perfci
