#include "engine/func/sql_printf.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/func/cast.h"
#include "engine/func/sqlite_eval_test_util.h"

namespace engine::func {
namespace {

std::string Format(const char* fmt, std::vector<Value> args, bool* produced = nullptr) {
  std::string out;
  const bool p = SqlPrintf(fmt, args.data(), static_cast<int>(args.size()), &out);
  if (produced != nullptr) *produced = p;
  return out;
}

TEST(SqlPrintfTest, ConversionsTable) {
  EXPECT_EQ(Format("%d|%5d|%-5d|%05d", {Value::Integer(42), Value::Integer(42), Value::Integer(42),
                                        Value::Integer(-42)}),
            "42|   42|42   |-0042");
  EXPECT_EQ(Format("%s and %s", {Value::Text("a")}), "a and ");
  EXPECT_EQ(Format("%.2f|%10.4f|%.0f", {Value::Real(3.14159), Value::Real(2.5), Value::Real(2.5)}),
            "3.14|    2.5000|3");
  EXPECT_EQ(Format("%x|%X|%#x|%o|%#o", {Value::Integer(255), Value::Integer(255),
                                        Value::Integer(255), Value::Integer(8), Value::Integer(8)}),
            "ff|FF|0xff|10|010");
  EXPECT_EQ(Format("%%|%c|%q|%Q|%Q|%w", {Value::Text("xyz"), Value::Text("it's"),
                                         Value::Text("a'b"), Value::Null(), Value::Text("a\"b")}),
            "%|x|it''s|'a''b'|NULL|a\"\"b");
  EXPECT_EQ(Format("%,d|%r|%r|%r|%r", {Value::Integer(1234567), Value::Integer(1),
                                       Value::Integer(2), Value::Integer(13), Value::Integer(23)}),
            "1,234,567|1st|2nd|13th|23rd");
  EXPECT_EQ(Format("%d", {Value::Text("12abc")}), "12");
  EXPECT_EQ(Format("%*d|%-*d|",
                   {Value::Integer(4), Value::Integer(7), Value::Integer(3), Value::Integer(1)}),
            "   7|1  |");
  EXPECT_EQ(Format("%!.3s|%.3s", {Value::Text("h\xc3\xa9llo"), Value::Text("h\xc3\xa9llo")}),
            "h\xc3\xa9l|h\xc3\xa9");
  EXPECT_EQ(Format("%e|%g|%G", {Value::Real(1234.5), Value::Real(0.0001), Value::Real(1e-5)}),
            "1.234500e+03|0.0001|1E-05");
  EXPECT_EQ(Format("abc%", {}), "abc%");
}

TEST(SqlPrintfTest, NothingProducedMeansNull) {
  bool produced = true;
  Format("", {}, &produced);
  EXPECT_FALSE(produced);
  Format("%y", {}, &produced);
  EXPECT_FALSE(produced);
  EXPECT_EQ(Format("a%yb", {}, &produced), "a");
  EXPECT_TRUE(produced);
  EXPECT_EQ(Format("%s", {Value::Text("")}, &produced), "");
  EXPECT_TRUE(produced);
}

// printf() over many formats and argument kinds, against sqlite3.
TEST(SqlPrintfTest, MatchesSqlite) {
  const char* formats[] = {
      "%d",    "%i",    "%u",    "%5d",   "%-5d|",  "%05d",     "%+d",     "% d",   "%,d",
      "%x",    "%X",    "%#x",   "%o",    "%#o",    "%5.3d",    "%s",      "%10s|", "%-10s|",
      "%.2s",  "%!.2s", "%5c",   "%-3c|", "%.3c",   "%q",       "%Q",      "%w",    "%f",
      "%.0f",  "%.1f",  "%.2f",  "%.15f", "%10.3f", "%-10.3f|", "%010.3f", "%+.2f", "%e",
      "%.0e",  "%E",    "%#.0e", "%g",    "%.3g",   "%#g",      "%G",      "%!g",   "%!.20e",
      "%.50f", "%r",    "%lld",  "%p",    "%z",     "%.*f",     "%*.*f",   "%%",    "%n"};
  const char* args[] = {"0",
                        "1",
                        "-1",
                        "42",
                        "-42",
                        "255",
                        "1234567",
                        "9223372036854775807",
                        "(-9223372036854775808)",
                        "0.5",
                        "2.5",
                        "3.14159",
                        "(-2.675)",
                        "1e20",
                        "1e-10",
                        "123456.789",
                        "'abc'",
                        "'h\xc3\xa9llo'",
                        "'it''s'",
                        "''",
                        "NULL",
                        "'12abc'",
                        "x'41'",
                        "1e300",
                        "0.1",
                        "(-0.0)",
                        "99.995"};
  testing::OracleDb db;
  ValueArena arena;
  for (const char* fmt : formats) {
    for (const char* arg : args) {
      const testing::OracleValue in = db.Eval(arg);
      ASSERT_TRUE(in.ok);
      // Widths and precisions are capped at 100000 here, not in SQLite.
      const int64_t star = static_cast<int32_t>(IntValue(in.value()));
      if (std::string(fmt).find('*') != std::string::npos && (star > 1000 || star < -1000)) {
        continue;
      }
      const std::string sql =
          std::string("printf('") + fmt + "', " + arg + ", " + arg + ", " + arg + ")";
      const testing::OracleValue expected = db.Eval(sql);
      ASSERT_TRUE(expected.ok) << sql;
      const Value v = in.value();
      const Value argv[] = {v, v, v};
      std::string out;
      const bool produced = SqlPrintf(fmt, argv, 3, &out);
      if (expected.type == ValueType::kNull) {
        EXPECT_FALSE(produced) << sql;
      } else {
        EXPECT_EQ(out, expected.bytes) << sql;
      }
    }
  }
}

}  // namespace
}  // namespace engine::func
