#include "perfci/runner/pair_order.h"

#include <gtest/gtest.h>

#include <string>

namespace perfci {
namespace {

std::string sequence(std::uint64_t seed, int pairs) {
  PairOrder order(seed);
  std::string s;
  for (int i = 0; i < pairs; ++i) s += order.next_a_first() ? 'A' : 'B';
  return s;
}

TEST(PairOrder, SameSeedSameOrder) { EXPECT_EQ(sequence(42, 40), sequence(42, 40)); }

TEST(PairOrder, EveryBlockOfTwoPairsHasBothOrders) {
  for (std::uint64_t seed : {1u, 2u, 3u, 99u}) {
    std::string s = sequence(seed, 64);
    for (std::size_t i = 0; i < s.size(); i += 2) EXPECT_NE(s[i], s[i + 1]) << s;
  }
}

TEST(PairOrder, OrderIsRandomizedAcrossBlocksAndSeeds) {
  std::string s = sequence(7, 64);
  int blocks_starting_with_a = 0;
  for (std::size_t i = 0; i < s.size(); i += 2) blocks_starting_with_a += s[i] == 'A';
  // Not a fixed alternation: both block orders occur.
  EXPECT_GT(blocks_starting_with_a, 0);
  EXPECT_LT(blocks_starting_with_a, 32);
  EXPECT_NE(sequence(7, 64), sequence(8, 64));
}

}  // namespace
}  // namespace perfci
