#include "engine/func/aggregates.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/func/sqlite_eval_test_util.h"
#include "engine/func/value_arena.h"

namespace engine::func {
namespace {

using testing::Describe;
using testing::SameValue;

Value I(int64_t v) { return Value::Integer(v); }
Value R(double v) { return Value::Real(v); }
Value T(const char* s) { return Value::Text(s); }
Value N() { return Value::Null(); }

Value RunAggregate(AggregateKind kind, const std::vector<Value>& rows, bool distinct = false,
                   Status* status = nullptr) {
  Aggregate agg(kind, distinct);
  agg.Reset();
  for (const Value& v : rows) agg.Step(&v, 1);
  Value out;
  const Status st = agg.Finish(&out);
  if (status != nullptr) *status = st;
  // The result views the state's buffers; keep a copy that outlives it.
  static ValueArena results;
  return results.Copy(out);
}

TEST(AggregatesTest, EmptyInput) {
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kCountStar, {}), I(0)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kCount, {}), I(0)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kSum, {}), N()));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kTotal, {}), R(0.0)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kAvg, {}), N()));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kMin, {}), N()));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kMax, {}), N()));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kGroupConcat, {}), N()));
  // Only NULLs is the same as nothing, except for count(*).
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kCountStar, {N(), N()}), I(2)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kCount, {N(), N()}), I(0)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kSum, {N()}), N()));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kGroupConcat, {N()}), N()));
}

TEST(AggregatesTest, Table) {
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kSum, {I(1), I(2), N()}), I(3)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kSum, {I(1), R(0.5)}), R(1.5)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kSum, {T("3"), T("abc")}), R(3.0)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kSum, {T("3"), T("4")}), I(7)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kTotal, {I(1), I(2)}), R(3.0)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kAvg, {I(1), I(2)}), R(1.5)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kMin, {I(3), N(), T("a"), R(2.5)}), R(2.5)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kMax, {I(3), N(), T("a"), R(2.5)}), T("a")));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kMax, {I(1), R(1.0)}), I(1)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kGroupConcat, {I(1), N(), R(2.0), T("x")}),
                        T("1,2.0,x")));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kCount, {I(1), R(1.0), I(2)}, true), I(2)));
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kSum, {I(2), I(2), I(3)}, true), I(5)));
  Status st;
  RunAggregate(AggregateKind::kSum, {I(INT64_MAX), I(1)}, false, &st);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "integer overflow");
  // total() and avg() do not overflow.
  EXPECT_TRUE(SameValue(RunAggregate(AggregateKind::kTotal, {I(INT64_MAX), I(1)}),
                        R(9223372036854775808.0)));
}

TEST(AggregatesTest, GroupConcatSeparators) {
  Aggregate agg(AggregateKind::kGroupConcat);
  agg.Reset();
  const Value rows[][2] = {
      {T("a"), T("-")}, {N(), T("?")}, {T("b"), T("+")}, {T("c"), N()}, {I(4), I(0)}};
  for (const auto& r : rows) agg.Step(r, 2);
  Value out;
  ASSERT_TRUE(agg.Finish(&out).ok());
  EXPECT_TRUE(SameValue(out, T("a+bc04"))) << Describe(out);
}

TEST(AggregatesTest, MinMaxReportNewBestAndOwnTheirBytes) {
  Aggregate agg(AggregateKind::kMax);
  agg.Reset();
  std::string buf = "b";
  Value v = Value::Text(buf);
  agg.Step(&v, 1);
  EXPECT_TRUE(agg.last_step_was_best());
  buf = "a";  // the state must have copied "b"
  v = Value::Text(buf);
  agg.Step(&v, 1);
  EXPECT_FALSE(agg.last_step_was_best());
  Value out;
  ASSERT_TRUE(agg.Finish(&out).ok());
  EXPECT_TRUE(SameValue(out, T("b")));
  Aggregate moved = std::move(agg);
  ASSERT_TRUE(moved.Finish(&out).ok());
  EXPECT_TRUE(SameValue(out, T("b")));
}

TEST(AggregatesTest, NoCaseCollationForMinMax) {
  Aggregate agg(AggregateKind::kMin, false, Collation::kNoCase);
  agg.Reset();
  for (const char* s : {"b", "A", "a"}) {
    const Value v = T(s);
    agg.Step(&v, 1);
  }
  Value out;
  ASSERT_TRUE(agg.Finish(&out).ok());
  EXPECT_TRUE(SameValue(out, T("A")));
}

TEST(AggregatesTest, ResetStartsAFreshGroup) {
  Aggregate agg(AggregateKind::kSum, true);
  for (int group = 0; group < 3; group++) {
    agg.Reset();
    for (int i = 0; i < 10; i++) {
      const Value v = I(i % 4);
      agg.Step(&v, 1);
    }
    Value out;
    ASSERT_TRUE(agg.Finish(&out).ok());
    EXPECT_TRUE(SameValue(out, I(6)));
  }
}

TEST(AggregatesTest, FindByNameAndArity) {
  EXPECT_EQ(FindAggregate("COUNT", 0, true), AggregateKind::kCountStar);
  EXPECT_EQ(FindAggregate("count", 1), AggregateKind::kCount);
  EXPECT_EQ(FindAggregate("Sum", 1), AggregateKind::kSum);
  EXPECT_EQ(FindAggregate("group_concat", 2), AggregateKind::kGroupConcat);
  EXPECT_EQ(FindAggregate("min", 1), AggregateKind::kMin);
  EXPECT_EQ(FindAggregate("min", 2), std::nullopt);
  EXPECT_EQ(FindAggregate("sum", 2), std::nullopt);
  EXPECT_EQ(FindAggregate("abs", 1), std::nullopt);
}

// Random groups of mixed values through every aggregate (plain and
// DISTINCT), against sqlite3 over the same rows.
TEST(AggregatesTest, MatchSqliteOnRandomGroups) {
  const std::vector<std::string> literals = {"0",
                                             "1",
                                             "-1",
                                             "7",
                                             "9223372036854775807",
                                             "(-9223372036854775808)",
                                             "0.5",
                                             "2.5",
                                             "1.0",
                                             "1e20",
                                             "'12'",
                                             "'1e3'",
                                             "'abc'",
                                             "'ABC'",
                                             "''",
                                             "x'41'",
                                             "x''",
                                             "NULL",
                                             "NULL",
                                             "'3'",
                                             "3",
                                             "3.0",
                                             "(-2.5)"};
  struct Agg {
    const char* sql;
    AggregateKind kind;
    bool distinct;
    bool separator;
  };
  const Agg aggs[] = {
      {"count(*)", AggregateKind::kCountStar, false, false},
      {"count(v)", AggregateKind::kCount, false, false},
      {"count(DISTINCT v)", AggregateKind::kCount, true, false},
      {"sum(v)", AggregateKind::kSum, false, false},
      {"sum(DISTINCT v)", AggregateKind::kSum, true, false},
      {"total(v)", AggregateKind::kTotal, false, false},
      {"avg(v)", AggregateKind::kAvg, false, false},
      {"avg(DISTINCT v)", AggregateKind::kAvg, true, false},
      {"min(v)", AggregateKind::kMin, false, false},
      {"max(v)", AggregateKind::kMax, false, false},
      {"group_concat(v)", AggregateKind::kGroupConcat, false, false},
      {"group_concat(DISTINCT v)", AggregateKind::kGroupConcat, true, false},
      {"group_concat(v, s)", AggregateKind::kGroupConcat, false, true},
  };
  testing::OracleDb db;
  ASSERT_TRUE(db.Exec("CREATE TABLE g(id INTEGER PRIMARY KEY, v, s)"));
  std::mt19937_64 rng(5);
  std::vector<Aggregate> states;
  for (const Agg& a : aggs) states.emplace_back(a.kind, a.distinct);
  for (int group = 0; group < 300; group++) {
    ASSERT_TRUE(db.Exec("DELETE FROM g"));
    const int rows = static_cast<int>(rng() % 8);
    for (int r = 0; r < rows; r++) {
      const std::string& v = literals[rng() % literals.size()];
      const std::string& s = literals[rng() % literals.size()];
      ASSERT_TRUE(db.Exec("INSERT INTO g(v, s) VALUES(" + v + ", " + s + ")"));
    }
    // The rows as SQLite stored them, in rowid order (the order the
    // aggregates see them in).
    std::vector<testing::OracleValue> vs, ss;
    for (int r = 1; r <= rows; r++) {
      const std::string where = " FROM g WHERE id = " + std::to_string(r);
      vs.push_back(testing::QueryOracle(db.get(), "SELECT v" + where));
      ss.push_back(testing::QueryOracle(db.get(), "SELECT s" + where));
    }
    for (size_t k = 0; k < states.size(); k++) {
      Aggregate& agg = states[k];
      agg.Reset();
      for (size_t r = 0; r < vs.size(); r++) {
        const Value args[2] = {vs[r].value(), ss[r].value()};
        agg.Step(args, aggs[k].separator ? 2 : 1);
      }
      Value got;
      const Status st = agg.Finish(&got);
      const testing::OracleValue expected =
          testing::QueryOracle(db.get(), std::string("SELECT ") + aggs[k].sql + " FROM g");
      if (!expected.ok) {
        EXPECT_FALSE(st.ok()) << aggs[k].sql << " group " << group;
        if (!st.ok()) {
          EXPECT_EQ(st.message(), expected.error);
        }
        continue;
      }
      ASSERT_TRUE(st.ok()) << aggs[k].sql << ": " << st.message();
      EXPECT_TRUE(SameValue(got, expected.value()))
          << aggs[k].sql << " group " << group << ": ours " << Describe(got) << ", sqlite "
          << Describe(expected.value());
    }
  }
}

}  // namespace
}  // namespace engine::func
