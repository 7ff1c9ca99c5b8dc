#include "engine/slt/result_format.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace engine::slt {
namespace {

TEST(ResultFormatTest, NullAndEmpty) {
  for (char type : {'I', 'R', 'T'}) EXPECT_EQ(FormatValue(Value{}, type), "NULL");
  EXPECT_EQ(FormatValue(std::string(), 'T'), "(empty)");
  EXPECT_EQ(FormatValue(std::string("NULL"), 'T'), "NULL");
}

TEST(ResultFormatTest, IntegerColumns) {
  EXPECT_EQ(FormatValue(int64_t{-42}, 'I'), "-42");
  EXPECT_EQ(FormatValue(2.9, 'I'), "2");
  EXPECT_EQ(FormatValue(-2.9, 'I'), "-2");
  EXPECT_EQ(FormatValue(1e30, 'I'), "9223372036854775807");
  EXPECT_EQ(FormatValue(-1e30, 'I'), "-9223372036854775808");
  EXPECT_EQ(FormatValue(std::string(" 12abc"), 'I'), "12");
  EXPECT_EQ(FormatValue(std::string("abc"), 'I'), "0");
  EXPECT_EQ(FormatValue(std::string("-99999999999999999999"), 'I'), "-9223372036854775808");
}

TEST(ResultFormatTest, RealColumns) {
  EXPECT_EQ(FormatValue(1.5, 'R'), "1.500");
  EXPECT_EQ(FormatValue(int64_t{7}, 'R'), "7.000");
  EXPECT_EQ(FormatValue(-0.0, 'R'), "0.000");
  EXPECT_EQ(FormatValue(-0.0001, 'R'), "-0.000");
  EXPECT_EQ(FormatValue(0.0625, 'R'), "0.063");  // SQLite rounds ties up
  EXPECT_EQ(FormatValue(12345678901234567890.0, 'R'), "12345678901234560000.000");
  EXPECT_EQ(FormatValue(std::numeric_limits<double>::infinity(), 'R'), "Inf");
  EXPECT_EQ(FormatValue(std::string("1.5e2x"), 'R'), "150.000");
}

TEST(ResultFormatTest, TextColumns) {
  EXPECT_EQ(FormatValue(int64_t{5}, 'T'), "5");
  EXPECT_EQ(FormatValue(1.0, 'T'), "1.0");
  EXPECT_EQ(FormatValue(0.1, 'T'), "0.1");
  EXPECT_EQ(FormatValue(1e20, 'T'), "1.0e+20");
  EXPECT_EQ(FormatValue(std::string("tab\there"), 'T'), "tab@here");
  EXPECT_EQ(FormatValue(std::string("caf\xc3\xa9"), 'T'), "caf@@");
  EXPECT_EQ(FormatValue(std::string("a\0b", 3), 'T'), "a");
  EXPECT_EQ(FormatValue(std::string("~ !"), 'T'), "~ !");
}

TEST(ResultFormatTest, Sorting) {
  std::vector<std::vector<Value>> rows = {{int64_t{10}, std::string("b")},
                                          {int64_t{9}, std::string("a")},
                                          {int64_t{10}, std::string("a")},
                                          {Value{}, std::string("z")}};
  EXPECT_EQ(FormatResult(rows, "IT", SortMode::kNoSort),
            (std::vector<std::string>{"10", "b", "9", "a", "10", "a", "NULL", "z"}));
  // Rows compare as strings, column by column: "10" < "9" < "NULL".
  EXPECT_EQ(FormatResult(rows, "IT", SortMode::kRowSort),
            (std::vector<std::string>{"10", "a", "10", "b", "9", "a", "NULL", "z"}));
  EXPECT_EQ(FormatResult(rows, "IT", SortMode::kValueSort),
            (std::vector<std::string>{"10", "10", "9", "NULL", "a", "a", "b", "z"}));
  EXPECT_TRUE(FormatResult({}, "I", SortMode::kRowSort).empty());
  // Bytes compare unsigned, as strcmp does.
  std::vector<std::string> v = {"\x7f", "\x80", "A"};
  SortResult(v, 1, SortMode::kValueSort);
  EXPECT_EQ(v, (std::vector<std::string>{"A", "\x7f", "\x80"}));
}

// The conversions must be those of the real sqlite3_column_* accessors that
// sqllogictest's SQLite driver calls.
class SqliteColumn {
 public:
  SqliteColumn() {
    sqlite3_open(":memory:", &db_);
    sqlite3_prepare_v2(db_, "SELECT ?", -1, &stmt_, nullptr);
  }
  ~SqliteColumn() {
    sqlite3_finalize(stmt_);
    sqlite3_close(db_);
  }
  SqliteColumn(const SqliteColumn&) = delete;
  SqliteColumn& operator=(const SqliteColumn&) = delete;

  // What slt_sqlite.c prints for `v` in a column of `type`.
  std::string Format(const Value& v, char type) {
    sqlite3_reset(stmt_);
    if (auto* i = std::get_if<int64_t>(&v)) sqlite3_bind_int64(stmt_, 1, *i);
    if (auto* r = std::get_if<double>(&v)) sqlite3_bind_double(stmt_, 1, *r);
    if (auto* s = std::get_if<std::string>(&v)) {
      sqlite3_bind_text(stmt_, 1, s->data(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
    }
    if (std::holds_alternative<std::monostate>(v)) sqlite3_bind_null(stmt_, 1);
    sqlite3_step(stmt_);
    if (sqlite3_column_type(stmt_, 0) == SQLITE_NULL) return "NULL";
    char* z = nullptr;
    switch (type) {
      case 'I':
        z = sqlite3_mprintf("%lld", sqlite3_column_int64(stmt_, 0));
        break;
      case 'R':
        z = sqlite3_mprintf("%.3f", sqlite3_column_double(stmt_, 0));
        break;
      default: {
        std::string text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, 0));
        if (text.empty()) return "(empty)";
        for (char& c : text) {
          if (c < ' ' || c > '~') c = '@';
        }
        return text;
      }
    }
    std::string out(z);
    sqlite3_free(z);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

TEST(ResultFormatTest, MatchesSqliteAccessorsOnRandomValues) {
  SqliteColumn oracle;
  std::mt19937_64 rng(4242);
  std::vector<Value> values = {Value{},
                               int64_t{0},
                               std::numeric_limits<int64_t>::min(),
                               std::numeric_limits<int64_t>::max(),
                               0.0625,
                               2.5,
                               -2.5,
                               1e15,
                               123456789.0125,
                               9.2233720368547758e18,
                               1e-300,
                               5e-4,
                               0.0005,
                               std::string("  -12.5e1abc"),
                               std::string("0x10"),
                               std::string("+7"),
                               std::string("- 3"),
                               std::string(".e5")};
  for (int i = 0; i < 3000; ++i) {
    switch (rng() % 6) {
      case 0:
        values.emplace_back(static_cast<int64_t>(rng()));
        break;
      case 1:
        values.emplace_back(static_cast<int64_t>(rng() % 2001) - 1000);
        break;
      case 2:
        values.emplace_back(static_cast<double>(static_cast<int64_t>(rng() % 200001) - 100000) /
                            16.0);
        break;
      case 3: {
        double d;
        uint64_t bits = rng();
        std::memcpy(&d, &bits, sizeof d);
        if (std::isnan(d)) d = 1.25;
        values.emplace_back(d);
        break;
      }
      case 4:
        values.emplace_back(
            std::ldexp(static_cast<double>(rng() % 1000000), static_cast<int>(rng() % 80) - 20));
        break;
      default: {
        std::string s;
        const char kChars[] = " -+.e0123456789x\t\x01\xc3\xa9";
        for (int n = static_cast<int>(rng() % 8); n > 0; --n)
          s += kChars[rng() % (sizeof(kChars) - 1)];
        values.emplace_back(s);
      }
    }
  }
  for (const Value& v : values) {
    for (char type : {'I', 'R', 'T'}) {
      EXPECT_EQ(FormatValue(v, type), oracle.Format(v, type))
          << "type " << type << " value #" << (&v - values.data());
    }
  }
}

}  // namespace
}  // namespace engine::slt
