#include "perfci/stats/outcome.h"

#include <gtest/gtest.h>

#include <limits>

namespace perfci::stats {
namespace {

TEST(Outcome, RanksFromHarmlessToWorst) {
  EXPECT_LT(rank(Outcome::kInformation), rank(Outcome::kUnchanged));
  EXPECT_LT(rank(Outcome::kUnchanged), rank(Outcome::kNoisy));
  EXPECT_LT(rank(Outcome::kNoisy), rank(Outcome::kImproved));
  EXPECT_LT(rank(Outcome::kImproved), rank(Outcome::kAccepted));
  EXPECT_LT(rank(Outcome::kAccepted), rank(Outcome::kRegressed));
  EXPECT_LT(rank(Outcome::kRegressed), rank(Outcome::kFailed));
  EXPECT_EQ(worse(Outcome::kImproved, Outcome::kNoisy), Outcome::kImproved);
  EXPECT_EQ(worse(Outcome::kAccepted, Outcome::kRegressed), Outcome::kRegressed);
}

TEST(Outcome, MetricCountsAsItsGateSays) {
  EXPECT_EQ(metric_outcome(Verdict::kRegressed, Gate::kAll), Outcome::kRegressed);
  EXPECT_EQ(metric_outcome(Verdict::kRegressed, Gate::kGated), Outcome::kRegressed);
  EXPECT_EQ(metric_outcome(Verdict::kRegressed, Gate::kAccepted), Outcome::kAccepted);
  EXPECT_EQ(metric_outcome(Verdict::kRegressed, Gate::kInformation), std::nullopt);
  EXPECT_EQ(metric_outcome(Verdict::kNoisy, Gate::kGated), Outcome::kNoisy);
  EXPECT_EQ(metric_outcome(Verdict::kUnchanged, Gate::kAll), Outcome::kUnchanged);
  EXPECT_EQ(metric_outcome(Verdict::kImproved, Gate::kAll), Outcome::kImproved);
}

TEST(Outcome, ThresholdIsStrictAndFollowsTheDirection) {
  const auto up = Direction::kHigherIsWorse;
  const auto down = Direction::kHigherIsBetter;
  EXPECT_EQ(verdict_by_threshold(0.031, 0.03, up), Verdict::kRegressed);
  EXPECT_EQ(verdict_by_threshold(-0.031, 0.03, up), Verdict::kImproved);
  EXPECT_EQ(verdict_by_threshold(0.031, 0.03, down), Verdict::kImproved);
  EXPECT_EQ(verdict_by_threshold(-0.031, 0.03, down), Verdict::kRegressed);
  // Exactly at the threshold is not beyond it.
  EXPECT_EQ(verdict_by_threshold(0.25, 0.25, up), Verdict::kUnchanged);
  EXPECT_EQ(verdict_by_threshold(-0.25, 0.25, up), Verdict::kUnchanged);
  EXPECT_EQ(verdict_by_threshold(0.0, 0.0, up), Verdict::kUnchanged);
  // A change that cannot be computed decides nothing.
  EXPECT_EQ(verdict_by_threshold(std::numeric_limits<double>::quiet_NaN(), 0.03, up),
            Verdict::kUnchanged);
}

TEST(Outcome, ConfirmationKeepsOrOverturnsTheFirstDecision) {
  Decision first{Verdict::kRegressed, "+10.0% [+8.0%, +12.0%]"};
  Decision agrees{Verdict::kRegressed, "+9.0%"};
  Decision unchanged{Verdict::kUnchanged, "+0.1%"};
  Decision kept = confirm(first, agrees, 10);
  EXPECT_EQ(kept.verdict, Verdict::kRegressed);
  EXPECT_EQ(kept.reason, "+10.0% [+8.0%, +12.0%]; confirmed by 10 fresh pairs");
  Decision overturned = confirm(first, unchanged, 10);
  EXPECT_EQ(overturned.verdict, Verdict::kNoisy);
  EXPECT_EQ(overturned.reason,
            "not confirmed: first regressed (+10.0% [+8.0%, +12.0%]), then unchanged in 10 fresh "
            "pairs (+0.1%)");
}

TEST(Outcome, OnlyNonDeterministicSuspectsAreConfirmed) {
  MetricPolicy wall;
  MetricPolicy ir;
  ir.deterministic = true;
  EXPECT_TRUE(needs_confirmation(wall, {Verdict::kRegressed, ""}));
  EXPECT_TRUE(needs_confirmation(wall, {Verdict::kImproved, ""}));
  EXPECT_FALSE(needs_confirmation(wall, {Verdict::kNoisy, ""}));
  EXPECT_FALSE(needs_confirmation(wall, {Verdict::kUnchanged, ""}));
  EXPECT_FALSE(needs_confirmation(ir, {Verdict::kRegressed, ""}));
}

TEST(Outcome, CheckDecidesErrorOverFailOverNotGated) {
  EXPECT_EQ(decide_check(true, true, 5), CheckOutcome::kError);
  EXPECT_EQ(decide_check(true, false, 0), CheckOutcome::kError);
  EXPECT_EQ(decide_check(false, true, 0), CheckOutcome::kFail);
  EXPECT_EQ(decide_check(false, false, 0), CheckOutcome::kNotGated);
  EXPECT_EQ(decide_check(false, false, 1), CheckOutcome::kPass);
  EXPECT_TRUE(counts_for_gate(Gate::kGated));
  EXPECT_TRUE(counts_for_gate(Gate::kAccepted));
  EXPECT_FALSE(counts_for_gate(Gate::kInformation));
  EXPECT_FALSE(counts_for_gate(Gate::kAll));
}

TEST(Outcome, CheckOutcomesAndExitCodesAgree) {
  for (CheckOutcome o :
       {CheckOutcome::kPass, CheckOutcome::kFail, CheckOutcome::kError, CheckOutcome::kNotGated})
    EXPECT_EQ(check_outcome_from_exit_code(exit_code(o)), o);
  EXPECT_EQ(exit_code(CheckOutcome::kNotGated), 3);
  EXPECT_EQ(check_outcome_from_exit_code(7), CheckOutcome::kError);
  EXPECT_EQ(to_string(CheckOutcome::kNotGated), "not gated");
}

TEST(Outcome, WordsRoundTripAndUnknownWordsAreRefused) {
  for (Gate g : {Gate::kAll, Gate::kGated, Gate::kInformation, Gate::kAccepted})
    EXPECT_EQ(parse_gate(to_string(g)), g);
  for (Outcome o : {Outcome::kInformation, Outcome::kUnchanged, Outcome::kNoisy, Outcome::kImproved,
                    Outcome::kAccepted, Outcome::kRegressed, Outcome::kFailed})
    EXPECT_EQ(parse_outcome(to_string(o)), o);
  for (CheckOutcome o :
       {CheckOutcome::kPass, CheckOutcome::kFail, CheckOutcome::kError, CheckOutcome::kNotGated})
    EXPECT_EQ(parse_check_outcome(to_string(o)), o);
  EXPECT_EQ(parse_gate("gates"), std::nullopt);
  EXPECT_EQ(parse_outcome("Regressed"), std::nullopt);
  EXPECT_EQ(parse_check_outcome("passed"), std::nullopt);
}

}  // namespace
}  // namespace perfci::stats
