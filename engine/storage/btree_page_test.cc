#include "engine/storage/btree_page.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

namespace engine {
namespace {

TEST(BtreePageTest, LocalPayloadFormula) {
  const uint32_t u = 4096;
  EXPECT_EQ(max_local_payload(u, true), 4061u);
  EXPECT_EQ(max_local_payload(u, false), 1002u);
  EXPECT_EQ(min_local_payload(u), 489u);
  const uint32_t x = 4061, m = 489;
  EXPECT_EQ(local_payload_size(4061, u, x, m), 4061u);
  EXPECT_EQ(local_payload_size(5000, u, x, m), 908u);      // K = 489 + 4511 % 4092
  EXPECT_EQ(local_payload_size(4062, u, x, m), 489u);      // K = 4062 > X: M
  EXPECT_EQ(local_payload_size(20000, u, 1002, m), 489u);  // K = 3632 > X: M
  EXPECT_EQ(local_payload_size(4681, u, 1002, m), 589u);   // K = 489 + 100
  EXPECT_EQ(overflow_page_count(5000, 908, u), 1u);        // 4092 bytes: one full page
  EXPECT_EQ(overflow_page_count(5001, 908, u), 2u);
  EXPECT_EQ(overflow_page_count(908, 908, u), 0u);
}

// A table-leaf page image with cells holding (rowid, payload bytes).
std::vector<uint8_t> make_cell(int64_t rowid, size_t payload) {
  std::vector<uint8_t> c(2 * kMaxVarintLen + payload);
  int n = put_varint(c.data(), payload);
  n += put_varint(c.data() + n, static_cast<uint64_t>(rowid));
  for (size_t i = 0; i < payload; ++i) c[static_cast<size_t>(n) + i] = static_cast<uint8_t>(rowid);
  c.resize(static_cast<size_t>(n) + payload);
  return c;
}

TEST(BtreePageTest, InsertDropKeepsSpaceAccountingExact) {
  const uint32_t u = 1024;
  std::vector<uint8_t> page(u);
  PageInfo pg;
  page_init(page.data(), 0, kTableLeaf, u, &pg, 2);
  std::mt19937 rng(7);
  std::map<int64_t, size_t> model;  // rowid -> payload length
  for (int step = 0; step < 5000; ++step) {
    const bool insert = model.empty() || rng() % 3 != 0;
    if (insert) {
      const int64_t rowid = static_cast<int64_t>(rng() % 100000);
      if (model.count(rowid)) continue;
      const size_t len = rng() % 40;
      auto cell = make_cell(rowid, len);
      const int idx = static_cast<int>(std::distance(model.begin(), model.lower_bound(rowid)));
      bool fitted;
      ASSERT_TRUE(page_insert_cell(page.data(), &pg, idx, cell, &fitted).ok());
      if (fitted) model[rowid] = len;
    } else {
      const int idx = static_cast<int>(rng() % model.size());
      ASSERT_TRUE(page_drop_cell(page.data(), &pg, idx).ok());
      model.erase(std::next(model.begin(), idx));
    }
    // Reparse and check every cell and the byte accounting: cells, free
    // blocks, fragments and the gap add up to the page.
    PageInfo re;
    ASSERT_TRUE(parse_page_header(page.data(), 2, u, &re).ok());
    ASSERT_EQ(re.ncell, model.size());
    uint32_t free_bytes;
    ASSERT_TRUE(page_free_space(page.data(), re, &free_bytes).ok());
    uint32_t used = 0;
    auto it = model.begin();
    for (int i = 0; i < re.ncell; ++i, ++it) {
      CellInfo c;
      ASSERT_TRUE(
          parse_cell_header(page.data(), re, read_cell_ptr(page.data(), re.ptrs_off, i), &c));
      ASSERT_EQ(c.key, it->first);
      ASSERT_EQ(c.payload_size, it->second);
      used += c.size + 2;
    }
    ASSERT_EQ(used + free_bytes, u - 8) << "step " << step;
  }
}

TEST(BtreePageTest, CorruptHeadersAndCellsAreRejected) {
  const uint32_t u = 512;
  std::vector<uint8_t> page(u);
  PageInfo pg;
  page_init(page.data(), 0, kTableLeaf, u, &pg, 2);
  auto cell = make_cell(5, 10);
  bool fitted;
  ASSERT_TRUE(page_insert_cell(page.data(), &pg, 0, cell, &fitted).ok());
  ASSERT_TRUE(fitted);

  std::vector<uint8_t> bad = page;
  bad[0] = 7;
  EXPECT_TRUE(parse_page_header(bad.data(), 2, u, &pg).IsCorruption());
  bad = page;
  put_u16(bad.data() + 3, 1000);  // more cells than fit
  EXPECT_TRUE(parse_page_header(bad.data(), 2, u, &pg).IsCorruption());
  bad = page;
  put_u16(bad.data() + 5, 600);  // content start past the page
  EXPECT_TRUE(parse_page_header(bad.data(), 2, u, &pg).IsCorruption());

  ASSERT_TRUE(parse_page_header(page.data(), 2, u, &pg).ok());
  CellInfo c;
  EXPECT_FALSE(parse_cell_header(page.data(), pg, u - 2, &c));  // off the end
  EXPECT_FALSE(parse_cell_header(page.data(), pg, 4, &c));      // inside the header
  bad = page;
  const uint16_t off = read_cell_ptr(bad.data(), pg.ptrs_off, 0);
  EXPECT_TRUE(parse_cell_header(bad.data(), pg, off, &c));
  bad[off] = 100;  // the payload now runs past the page end
  EXPECT_FALSE(parse_cell_header(bad.data(), pg, off, &c));
  bad[off] = 0xff;  // a payload that overflows, its pointer past the end
  EXPECT_FALSE(parse_cell_header(bad.data(), pg, off, &c));
  // An interior page whose right child is 0 is corrupt.
  std::vector<uint8_t> interior(u);
  page_init(interior.data(), 0, kTableInterior, u, &pg, 3);
  EXPECT_TRUE(parse_page_header(interior.data(), 3, u, &pg).IsCorruption());
}

TEST(BtreePageTest, Page1HeaderOffset) {
  const uint32_t u = 1024;
  std::vector<uint8_t> page(u, 0xee);
  PageInfo pg;
  page_init(page.data(), kPage1BtreeOffset, kTableLeaf, u, &pg, 1);
  EXPECT_EQ(page[0], 0xee);  // the database header is left alone
  PageInfo re;
  ASSERT_TRUE(parse_page_header(page.data(), 1, u, &re).ok());
  EXPECT_EQ(re.hdr_off, 100u);
  EXPECT_EQ(re.ptrs_off, 108u);
  EXPECT_EQ(page_capacity(100, kTableLeaf, u), u - 108);
}

}  // namespace
}  // namespace engine
