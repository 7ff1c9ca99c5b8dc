#include "engine/func/value_arena.h"

#include <gtest/gtest.h>

#include <string>

namespace engine::func {
namespace {

TEST(ValueArenaTest, CopiesBytesAndKeepsThemUntilReset) {
  ValueArena arena(16);
  std::string source = "hello";
  const Value t = arena.CopyText(source);
  const char blob_bytes[] = {0, 1, 2};
  const Value b = arena.CopyBlob(blob_bytes, sizeof(blob_bytes));
  source = "xxxxx";
  EXPECT_EQ(t.type(), ValueType::kText);
  EXPECT_EQ(t.as_text(), "hello");
  EXPECT_EQ(b.type(), ValueType::kBlob);
  EXPECT_EQ(b.as_text(), std::string_view(blob_bytes, 3));
}

TEST(ValueArenaTest, CopyLeavesNumbersAndNullAlone) {
  ValueArena arena;
  EXPECT_EQ(arena.Copy(Value::Integer(7)).as_int(), 7);
  EXPECT_EQ(arena.Copy(Value::Real(1.5)).as_real(), 1.5);
  EXPECT_TRUE(arena.Copy(Value::Null()).is_null());
  const std::string s = "abc";
  const Value copy = arena.Copy(Value::Text(s));
  EXPECT_NE(copy.data(), s.data());
  EXPECT_EQ(copy.as_text(), "abc");
}

TEST(ValueArenaTest, ZeroSizedAllocationsAreNotNull) {
  ValueArena arena;
  EXPECT_NE(arena.Allocate(0), nullptr);
  const Value empty = arena.CopyText("");
  EXPECT_EQ(empty.type(), ValueType::kText);
  EXPECT_EQ(empty.size(), 0u);
}

TEST(ValueArenaTest, GrowsForLargeRequests) {
  ValueArena arena(8);
  char* big = arena.Allocate(1000);
  ASSERT_NE(big, nullptr);
  for (int i = 0; i < 1000; i++) big[i] = static_cast<char>(i);
  char* small = arena.Allocate(4);
  ASSERT_NE(small, nullptr);
  EXPECT_GE(arena.capacity(), 1004u);
  for (int i = 0; i < 1000; i++) ASSERT_EQ(big[i], static_cast<char>(i));
}

TEST(ValueArenaTest, SteadyStateReusesBlocksAcrossResets) {
  ValueArena arena(32);
  auto one_row = [&] {
    for (int i = 0; i < 20; i++) arena.CopyText(std::string(static_cast<size_t>(i * 7), 'x'));
  };
  one_row();
  arena.Reset();
  one_row();
  const size_t blocks = arena.block_count();
  const size_t capacity = arena.capacity();
  for (int row = 0; row < 100; row++) {
    arena.Reset();
    one_row();
  }
  EXPECT_EQ(arena.block_count(), blocks);
  EXPECT_EQ(arena.capacity(), capacity);
}

TEST(ValueArenaTest, AllocationsDoNotOverlap) {
  ValueArena arena(64);
  std::vector<Value> values;
  for (int i = 0; i < 200; i++) values.push_back(arena.CopyText(std::to_string(i)));
  for (int i = 0; i < 200; i++)
    EXPECT_EQ(values[static_cast<size_t>(i)].as_text(), std::to_string(i));
}

}  // namespace
}  // namespace engine::func
