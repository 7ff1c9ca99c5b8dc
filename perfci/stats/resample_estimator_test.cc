#include "perfci/stats/resample_estimator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "perfci/stats/bootstrap.h"

namespace perfci::stats {
namespace {

std::vector<double> expand(const std::vector<double>& x, const std::vector<std::uint32_t>& c) {
  std::vector<double> out;
  for (std::size_t i = 0; i < x.size(); ++i) out.insert(out.end(), c[i], x[i]);
  return out;
}

TEST(ResampleEstimatorTest, BitIdenticalToTheExpandedResample) {
  // Includes duplicate values, which tie among the Walsh averages.
  const std::vector<double> x = {0.031, -0.012, 0.047, 0.003, 0.031, 0.018, -0.027,
                                 0.052, 0.009,  0.014, 0.0,   0.021, -0.004};
  std::mt19937_64 rng(7);
  for (Estimator estimator : {Estimator::kMedian, Estimator::kHodgesLehmann}) {
    const ResampleEstimator evaluate(estimator, x);
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<std::uint32_t> counts(x.size(), 0);
      const std::size_t draws = 1 + rng() % (2 * x.size());
      for (std::size_t k = 0; k < draws; ++k) ++counts[rng() % x.size()];
      EXPECT_EQ(evaluate(counts), estimate(estimator, expand(x, counts)))
          << to_string(estimator) << " trial " << trial;
    }
  }
}

TEST(ResampleEstimatorTest, AllOnesIsTheSampleItself) {
  const std::vector<double> x = {5, 1, 4, 2, 3, 9};
  const std::vector<std::uint32_t> ones(x.size(), 1);
  EXPECT_EQ(ResampleEstimator(Estimator::kMedian, x)(ones), 3.5);
  EXPECT_EQ(ResampleEstimator(Estimator::kHodgesLehmann, x)(ones),
            estimate(Estimator::kHodgesLehmann, x));
}

TEST(ResampleEstimatorTest, EmptyResampleIsRejected) {
  const std::vector<double> x = {1, 2};
  const std::vector<std::uint32_t> none = {0, 0};
  EXPECT_THROW(ResampleEstimator(Estimator::kMedian, x)(none), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
