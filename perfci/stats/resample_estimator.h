// The estimate of a bootstrap resample, given as how many times each
// original sample was drawn. A resample only repeats the original values, so
// their sort order and (for Hodges–Lehmann) the sorted Walsh averages can be
// prepared once; each resample is then a weighted median found by one scan,
// instead of building n(n+1)/2 averages and selecting among them every time.
// The result is bit-identical to estimate() on the expanded resample.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "perfci/stats/bootstrap.h"

namespace perfci::stats {

class ResampleEstimator {
 public:
  ResampleEstimator(Estimator estimator, std::span<const double> x);

  // counts[i]: draws of x[i] (indices of the x given to the constructor);
  // at least one draw in all.
  double operator()(std::span<const std::uint32_t> counts) const;

 private:
  struct Term {
    double value;
    std::uint32_t i;  // positions in x; i == j for a sample's own average
    std::uint32_t j;
  };

  Estimator estimator_;
  std::vector<Term> terms_;  // ascending by value
};

}  // namespace perfci::stats
