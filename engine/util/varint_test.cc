#include "engine/util/varint.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace engine {
namespace {

// Values at every width boundary: 2^(7k) - 1, 2^(7k), and the 9-byte range.
std::vector<uint64_t> BoundaryValues() {
  std::vector<uint64_t> v = {0, 1, 0x7f, 0x80, ~uint64_t{0}, ~uint64_t{0} - 1};
  for (int bits = 7; bits < 64; bits += 7) {
    const uint64_t b = uint64_t{1} << bits;
    v.insert(v.end(), {b - 1, b, b + 1});
  }
  for (int bits = 1; bits < 64; ++bits) v.push_back(uint64_t{1} << bits);
  return v;
}

TEST(VarintTest, LengthMatchesSqliteWidths) {
  EXPECT_EQ(varint_len(0), 1);
  EXPECT_EQ(varint_len(127), 1);
  EXPECT_EQ(varint_len(128), 2);
  EXPECT_EQ(varint_len(16383), 2);
  EXPECT_EQ(varint_len(16384), 3);
  EXPECT_EQ(varint_len((uint64_t{1} << 56) - 1), 8);
  EXPECT_EQ(varint_len(uint64_t{1} << 56), 9);
  EXPECT_EQ(varint_len(~uint64_t{0}), 9);
}

TEST(VarintTest, KnownEncodings) {
  uint8_t buf[9];
  ASSERT_EQ(put_varint(buf, 0x80), 2);
  EXPECT_EQ(buf[0], 0x81);
  EXPECT_EQ(buf[1], 0x00);
  ASSERT_EQ(put_varint(buf, ~uint64_t{0}), 9);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(buf[i], 0xff) << i;
  // -1 as a rowid is nine bytes, the last one full.
  ASSERT_EQ(put_varint(buf, static_cast<uint64_t>(int64_t{-1})), 9);
}

TEST(VarintTest, RoundTripBoundariesAndRandom) {
  std::vector<uint64_t> values = BoundaryValues();
  std::mt19937_64 rng(42);
  for (int i = 0; i < 200000; ++i) {
    const int shift = static_cast<int>(rng() % 64);
    values.push_back(rng() >> shift);
  }
  uint8_t buf[16];
  for (uint64_t v : values) {
    const int n = put_varint(buf, v);
    ASSERT_EQ(n, varint_len(v)) << v;
    uint64_t got = 0;
    ASSERT_EQ(get_varint(buf, &got), n) << v;
    ASSERT_EQ(got, v);
    ASSERT_EQ(get_varint_bounded(buf, buf + n, &got), n) << v;
    ASSERT_EQ(got, v);
    // Any shorter buffer is a truncation.
    for (int cut = 0; cut < n; ++cut) ASSERT_EQ(get_varint_bounded(buf, buf + cut, &got), 0);
  }
}

TEST(VarintTest, EveryTwoByteValueRoundTrips) {
  uint8_t buf[9] = {};
  for (uint64_t v = 0; v < (1u << 16); ++v) {
    const int n = put_varint(buf, v);
    uint64_t got;
    ASSERT_EQ(get_varint(buf, &got), n);
    ASSERT_EQ(got, v);
  }
}

TEST(VarintTest, NineByteFormUsesAllBitsOfTheLastByte) {
  uint8_t buf[9] = {0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0xff};
  uint64_t v;
  ASSERT_EQ(get_varint(buf, &v), 9);
  EXPECT_EQ(v, (uint64_t{1} << 57) | 0xff);
}

// Rowids written by the real sqlite3 decode to the same values: a table with
// one leaf page, read straight from the file.
TEST(VarintTest, DecodesRowidsWrittenBySqlite) {
  std::string dir = (std::filesystem::temp_directory_path() / "varint-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  const std::string path = dir + "/v.db";
  std::vector<int64_t> rowids;
  for (uint64_t v : BoundaryValues()) {
    if (rowids.size() < 60) rowids.push_back(static_cast<int64_t>(v));
  }
  rowids.push_back(INT64_MIN);
  rowids.push_back(-1);
  rowids.push_back(-129);
  std::sort(rowids.begin(), rowids.end());
  rowids.erase(std::unique(rowids.begin(), rowids.end()), rowids.end());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db, "PRAGMA page_size=65536; CREATE TABLE t(x)", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "INSERT INTO t(rowid, x) VALUES(?, NULL)", -1, &st, nullptr),
            SQLITE_OK);
  for (int64_t r : rowids) {
    sqlite3_bind_int64(st, 1, r);
    ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);

  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(file.size(), 2u * 65536);
  const uint8_t* page = file.data() + 65536;  // page 2: the table's root leaf
  ASSERT_EQ(page[0], 13);
  const int ncell = (page[3] << 8) | page[4];
  ASSERT_EQ(ncell, static_cast<int>(rowids.size()));
  for (int i = 0; i < ncell; ++i) {
    const int off = (page[8 + 2 * i] << 8) | page[9 + 2 * i];
    uint64_t payload = 0, rowid = 0;
    const int n = get_varint_bounded(page + off, page + 65536, &payload);
    ASSERT_GT(n, 0);
    ASSERT_GT(get_varint_bounded(page + off + n, page + 65536, &rowid), 0);
    EXPECT_EQ(static_cast<int64_t>(rowid), rowids[static_cast<size_t>(i)]);
    EXPECT_EQ(payload, 2u);  // header size 2, serial type 0
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace engine
