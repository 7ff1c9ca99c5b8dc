#include "perfci/stats/normal_distribution.h"

#include <gtest/gtest.h>

#include <cmath>

namespace perfci::stats {
namespace {

TEST(NormalDistributionTest, CdfAtTableValues) {
  EXPECT_DOUBLE_EQ(normal_cdf(0), 0.5);
  EXPECT_NEAR(normal_cdf(1.959963984540054), 0.975, 1e-15);
  EXPECT_NEAR(normal_cdf(-1), 0.15865525393145707, 1e-15);
  EXPECT_NEAR(normal_upper_tail(5), 2.866515718791939e-07, 1e-20);
}

TEST(NormalDistributionTest, QuantileAtTableValues) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normal_quantile(0.8), 0.8416212335729143, 1e-12);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-15);
  EXPECT_NEAR(normal_quantile(0.001), -3.090232306167813, 1e-11);
  EXPECT_TRUE(std::isinf(normal_quantile(0)) && normal_quantile(0) < 0);
  EXPECT_TRUE(std::isinf(normal_quantile(1)) && normal_quantile(1) > 0);
  EXPECT_TRUE(std::isnan(normal_quantile(1.5)));
}

TEST(NormalDistributionTest, QuantileInvertsCdfAcrossTheRange) {
  // Above z = 5 the cdf rounds to 1 too coarsely to invert; the lower tail is exact.
  for (double z = -8; z <= 5; z += 0.25) {
    const double p = normal_cdf(z);
    EXPECT_NEAR(normal_quantile(p), z, 1e-8 * (1 + std::fabs(z))) << "z=" << z;
  }
}

TEST(NormalDistributionTest, QuantileOutsideZeroToOneIsNaN) {
  EXPECT_TRUE(std::isnan(normal_quantile(NAN)));
  EXPECT_TRUE(std::isnan(normal_quantile(-0.01)));
  EXPECT_TRUE(std::isnan(normal_quantile(-INFINITY)));
  EXPECT_TRUE(std::isnan(normal_quantile(1.0000001)));
}

}  // namespace
}  // namespace perfci::stats
