#include "perfci/model/shard.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci {
namespace {

TEST(ParseShard, AcceptsKOverN) {
  EXPECT_EQ(parse_shard("1/1"), (ShardSpec{1, 1}));
  EXPECT_EQ(parse_shard("2/3"), (ShardSpec{2, 3}));
  EXPECT_EQ(format_shard({3, 12}), "3/12");
}

TEST(ParseShard, RefusesAnythingElse) {
  for (const char* bad :
       {"", "3", "/3", "2/", "0/3", "4/3", "-1/3", "1/0", "a/b", "1/3x", " 1/3", "1//3", "2.0/3"}) {
    try {
      parse_shard(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("--shard"), std::string::npos) << e.what();
    }
  }
}

TEST(ShardPlan, NamesAndSecondsPerShard) {
  ShardPlan plan;
  plan.count = 2;
  plan.entries = {
      {"a", 2, {1.5, "measured"}}, {"b", 1, {2, "measured"}}, {"c", 2, {0.5, "median"}}};
  EXPECT_EQ(plan.names_of(1), (std::vector<std::string>{"b"}));
  EXPECT_EQ(plan.names_of(2), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(plan.shard_seconds(), (std::vector<double>{2, 2}));
}

}  // namespace
}  // namespace perfci
