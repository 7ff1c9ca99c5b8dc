#include "engine/func/text_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "engine/func/sqlite_eval_test_util.h"

namespace engine::func {
namespace {

TEST(TextFormatTest, RealsRenderAsSqliteDoes) {
  struct Case {
    double value;
    const char* text;
  };
  const Case cases[] = {
      {1.0, "1.0"},
      {0.1, "0.1"},
      {1e20, "1.0e+20"},
      {1.0 / 3, "0.333333333333333"},
      {-2.5, "-2.5"},
      {0.0, "0.0"},
      {100.0, "100.0"},
      {1e15, "1.0e+15"},
      {123456789012345.0, "123456789012345.0"},
      {1e-5, "1.0e-05"},
      {0.0001, "0.0001"},
      {1.5e300, "1.5e+300"},
      {9223372036854775807.0, "9.22337203685478e+18"},
      {std::numeric_limits<double>::infinity(), "Inf"},
      {-std::numeric_limits<double>::infinity(), "-Inf"},
      {5e-324, "4.94065645841247e-324"},
      {2.675, "2.675"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RealToText(c.value), c.text) << c.text;
  }
}

TEST(TextFormatTest, IntegersRenderInDecimal) {
  EXPECT_EQ(IntegerToText(0), "0");
  EXPECT_EQ(IntegerToText(-42), "-42");
  EXPECT_EQ(IntegerToText(INT64_MIN), "-9223372036854775808");
  EXPECT_EQ(IntegerToText(INT64_MAX), "9223372036854775807");
}

TEST(TextFormatTest, AtoFReturnCodesAndValues) {
  struct Case {
    const char* text;
    int rc;
    double value;
  };
  const Case cases[] = {
      {"12", 1, 12.0},
      {" 12 ", 1, 12.0},
      {"1e3", 2, 1000.0},
      {"1.5", 2, 1.5},
      {"1.5e2", 3, 150.0},
      {"+7", 1, 7.0},
      {"-0", 1, -0.0},
      {".5", 2, 0.5},
      {"5.", 2, 5.0},
      {"12abc", 0, 12.0},
      {"1.5x", -1, 1.5},
      {"abc", 0, 0.0},
      {"", 0, 0.0},
      {"   ", 0, 0.0},
      {"1e", 0, 1.0},
      {"1e+", 0, 1.0},
      {"e5", 0, 0.0},
      {"0x10", 0, 0.0},
      {"1e400", 2, HUGE_VAL},
      {"-1e400", 2, -HUGE_VAL},
      {"\t5\n", 1, 5.0},
      {"1.0e+20", 3, 1e20},
      {"9223372036854775808", 1, 9223372036854775808.0},
  };
  for (const Case& c : cases) {
    double r = -99;
    EXPECT_EQ(AtoF(c.text, &r), c.rc) << "'" << c.text << "'";
    EXPECT_EQ(r, c.value) << "'" << c.text << "'";
  }
}

TEST(TextFormatTest, Atoi64ReturnCodesAndValues) {
  struct Case {
    const char* text;
    int rc;
    int64_t value;
  };
  const Case cases[] = {
      {"12", 0, 12},
      {" 12 ", 0, 12},
      {"12abc", 1, 12},
      {"1e3", 1, 1},
      {"abc", -1, 0},
      {"", -1, 0},
      {"-", -1, 0},
      {"-9223372036854775808", 0, INT64_MIN},
      {"9223372036854775807", 0, INT64_MAX},
      {"9223372036854775808", 3, INT64_MAX},
      {"-9223372036854775809", 2, INT64_MIN},
      {"99999999999999999999999", 2, INT64_MAX},
      {"000000000000000000000012", 0, 12},
      {"+5", 0, 5},
      {"0x10", 1, 0},
  };
  for (const Case& c : cases) {
    int64_t v = -99;
    EXPECT_EQ(Atoi64(c.text, &v), c.rc) << "'" << c.text << "'";
    EXPECT_EQ(v, c.value) << "'" << c.text << "'";
  }
}

TEST(TextFormatTest, ShellListModeOutput) {
  std::string out;
  AppendShellValue(Value::Null(), &out);
  EXPECT_EQ(out, "");
  AppendShellValue(Value::Integer(-3), &out);
  out += "|";
  AppendShellValue(Value::Real(2.0), &out);
  out += "|";
  AppendShellValue(Value::Text("ab"), &out);
  out += "|";
  const char blob[] = {'x', 0, 'y'};
  AppendShellValue(Value::Blob(blob, 3), &out);
  EXPECT_EQ(out, "-3|2.0|ab|x");
}

TEST(TextFormatTest, ValueToTextRendersIntoTheArena) {
  ValueArena arena;
  EXPECT_EQ(ValueToText(Value::Integer(5), arena).as_text(), "5");
  EXPECT_EQ(ValueToText(Value::Real(0.5), arena).as_text(), "0.5");
  EXPECT_TRUE(ValueToText(Value::Null(), arena).is_null());
  const char b[] = {'h', 'i'};
  const Value t = ValueToText(Value::Blob(b, 2), arena);
  EXPECT_EQ(t.type(), ValueType::kText);
  EXPECT_EQ(t.as_text(), "hi");
}

TEST(TextFormatTest, PrintfFloatConversions) {
  struct Case {
    double v;
    char conv;
    int precision;
    bool alt2;
    const char* text;
  };
  const Case cases[] = {
      {2.675, 'f', 2, false, "2.68"},
      {1.0, 'f', 0, false, "1"},
      {1234.5, 'e', 6, false, "1.234500e+03"},
      {0.00001234, 'G', 6, false, "1.234E-05"},
      {1.0, 'f', 2, true, "1.0"},
      {0.5, 'g', 6, false, "0.5"},
  };
  for (const Case& c : cases) {
    FloatFormat f;
    f.conversion = c.conv;
    f.precision = c.precision;
    f.alt_form2 = c.alt2;
    std::string out;
    AppendFloat(c.v, f, &out);
    EXPECT_EQ(out, c.text);
  }
}

// Thousands of doubles of every magnitude rendered by us and by sqlite3.
TEST(TextFormatTest, RealRenderingMatchesSqlite) {
  testing::OracleDb db;
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(
      sqlite3_prepare_v2(db.get(), "SELECT CAST(?1 AS TEXT), printf('%.3f|%e|%g', ?1, ?1, ?1)", -1,
                         &stmt, nullptr),
      SQLITE_OK);
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; i++) {
    double v;
    if (i % 3 == 0) {
      uint64_t bits = rng();
      std::memcpy(&v, &bits, sizeof(v));
      if (std::isnan(v)) continue;
    } else {
      v = static_cast<double>(static_cast<int64_t>(rng() % 2000001) - 1000000) /
          std::pow(10.0, static_cast<double>(rng() % 12));
    }
    sqlite3_bind_double(stmt, 1, v);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    const std::string expected(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    ASSERT_EQ(RealToText(v), expected) << "value %.17g " << v;
    std::string ours;
    FloatFormat f;
    f.conversion = 'f';
    f.precision = 3;
    AppendFloat(v, f, &ours);
    ours += "|";
    f.conversion = 'e';
    f.precision = -1;
    AppendFloat(v, f, &ours);
    ours += "|";
    f.conversion = 'g';
    AppendFloat(v, f, &ours);
    const std::string expected_printf(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1)));
    ASSERT_EQ(ours, expected_printf) << "value " << v;
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
}

// Text -> REAL and text -> INTEGER conversions of generated numeric-ish
// strings, against CAST in sqlite3.
TEST(TextFormatTest, ParsingMatchesSqlite) {
  testing::OracleDb db;
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.get(), "SELECT CAST(?1 AS REAL), CAST(?1 AS INTEGER)", -1, &stmt,
                               nullptr),
            SQLITE_OK);
  std::mt19937_64 rng(7);
  const char* pieces[] = {"0", "1", "9", "5",  "12345", "999999999", ".",   "e",   "E",  "-",
                          "+", " ", "x", "00", "7",     "e-",        "e+3", "308", "400"};
  for (int i = 0; i < 20000; i++) {
    std::string s;
    const int n = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < n; k++) s += pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
    sqlite3_bind_text(stmt, 1, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    double r;
    AtoF(s, &r);
    int64_t v;
    Atoi64(s, &v);
    const double expected_r = sqlite3_column_double(stmt, 0);
    ASSERT_TRUE(r == expected_r || (std::isnan(r) && std::isnan(expected_r))) << "'" << s << "'";
    ASSERT_EQ(v, sqlite3_column_int64(stmt, 1)) << "'" << s << "'";
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
}

}  // namespace
}  // namespace engine::func
