#include <gtest/gtest.h>

#include "perfci/app/bisect_session.h"
#include "perfci/util/error.h"

namespace perfci::app {
namespace {

using Metric = std::pair<std::string, std::string>;

TEST(BisectMetric, DefaultsToCallgrindWhenTheSuiteCountsIt) {
  EXPECT_EQ(bisect_metric("", true), Metric("callgrind", "ir"));
  EXPECT_EQ(bisect_metric("", false), Metric("wall", "real_time_ns"));
}

TEST(BisectMetric, NamesAKindOrAKindAndMetric) {
  EXPECT_EQ(bisect_metric("callgrind", false), Metric("callgrind", "ir"));
  EXPECT_EQ(bisect_metric("wall", true), Metric("wall", "real_time_ns"));
  EXPECT_EQ(bisect_metric("wall/cpu_time_ns", true), Metric("wall", "cpu_time_ns"));
}

TEST(BisectMetric, RefusesWhatItDoesNotMeasure) {
  EXPECT_THROW(bisect_metric("counters/cycles", true), Error);
  EXPECT_THROW(bisect_metric("ir", true), Error);
}

}  // namespace
}  // namespace perfci::app
