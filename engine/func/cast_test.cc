#include "engine/func/cast.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/func/sqlite_eval_test_util.h"

namespace engine::func {
namespace {

using testing::Describe;
using testing::SameValue;

struct CastCase {
  Value in;
  const char* type;
  Value out;
};

TEST(CastTest, CastsAsSqliteDoes) {
  ValueArena arena;
  const char blob[] = {'1', '2'};
  const CastCase cases[] = {
      {Value::Text("1e3"), "INTEGER", Value::Integer(1)},
      {Value::Text(" 12abc"), "REAL", Value::Real(12.0)},
      {Value::Text("abc"), "REAL", Value::Real(0.0)},
      {Value::Text("abc"), "INTEGER", Value::Integer(0)},
      {Value::Text("3.0"), "NUMERIC", Value::Integer(3)},
      {Value::Text("3.5"), "NUMERIC", Value::Real(3.5)},
      {Value::Text("1e3"), "NUMERIC", Value::Integer(1000)},
      {Value::Text("12abc"), "NUMERIC", Value::Integer(12)},
      {Value::Text("9223372036854775808"), "NUMERIC", Value::Real(9223372036854775808.0)},
      {Value::Text("99999999999999999999"), "INTEGER", Value::Integer(INT64_MAX)},
      {Value::Real(3.0), "NUMERIC", Value::Real(3.0)},
      {Value::Real(3.9), "INTEGER", Value::Integer(3)},
      {Value::Real(-3.9), "INTEGER", Value::Integer(-3)},
      {Value::Real(1e30), "INTEGER", Value::Integer(INT64_MAX)},
      {Value::Integer(5), "REAL", Value::Real(5.0)},
      {Value::Integer(5), "TEXT", Value::Text("5")},
      {Value::Real(1.0), "VARCHAR(3)", Value::Text("1.0")},
      {Value::Integer(5), "BLOB", Value::Blob("5", 1)},
      {Value::Blob(blob, 2), "TEXT", Value::Text("12")},
      {Value::Blob(blob, 2), "INTEGER", Value::Integer(12)},
      {Value::Blob(blob, 2), "NUMERIC", Value::Integer(12)},
      {Value::Null(), "INTEGER", Value::Null()},
      {Value::Text("x"), "BOOLEAN", Value::Integer(0)},
  };
  for (const CastCase& c : cases) {
    const Value got = CastValue(c.in, c.type, arena);
    EXPECT_TRUE(SameValue(got, c.out))
        << "CAST(" << Describe(c.in) << " AS " << c.type << ") = " << Describe(got);
  }
}

TEST(CastTest, ImplicitConversions) {
  EXPECT_EQ(IntValue(Value::Text("  -12xyz")), -12);
  EXPECT_EQ(IntValue(Value::Real(-0.5)), 0);
  EXPECT_EQ(IntValue(Value::Real(1e300)), INT64_MAX);
  EXPECT_EQ(IntValue(Value::Null()), 0);
  EXPECT_EQ(RealValue(Value::Text("1.5e1x")), 15.0);
  EXPECT_EQ(RealValue(Value::Integer(3)), 3.0);
  EXPECT_TRUE(IsTrue(Value::Text("0.5")));
  EXPECT_FALSE(IsTrue(Value::Text("abc")));
  EXPECT_FALSE(IsTrue(Value::Real(0.0)));
  EXPECT_TRUE(IsTrue(Value::Integer(-1)));
  EXPECT_TRUE(SameValue(IntegerAffinity(Value::Real(2.0)), Value::Integer(2)));
  EXPECT_TRUE(SameValue(IntegerAffinity(Value::Real(2.5)), Value::Real(2.5)));
  EXPECT_TRUE(SameValue(IntegerAffinity(Value::Real(9223372036854775807.0)),
                        Value::Real(9223372036854775807.0)));
  EXPECT_TRUE(RealSameAsInt(0.0, 0));
  EXPECT_FALSE(RealSameAsInt(1.5, 1));
  EXPECT_EQ(RealToInt64(std::nan("")), 0);
}

// Every literal kind through every cast, against sqlite3.
TEST(CastTest, CastsMatchSqlite) {
  const char* literals[] = {"'12'",
                            "' 12 '",
                            "'1e3'",
                            "'12abc'",
                            "'abc'",
                            "''",
                            "'0x10'",
                            "'-0'",
                            "'1.5'",
                            "'9223372036854775808'",
                            "'-9223372036854775809'",
                            "'  -3.5e2  '",
                            "'+7'",
                            "'.5'",
                            "'5.'",
                            "'1e'",
                            "'1e400'",
                            "'12.0'",
                            "'1.0e+20'",
                            "0",
                            "-7",
                            "9223372036854775807",
                            "(-9223372036854775808)",
                            "1.5",
                            "(-2.5)",
                            "1e20",
                            "3.0",
                            "1e-7",
                            "x'3132'",
                            "x''",
                            "x'00'",
                            "x'2035'",
                            "NULL",
                            "'\t5\n'",
                            "'4503599627370496.5'",
                            "'2251799813685248'",
                            "'2251799813685247.0'"};
  const char* types[] = {"INTEGER", "TEXT",   "REAL",       "NUMERIC", "BLOB",
                         "INT",     "DOUBLE", "VARCHAR(2)", "DECIMAL", "FOO"};
  testing::OracleDb db;
  ValueArena arena;
  for (const char* lit : literals) {
    const testing::OracleValue in = db.Eval(lit);
    ASSERT_TRUE(in.ok) << lit;
    for (const char* type : types) {
      const std::string sql = std::string("CAST(") + lit + " AS " + type + ")";
      const testing::OracleValue expected = db.Eval(sql);
      ASSERT_TRUE(expected.ok) << sql;
      const Value got = CastValue(in.value(), type, arena);
      EXPECT_TRUE(SameValue(got, expected.value()))
          << sql << ": ours " << Describe(got) << ", sqlite " << Describe(expected.value());
    }
  }
}

}  // namespace
}  // namespace engine::func
