#include "engine/status.h"

#include <gtest/gtest.h>

namespace engine {
namespace {

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidArgument("odd: " + std::to_string(x));
  return x / 2;
}

Status Quarter(int x, int* out) {
  ENGINE_ASSIGN_OR_RETURN(int h, Half(x));
  ENGINE_ASSIGN_OR_RETURN(*out, Half(h));
  return Status::OK();
}

TEST(StatusTest, OkAndErrorsCarryKindAndMessage) {
  EXPECT_TRUE(Status::OK().ok());
  EXPECT_EQ(Status::OK().ToString(), "OK");
  Status c = Status::Corruption("page 7 out of range");
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(c.IsCorruption());
  EXPECT_EQ(c.ToString(), "Corruption: page 7 out of range");
}

TEST(StatusTest, CopiesOwnTheirMessageAndMovesEmptyTheSource) {
  Status a = Status::SqlError("no such table: t").WithOffset(14);
  Status b = a;  // a deep copy: a outlives changes to b
  b = std::move(b).WithOffset(3);
  EXPECT_EQ(a.offset(), 14);
  EXPECT_EQ(b.offset(), 3);
  EXPECT_EQ(b.ToString(), "SQL error: no such table: t");
  Status c = std::move(a);
  EXPECT_EQ(c.code(), Status::Code::kSqlError);
  EXPECT_EQ(c.message(), "no such table: t");
  c = Status::OK();
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.message(), "");
  EXPECT_EQ(c.offset(), -1);
  EXPECT_EQ(Status::OK().WithOffset(5).offset(), -1);  // an OK Status points nowhere
  b = c;
  EXPECT_TRUE(b.ok());
}

TEST(StatusTest, ResultPropagatesThroughMacros) {
  int out = 0;
  EXPECT_TRUE(Quarter(12, &out).ok());
  EXPECT_EQ(out, 3);
  Status st = Quarter(6, &out);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "odd: 3");
}

}  // namespace
}  // namespace engine
