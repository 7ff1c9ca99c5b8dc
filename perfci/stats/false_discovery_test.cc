#include "perfci/stats/false_discovery.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "i=" << i;
}

TEST(FalseDiscoveryTest, TextbookExample) {
  expect_near_all(benjamini_hochberg(std::vector<double>{0.01, 0.04, 0.03, 0.005}),
                  {0.02, 0.04, 0.04, 0.02});
}

TEST(FalseDiscoveryTest, MatchesRPAdjust) {
  // R: p.adjust(c(0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216),
  //             "BH")
  const std::vector<double> p = {0.001, 0.008, 0.039, 0.041, 0.042,
                                 0.06,  0.074, 0.205, 0.212, 0.216};
  expect_near_all(benjamini_hochberg(p),
                  {0.01, 0.04, 0.084, 0.084, 0.084, 0.1, 0.10571428571428572, 0.216, 0.216, 0.216});
}

TEST(FalseDiscoveryTest, StepUpCapsAtOneAndKeepsOrder) {
  expect_near_all(benjamini_hochberg(std::vector<double>{0.9, 0.3, 1.0}), {1.0, 0.9, 1.0});
  expect_near_all(benjamini_hochberg(std::vector<double>{0.02}), {0.02});
  EXPECT_TRUE(benjamini_hochberg({}).empty());
}

TEST(FalseDiscoveryTest, TiesShareTheirAdjustedValue) {
  expect_near_all(benjamini_hochberg(std::vector<double>{0.03, 0.03, 0.03}), {0.03, 0.03, 0.03});
}

TEST(FalseDiscoveryTest, RejectsInvalidPValues) {
  EXPECT_THROW(benjamini_hochberg(std::vector<double>{0.1, 1.5}), std::invalid_argument);
  EXPECT_THROW(benjamini_hochberg(std::vector<double>{-0.1}), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
