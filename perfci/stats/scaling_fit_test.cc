#include "perfci/stats/scaling_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace perfci::stats {
namespace {

TEST(ScalingFitTest, SlopesOfPowerLaws) {
  EXPECT_DOUBLE_EQ(loglog_slope(1000, 5, 2000, 10), 1.0);
  EXPECT_DOUBLE_EQ(loglog_slope(1000, 5, 4000, 80), 2.0);
  EXPECT_NEAR(loglog_slope(1000, 7, 64000, 7), 0.0, 1e-12);
  // Linear cost with a fixed part grows slower than n between small sizes.
  EXPECT_LT(loglog_slope(10, 100 + 10, 20, 100 + 20), 0.2);
}

TEST(ScalingFitTest, FittedExponentOverEverySize) {
  EXPECT_NEAR(fitted_exponent({{1000, 1e6}, {4000, 16e6}, {16000, 256e6}}), 2.0, 1e-12);
  EXPECT_NEAR(fitted_exponent({{1000, 3e3}, {2000, 6e3}, {8000, 24e3}}), 1.0, 1e-12);
  // a*n + b*n^2 : between the two, steeper at the top than overall.
  auto cost = [](double n) { return 100 * n + 0.01 * n * n; };
  const double fit =
      fitted_exponent({{1000, cost(1000)}, {8000, cost(8000)}, {64000, cost(64000)}});
  EXPECT_GT(fit, 1.2);
  EXPECT_LT(fit, loglog_slope(8000, cost(8000), 64000, cost(64000)));
}

TEST(ScalingFitTest, OrdersExponents) {
  EXPECT_EQ(order_exponent("1", 10, 20), 0);
  EXPECT_EQ(order_exponent("n", 10, 20), 1);
  EXPECT_EQ(order_exponent("n^2", 10, 20), 2);
  // n log n between 1k and 64k: 1 + log(log 64000 / log 1000) / log 64.
  const double nlogn = order_exponent("n log n", 1000, 64000);
  EXPECT_NEAR(nlogn, 1 + std::log(std::log(64000.0) / std::log(1000.0)) / std::log(64.0), 1e-12);
  EXPECT_GT(nlogn, 1.0);
  EXPECT_LT(nlogn, 1.15);
  EXPECT_NEAR(order_exponent("log n", 1000, 64000), nlogn - 1, 1e-12);
}

TEST(ScalingFitTest, RefusesWhatHasNoSlope) {
  EXPECT_THROW(loglog_slope(2000, 1, 1000, 2), std::invalid_argument);
  EXPECT_THROW(loglog_slope(1000, 0, 2000, 2), std::invalid_argument);
  EXPECT_THROW(loglog_slope(1000, 1, 2000, NAN), std::invalid_argument);
  EXPECT_THROW(fitted_exponent({{1000, 1}}), std::invalid_argument);
  EXPECT_THROW(fitted_exponent({{1000, 1}, {1000, 2}}), std::invalid_argument);
  EXPECT_THROW(fitted_exponent({{1000, 1}, {2000, -2}}), std::invalid_argument);
  EXPECT_THROW(order_exponent("n^3", 10, 20), std::invalid_argument);
  EXPECT_THROW(order_exponent("n log n", 1, 20), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
