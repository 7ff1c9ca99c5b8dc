#include "engine/func/affinity.h"

#include <gtest/gtest.h>

#include "engine/func/sqlite_eval_test_util.h"

namespace engine::func {
namespace {

using testing::Describe;
using testing::SameValue;

TEST(AffinityTest, AffinityOfDeclaredType) {
  struct Case {
    const char* type;
    Affinity affinity;
  };
  const Case cases[] = {
      {"INTEGER", Affinity::kInteger},
      {"INT", Affinity::kInteger},
      {"BIGINT", Affinity::kInteger},
      {"tinyint", Affinity::kInteger},
      {"CHARINT", Affinity::kInteger},
      {"POINT", Affinity::kInteger},
      {"TEXT", Affinity::kText},
      {"VARCHAR(10)", Affinity::kText},
      {"CLOB", Affinity::kText},
      {"NCHAR", Affinity::kText},
      {"BLOB", Affinity::kBlob},
      {"", Affinity::kBlob},
      {"REAL", Affinity::kReal},
      {"FLOAT", Affinity::kReal},
      {"DOUBLE PRECISION", Affinity::kReal},
      {"FLOATING POINT", Affinity::kInteger},
      {"NUMERIC", Affinity::kNumeric},
      {"DECIMAL(10,2)", Affinity::kNumeric},
      {"BOOLEAN", Affinity::kNumeric},
      {"DATE", Affinity::kNumeric},
      {"STRING", Affinity::kNumeric},
      {"TEXTBLOB", Affinity::kText},
      {"BLOBTEXT", Affinity::kText},
      {"REALBLOB", Affinity::kBlob},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(AffinityOfType(c.type), c.affinity) << c.type;
  }
  EXPECT_EQ(AffinityName(Affinity::kNumeric), "NUMERIC");
}

TEST(AffinityTest, StoringValuesInColumns) {
  ValueArena arena;
  struct Case {
    Value in;
    Affinity affinity;
    Value out;
  };
  const Case cases[] = {
      {Value::Text("12"), Affinity::kNumeric, Value::Integer(12)},
      {Value::Text(" 12 "), Affinity::kInteger, Value::Integer(12)},
      {Value::Text("1e3"), Affinity::kNumeric, Value::Integer(1000)},
      {Value::Text("1.5"), Affinity::kNumeric, Value::Real(1.5)},
      {Value::Text("0x10"), Affinity::kNumeric, Value::Text("0x10")},
      {Value::Text("12abc"), Affinity::kInteger, Value::Text("12abc")},
      {Value::Text("3"), Affinity::kReal, Value::Real(3.0)},
      {Value::Integer(3), Affinity::kReal, Value::Real(3.0)},
      {Value::Real(3.0), Affinity::kNumeric, Value::Integer(3)},
      {Value::Real(1e20), Affinity::kInteger, Value::Real(1e20)},
      {Value::Text("9223372036854775807"), Affinity::kNumeric, Value::Integer(INT64_MAX)},
      {Value::Text("9223372036854775808"), Affinity::kNumeric, Value::Real(9223372036854775808.0)},
      {Value::Integer(5), Affinity::kText, Value::Text("5")},
      {Value::Real(0.5), Affinity::kText, Value::Text("0.5")},
      {Value::Text("5"), Affinity::kBlob, Value::Text("5")},
      {Value::Integer(5), Affinity::kBlob, Value::Integer(5)},
      {Value::Null(), Affinity::kInteger, Value::Null()},
  };
  for (const Case& c : cases) {
    const Value got = ApplyAffinity(c.in, c.affinity, arena);
    EXPECT_TRUE(SameValue(got, c.out))
        << Describe(c.in) << " as " << AffinityName(c.affinity) << ": " << Describe(got);
  }
}

TEST(AffinityTest, ComparisonAffinityRules) {
  using A = Affinity;
  EXPECT_EQ(ComparisonAffinity(A::kInteger, A::kText), A::kNumeric);
  EXPECT_EQ(ComparisonAffinity(A::kText, A::kBlob), A::kBlob);
  EXPECT_EQ(ComparisonAffinity(A::kText, A::kText), A::kBlob);
  EXPECT_EQ(ComparisonAffinity(A::kText, A::kNone), A::kText);
  EXPECT_EQ(ComparisonAffinity(A::kNone, A::kReal), A::kReal);
  EXPECT_EQ(ComparisonAffinity(A::kBlob, A::kNone), A::kBlob);
  EXPECT_EQ(ComparisonAffinity(A::kNone, A::kNone), A::kNone);
  EXPECT_EQ(ComparisonAffinity(A::kBlob, A::kNumeric), A::kNumeric);
}

TEST(AffinityTest, ApplyingComparisonAffinity) {
  ValueArena arena;
  Value a = Value::Text(" 5 ");
  Value b = Value::Integer(5);
  ApplyComparisonAffinity(Affinity::kNumeric, &a, &b, arena);
  EXPECT_TRUE(SameValue(a, Value::Integer(5)));
  a = Value::Integer(5);
  b = Value::Text("5");
  ApplyComparisonAffinity(Affinity::kText, &a, &b, arena);
  EXPECT_TRUE(SameValue(a, Value::Text("5")));
  a = Value::Text("1e3");
  b = Value::Integer(1000);
  ApplyComparisonAffinity(Affinity::kNone, &a, &b, arena);
  EXPECT_TRUE(SameValue(a, Value::Text("1e3")));
  // Comparisons do not turn reals into integers.
  a = Value::Text("2.0");
  ApplyComparisonAffinity(Affinity::kReal, &a, &b, arena);
  EXPECT_TRUE(SameValue(a, Value::Real(2.0)));
}

}  // namespace
}  // namespace engine::func
