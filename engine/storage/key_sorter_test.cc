// KeySorter: the keys come out in the index's order whatever the budget —
// sorted in memory, or spilled as many runs and merged — under each
// direction and collation, with columns of mixed types and texts that share
// their first 8 bytes (where the prefix shortcut must defer to the whole
// comparison).
#include "engine/storage/key_sorter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/func/collation.h"
#include "engine/storage/mem_env.h"

namespace engine {
namespace {

// Keys of three columns: a first column of every type (texts with shared
// 8-byte prefixes, a zero byte, trailing spaces, upper and lower case), a
// second text column, and a unique rowid.
struct KeySet {
  std::vector<std::string> bytes;  // owns the text and blob bytes
  std::vector<std::vector<Value>> keys;
};

KeySet MakeKeys(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  const std::vector<std::string> stems = {
      "prefix00", "prefix00a", "prefix00b", "Prefix00",
      "pre",      "pre ",      "pre  ",     std::string("ab\0c", 4),
      "ab",       "",          "zz",        "ZZ top"};
  KeySet s;
  s.bytes.reserve(static_cast<size_t>(2 * n));
  for (int i = 0; i < n; ++i) {
    std::vector<Value> k;
    switch (rng() % 6) {
      case 0:
        k.push_back(Value::Null());
        break;
      case 1:
        k.push_back(Value::Integer(static_cast<int64_t>(rng() % 50) - 25));
        break;
      case 2:
        k.push_back(Value::Real(static_cast<double>(rng() % 50) / 2.0 - 12.0));
        break;
      case 5: {
        s.bytes.push_back(stems[rng() % stems.size()]);
        k.push_back(Value::Blob(s.bytes.back().data(), s.bytes.back().size()));
        break;
      }
      default: {
        s.bytes.push_back(stems[rng() % stems.size()] + std::to_string(rng() % 7));
        if (rng() % 3 == 0) s.bytes.back().resize(s.bytes.back().size() - 1);
        k.push_back(Value::Text(s.bytes.back()));
      }
    }
    s.bytes.push_back(std::string(rng() % 3, 'x') + stems[rng() % stems.size()]);
    k.push_back(Value::Text(s.bytes.back()));
    k.push_back(Value::Integer(i));
    s.keys.push_back(std::move(k));
  }
  return s;
}

// The index's order, written plainly: each column under its KeyColumn.
bool ReferenceLess(const std::vector<Value>& a, const std::vector<Value>& b, KeyOrder order) {
  for (size_t i = 0; i < a.size(); ++i) {
    const KeyColumn kc = i < order.size() ? order[i] : KeyColumn{};
    int c = func::CompareCollated(a[i], b[i], kc.coll);
    if (kc.desc) c = -c;
    if (c != 0) return c < 0;
  }
  return false;
}

// The sorter's output, each key as its record's bytes.
std::vector<std::string> Sorted(Env* env, const KeySet& s, KeyOrder order, size_t budget,
                                size_t* runs) {
  KeySorter sorter(env, order, budget, 4);
  for (const auto& k : s.keys) {
    EXPECT_TRUE(sorter.Add(k).ok());
  }
  EXPECT_TRUE(sorter.Finish().ok());
  *runs = sorter.runs();
  std::vector<std::string> out;
  RecordBuilder builder(4);
  for (;;) {
    auto more = sorter.Next();
    EXPECT_TRUE(more.ok()) << more.status().ToString();
    if (!more.ok() || !*more) break;
    // The record and the Values describe the same key.
    const auto rec = sorter.record();
    const auto again = builder.Build(sorter.key());
    EXPECT_TRUE(std::equal(rec.begin(), rec.end(), again.begin(), again.end()));
    out.emplace_back(rec.begin(), rec.end());
  }
  EXPECT_EQ(sorter.keys(), s.keys.size());
  return out;
}

std::vector<std::string> Reference(const KeySet& s, KeyOrder order) {
  std::vector<std::vector<Value>> keys = s.keys;
  std::sort(keys.begin(), keys.end(),
            [&](const auto& a, const auto& b) { return ReferenceLess(a, b, order); });
  std::vector<std::string> out;
  RecordBuilder builder(4);
  for (const auto& k : keys) {
    const auto rec = builder.Build(k);
    out.emplace_back(rec.begin(), rec.end());
  }
  return out;
}

struct OrderCase {
  const char* name;
  std::vector<KeyColumn> order;
};

TEST(KeySorterTest, InMemoryAndSpilledRunsGiveTheIndexOrder) {
  using func::Collation;
  const std::vector<OrderCase> cases = {
      {"binary (no KeyColumns)", {}},
      {"first column descending", {{true, Collation::kBinary}}},
      {"nocase, then descending", {{false, Collation::kNoCase}, {true, Collation::kBinary}}},
      {"rtrim descending", {{true, Collation::kRtrim}, {false, Collation::kNoCase}}},
  };
  const KeySet keys = MakeKeys(4000, 7);
  auto env = NewMemEnv();
  for (const OrderCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<std::string> want = Reference(keys, c.order);
    size_t runs = 0;
    EXPECT_EQ(Sorted(env.get(), keys, c.order, size_t{1} << 30, &runs), want);
    EXPECT_EQ(runs, 0u);  // fitted in memory: no file
    // About 100 keys a run: dozens of runs merged.
    EXPECT_EQ(Sorted(env.get(), keys, c.order, 8 * 1024, &runs), want);
    EXPECT_GT(runs, 20u);
    // The least budget: every key its own run.
    EXPECT_EQ(Sorted(env.get(), keys, c.order, 1, &runs), want);
    EXPECT_EQ(runs, keys.keys.size());
  }
}

TEST(KeySorterTest, RunsGoToTheFileSystemsTemporaryFiles) {
  // The POSIX Env's unnamed temporary file, not memory.
  const KeySet keys = MakeKeys(3000, 11);
  size_t runs = 0;
  EXPECT_EQ(Sorted(Env::Default(), keys, {}, 16 * 1024, &runs), Reference(keys, {}));
  EXPECT_GT(runs, 5u);
}

TEST(KeySorterTest, LongKeysSpanReadBlocks) {
  // Records longer than the run reader's 256 KiB block, between short ones.
  KeySet s;
  for (int i = 0; i < 40; ++i) {
    s.bytes.push_back(std::string(i % 4 == 0 ? 300 * 1024 : 10, static_cast<char>('a' + i % 26)));
  }
  for (int i = 0; i < 40; ++i)
    s.keys.push_back({Value::Text(s.bytes[static_cast<size_t>(i)]), Value::Integer(i)});
  auto env = NewMemEnv();
  size_t runs = 0;
  EXPECT_EQ(Sorted(env.get(), s, {}, 100 * 1024, &runs), Reference(s, {}));
  EXPECT_GT(runs, 5u);
}

TEST(KeySorterTest, NoKeys) {
  auto env = NewMemEnv();
  KeySorter sorter(env.get(), {}, 1, 4);
  ASSERT_TRUE(sorter.Finish().ok());
  auto more = sorter.Next();
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);
  EXPECT_EQ(sorter.runs(), 0u);
}

TEST(KeySorterTest, MisuseIsAnError) {
  auto env = NewMemEnv();
  KeySorter sorter(env.get(), {}, 1 << 20, 4);
  const Value two[] = {Value::Integer(1), Value::Integer(2)};
  const Value three[] = {Value::Integer(1), Value::Integer(2), Value::Integer(3)};
  EXPECT_FALSE(sorter.Next().ok());  // before Finish
  ASSERT_TRUE(sorter.Add(two).ok());
  EXPECT_TRUE(sorter.Add(three).code() == Status::Code::kInvalidArgument);
  ASSERT_TRUE(sorter.Finish().ok());
  EXPECT_TRUE(sorter.Add(two).code() == Status::Code::kInvalidArgument);            // after Finish
  EXPECT_FALSE(KeySorter(env.get(), {}, 1, 4).Add(std::span<const Value>()).ok());  // no columns
}

}  // namespace
}  // namespace engine
