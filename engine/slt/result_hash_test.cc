#include "engine/slt/result_hash.h"

#include <gtest/gtest.h>

namespace engine::slt {
namespace {

TEST(ResultHashTest, Md5OfValuesEachFollowedByNewline) {
  EXPECT_EQ(HashResult({}), "d41d8cd98f00b204e9800998ecf8427e");     // MD5 of ""
  EXPECT_EQ(HashResult({"a"}), "60b725f10c9c85c70d97880dfe8191b3");  // MD5 of "a\n"
  EXPECT_EQ(HashResult({"1", "NULL", "(empty)"}), "2bfa912ddacec268ba6ff2eec8104441");
}

TEST(ResultHashTest, ResultLinesHashAboveTheThreshold) {
  std::vector<std::string> values = {"1", "NULL", "(empty)"};
  EXPECT_EQ(ResultLines(values, 0), values);  // 0: never hash
  EXPECT_EQ(ResultLines(values, 3), values);
  EXPECT_EQ(ResultLines(values, 2),
            std::vector<std::string>{"3 values hashing to 2bfa912ddacec268ba6ff2eec8104441"});
}

TEST(ResultHashTest, MatchesExpected) {
  Record q;
  q.kind = RecordKind::kQuery;
  q.expected = {"1", "NULL"};
  EXPECT_TRUE(MatchesExpected(q, {"1", "NULL"}));
  EXPECT_FALSE(MatchesExpected(q, {"NULL", "1"}));
  EXPECT_FALSE(MatchesExpected(q, {"1"}));

  q.expects_hash = true;
  q.hash_count = 3;
  q.hash = "2bfa912ddacec268ba6ff2eec8104441";
  EXPECT_TRUE(MatchesExpected(q, {"1", "NULL", "(empty)"}));
  EXPECT_FALSE(MatchesExpected(q, {"1", "NULL", "x"}));
  q.hash_count = 4;  // right hash, wrong count
  EXPECT_FALSE(MatchesExpected(q, {"1", "NULL", "(empty)"}));
}

}  // namespace
}  // namespace engine::slt
