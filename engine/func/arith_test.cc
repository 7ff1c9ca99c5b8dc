#include "engine/func/arith.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/func/sqlite_eval_test_util.h"

namespace engine::func {
namespace {

using testing::Describe;
using testing::SameValue;

Value I(int64_t v) { return Value::Integer(v); }
Value R(double v) { return Value::Real(v); }
Value T(const char* s) { return Value::Text(s); }
Value N() { return Value::Null(); }

struct BinaryCase {
  Value (*fn)(const Value&, const Value&);
  const char* name;
  Value a;
  Value b;
  Value out;
};

TEST(ArithTest, ArithmeticTable) {
  const BinaryCase cases[] = {
      {Add, "+", I(1), I(2), I(3)},
      {Add, "+", I(INT64_MAX), I(1), R(9223372036854775808.0)},
      {Add, "+", T("12abc"), I(1), I(13)},
      {Add, "+", T("1e5"), I(0), R(100000.0)},
      {Add, "+", T("abc"), T("def"), I(0)},
      {Add, "+", I(1), N(), N()},
      {Add, "+", T(" 2 "), R(0.5), R(2.5)},
      {Subtract, "-", I(INT64_MIN), I(1), R(-9223372036854775808.0)},
      {Multiply, "*", I(INT64_MAX), I(2), R(18446744073709551614.0)},
      {Multiply, "*", I(3), T("4"), I(12)},
      {Divide, "/", I(7), I(2), I(3)},
      {Divide, "/", I(-7), I(2), I(-3)},
      {Divide, "/", I(7), I(0), N()},
      {Divide, "/", R(7.0), R(0.0), N()},
      {Divide, "/", I(INT64_MIN), I(-1), R(9223372036854775808.0)},
      {Divide, "/", R(1.0), I(4), R(0.25)},
      {Remainder, "%", I(7), I(3), I(1)},
      {Remainder, "%", I(-7), I(3), I(-1)},
      {Remainder, "%", I(INT64_MIN), I(-1), I(0)},
      {Remainder, "%", I(7), I(0), N()},
      {Remainder, "%", R(5.5), I(2), R(1.0)},
      {Remainder, "%", R(5.5), R(0.5), N()},
      {BitAnd, "&", I(12), I(10), I(8)},
      {BitOr, "|", I(12), I(10), I(14)},
      {BitAnd, "&", T("12x"), R(10.9), I(8)},
      {ShiftLeft, "<<", I(1), I(62), I(4611686018427387904)},
      {ShiftLeft, "<<", I(1), I(63), I(INT64_MIN)},
      {ShiftLeft, "<<", I(1), I(64), I(0)},
      {ShiftLeft, "<<", I(8), I(-2), I(2)},
      {ShiftRight, ">>", I(-8), I(1), I(-4)},
      {ShiftRight, ">>", I(-8), I(64), I(-1)},
      {ShiftRight, ">>", I(8), I(100), I(0)},
      {ShiftRight, ">>", I(1), I(-3), I(8)},
      {ShiftLeft, "<<", I(5), I(INT64_MIN), I(0)},
      {ShiftRight, ">>", N(), I(1), N()},
  };
  for (const BinaryCase& c : cases) {
    const Value got = c.fn(c.a, c.b);
    EXPECT_TRUE(SameValue(got, c.out))
        << Describe(c.a) << " " << c.name << " " << Describe(c.b) << " = " << Describe(got);
  }
}

TEST(ArithTest, UnaryOperators) {
  EXPECT_TRUE(SameValue(Negate(I(INT64_MIN)), R(9223372036854775808.0)));
  EXPECT_TRUE(SameValue(Negate(T("abc")), I(0)));
  EXPECT_TRUE(SameValue(Negate(T("1.5")), R(-1.5)));
  EXPECT_TRUE(SameValue(Negate(N()), N()));
  EXPECT_TRUE(SameValue(BitNot(I(0)), I(-1)));
  EXPECT_TRUE(SameValue(BitNot(R(2.7)), I(-3)));
  EXPECT_TRUE(SameValue(BitNot(N()), N()));
  EXPECT_TRUE(SameValue(EvalUnary(sql::UnaryOp::kPlus, T("x")), T("x")));
}

TEST(ArithTest, Concatenation) {
  ValueArena arena;
  EXPECT_TRUE(SameValue(Concat(I(1), R(2.0), arena), T("12.0")));
  EXPECT_TRUE(SameValue(Concat(T("a"), R(1e20), arena), T("a1.0e+20")));
  EXPECT_TRUE(SameValue(Concat(T("a"), N(), arena), N()));
  const char blob[] = {'h', 'i'};
  EXPECT_TRUE(SameValue(Concat(Value::Blob(blob, 2), Value::Blob(blob, 2), arena), T("hihi")));
}

TEST(ArithTest, ComparisonsAndLogic) {
  EXPECT_TRUE(SameValue(Compare(CompareOp::kEq, I(1), R(1.0)), I(1)));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kLt, I(5), T("1")), I(1)));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kLt, T("z"), Value::Blob("a", 1)), I(1)));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kEq, N(), N()), N()));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kIs, N(), N()), I(1)));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kIsNot, N(), I(1)), I(1)));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kIs, I(1), I(1)), I(1)));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kEq, T("ABC"), T("abc"), Collation::kNoCase), I(1)));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kEq, T("a  "), T("a"), Collation::kRtrim), I(1)));
  EXPECT_TRUE(SameValue(Compare(CompareOp::kEq, T("a  "), T("a")), I(0)));
  // Three-valued logic.
  EXPECT_TRUE(SameValue(And(N(), I(0)), I(0)));
  EXPECT_TRUE(SameValue(And(N(), I(1)), N()));
  EXPECT_TRUE(SameValue(Or(N(), I(1)), I(1)));
  EXPECT_TRUE(SameValue(Or(N(), I(0)), N()));
  EXPECT_TRUE(SameValue(Not(N()), N()));
  EXPECT_TRUE(SameValue(Not(T("0.5")), I(0)));
  EXPECT_TRUE(SameValue(Not(T("abc")), I(1)));
  EXPECT_EQ(TruthValue(N()), -1);
  EXPECT_EQ(TruthValue(R(0.1)), 1);
}

TEST(ArithTest, DispatchFromParserOperators) {
  ValueArena arena;
  EXPECT_TRUE(SameValue(EvalBinary(sql::BinaryOp::kAdd, I(2), I(3), arena), I(5)));
  EXPECT_TRUE(SameValue(EvalBinary(sql::BinaryOp::kConcat, I(2), I(3), arena), T("23")));
  EXPECT_TRUE(SameValue(EvalBinary(sql::BinaryOp::kGe, I(2), I(3), arena), I(0)));
  EXPECT_TRUE(SameValue(EvalBinary(sql::BinaryOp::kIsNot, I(2), N(), arena), I(1)));
  EXPECT_TRUE(SameValue(EvalUnary(sql::UnaryOp::kNot, I(0)), I(1)));
}

// Every operator over every pair of interesting literals, against sqlite3.
TEST(ArithTest, OperatorsMatchSqliteOnAllLiteralPairs) {
  const std::vector<std::string> literals = {"0",
                                             "1",
                                             "-1",
                                             "7",
                                             "(-7)",
                                             "9223372036854775807",
                                             "(-9223372036854775808)",
                                             "63",
                                             "64",
                                             "(-64)",
                                             "2.5",
                                             "(-2.5)",
                                             "0.0",
                                             "1e20",
                                             "'12'",
                                             "' 12 '",
                                             "'1e3'",
                                             "'12abc'",
                                             "'abc'",
                                             "''",
                                             "'-0'",
                                             "'1.5x'",
                                             "'9223372036854775808'",
                                             "x'3132'",
                                             "x''",
                                             "NULL",
                                             "3.0"};
  const std::vector<std::pair<std::string, sql::BinaryOp>> ops = {
      {"+", sql::BinaryOp::kAdd},         {"-", sql::BinaryOp::kSubtract},
      {"*", sql::BinaryOp::kMultiply},    {"/", sql::BinaryOp::kDivide},
      {"%", sql::BinaryOp::kRemainder},   {"&", sql::BinaryOp::kBitAnd},
      {"|", sql::BinaryOp::kBitOr},       {"<<", sql::BinaryOp::kShiftLeft},
      {">>", sql::BinaryOp::kShiftRight}, {"||", sql::BinaryOp::kConcat},
      {"=", sql::BinaryOp::kEq},          {"<", sql::BinaryOp::kLt},
      {">=", sql::BinaryOp::kGe},         {"IS", sql::BinaryOp::kIs},
      {"IS NOT", sql::BinaryOp::kIsNot},  {"AND", sql::BinaryOp::kAnd},
      {"OR", sql::BinaryOp::kOr},         {"!=", sql::BinaryOp::kNe},
  };
  testing::OracleDb db;
  std::vector<testing::OracleValue> values;
  for (const std::string& lit : literals) {
    values.push_back(db.Eval(lit));
    ASSERT_TRUE(values.back().ok) << lit;
  }
  ValueArena arena;
  for (size_t i = 0; i < literals.size(); i++) {
    for (size_t j = 0; j < literals.size(); j++) {
      for (const auto& [text, op] : ops) {
        const std::string sql = literals[i] + " " + text + " " + literals[j];
        const testing::OracleValue expected = db.Eval(sql);
        ASSERT_TRUE(expected.ok) << sql;
        const Value got = EvalBinary(op, values[i].value(), values[j].value(), arena);
        EXPECT_TRUE(SameValue(got, expected.value()))
            << sql << ": ours " << Describe(got) << ", sqlite " << Describe(expected.value());
      }
    }
    for (const auto& [text, op] :
         std::vector<std::pair<std::string, sql::UnaryOp>>{{"-", sql::UnaryOp::kNegate},
                                                           {"~", sql::UnaryOp::kBitNot},
                                                           {"NOT ", sql::UnaryOp::kNot},
                                                           {"+", sql::UnaryOp::kPlus}}) {
      const std::string sql = text + "(" + literals[i] + ")";
      const testing::OracleValue expected = db.Eval(sql);
      ASSERT_TRUE(expected.ok) << sql;
      const Value got = EvalUnary(op, values[i].value());
      EXPECT_TRUE(SameValue(got, expected.value()))
          << sql << ": ours " << Describe(got) << ", sqlite " << Describe(expected.value());
    }
    arena.Reset();
  }
}

}  // namespace
}  // namespace engine::func
