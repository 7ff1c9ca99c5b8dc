#include "engine/func/scalar_functions.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/func/sqlite_eval_test_util.h"
#include "engine/func/utf8.h"

namespace engine::func {
namespace {

using testing::Describe;
using testing::SameValue;

Value I(int64_t v) { return Value::Integer(v); }
Value R(double v) { return Value::Real(v); }
Value T(const char* s) { return Value::Text(s); }
Value N() { return Value::Null(); }

Result<Value> Call(const char* name, std::vector<Value> args, ValueArena& arena) {
  const ScalarFunction* f = nullptr;
  ENGINE_RETURN_IF_ERROR(LookupScalarFunction(name, static_cast<int>(args.size()), &f));
  Value out;
  ENGINE_RETURN_IF_ERROR(f->fn(args.data(), static_cast<int>(args.size()), arena, &out));
  return out;
}

TEST(ScalarFunctionsTest, Table) {
  struct Case {
    const char* name;
    std::vector<Value> args;
    Value out;
  };
  const Case cases[] = {
      {"abs", {I(-3)}, I(3)},
      {"abs", {T("-3")}, R(3.0)},
      {"ABS", {N()}, N()},
      {"coalesce", {N(), N(), I(2)}, I(2)},
      {"ifnull", {N(), T("x")}, T("x")},
      {"nullif", {I(1), I(1)}, N()},
      {"nullif", {I(1), T("1")}, I(1)},
      {"length", {T("h\xc3\xa9llo")}, I(5)},
      {"length", {R(12.0)}, I(4)},
      {"length", {Value::Blob("\0\1\2", 3)}, I(3)},
      {"lower", {T("ABC\xc3\x89")}, T("abc\xc3\x89")},
      {"upper", {T("a\xc3\xa9")}, T("A\xc3\xa9")},
      {"substr", {T("hello"), I(0), I(2)}, T("h")},
      {"substr", {T("hello"), I(-2)}, T("lo")},
      {"substr", {T("hello"), I(2), I(-1)}, T("h")},
      {"substr", {T("h\xc3\xa9llo"), I(2), I(2)}, T("\xc3\xa9l")},
      {"substring", {Value::Blob("abcd", 4), I(2), I(2)}, Value::Blob("bc", 2)},
      {"substr", {Value::Blob("", 0), I(1)}, N()},
      {"trim", {T("  x  ")}, T("x")},
      {"ltrim", {T("xxay"), T("x")}, T("ay")},
      {"rtrim", {T("ayxx"), T("xy")}, T("a")},
      {"trim", {I(1)}, T("1")},
      {"replace", {T("abcabc"), T("b"), T("XY")}, T("aXYcaXYc")},
      {"replace", {I(12345), I(3), I(9)}, T("12945")},
      {"replace", {I(5), T(""), T("x")}, I(5)},
      {"instr",
       {T("a\xc3\xa9"
          "b"),
        T("b")},
       I(3)},
      {"instr", {T("abc"), T("")}, I(1)},
      {"instr", {T("abc"), T("z")}, I(0)},
      {"hex", {Value::Blob("\x00\xff", 2)}, T("00FF")},
      {"hex", {R(1.5)}, T("312E35")},
      {"hex", {N()}, T("")},
      {"typeof", {R(1.0)}, T("real")},
      {"typeof", {Value::Blob("", 0)}, T("blob")},
      {"round", {R(2.675), I(2)}, R(2.68)},
      {"round", {R(-2.5)}, R(-3.0)},
      {"round", {R(1e20), I(2)}, R(1e20)},
      {"round", {T("1.25"), I(1)}, R(1.3)},
      {"max", {I(1), T("a"), Value::Blob("\0", 1)}, Value::Blob("\0", 1)},
      {"min", {I(1), N(), I(2)}, N()},
      {"min", {I(1), R(1.0)}, R(1.0)},
      {"max", {I(1), R(1.0)}, I(1)},
      {"quote", {T("a'b")}, T("'a''b'")},
      {"quote", {R(1.5)}, T("1.5")},
      {"quote", {Value::Blob("\x00", 1)}, T("X'00'")},
      {"quote", {N()}, T("NULL")},
      {"char", {I(65), I(0x20ac)}, T("A\xe2\x82\xac")},
      {"char", {}, T("")},
      {"unicode", {T("\xe2\x82\xac")}, I(8364)},
      {"unicode", {T("")}, N()},
      {"likely", {I(5)}, I(5)},
      {"unlikely", {T("x")}, T("x")},
      {"likelihood", {I(5), R(0.5)}, I(5)},
      {"iif", {I(0), I(1), I(2)}, I(2)},
      {"iif", {T("0.5"), I(1), I(2)}, I(1)},
      {"printf", {T("%d-%s"), I(5), T("x")}, T("5-x")},
      {"format", {T("%.2f"), R(2.675)}, T("2.68")},
      {"printf", {T("")}, N()},
      {"printf", {}, N()},
      {"zeroblob", {I(3)}, Value::Blob("\0\0\0", 3)},
      {"zeroblob", {I(-1)}, Value::Blob("", 0)},
      {"sign", {I(-3)}, I(-1)},
      {"sign", {T("2.5")}, I(1)},
      {"sign", {T("abc")}, N()},
      {"soundex", {T("Robert")}, T("R163")},
      {"soundex", {T("123")}, T("?000")},
      {"like", {T("a%"), T("ABC")}, I(1)},
      {"ceil", {T("3")}, I(3)},
      {"ceiling", {R(2.1)}, R(3.0)},
      {"floor", {R(-2.1)}, R(-3.0)},
      {"trunc", {R(-2.7)}, R(-2.0)},
      {"log", {I(1000)}, R(2.9999999999999996)},
      {"log", {I(2), I(8)}, R(3.0)},
      {"ln", {I(0)}, N()},
      {"sqrt", {I(-1)}, N()},
      {"pow", {I(2), I(10)}, R(1024.0)},
      {"mod", {R(7.5), I(2)}, R(1.5)},
      {"exp", {T("abc")}, N()},
      {"glob", {T("a*"), T("ABC")}, I(0)},
  };
  ValueArena arena;
  for (const Case& c : cases) {
    auto got = Call(c.name, c.args, arena);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_TRUE(SameValue(*got, c.out))
        << c.name << " gave " << Describe(*got) << ", want " << Describe(c.out);
  }
}

TEST(ScalarFunctionsTest, ErrorsInSqlitesWords) {
  ValueArena arena;
  struct Case {
    const char* name;
    std::vector<Value> args;
    const char* message;
  };
  const Case cases[] = {
      {"abs", {I(INT64_MIN)}, "integer overflow"},
      {"abs", {I(1), I(2)}, "wrong number of arguments to function abs()"},
      {"coalesce", {I(1)}, "wrong number of arguments to function coalesce()"},
      {"count", {I(1), I(2)}, "wrong number of arguments to function count()"},
      {"nosuchfn", {}, "no such function: nosuchfn"},
      {"zeroblob", {I(2000000000)}, "string or blob too big"},
      {"like", {T("a"), T("a"), T("xy")}, "ESCAPE expression must be a single character"},
      {"likelihood",
       {I(1), R(2.0)},
       "second argument to likelihood() must be a constant between 0.0 and 1.0"},
  };
  for (const Case& c : cases) {
    auto got = Call(c.name, c.args, arena);
    ASSERT_FALSE(got.ok()) << c.name;
    EXPECT_EQ(got.status().message(), c.message);
  }
}

TEST(ScalarFunctionsTest, LookupByNameAndArity) {
  EXPECT_NE(FindScalarFunction("SUBSTR", 2), nullptr);
  EXPECT_NE(FindScalarFunction("substring", 3), nullptr);
  EXPECT_EQ(FindScalarFunction("substr", 1), nullptr);
  EXPECT_EQ(FindScalarFunction("min", 1), nullptr);  // the aggregate
  EXPECT_NE(FindScalarFunction("max", 5), nullptr);
  EXPECT_EQ(FindScalarFunction("random", 0), nullptr);
  for (const ScalarFunction* f = ScalarFunctionsBegin(); f != ScalarFunctionsEnd(); ++f) {
    EXPECT_EQ(FindScalarFunction(f->name, f->min_args), f) << f->name;
  }
}

// Every function with random literal arguments, against sqlite3.
TEST(ScalarFunctionsTest, MatchSqliteOnRandomArguments) {
  const std::vector<std::string> literals = {"0",
                                             "1",
                                             "-1",
                                             "2",
                                             "3",
                                             "-7",
                                             "9223372036854775807",
                                             "(-9223372036854775808)",
                                             "0.5",
                                             "2.5",
                                             "(-2.5)",
                                             "1e20",
                                             "2.675",
                                             "0.0",
                                             "'12'",
                                             "' 12 '",
                                             "'1e3'",
                                             "'abc'",
                                             "'ABC'",
                                             "''",
                                             "'h\xc3\xa9llo'",
                                             "'  x  '",
                                             "'a%'",
                                             "'%d|%s'",
                                             "'b'",
                                             "'x'",
                                             "x'41'",
                                             "x''",
                                             "x'00ff'",
                                             "x'3132'",
                                             "NULL",
                                             "'\xe2\x82\xac'",
                                             "'Robert'",
                                             "100",
                                             "(-100)",
                                             "30",
                                             "31"};
  testing::OracleDb db;
  std::vector<testing::OracleValue> values;
  for (const std::string& lit : literals) {
    values.push_back(db.Eval(lit));
    ASSERT_TRUE(values.back().ok) << lit;
  }
  std::mt19937_64 rng(2024);
  ValueArena arena;
  for (const ScalarFunction* f = ScalarFunctionsBegin(); f != ScalarFunctionsEnd(); ++f) {
    if (f->name == "likelihood") continue;  // needs a constant REAL literal
    const int max = f->max_args < 0 ? f->min_args + 3 : f->max_args;
    for (int iter = 0; iter < 300; iter++) {
      const int n =
          f->min_args + static_cast<int>(rng() % static_cast<uint64_t>(max - f->min_args + 1));
      if (testing::ReadsClock(f->name, n)) continue;
      std::string sql = std::string(f->name) + "(";
      std::vector<Value> args;
      for (int i = 0; i < n; i++) {
        const size_t k = rng() % literals.size();
        sql += (i ? ", " : "") + literals[k];
        args.push_back(values[k].value());
      }
      sql += ")";
      const testing::OracleValue expected = db.Eval(sql);
      Value got;
      arena.Reset();
      const Status st = f->fn(args.data(), n, arena, &got);
      if (!expected.ok) {
        EXPECT_FALSE(st.ok()) << sql << " gave " << Describe(got) << ", sqlite: " << expected.error;
        if (!st.ok()) {
          EXPECT_EQ(st.message(), expected.error) << sql;
        }
        continue;
      }
      ASSERT_TRUE(st.ok()) << sql << ": " << st.message();
      EXPECT_TRUE(SameValue(got, expected.value()))
          << sql << ": ours " << Describe(got) << ", sqlite " << Describe(expected.value());
    }
  }
}

}  // namespace
}  // namespace engine::func

namespace engine::func {
namespace {

// Arbitrary bytes (invalid UTF-8, embedded NULs, stray continuation bytes)
// as TEXT and BLOB arguments of every function, bound as parameters so that
// sqlite3 sees exactly the same bytes: same results, and no crash.
TEST(ScalarFunctionsTest, MatchSqliteOnArbitraryBytes) {
  testing::OracleDb db;
  std::mt19937_64 rng(77);
  const unsigned char bytes[] = {'a',  'B',  ' ',  '%',  '_',  '*',  '?',  '[',  ']',  '^',  '-',
                                 '0',  '1',  '.',  'e',  0x00, 0x80, 0xbf, 0xc3, 0xa9, 0xe2, 0x82,
                                 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xfe, '\'', 'x'};
  auto random_bytes = [&] {
    std::string s;
    for (int k = static_cast<int>(rng() % 7); k > 0; k--) {
      s.push_back(static_cast<char>(bytes[rng() % sizeof(bytes)]));
    }
    return s;
  };
  ValueArena arena;
  for (const ScalarFunction* f = ScalarFunctionsBegin(); f != ScalarFunctionsEnd(); ++f) {
    if (f->name == "likelihood") continue;
    const int max = f->max_args < 0 ? f->min_args + 2 : f->max_args;
    for (int iter = 0; iter < 200; iter++) {
      const int n =
          f->min_args + static_cast<int>(rng() % static_cast<uint64_t>(max - f->min_args + 1));
      if (testing::ReadsClock(f->name, n)) continue;
      std::string sql = "SELECT " + std::string(f->name) + "(";
      for (int i = 0; i < n; i++) sql += (i ? ", ?" : "?") + std::to_string(i + 1);
      sql += ")";
      sqlite3_stmt* stmt = nullptr;
      ASSERT_EQ(sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
      std::vector<std::string> storage(static_cast<size_t>(n));
      std::vector<Value> args;
      std::string shown;
      for (int i = 0; i < n; i++) {
        std::string& s = storage[static_cast<size_t>(i)];
        switch (rng() % 5) {
          case 0:
          case 1:
            s = random_bytes();
            sqlite3_bind_text(stmt, i + 1, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
            args.push_back(Value::Text(s));
            break;
          case 2:
            s = random_bytes();
            sqlite3_bind_blob(stmt, i + 1, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
            args.push_back(Value::Blob(s.data(), s.size()));
            break;
          case 3: {
            const int64_t v = static_cast<int64_t>(rng() % 21) - 5;
            sqlite3_bind_int64(stmt, i + 1, v);
            args.push_back(Value::Integer(v));
            break;
          }
          default:
            sqlite3_bind_null(stmt, i + 1);
            args.push_back(Value::Null());
            break;
        }
        shown += (i ? ", " : "") + Describe(args.back());
      }
      const int rc = sqlite3_step(stmt);
      Value got;
      arena.Reset();
      const Status st = f->fn(args.data(), n, arena, &got);
      if (rc != SQLITE_ROW) {
        EXPECT_FALSE(st.ok()) << f->name << "(" << shown << ")";
        sqlite3_finalize(stmt);
        continue;
      }
      ASSERT_TRUE(st.ok()) << f->name << "(" << shown << "): " << st.message();
      Value expected;
      std::string expected_bytes;
      switch (sqlite3_column_type(stmt, 0)) {
        case SQLITE_INTEGER:
          expected = Value::Integer(sqlite3_column_int64(stmt, 0));
          break;
        case SQLITE_FLOAT:
          expected = Value::Real(sqlite3_column_double(stmt, 0));
          break;
        case SQLITE_TEXT:
          expected_bytes.assign(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)),
                                static_cast<size_t>(sqlite3_column_bytes(stmt, 0)));
          expected = Value::Text(expected_bytes);
          break;
        case SQLITE_BLOB: {
          const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, 0));
          expected_bytes.assign(p ? p : "", static_cast<size_t>(sqlite3_column_bytes(stmt, 0)));
          expected = Value::Blob(expected_bytes.data(), expected_bytes.size());
          break;
        }
        default:
          break;
      }
      sqlite3_finalize(stmt);
      EXPECT_TRUE(SameValue(got, expected)) << f->name << "(" << shown << "): ours "
                                            << Describe(got) << ", sqlite " << Describe(expected);
    }
  }
}

// length() of TEXT counts eight ASCII bytes at a time: texts long enough
// for the word loop, with a NUL, a byte >= 0x80, a stray continuation byte
// or a multi-byte character at every position, count as sqlite3 counts.
TEST(ScalarFunctionsTest, LengthOfLongTextMatchesSqlite) {
  testing::OracleDb db;
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.get(), "SELECT length(?1)", -1, &stmt, nullptr), SQLITE_OK);
  const std::string specials[] = {std::string(1, '\0'), "\x80", "\xbf", "\xc3\xa9", "\xe2\x82\xac",
                                  "\xf0\x9f\x98\x80",   "\xff", "\xc3"};
  int checked = 0;
  for (size_t len = 0; len <= 40; ++len) {
    for (size_t at = 0; at <= len; ++at) {
      for (const std::string& sp : specials) {
        std::string text(len, 'a');
        for (size_t i = 0; i < len; ++i) text[i] = static_cast<char>('a' + i % 26);
        text.insert(at, sp);
        const auto* p = reinterpret_cast<const unsigned char*>(text.data());
        const size_t want = Utf8Length(p, p + CStringLength(text.data(), text.size()));
        ASSERT_EQ(Utf8TextLength(p, text.size()), want) << len << " " << at;
        sqlite3_bind_text(stmt, 1, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
        ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
        ASSERT_EQ(static_cast<size_t>(sqlite3_column_int64(stmt, 0)), want) << len << " " << at;
        sqlite3_reset(stmt);
        ++checked;
      }
    }
  }
  sqlite3_finalize(stmt);
  EXPECT_EQ(checked, 8 * (41 * 42 / 2));
}

}  // namespace
}  // namespace engine::func
