// ProveOrder: the one rule that lets the planner skip a sort. Columns are
// numbered as in a table; -1 is the rowid.
#include "engine/planner/order_proof.h"

#include <gtest/gtest.h>

namespace engine::plan {
namespace {

constexpr int kRowid = -1;
constexpr int kA = 0, kB = 1, kC = 2;

OrderTerm Asc(int col) { return {col, false}; }
OrderTerm Desc(int col) { return {col, true}; }

// Walking an index on `cols` (each with its direction) after `neq` equality columns.
DeliveredOrder Index(std::vector<OrderTerm> cols, size_t neq = 0) {
  DeliveredOrder d;
  for (size_t i = 0; i < cols.size(); ++i) {
    if (i < neq) {
      d.fixed.push_back(cols[i].col);
    } else {
      d.keys.push_back(cols[i]);
    }
  }
  d.keys.push_back(Asc(kRowid));
  return d;
}

DeliveredOrder RowidWalk() {
  DeliveredOrder d;
  d.keys.push_back(Asc(kRowid));
  return d;
}

TEST(ProveOrderTest, RowidWalkOrdersOnlyTheRowid) {
  EXPECT_EQ(ProveOrder({Asc(kRowid)}, RowidWalk()), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Desc(kRowid)}, RowidWalk()), OrderProof::kReverse);
  EXPECT_EQ(ProveOrder({Asc(kA)}, RowidWalk()), OrderProof::kSort);
  // The rowid is unique: whatever follows it never decides anything.
  EXPECT_EQ(ProveOrder({Asc(kRowid), Desc(kA), Asc(kUnorderedTerm)}, RowidWalk()),
            OrderProof::kForward);
}

// Issue 14: a range on index t(a) read in index order, ORDER BY the rowid.
TEST(ProveOrderTest, IndexRangeDoesNotOrderTheRowid) {
  EXPECT_EQ(ProveOrder({Asc(kRowid)}, Index({Asc(kA)})), OrderProof::kSort);
  EXPECT_EQ(ProveOrder({Desc(kRowid)}, Index({Asc(kA)})), OrderProof::kSort);
  EXPECT_EQ(ProveOrder({Asc(kB)}, Index({Asc(kA), Asc(kB)})), OrderProof::kSort);
}

TEST(ProveOrderTest, RowidAfterEveryIndexColumn) {
  EXPECT_EQ(ProveOrder({Asc(kA), Asc(kRowid)}, Index({Asc(kA)})), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Desc(kA), Desc(kRowid)}, Index({Asc(kA)})), OrderProof::kReverse);
  // The rowid ascends within equal keys, whichever way the column goes.
  EXPECT_EQ(ProveOrder({Asc(kA), Desc(kRowid)}, Index({Asc(kA)})), OrderProof::kSort);
  EXPECT_EQ(ProveOrder({Desc(kA), Asc(kRowid)}, Index({Desc(kA)})), OrderProof::kForward);
  // Equality on the whole key: only the rowid is left to order.
  EXPECT_EQ(ProveOrder({Asc(kRowid)}, Index({Asc(kA), Asc(kB)}, 2)), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Desc(kRowid)}, Index({Asc(kA), Asc(kB)}, 2)), OrderProof::kReverse);
  EXPECT_EQ(ProveOrder({Asc(kRowid)}, Index({Asc(kA), Asc(kB)}, 1)), OrderProof::kSort);
}

TEST(ProveOrderTest, IndexPrefixAndDirection) {
  const DeliveredOrder ab = Index({Asc(kA), Asc(kB)});
  EXPECT_EQ(ProveOrder({Asc(kA)}, ab), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Asc(kA), Asc(kB)}, ab), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Desc(kA), Desc(kB)}, ab), OrderProof::kReverse);
  // Mixed directions need an index with the same mix (or its mirror image).
  EXPECT_EQ(ProveOrder({Asc(kA), Desc(kB)}, ab), OrderProof::kSort);
  EXPECT_EQ(ProveOrder({Desc(kA), Asc(kB)}, ab), OrderProof::kSort);
  const DeliveredOrder a_bdesc = Index({Asc(kA), Desc(kB)});
  EXPECT_EQ(ProveOrder({Asc(kA), Desc(kB)}, a_bdesc), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Desc(kA), Asc(kB)}, a_bdesc), OrderProof::kReverse);
  EXPECT_EQ(ProveOrder({Asc(kA), Asc(kB)}, a_bdesc), OrderProof::kSort);
  // A gap in the prefix, or a column the index does not hold.
  EXPECT_EQ(ProveOrder({Asc(kB)}, ab), OrderProof::kSort);
  EXPECT_EQ(ProveOrder({Asc(kA), Asc(kC)}, ab), OrderProof::kSort);
  EXPECT_EQ(ProveOrder({Asc(kA), Asc(kB), Asc(kC)}, ab), OrderProof::kSort);
  EXPECT_EQ(ProveOrder({Asc(kA), Asc(kUnorderedTerm)}, ab), OrderProof::kSort);
}

TEST(ProveOrderTest, EqualityColumnsAndRepeatsAreSkipped) {
  const DeliveredOrder a_eq = Index({Asc(kA), Asc(kB)}, 1);
  EXPECT_EQ(ProveOrder({Asc(kB)}, a_eq), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Desc(kA), Asc(kB)}, a_eq), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Desc(kB), Asc(kA)}, a_eq), OrderProof::kReverse);
  EXPECT_EQ(ProveOrder({Asc(kA)}, a_eq), OrderProof::kForward);
  // Within ties of a, a itself is constant: its second mention is free.
  EXPECT_EQ(ProveOrder({Asc(kA), Desc(kA), Asc(kB)}, Index({Asc(kA), Asc(kB)})),
            OrderProof::kForward);
}

TEST(ProveOrderTest, OneRowAndForwardOnlyWalks) {
  DeliveredOrder one;
  one.at_most_one_row = true;
  EXPECT_EQ(ProveOrder({Desc(kA), Asc(kUnorderedTerm)}, one), OrderProof::kForward);
  DeliveredOrder sorted_keys = RowidWalk();  // rowid IN (...): ascending keys only
  sorted_keys.can_reverse = false;
  EXPECT_EQ(ProveOrder({Asc(kRowid)}, sorted_keys), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Desc(kRowid)}, sorted_keys), OrderProof::kSort);
}

// A join whose inner loop repeats an outer row: the outer rowid ties then,
// so an inner term after it is not ordered; the outer's own columns are.
TEST(ProveOrderTest, RepeatedOuterRows) {
  DeliveredOrder d = RowidWalk();
  d.repeats = true;
  EXPECT_EQ(ProveOrder({Asc(kRowid)}, d), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Asc(kRowid), Desc(kA)}, d), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Asc(kRowid), Asc(kUnorderedTerm)}, d), OrderProof::kSort);
  DeliveredOrder one;
  one.at_most_one_row = true;
  one.repeats = true;
  EXPECT_EQ(ProveOrder({Asc(kA), Desc(kRowid)}, one), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Asc(kA), Asc(kUnorderedTerm)}, one), OrderProof::kSort);
}

TEST(ProveOrderTest, NoKeysProveNothing) {
  DeliveredOrder none;  // e.g. several ranges concatenated: only the fixed columns hold
  none.fixed.push_back(kA);
  EXPECT_EQ(ProveOrder({Asc(kA)}, none), OrderProof::kForward);
  EXPECT_EQ(ProveOrder({Asc(kB)}, none), OrderProof::kSort);
  EXPECT_EQ(ProveOrder({Asc(kRowid)}, none), OrderProof::kSort);
}

}  // namespace
}  // namespace engine::plan
