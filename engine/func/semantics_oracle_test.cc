// Differential test against the real SQLite: thousands of random expressions
// over literals, CASTs, operators, LIKE/GLOB and scalar functions (fixed
// seeds) are evaluated both by this folder's functions and by sqlite3's
// `SELECT expr`; type, value, rendering and error messages must agree. A
// second part stores random values in typed columns and checks affinity and
// comparisons between columns.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "engine/func/affinity.h"
#include "engine/func/arith.h"
#include "engine/func/cast.h"
#include "engine/func/like.h"
#include "engine/func/scalar_functions.h"
#include "engine/func/sqlite_eval_test_util.h"
#include "engine/func/text_format.h"

namespace engine::func {
namespace {

using testing::Describe;
using testing::OracleDb;
using testing::SameValue;

// One generated expression: its SQL, the value our functions give it, the
// affinity SQLite gives the expression, or the error it raises.
struct Expr {
  std::string sql;
  Value value;
  Affinity affinity = Affinity::kNone;
  bool failed = false;
  std::string error;
  // Contains a construct SQLite may not evaluate fully (AND, OR,
  // coalesce, ifnull, iif): an error beneath it is not comparable.
  bool lazy = false;
};

class ExprGenerator {
 public:
  ExprGenerator(uint64_t seed, ValueArena* arena) : rng_(seed), arena_(arena) {}

  Expr Generate(int depth) {
    if (depth <= 0 || Chance(25)) return Leaf();
    switch (Pick(8)) {
      case 0:
      case 1:
        return Binary(depth);
      case 2:
        return Unary(depth);
      case 3:
        return Cast(depth);
      case 4:
        return LikeOrGlob(depth);
      default:
        return Function(depth);
    }
  }

  Expr Leaf() {
    switch (Pick(9)) {
      case 0:
        return Null();
      case 1:
      case 2:
        return IntLeaf();
      case 3:
      case 4:
        return RealLeaf();
      case 5:
      case 6:
      case 7:
        return TextLeaf();
      default:
        return BlobLeaf();
    }
  }

 private:
  bool Chance(int percent) { return Pick(100) < percent; }
  int Pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  template <typename T>
  const T& PickFrom(const std::vector<T>& v) {
    return v[static_cast<size_t>(Pick(static_cast<int>(v.size())))];
  }

  static Expr Null() {
    Expr e;
    e.sql = "NULL";
    return e;
  }

  Expr IntLeaf() {
    static const std::vector<int64_t> kInts = {0,
                                               1,
                                               -1,
                                               2,
                                               3,
                                               7,
                                               -7,
                                               10,
                                               100,
                                               255,
                                               -3,
                                               64,
                                               63,
                                               -64,
                                               65,
                                               4503599627370496,
                                               9007199254740993LL,
                                               INT64_MAX,
                                               INT64_MIN,
                                               INT64_MAX - 1,
                                               INT64_MIN + 1,
                                               2147483648LL,
                                               -2147483649LL,
                                               4294967297LL,
                                               1000000};
    int64_t v;
    if (Chance(60)) {
      v = PickFrom(kInts);
    } else if (Chance(50)) {
      v = static_cast<int64_t>(rng_() % 2001) - 1000;
    } else {
      v = static_cast<int64_t>(rng_());
    }
    Expr e;
    e.value = Value::Integer(v);
    if (v >= 0) {
      e.sql = std::to_string(v);
    } else if (v == INT64_MIN) {
      e.sql = "(-9223372036854775808)";
    } else {
      e.sql = "(" + std::to_string(v) + ")";
    }
    return e;
  }

  Expr RealLeaf() {
    static const std::vector<std::string> kReals = {"0.0",
                                                    "0.5",
                                                    "1.5",
                                                    "2.5",
                                                    "1e20",
                                                    "1e-5",
                                                    "3.14159",
                                                    "1e308",
                                                    "123456789.123",
                                                    "0.1",
                                                    "0.3333333333333333",
                                                    "2.675",
                                                    "1.25",
                                                    "1e15",
                                                    "1e16",
                                                    "123456789012345.0",
                                                    "9.223372036854775807e18",
                                                    "9.2233720368547758e18",
                                                    "4503599627370496.5",
                                                    "1.0",
                                                    "100.0",
                                                    "1e-300",
                                                    "5e-324",
                                                    "0.000001",
                                                    "12.345678901234567",
                                                    "99.995",
                                                    "1.7976931348623157e308"};
    std::string text;
    if (Chance(50)) {
      text = PickFrom(kReals);
    } else {
      char buf[64];
      const double mant = static_cast<double>(rng_() % 1000000) / 1000.0;
      const int exp = Pick(41) - 20;
      std::snprintf(buf, sizeof(buf), "%.*fe%d", Pick(6), mant, exp);
      text = buf;
    }
    double r;
    AtoF(text, &r);
    Expr e;
    if (Chance(30)) {
      e.sql = "(-" + text + ")";
      r = -r;
    } else {
      e.sql = text;
    }
    e.value = Value::Real(r);
    return e;
  }

  Expr TextLeaf() {
    static const std::vector<std::string> kTexts = {"12",
                                                    " 12 ",
                                                    "1e3",
                                                    "12abc",
                                                    "abc",
                                                    "",
                                                    "0x10",
                                                    "-0",
                                                    "1.5",
                                                    "9223372036854775808",
                                                    "9223372036854775807",
                                                    "-9223372036854775808",
                                                    "-9223372036854775809",
                                                    "  -3.5e2  ",
                                                    "+7",
                                                    ".5",
                                                    "5.",
                                                    "e5",
                                                    "1e",
                                                    "1e+",
                                                    "Abc",
                                                    "aBC%",
                                                    "h\xc3\xa9llo",
                                                    "\xe2\x82\xac"
                                                    "uro",
                                                    "%",
                                                    "_",
                                                    "a_c",
                                                    "it's",
                                                    "x",
                                                    " ",
                                                    "0",
                                                    "0.0",
                                                    "1e400",
                                                    "-1e400",
                                                    "12.0",
                                                    "1.0e+20",
                                                    "  ",
                                                    "a%",
                                                    "%c",
                                                    "[a-c]*",
                                                    "*",
                                                    "?",
                                                    "[^x]",
                                                    "A",
                                                    "a",
                                                    "ABC",
                                                    "abc ",
                                                    " abc",
                                                    "1.5x",
                                                    "3.0",
                                                    "-",
                                                    "+",
                                                    "1,000",
                                                    "\t5\n",
                                                    "0.1e1",
                                                    "00012",
                                                    "1e-2",
                                                    "%d",
                                                    "%s|%5.2f",
                                                    "xyz",
                                                    "\xc3\xa9",
                                                    "\xc3\x89",
                                                    "1 2",
                                                    "abcabc",
                                                    "bc"};
    std::string s;
    if (Chance(70)) {
      s = PickFrom(kTexts);
    } else {
      static const std::vector<std::string> kPieces = {"a", "A", "b", "1", "0", " ",        ".",
                                                       "%", "_", "e", "-", "+", "\xc3\xa9", "[",
                                                       "]", "*", "?", "^", "x", "9"};
      const int n = Pick(7);
      for (int i = 0; i < n; i++) s += PickFrom(kPieces);
    }
    Expr e;
    e.sql = "'";
    for (char c : s) {
      e.sql.push_back(c);
      if (c == '\'') e.sql.push_back('\'');
    }
    e.sql += "'";
    e.value = arena_->CopyText(s);
    return e;
  }

  Expr BlobLeaf() {
    static const std::vector<std::string> kBlobs = {
        "", "00", "3132", "41", "FF00", "E282AC", "20312020", "2D35", "61626300", "C3"};
    std::string hex = Chance(70) ? PickFrom(kBlobs) : "";
    if (hex.empty() && Chance(50)) {
      const int n = Pick(5);
      for (int i = 0; i < n; i++) {
        char buf[3];
        std::snprintf(buf, sizeof(buf), "%02X", Pick(256));
        hex += buf;
      }
    }
    std::string bytes;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
      bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    Expr e;
    e.sql = "x'" + hex + "'";
    const Value v = arena_->CopyBlob(bytes.data(), bytes.size());
    e.value = v;
    return e;
  }

  static void Inherit(Expr* e, const Expr& child) {
    e->lazy = e->lazy || child.lazy;
    if (child.failed && !e->failed) {
      e->failed = true;
      e->error = child.error;
    }
  }

  Expr Binary(int depth) {
    static const std::vector<std::string> kOps = {
        "+",  "-",  "*",  "/", "%",  "&", "|",  "<<", ">>",     "||",  "=",
        "==", "!=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT", "AND", "OR"};
    const std::string op = PickFrom(kOps);
    Expr l = Generate(depth - 1);
    Expr r = Generate(depth - 1);
    Expr e;
    e.sql = "(" + l.sql + " " + op + " " + r.sql + ")";
    Inherit(&e, l);
    Inherit(&e, r);
    if (op == "AND" || op == "OR") e.lazy = true;
    if (e.failed) return e;
    Value a = l.value;
    Value b = r.value;
    if (op == "+") e.value = Add(a, b);
    if (op == "-") e.value = Subtract(a, b);
    if (op == "*") e.value = Multiply(a, b);
    if (op == "/") e.value = Divide(a, b);
    if (op == "%") e.value = Remainder(a, b);
    if (op == "&") e.value = BitAnd(a, b);
    if (op == "|") e.value = BitOr(a, b);
    if (op == "<<") e.value = ShiftLeft(a, b);
    if (op == ">>") e.value = ShiftRight(a, b);
    if (op == "||") e.value = Concat(a, b, *arena_);
    if (op == "AND") e.value = And(a, b);
    if (op == "OR") e.value = Or(a, b);
    CompareOp cmp;
    bool is_cmp = true;
    if (op == "=" || op == "==") {
      cmp = CompareOp::kEq;
    } else if (op == "!=" || op == "<>") {
      cmp = CompareOp::kNe;
    } else if (op == "<") {
      cmp = CompareOp::kLt;
    } else if (op == "<=") {
      cmp = CompareOp::kLe;
    } else if (op == ">") {
      cmp = CompareOp::kGt;
    } else if (op == ">=") {
      cmp = CompareOp::kGe;
    } else if (op == "IS") {
      cmp = CompareOp::kIs;
    } else if (op == "IS NOT") {
      cmp = CompareOp::kIsNot;
    } else {
      is_cmp = false;
      cmp = CompareOp::kEq;
    }
    if (is_cmp) {
      // An explicit COLLATE on the left operand picks the collation and
      // keeps the operand's affinity.
      Collation coll = Collation::kBinary;
      if (Chance(25)) {
        static const std::vector<std::string> kNames = {"NOCASE", "RTRIM", "BINARY", "nocase"};
        const std::string name = PickFrom(kNames);
        coll = *CollationByName(name);
        e.sql = "((" + l.sql + " COLLATE " + name + ") " + op + " " + r.sql + ")";
      }
      ApplyComparisonAffinity(ComparisonAffinity(l.affinity, r.affinity), &a, &b, *arena_);
      e.value = Compare(cmp, a, b, coll);
    }
    return e;
  }

  Expr Unary(int depth) {
    static const std::vector<std::string> kOps = {"-", "+", "~", "NOT "};
    const std::string op = PickFrom(kOps);
    Expr x = Generate(depth - 1);
    Expr e;
    e.sql = "(" + op + x.sql + ")";
    Inherit(&e, x);
    if (e.failed) return e;
    if (op == "-") e.value = Negate(x.value);
    if (op == "+") e.value = x.value;
    if (op == "~") e.value = BitNot(x.value);
    if (op == "NOT ") e.value = Not(x.value);
    return e;
  }

  Expr Cast(int depth) {
    static const std::vector<std::string> kTypes = {
        "INTEGER",     "INT",   "TEXT",          "REAL",    "NUMERIC",       "BLOB",
        "VARCHAR(10)", "FLOAT", "DOUBLE",        "BOOLEAN", "DATE",          "BIGINT",
        "CLOB",        "NONE",  "DECIMAL(10,2)", "CHARINT", "FLOATING POINT"};
    const std::string type = PickFrom(kTypes);
    Expr x = Generate(depth - 1);
    Expr e;
    e.sql = "CAST(" + x.sql + " AS " + type + ")";
    Inherit(&e, x);
    e.affinity = AffinityOfType(type);
    if (e.failed) return e;
    e.value = CastValue(x.value, type, *arena_);
    return e;
  }

  Expr LikeOrGlob(int depth) {
    Expr text = Generate(depth - 1);
    Expr pat = Chance(70) ? TextLeaf() : Generate(depth - 1);
    Expr e;
    Inherit(&e, text);
    Inherit(&e, pat);
    const int kind = Pick(3);
    Result<Value> r = Value::Null();
    if (kind == 0) {
      e.sql = "(" + text.sql + " LIKE " + pat.sql + ")";
      if (!e.failed) r = Like(text.value, pat.value, nullptr, *arena_);
    } else if (kind == 1) {
      Expr esc = Chance(80) ? TextLeaf() : Generate(depth - 1);
      Inherit(&e, esc);
      e.sql = "(" + text.sql + " LIKE " + pat.sql + " ESCAPE " + esc.sql + ")";
      if (!e.failed) r = Like(text.value, pat.value, &esc.value, *arena_);
    } else {
      e.sql = "(" + text.sql + " GLOB " + pat.sql + ")";
      if (!e.failed) r = Glob(text.value, pat.value, *arena_);
    }
    if (e.failed) return e;
    if (!r.ok()) {
      e.failed = true;
      e.error = r.status().message();
    } else {
      e.value = *r;
    }
    return e;
  }

  Expr PrintfFormat() {
    static const std::vector<std::string> kFormats = {
        "%d",     "%s",   "%5.2f",     "%x",   "%-8s|",     "%q",   "%Q",     "%e",     "%g",
        "%!.15g", "%.3s", "%c",        "%,d",  "%+.1e",     "%05d", "%%",     "%r",     "%o",
        "%X",     "%#x",  "%10.4f",    "%.0f", "%.20f",     "%*d",  "%i|%u",  "%w",     "%!.3s",
        "%5c",    "%.*f", "%G",        "%E",   "%#o",       "% d",  "%-5d|",  "%08.3f", "%+d",
        "%.10g",  "%#g",  "%!g",       "%!e",  "%z",        "%y",   "%",      "a%",     "%lld",
        "%p",     "%.2e", "[%-10.3s]", "%05s", "%s and %s", "%3$s", "%.1000f"};
    Expr e;
    const std::string f = PickFrom(kFormats);
    e.sql = "'" + f + "'";
    e.value = arena_->CopyText(f);
    return e;
  }

  Expr Function(int depth) {
    const ScalarFunction* begin = ScalarFunctionsBegin();
    const int count = static_cast<int>(ScalarFunctionsEnd() - begin);
    const ScalarFunction& f = begin[Pick(count)];
    if (f.name == "likelihood") return Function(depth);
    const int max = f.max_args < 0 ? f.min_args + 3 : f.max_args;
    const int n = f.min_args + Pick(max - f.min_args + 1);
    if (testing::ReadsClock(f.name, n)) return Function(depth);
    std::vector<Expr> args;
    for (int i = 0; i < n; i++) {
      if (i == 0 && (f.name == "printf" || f.name == "format") && Chance(80)) {
        args.push_back(PrintfFormat());
      } else {
        args.push_back(Generate(depth - 1));
      }
    }
    Expr e;
    e.sql = std::string(f.name) + "(";
    for (int i = 0; i < n; i++) {
      if (i > 0) e.sql += ", ";
      e.sql += args[static_cast<size_t>(i)].sql;
    }
    e.sql += ")";
    for (const Expr& a : args) Inherit(&e, a);
    if (f.name == "coalesce" || f.name == "ifnull" || f.name == "iif") e.lazy = true;
    if (e.failed) return e;
    std::vector<Value> values;
    for (const Expr& a : args) values.push_back(a.value);
    const Status st = f.fn(values.data(), n, *arena_, &e.value);
    if (!st.ok()) {
      e.failed = true;
      e.error = st.message();
    }
    return e;
  }

  std::mt19937_64 rng_;
  ValueArena* arena_;
};

void CheckAgainstOracle(OracleDb& db, const Expr& e, uint64_t seed, int* compared) {
  if (e.failed && e.lazy) return;
  const testing::OracleValue o = db.Eval(e.sql);
  ++*compared;
  if (e.failed) {
    EXPECT_FALSE(o.ok) << "seed " << seed << ": " << e.sql << "\n  ours: error " << e.error
                       << "\n  sqlite: " << Describe(o.value());
    if (!o.ok) {
      EXPECT_EQ(o.error, e.error) << "seed " << seed << ": " << e.sql;
    }
    return;
  }
  ASSERT_TRUE(o.ok) << "seed " << seed << ": " << e.sql << "\n  sqlite error: " << o.error
                    << "\n  ours: " << Describe(e.value);
  EXPECT_TRUE(SameValue(e.value, o.value()))
      << "seed " << seed << ": " << e.sql << "\n  ours:   " << Describe(e.value)
      << "\n  sqlite: " << Describe(o.value());
  ValueArena scratch;
  const Value text = ValueToText(e.value, scratch);
  if (!text.is_null()) {
    EXPECT_EQ(text.as_text(), o.text) << "rendering, seed " << seed << ": " << e.sql;
  }
  std::string shell;
  AppendShellValue(e.value, &shell);
  const std::string oracle_shell =
      o.type == ValueType::kNull ? "" : o.text.substr(0, o.text.find('\0'));
  EXPECT_EQ(shell, oracle_shell) << "shell, seed " << seed << ": " << e.sql;
}

TEST(SemanticsOracleTest, RandomExpressionsMatchSqlite) {
  OracleDb db;
  int compared = 0;
  for (uint64_t seed = 1; seed <= 8000; seed++) {
    ValueArena arena;
    ExprGenerator gen(seed, &arena);
    const Expr e = gen.Generate(1 + static_cast<int>(seed % 4));
    CheckAgainstOracle(db, e, seed, &compared);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GE(compared, 7000);
}

TEST(SemanticsOracleTest, RandomLeavesThroughEveryOperatorAndFunction) {
  // Depth-1 expressions: each operator or function applied to plain
  // literals, many times, so every leaf kind meets every operator.
  OracleDb db;
  int compared = 0;
  for (uint64_t seed = 100000; seed < 106000; seed++) {
    ValueArena arena;
    ExprGenerator gen(seed, &arena);
    Expr e = gen.Generate(1);
    CheckAgainstOracle(db, e, seed, &compared);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GE(compared, 5000);
}

// Values stored into typed columns take the column's affinity; comparisons
// between columns and literals apply SQLite's comparison affinity.
TEST(SemanticsOracleTest, ColumnAffinityAndComparisonsMatchSqlite) {
  struct Column {
    const char* name;
    const char* type;
  };
  static const Column kColumns[] = {{"ci", "INTEGER"},    {"ct", "TEXT"}, {"cr", "REAL"},
                                    {"cn", "NUMERIC"},    {"cb", "BLOB"}, {"cx", ""},
                                    {"cv", "VARCHAR(5)"}, {"cf", "FLOAT"}};
  constexpr int kCount = sizeof(kColumns) / sizeof(kColumns[0]);
  OracleDb db;
  std::string ddl = "CREATE TABLE t(";
  for (int i = 0; i < kCount; i++) {
    ddl += std::string(i ? ", " : "") + kColumns[i].name + " " + kColumns[i].type;
  }
  ASSERT_TRUE(db.Exec(ddl + ")"));
  static const char* kOps[] = {"=", "<", ">", "<=", ">=", "!=", "IS", "IS NOT"};
  static const CompareOp kCmp[] = {CompareOp::kEq, CompareOp::kLt,   CompareOp::kGt,
                                   CompareOp::kLe, CompareOp::kGe,   CompareOp::kNe,
                                   CompareOp::kIs, CompareOp::kIsNot};
  int compared = 0;
  for (uint64_t seed = 1; seed <= 400; seed++) {
    ValueArena arena;
    ExprGenerator gen(seed * 7919, &arena);
    std::mt19937_64 rng(seed);
    Expr literals[kCount];
    Value stored[kCount];
    std::string insert = "INSERT INTO t VALUES(";
    for (int i = 0; i < kCount; i++) {
      literals[i] = gen.Leaf();
      stored[i] = ApplyAffinity(literals[i].value, AffinityOfType(kColumns[i].type), arena);
      insert += std::string(i ? ", " : "") + literals[i].sql;
    }
    ASSERT_TRUE(db.Exec("DELETE FROM t"));
    ASSERT_TRUE(db.Exec(insert + ")")) << insert;
    for (int i = 0; i < kCount; i++) {
      const testing::OracleValue o =
          testing::QueryOracle(db.get(), std::string("SELECT ") + kColumns[i].name + " FROM t");
      ++compared;
      EXPECT_TRUE(SameValue(stored[i], o.value()))
          << "stored into " << kColumns[i].type << ": " << literals[i].sql
          << "\n  ours:   " << Describe(stored[i]) << "\n  sqlite: " << Describe(o.value());
    }
    for (int k = 0; k < 12; k++) {
      const int i = static_cast<int>(rng() % kCount);
      const int op = static_cast<int>(rng() % 8);
      const bool against_literal = rng() % 3 == 0;
      Value a = stored[i];
      Value b;
      Affinity baff;
      std::string rhs;
      if (against_literal) {
        const Expr lit = gen.Leaf();
        b = lit.value;
        baff = Affinity::kNone;
        rhs = lit.sql;
      } else {
        const int j = static_cast<int>(rng() % kCount);
        b = stored[j];
        baff = AffinityOfType(kColumns[j].type);
        rhs = kColumns[j].name;
      }
      const Affinity aff = ComparisonAffinity(AffinityOfType(kColumns[i].type), baff);
      ApplyComparisonAffinity(aff, &a, &b, arena);
      const Value ours = Compare(kCmp[op], a, b);
      const std::string sql =
          std::string("SELECT ") + kColumns[i].name + " " + kOps[op] + " " + rhs + " FROM t";
      const testing::OracleValue o = testing::QueryOracle(db.get(), sql);
      ++compared;
      EXPECT_TRUE(SameValue(ours, o.value()))
          << sql << " with row " << insert << "\n  ours:   " << Describe(ours)
          << "\n  sqlite: " << Describe(o.value());
    }
  }
  EXPECT_GE(compared, 8000);
}

}  // namespace
}  // namespace engine::func
