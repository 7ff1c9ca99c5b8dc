#include "engine/storage/record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine/value.h"

namespace engine {
namespace {

TEST(ValueTest, SizeAndOrderAcrossTypes) {
  static_assert(sizeof(Value) <= 24);
  const std::string t = "abc";
  const uint8_t b[] = {1, 2};
  EXPECT_LT(compare_values(Value::Null(), Value::Integer(-5)), 0);
  EXPECT_LT(compare_values(Value::Integer(5), Value::Text(t)), 0);
  EXPECT_LT(compare_values(Value::Real(1e300), Value::Text("")), 0);
  EXPECT_LT(compare_values(Value::Text(t), Value::Blob(b, 2)), 0);
  EXPECT_EQ(compare_values(Value::Null(), Value::Null()), 0);
}

TEST(ValueTest, IntegerAgainstRealIsExact) {
  EXPECT_EQ(compare_values(Value::Integer(3), Value::Real(3.0)), 0);
  EXPECT_LT(compare_values(Value::Integer(3), Value::Real(3.5)), 0);
  EXPECT_GT(compare_values(Value::Real(3.5), Value::Integer(3)), 0);
  // 2^53 + 1 is not a double: the comparison must not round it.
  const int64_t big = (int64_t{1} << 53) + 1;
  EXPECT_GT(compare_values(Value::Integer(big), Value::Real(static_cast<double>(int64_t{1} << 53))),
            0);
  EXPECT_LT(compare_values(Value::Integer(INT64_MAX), Value::Real(9.3e18)), 0);
  EXPECT_GT(compare_values(Value::Integer(INT64_MIN), Value::Real(-9.3e18)), 0);
  EXPECT_LT(compare_values(Value::Real(-1e19), Value::Integer(INT64_MIN)), 0);
}

TEST(ValueTest, TextAndBlobCompareBytesThenLength) {
  EXPECT_LT(compare_values(Value::Text("ab"), Value::Text("abc")), 0);
  EXPECT_GT(compare_values(Value::Text("b"), Value::Text("abc")), 0);
  EXPECT_EQ(compare_values(Value::Text(""), Value::Text("")), 0);
  const uint8_t x[] = {0xff}, y[] = {0x01, 0x00};
  EXPECT_GT(compare_values(Value::Blob(x, 1), Value::Blob(y, 2)), 0);
}

TEST(RecordTest, SerialTypeLengths) {
  const uint64_t want[] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0};
  for (uint64_t t = 0; t < 10; ++t) EXPECT_EQ(serial_type_len(t), want[t]) << t;
  EXPECT_EQ(serial_type_len(12), 0u);
  EXPECT_EQ(serial_type_len(13), 0u);
  EXPECT_EQ(serial_type_len(14), 1u);
  EXPECT_EQ(serial_type_len(25), 6u);
}

TEST(RecordTest, SmallestIntegerWidth) {
  struct Case {
    int64_t v;
    uint64_t type;
  } cases[] = {{0, 8},
               {1, 9},
               {2, 1},
               {-1, 1},
               {127, 1},
               {-128, 1},
               {128, 2},
               {-129, 2},
               {32767, 2},
               {32768, 3},
               {-8388608, 3},
               {8388608, 4},
               {2147483647, 4},
               {2147483648ll, 5},
               {-140737488355328ll, 5},
               {140737488355328ll, 6},
               {INT64_MAX, 6},
               {INT64_MIN, 6}};
  for (const Case& c : cases) {
    EXPECT_EQ(serial_type_for(Value::Integer(c.v), 4), c.type) << c.v;
  }
  EXPECT_EQ(serial_type_for(Value::Integer(0), 1), 1u);
  EXPECT_EQ(serial_type_for(Value::Integer(1), 3), 1u);
}

TEST(RecordTest, RoundTripEveryType) {
  const std::string text = "hello, world";
  std::vector<uint8_t> blob(300);
  for (size_t i = 0; i < blob.size(); ++i) blob[i] = static_cast<uint8_t>(i * 7);
  std::vector<Value> row = {Value::Null(),
                            Value::Integer(0),
                            Value::Integer(1),
                            Value::Integer(-100),
                            Value::Integer(1000),
                            Value::Integer(-100000),
                            Value::Integer(1 << 30),
                            Value::Integer(int64_t{1} << 40),
                            Value::Integer(INT64_MIN),
                            Value::Real(3.25),
                            Value::Real(-0.0),
                            Value::Real(std::numeric_limits<double>::infinity()),
                            Value::Text(text),
                            Value::Text(""),
                            Value::Blob(blob.data(), blob.size()),
                            Value::Blob(nullptr, 0)};
  RecordBuilder builder;
  auto rec = builder.Build(row);
  std::vector<uint8_t> copy(rec.begin(), rec.end());
  RecordReader reader;
  ASSERT_TRUE(reader.Parse(copy.data(), copy.size()).ok());
  ASSERT_EQ(reader.column_count(), static_cast<int>(row.size()));
  for (size_t i = 0; i < row.size(); ++i) {
    const Value got = reader.column(static_cast<int>(i));
    EXPECT_EQ(got.type(), row[i].type()) << i;
    EXPECT_EQ(compare_values(got, row[i]), 0) << i;
  }
  EXPECT_TRUE(std::signbit(reader.column(10).as_real()));
  EXPECT_TRUE(reader.column(99).is_null());
}

TEST(RecordTest, KnownBytesMatchSqlite) {
  // SQLite encodes (1, 'a', NULL, 300) as header [5, 9, 15, 0, 2], body 'a', 0x012c.
  const Value row[] = {Value::Integer(1), Value::Text("a"), Value::Null(), Value::Integer(300)};
  RecordBuilder builder;
  auto rec = builder.Build(row, 4);
  const std::vector<uint8_t> want = {5, 9, 15, 0, 2, 'a', 0x01, 0x2c};
  EXPECT_EQ(std::vector<uint8_t>(rec.begin(), rec.end()), want);
}

TEST(RecordTest, HeaderSizeVarintGrowsPastOneByte) {
  std::vector<Value> row(200, Value::Integer(5));
  RecordBuilder builder;
  auto rec = builder.Build(row);
  std::vector<uint8_t> copy(rec.begin(), rec.end());
  RecordReader reader;
  ASSERT_TRUE(reader.Parse(copy.data(), copy.size()).ok());
  ASSERT_EQ(reader.column_count(), 200);
  EXPECT_EQ(copy[0], 0x81);  // header of 202 bytes: a 2-byte varint
  for (int i = 0; i < 200; ++i) EXPECT_EQ(reader.column(i).as_int(), 5);
}

TEST(RecordTest, CorruptRecordsAreRejected) {
  RecordReader reader;
  const uint8_t header_too_big[] = {10, 1, 1};
  EXPECT_TRUE(reader.Parse(header_too_big, 3).IsCorruption());
  const uint8_t body_short[] = {2, 6, 1, 2, 3};  // int64 needs 8 body bytes
  EXPECT_TRUE(reader.Parse(body_short, 5).IsCorruption());
  const uint8_t reserved[] = {2, 10};
  EXPECT_EQ(reader.Parse(reserved, 2).message(), "record uses reserved serial type 10");
  const uint8_t reserved_long[] = {3, 0x80, 0x0a};  // 10 spelled in two bytes
  EXPECT_EQ(reader.Parse(reserved_long, 3).message(), "record uses reserved serial type 10");
  const uint8_t reserved_second[] = {3, 1, 11, 7};
  EXPECT_EQ(reader.Parse(reserved_second, 4).message(), "record uses reserved serial type 11");
  // A two-byte serial type (TEXT of 8,185 bytes) past the end, and a
  // nine-byte one whose length no payload can have.
  const uint8_t long_text[] = {3, 0xff, 0x7f, 'a'};
  EXPECT_EQ(reader.Parse(long_text, 4).message(),
            "record column 0 runs past the end of a 4-byte payload");
  const uint8_t huge[] = {11, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 5};
  EXPECT_EQ(reader.Parse(huge, 12).message(),
            "record column 1 runs past the end of a 12-byte payload");
  const uint8_t truncated_varint[] = {3, 0x81, 0x81};
  EXPECT_TRUE(reader.Parse(truncated_varint, 3).IsCorruption());
  const uint8_t text_past_end[] = {2, 33, 'a'};  // text of 10 bytes
  EXPECT_TRUE(reader.Parse(text_past_end, 3).IsCorruption());
  EXPECT_TRUE(reader.Parse(header_too_big, 0).IsCorruption());
  int cmp;
  const Value key[] = {Value::Integer(1)};
  EXPECT_TRUE(compare_record(body_short, 5, key, 1, {}, &cmp).IsCorruption());
}

TEST(RecordTest, CompareRecordWithPrefixAndDesc) {
  const Value row[] = {Value::Text("m"), Value::Integer(10), Value::Integer(7)};
  RecordBuilder builder;
  auto rec = builder.Build(row, 3);
  int cmp = 99;
  const Value k1[] = {Value::Text("m")};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), k1, 1, {}, &cmp).ok());
  EXPECT_EQ(cmp, 0);
  const Value k2[] = {Value::Text("m"), Value::Integer(11)};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), k2, 2, {}, &cmp).ok());
  EXPECT_LT(cmp, 0);
  const KeyColumn desc[] = {{}, {true, func::Collation::kBinary}};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), k2, 2, desc, &cmp).ok());
  EXPECT_GT(cmp, 0);
  const Value k3[] = {Value::Text("a")};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), k3, 1, {}, &cmp).ok());
  EXPECT_GT(cmp, 0);
  const Value k4[] = {Value::Text("m"), Value::Real(10.0), Value::Integer(7), Value::Integer(1)};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), k4, 4, {}, &cmp).ok());
  EXPECT_EQ(cmp, 0);  // equal over the record's three columns
}

// A key column compares under its collation: NOCASE folds ASCII case, RTRIM
// ignores trailing spaces, and a DESC column reverses the collated order.
TEST(RecordTest, CompareRecordUnderCollation) {
  const Value row[] = {Value::Text("Abc  "), Value::Integer(3)};
  RecordBuilder builder;
  auto rec = builder.Build(row, 2);
  int cmp = 99;
  const Value lower[] = {Value::Text("abc  ")};
  const Value trimmed[] = {Value::Text("Abc")};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), lower, 1, {}, &cmp).ok());
  EXPECT_LT(cmp, 0);  // BINARY: 'A' < 'a'
  const KeyColumn nocase[] = {{false, func::Collation::kNoCase}};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), lower, 1, nocase, &cmp).ok());
  EXPECT_EQ(cmp, 0);
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), trimmed, 1, nocase, &cmp).ok());
  EXPECT_GT(cmp, 0);  // NOCASE keeps the spaces
  const KeyColumn rtrim[] = {{false, func::Collation::kRtrim}};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), trimmed, 1, rtrim, &cmp).ok());
  EXPECT_EQ(cmp, 0);
  const Value after[] = {Value::Text("abd")};
  const KeyColumn nocase_desc[] = {{true, func::Collation::kNoCase}};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), after, 1, nocase, &cmp).ok());
  EXPECT_LT(cmp, 0);
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), after, 1, nocase_desc, &cmp).ok());
  EXPECT_GT(cmp, 0);
  // Numbers never collate: an integer key column compares as before.
  const Value key[] = {Value::Text("abc  "), Value::Integer(4)};
  ASSERT_TRUE(compare_record(rec.data(), rec.size(), key, 2, nocase, &cmp).ok());
  EXPECT_LT(cmp, 0);
}

}  // namespace
}  // namespace engine
