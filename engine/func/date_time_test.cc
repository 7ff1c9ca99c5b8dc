#include "engine/func/date_time.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/func/scalar_functions.h"
#include "engine/func/sqlite_eval_test_util.h"
#include "engine/statement.h"
#include "engine/testing/temp_dir.h"

namespace engine::func {
namespace {

using testing::Describe;
using testing::OracleDb;
using testing::SameValue;

// Evaluates `call` (a function call over SQL literals) with our function
// and with sqlite3, and compares value and type (REALs to the bit).
class DateTimeOracle {
 public:
  // The literal's value as sqlite3 computes it.
  Value Literal(const std::string& sql) {
    const testing::OracleValue v = db_.Eval(sql);
    EXPECT_TRUE(v.ok) << sql;
    held_.push_back(v);
    return held_.back().value();
  }

  void Check(const std::string& name, const std::vector<std::string>& args) {
    std::string sql = name + "(";
    std::vector<Value> values;
    held_.clear();
    held_.reserve(args.size());
    for (size_t i = 0; i < args.size(); i++) {
      sql += (i ? ", " : "") + args[i];
      values.push_back(Literal(args[i]));
    }
    sql += ")";
    const ScalarFunction* f = FindScalarFunction(name, static_cast<int>(args.size()));
    ASSERT_NE(f, nullptr) << sql;
    const testing::OracleValue expected = db_.Eval(sql);
    arena_.Reset();
    Value got;
    const Status st = f->fn(values.data(), static_cast<int>(values.size()), arena_, &got);
    ++checked_;
    if (!expected.ok) {
      EXPECT_FALSE(st.ok()) << sql << ": sqlite fails with " << expected.error;
      if (!st.ok()) {
        EXPECT_EQ(st.message(), expected.error) << sql;
      }
      return;
    }
    ASSERT_TRUE(st.ok()) << sql << ": " << st.message();
    EXPECT_TRUE(SameValue(got, expected.value()))
        << sql << ": ours " << Describe(got) << ", sqlite " << Describe(expected.value());
  }

  int checked() const { return checked_; }

 private:
  OracleDb db_;
  ValueArena arena_;
  std::vector<testing::OracleValue> held_;
  int checked_ = 0;
};

// Time values in every form SQLite reads, and near misses it rejects.
const std::vector<std::string> kTimeValues = {
    "'2023-07-04'",
    "'2023-07-04 13:14'",
    "'2023-07-04 13:14:15'",
    "'2023-07-04 13:14:15.678'",
    "'2023-07-04T13:14:15.6789'",
    "'2023-07-04 13:14:15.9999'",
    "'2023-07-04 13:14:15.0005'",
    "'2023-07-04 23:59:59.9996'",
    "'2023-07-04 13:14:15+05:30'",
    "'2023-07-04 13:14:15 -14:00'",
    "'2023-07-04 13:14Z'",
    "'2023-07-04 13:14:15.5z '",
    "'2023-07-04 13:14:15+15:00'",
    "'2023-07-04TT13:14'",
    "' 2023-07-04'",
    "'2023-07-04 '",
    "'2023-7-04'",
    "'2023-02-29'",
    "'2024-02-29 12:00'",
    "'2023-02-31'",
    "'2023-13-01'",
    "'2023-00-10'",
    "'0000-01-01'",
    "'0000-03-01 00:00:00'",
    "'-0001-12-31 23:59:59'",
    "'-4713-11-24 12:00:00'",
    "'-4713-11-24 11:59:59'",
    "'9999-12-31 23:59:59.999'",
    "'1582-10-10'",
    "'1900-02-28 23:00'",
    "'2000-02-29'",
    "'1970-01-01'",
    "'13:14'",
    "'13:14:15.25'",
    "'24:00'",
    "'24:59:59'",
    "'25:00'",
    "'12:60'",
    "'12:00 +01:00'",
    "'12:00:00.1234567'",
    "'2451545'",
    "' 2451545.25 '",
    "'1e6'",
    "'0x10'",
    "'abc'",
    "''",
    "'2023-07-04 13:14 x'",
    "2451545",
    "2451545.5",
    "2460130.999999",
    "0",
    "0.0001",
    "-1",
    "-0.5",
    "5373484.4999",
    "5373484.5",
    "1688476455",
    "1e10",
    "-1e10",
    "253402300799",
    "NULL",
    "x'323032332d30372d3034'",
    "x'00'",
};

// Every modifier form, in range and out of it.
const std::vector<std::string> kModifiers = {
    "'+1 day'",
    "'-1 days'",
    "'+1.5 days'",
    "'1. days'",
    "'.5 days'",
    "'+1e1 days'",
    "'  +1 days'",
    "'+1  DAYS'",
    "'+1 da'",
    "'+1 dayss'",
    "'+36 hours'",
    "'-90 minutes'",
    "'+0.5 minutes'",
    "'+3600.25 seconds'",
    "'-0.0005 seconds'",
    "'+0.0015 seconds'",
    "'+1 month'",
    "'-1 month'",
    "'+13 months'",
    "'-25 months'",
    "'+1.5 months'",
    "'-0.5 months'",
    "'+176545 months'",
    "'+1 year'",
    "'-1 years'",
    "'+2.25 years'",
    "'+14712 years'",
    "'-10000 years'",
    "'+5373484 days'",
    "'-2460000 days'",
    "'+01:30'",
    "'-01:30'",
    "'+12:30:15.5'",
    "'-23:59:59.999'",
    "'+1:30'",
    "'+25:00'",
    "'+01:30 +02:00'",
    "'start of day'",
    "'start of month'",
    "'START OF YEAR'",
    "'start of week'",
    "'start of  day'",
    "'weekday 0'",
    "'weekday 3'",
    "'weekday 6'",
    "'weekday 7'",
    "'weekday 1.5'",
    "'weekday  2'",
    "'unixepoch'",
    "'julianday'",
    "'auto'",
    "'AUTO'",
    "'subsec'",
    "'garbage'",
    "''",
    "NULL",
    "5",
    "x'2b312064617973'",
};

const std::vector<std::string> kFormats = {
    "'%Y-%m-%d %H:%M:%S'",
    "'%f'",
    "'%j %J'",
    "'%s'",
    "'%w %W'",
    "'%%d %d'",
    "'%S.%f|%M'",
    "'%Y'",
    "'literal text'",
    "''",
    "'%'",
    "'abc%'",
    "'%e'",
    "'%u'",
    "'%H%k'",
    "NULL",
    "12",
};

const char* const kFunctions[] = {"date", "time", "datetime", "julianday", "unixepoch"};

TEST(DateTimeTest, TimeValuesMatchSqlite) {
  DateTimeOracle oracle;
  for (const std::string& v : kTimeValues) {
    for (const char* f : kFunctions) oracle.Check(f, {v});
  }
  EXPECT_GT(oracle.checked(), 300);
}

TEST(DateTimeTest, ModifiersMatchSqlite) {
  DateTimeOracle oracle;
  for (const std::string& v : kTimeValues) {
    for (const std::string& m : kModifiers) {
      oracle.Check("datetime", {v, m});
      oracle.Check("julianday", {v, m});
    }
  }
  EXPECT_GT(oracle.checked(), 7000);
}

TEST(DateTimeTest, FormatsMatchSqlite) {
  DateTimeOracle oracle;
  for (const std::string& f : kFormats) {
    for (const std::string& v : kTimeValues) oracle.Check("strftime", {f, v});
    oracle.Check("strftime", {f, "'2023-07-04'", "'+1 month'", "'weekday 0'"});
  }
  oracle.Check("strftime", {});
  EXPECT_GT(oracle.checked(), 1000);
}

// Chains of modifiers: 'unixepoch' / 'julianday' / 'auto' only right after
// the value, month arithmetic on normalised dates, errors half way.
TEST(DateTimeTest, ModifierChainsMatchSqlite) {
  DateTimeOracle oracle;
  std::mt19937_64 rng(14);
  for (int i = 0; i < 3000; i++) {
    std::vector<std::string> args;
    args.push_back(kTimeValues[rng() % kTimeValues.size()]);
    const int n = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < n; k++) args.push_back(kModifiers[rng() % kModifiers.size()]);
    if (rng() % 3 == 0) {
      args.insert(args.begin(), kFormats[rng() % kFormats.size()]);
      oracle.Check("strftime", args);
    } else {
      oracle.Check(kFunctions[rng() % 5], args);
    }
  }
}

TEST(DateTimeTest, EdgeCases) {
  DateTimeOracle oracle;
  const std::vector<std::vector<std::string>> cases = {
      // Month-end overflow normalises through the day number.
      {"'2023-01-31'", "'+1 month'"},
      {"'2024-01-31'", "'+1 month'"},
      {"'2024-03-31'", "'-1 month'"},
      {"'2024-02-29'", "'+1 year'"},
      {"'2024-02-29'", "'-4 years'"},
      {"'2023-12-31'", "'+1 month'", "'start of month'"},
      // Leap years: century rules.
      {"'1900-02-28'", "'+1 day'"},
      {"'2000-02-28'", "'+1 day'"},
      {"'2100-02-28'", "'+1 day'"},
      // Bounds.
      {"'9999-12-31 23:59:59'", "'+1 second'"},
      {"'9999-12-31 23:59:59.999'", "'+0.001 seconds'"},
      {"'-4713-11-24 12:00:00'", "'-1 second'"},
      {"'0000-01-01'", "'-1 day'"},
      {"0", "'+0 days'"},
      {"-0.0001", "'+1 day'"},
      {"1e10", "'+1 day'"},
      {"1e10", "'unixepoch'"},
      {"-210866760000", "'unixepoch'"},
      {"-210866760001", "'unixepoch'"},
      {"253402300799.9", "'auto'"},
      {"2460000", "'+1 day'", "'julianday'"},
      {"'2460000'", "'julianday'"},
      // Weekday N: today when it already is that day.
      {"'2023-07-04'", "'weekday 2'"},
      {"'2023-07-04 23:59:59'", "'weekday 3'"},
      {"'2023-07-04'", "'weekday -0'"},
      // Chains long enough to overflow 64-bit milliseconds.
      std::vector<std::string>(24, "'+464000000000000 seconds'"),
      std::vector<std::string>(21, "'-464000000000000 seconds'"),
      // Fractional seconds: every digit counts until the day number.
      {"'2023-07-04 12:00:59.9995'"},
      {"'2023-07-04 12:00:00.00049'"},
  };
  for (auto c : cases) {
    if (c[0].find("seconds") != std::string::npos) c.insert(c.begin(), "'2000-01-01'");
    for (const char* f : kFunctions) oracle.Check(f, c);
    std::vector<std::string> with_format = c;
    with_format.insert(with_format.begin(), "'%Y-%m-%d %H:%M:%f %j %W %w %s %J'");
    oracle.Check("strftime", with_format);
  }
}

// Local time through the C library: the oracle runs in this process, so
// both sides see the same TZ. Moments before JD 0 included: there 3.40's
// 'utc' computes from states its range checks have wiped, with an error
// term that wraps at 32 bits, and the engine follows it.
TEST(DateTimeTest, LocaltimeAndUtcWithFixedZones) {
  const char* old = std::getenv("TZ");
  const std::string saved = old ? old : "";
  const std::vector<std::string> values = {"'2023-07-04 12:00'",
                                           "'2023-01-04 12:00'",
                                           "'2023-03-12 02:30'",
                                           "'2023-11-05 01:30'",
                                           "'2023-03-26 01:30'",
                                           "'1950-07-04 12:00'",
                                           "'1945-01-15 12:00'",
                                           "'2050-07-04 12:00'",
                                           "'2037-12-31 23:59:59.6'",
                                           "'-4713-11-24 12:00'",
                                           "'9999-12-31 23:00'",
                                           "'2023-07-04 12:00Z'",
                                           "'2023-07-04 12:00+02:00'",
                                           "1e10",
                                           "-1",
                                           "0",
                                           "'2023-07-04 12:00:00.75'"};
  const std::vector<std::vector<std::string>> chains = {{"'localtime'"},
                                                        {"'utc'"},
                                                        {"'localtime'", "'utc'"},
                                                        {"'utc'", "'utc'"},
                                                        {"'localtime'", "'localtime'"},
                                                        {"'utc'", "'+1 day'"},
                                                        {"'+1 day'", "'localtime'"},
                                                        {"'weekday 1'", "'localtime'"},
                                                        {"'LOCALTIME'", "'start of day'", "'utc'"}};
  for (const char* zone : {"UTC", "America/New_York", "Asia/Kolkata", "Europe/London",
                           "Australia/Lord_Howe", "Pacific/Chatham"}) {
    setenv("TZ", zone, 1);
    tzset();
    DateTimeOracle oracle;
    for (const std::string& v : values) {
      for (const auto& chain : chains) {
        std::vector<std::string> args = {v};
        args.insert(args.end(), chain.begin(), chain.end());
        oracle.Check("datetime", args);
        oracle.Check("julianday", args);
        args.insert(args.begin(), "'%f'");
        oracle.Check("strftime", args);
      }
    }
  }
  if (old) {
    setenv("TZ", saved.c_str(), 1);
  } else {
    unsetenv("TZ");
  }
  tzset();
}

// Random chains mixing 'localtime' and 'utc' with the other modifiers.
TEST(DateTimeTest, LocalModifierChainsMatchSqlite) {
  const char* old = std::getenv("TZ");
  const std::string saved = old ? old : "";
  std::vector<std::string> modifiers = kModifiers;
  for (int k = 0; k < 8; k++) {
    modifiers.push_back("'localtime'");
    modifiers.push_back("'utc'");
  }
  for (const char* zone : {"UTC", "America/New_York", "Asia/Kolkata", "Europe/London"}) {
    setenv("TZ", zone, 1);
    tzset();
    DateTimeOracle oracle;
    std::mt19937_64 rng(5);
    for (int i = 0; i < 2000; i++) {
      std::vector<std::string> args;
      args.push_back(kTimeValues[rng() % kTimeValues.size()]);
      for (int k = 1 + static_cast<int>(rng() % 4); k > 0; k--) {
        args.push_back(modifiers[rng() % modifiers.size()]);
      }
      oracle.Check(kFunctions[rng() % 5], args);
    }
  }
  if (old) {
    setenv("TZ", saved.c_str(), 1);
  } else {
    unsetenv("TZ");
  }
  tzset();
}

// Through SQL: 'now' holds for a whole execution, the keywords, DEFAULTs.
class DateTimeSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.file("t.db"));
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
  }
  std::vector<std::string> Rows(const std::string& sql) {
    std::vector<std::string> rows;
    auto stmt = db_->Prepare(sql);
    EXPECT_TRUE(stmt.ok()) << sql << ": " << stmt.status().ToString();
    if (!stmt.ok()) return rows;
    for (;;) {
      auto more = (*stmt)->Step();
      EXPECT_TRUE(more.ok()) << sql << ": " << more.status().ToString();
      if (!more.ok() || !*more) break;
      std::string row;
      for (int i = 0; i < (*stmt)->column_count(); i++) {
        if (i) row += "|";
        row += std::string((*stmt)->column_text(i));
      }
      rows.push_back(row);
    }
    return rows;
  }
  std::string Error(const std::string& sql) {
    auto stmt = db_->Prepare(sql);
    if (!stmt.ok()) return stmt.status().message();
    auto more = (*stmt)->Step();
    return more.ok() ? "" : more.status().message();
  }

  engine::testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(DateTimeSqlTest, NowHoldsForOneExecution) {
  ASSERT_TRUE(db_->Exec("CREATE TABLE n(x)").ok());
  ASSERT_TRUE(db_->Exec("INSERT INTO n VALUES(1)").ok());
  for (int i = 0; i < 11; i++) ASSERT_TRUE(db_->Exec("INSERT INTO n SELECT x FROM n").ok());
  // 2048 rows, each calling the clock: one distinct value.
  EXPECT_EQ(Rows("SELECT count(DISTINCT strftime('%s %f', 'now') || julianday()) FROM n"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(Rows("SELECT julianday('now') = julianday(), unixepoch() = unixepoch('now'),"
                 " date() = current_date, time() = CURRENT_TIME,"
                 " datetime('now') = Current_Timestamp, length(current_timestamp)"),
            std::vector<std::string>{"1|1|1|1|1|19"});
}

TEST_F(DateTimeSqlTest, KeywordsAndDefaults) {
  ASSERT_TRUE(db_->Exec("CREATE TABLE t(a, b DEFAULT CURRENT_TIMESTAMP, c DEFAULT (current_date),"
                        " d DEFAULT current_time, e DEFAULT (datetime('now', 'start of day')))")
                  .ok());
  EXPECT_EQ(Rows("PRAGMA table_info(t)"),
            (std::vector<std::string>{"0|a||0||0", "1|b||0|CURRENT_TIMESTAMP|0",
                                      "2|c||0|current_date|0", "3|d||0|current_time|0",
                                      "4|e||0|datetime('now', 'start of day')|0"}));
  ASSERT_TRUE(db_->Exec("INSERT INTO t(a) VALUES(1)").ok());
  EXPECT_EQ(Rows("SELECT a, b = datetime(), c = date(), d <= time(), e = date() || ' 00:00:00',"
                 " typeof(b) FROM t"),
            std::vector<std::string>{"1|1|1|1|1|text"});
  // A column may be named current_date; the bare word stays the keyword.
  ASSERT_TRUE(db_->Exec("CREATE TABLE u(current_date)").ok());
  ASSERT_TRUE(db_->Exec("INSERT INTO u VALUES(5)").ok());
  EXPECT_EQ(Rows("SELECT current_date = date(), u.current_date, \"current_date\" FROM u"),
            std::vector<std::string>{"1|5|5"});
  EXPECT_EQ(Error("SELECT current_date()"), "near \"(\": syntax error");
  EXPECT_EQ(Error("SELECT current_date.x FROM u"), "near \".\": syntax error");
  auto stmt = db_->Prepare("SELECT current_date, CURRENT_TIME");
  ASSERT_TRUE(stmt.ok());
  EXPECT_EQ((*stmt)->column_name(0), "current_date");
  EXPECT_EQ((*stmt)->column_name(1), "CURRENT_TIME");
}

}  // namespace
}  // namespace engine::func
