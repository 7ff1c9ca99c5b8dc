// Helpers shared by the B-tree tests (btree_test.cc, btree_hint_test.cc):
// opening a tree on small pages, rows whose text is derived from their key
// and length, and a full forward and backward comparison with a model.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/storage/btree.h"
#include "engine/storage/record.h"

namespace engine::btree_test {

// page_size small (512, 1024) makes many leaves and early splits;
// cache_pages small makes a transaction spill to the file.
inline std::unique_ptr<BTree> OpenTree(const std::string& path, uint32_t page_size,
                                       size_t cache_pages = PagerOptions{}.cache_pages) {
  PagerOptions opts;
  opts.page_size = page_size;
  opts.cache_pages = cache_pages;
  opts.synchronous = Synchronous::kOff;
  auto t = BTree::Open(path, opts);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? std::move(t).value() : nullptr;
}

inline std::string Payload(int64_t key, size_t len) {
  std::string s(len, 'a');
  for (size_t i = 0; i < len; ++i)
    s[i] = static_cast<char>('a' + (key + static_cast<int64_t>(i)) % 26);
  return s;
}

// The record (key, Payload(key, len)).
inline std::vector<uint8_t> Row(RecordBuilder& b, int64_t key, size_t len) {
  const std::string s = Payload(key, len);
  const Value v[] = {Value::Integer(key), Value::Text(s)};
  auto r = b.Build(v, 2);
  return {r.begin(), r.end()};
}

// The table holds exactly the model's rows (rowid -> payload length), in
// order forwards and backwards.
inline void ExpectTableMatches(BTree& tree, uint32_t root, const std::map<int64_t, size_t>& model) {
  BtCursor c(&tree, root);
  ASSERT_TRUE(c.first().ok());
  auto it = model.begin();
  RecordReader rr;
  while (c.valid()) {
    ASSERT_NE(it, model.end());
    ASSERT_EQ(c.rowid(), it->first);
    std::span<const uint8_t> p;
    ASSERT_TRUE(c.payload(&p).ok());
    ASSERT_TRUE(rr.Parse(p).ok());
    ASSERT_EQ(rr.column(0).as_int(), it->first);
    ASSERT_EQ(rr.column(1).as_text(), Payload(it->first, it->second));
    ASSERT_TRUE(c.next().ok());
    ++it;
  }
  ASSERT_EQ(it, model.end());
  ASSERT_TRUE(c.last().ok());
  auto rit = model.rbegin();
  while (c.valid()) {
    ASSERT_NE(rit, model.rend());
    ASSERT_EQ(c.rowid(), rit->first);
    ASSERT_TRUE(c.prev().ok());
    ++rit;
  }
  ASSERT_EQ(rit, model.rend());
}

}  // namespace engine::btree_test
