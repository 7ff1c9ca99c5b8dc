// Operator precedence, checked two ways: hand-written groupings from SQLite's
// parse.y, and a differential test in which the real SQLite evaluates random
// expressions both as written and as this parser groups them.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <random>
#include <string>

#include "engine/sql/parser.h"
#include "engine/sql/render.h"

namespace engine::sql {
namespace {

std::string Grouping(std::string_view expr) {
  std::string sql = "SELECT " + std::string(expr);
  Result<Statement> st = ParseStatement(sql);
  if (!st.ok()) return "error: " + st.status().message();
  const SelectCore& core = st->ast.select(st->as<SelectStmt>()->select).cores[0];
  return RenderExpr(st->ast, core.columns[0].expr);
}

TEST(PrecedenceTest, FollowsSqliteGrammar) {
  const std::pair<const char*, const char*> cases[] = {
      {"1 + 2 * 3", "(1 + (2 * 3))"},
      {"1 - 2 - 3", "((1 - 2) - 3)"},
      {"1 * 2 / 3 % 4", "(((1 * 2) / 3) % 4)"},
      {"'a' || 'b' * 2", "(('a' || 'b') * 2)"},
      {"a || b || c", "((a || b) || c)"},
      {"1 + 2 << 3", "((1 + 2) << 3)"},
      {"1 & 2 | 3 << 4 >> 5", "((((1 & 2) | 3) << 4) >> 5)"},
      {"1 < 2 & 3", "(1 < (2 & 3))"},
      {"a = b < c", "(a = (b < c))"},
      {"a = b = c", "((a = b) = c)"},
      {"a == b != c <> d", "(((a = b) <> c) <> d)"},
      {"a < b <= c > d >= e", "((((a < b) <= c) > d) >= e)"},
      {"NOT a = b", "(NOT (a = b))"},
      {"NOT a AND b", "((NOT a) AND b)"},
      {"NOT NOT a", "(NOT (NOT a))"},
      {"a = NOT b AND c", "((a = (NOT b)) AND c)"},
      {"a OR b AND c", "(a OR (b AND c))"},
      {"a AND b OR c AND d", "((a AND b) OR (c AND d))"},
      {"-a * b", "((-a) * b)"},
      {"- - a", "(-(-a))"},
      {"-a || b", "((-a) || b)"},
      {"~a + 1", "((~a) + 1)"},
      {"+a", "(+a)"},
      {"-a COLLATE nocase", "((-a) COLLATE nocase)"},
      {"a || b COLLATE nocase", "(a || (b COLLATE nocase))"},
      {"a BETWEEN 1 AND 2 AND c", "((a BETWEEN 1 AND 2) AND c)"},
      {"a BETWEEN b + 1 AND c * 2", "(a BETWEEN (b + 1) AND (c * 2))"},
      {"a NOT BETWEEN 1 AND 2 = 0", "((a NOT BETWEEN 1 AND 2) = 0)"},
      {"a BETWEEN 1 = 1 AND 2", "(a BETWEEN (1 = 1) AND 2)"},
      {"a = 1 BETWEEN 0 AND 2", "((a = 1) BETWEEN 0 AND 2)"},
      {"a < 1 BETWEEN 0 AND 2", "((a < 1) BETWEEN 0 AND 2)"},
      {"a IN (1, 2) = 1", "((a IN (1, 2)) = 1)"},
      {"a + 1 IN (2)", "((a + 1) IN (2))"},
      {"a NOT IN (1) AND b", "((a NOT IN (1)) AND b)"},
      {"a LIKE b || 'x'", "(a LIKE (b || 'x'))"},
      {"a LIKE b = 0", "((a LIKE b) = 0)"},
      {"a NOT LIKE b ESCAPE c", "(a NOT LIKE b ESCAPE c)"},
      {"a IS NULL = 0", "((a IS NULL) = 0)"},
      {"a IS NOT NULL", "(a IS NOT NULL)"},
      {"a IS NULL + 1", "(a IS (NULL + 1))"},
      {"a + b ISNULL", "((a + b) IS NULL)"},
      {"a = b NOTNULL", "((a = b) IS NOT NULL)"},
      {"a = b NOT NULL", "((a = b) IS NOT NULL)"},
      {"a IS b = c", "((a IS b) = c)"},
      {"a = b IS c", "((a = b) IS c)"},
      {"a IS NOT b < c", "(a IS NOT (b < c))"},
      {"NOT a IS NULL", "(NOT (a IS NULL))"},
      {"NOT a BETWEEN 1 AND 2", "(NOT (a BETWEEN 1 AND 2))"},
      {"CASE WHEN a THEN b END + 1", "(CASE WHEN a THEN b END + 1)"},
      {"(1 + 2) * 3", "((1 + 2) * 3)"},
      {"f(a, b + 1) * 2", "(f(a, (b + 1)) * 2)"},
      {"a > 0 AND NOT b IN (1) OR c", "(((a > 0) AND (NOT (b IN (1)))) OR c)"},
      {"EXISTS (SELECT 1) = 1", "(EXISTS (SELECT 1) = 1)"},
      {"CAST(a AS INTEGER) + 1", "(CAST(a AS INTEGER) + 1)"},
  };
  for (const auto& [input, expected] : cases) EXPECT_EQ(Grouping(input), expected) << input;
}

// Random expressions over small integer literals and every operator; SQLite
// must compute the same value for the text and for our grouping of it.
class ExpressionGenerator {
 public:
  explicit ExpressionGenerator(uint32_t seed) : rng_(seed) {}

  std::string Generate(int depth) {
    if (depth == 0 || Pick(4) == 0) return Leaf();
    static const char* const kBinary[] = {
        "OR", "AND", "=",  "==", "!=", "<>", "<", "<=", ">",  ">=", "&",
        "|",  "<<",  ">>", "+",  "-",  "*",  "/", "%",  "||", "IS", "IS NOT"};
    switch (Pick(9)) {
      case 0:
        return "NOT " + Generate(depth - 1);
      case 1:
        return std::string(Pick(2) ? "- " : "~") + Generate(depth - 1);
      case 2:
        return Generate(depth - 1) + (Pick(2) ? " NOT" : "") + " BETWEEN " + Generate(depth - 1) +
               " AND " + Generate(depth - 1);
      case 3:
        return Generate(depth - 1) + (Pick(2) ? " ISNULL" : " NOTNULL");
      case 4:
        return Generate(depth - 1) + (Pick(2) ? " NOT" : "") + " IN (" + Generate(depth - 1) +
               ", " + Leaf() + ")";
      case 5:
        return Generate(depth - 1) + (Pick(2) ? " NOT" : "") + " LIKE " + Generate(depth - 1);
      case 6:
        return "(" + Generate(depth - 1) + ")";
      default:
        return Generate(depth - 1) + " " + kBinary[Pick(std::size(kBinary))] + " " +
               Generate(depth - 1);
    }
  }

 private:
  std::string Leaf() {
    switch (Pick(6)) {
      case 0:
        return "NULL";
      case 1:
        return "'" + std::to_string(Pick(5)) + "'";
      default:
        return std::to_string(static_cast<int>(Pick(7)) - 2);
    }
  }
  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  std::mt19937 rng_;
};

class Oracle {
 public:
  Oracle() { sqlite3_open(":memory:", &db_); }
  ~Oracle() { sqlite3_close(db_); }
  Oracle(const Oracle&) = delete;
  Oracle& operator=(const Oracle&) = delete;

  // The value of `expr` as text, "NULL", or "error: ...".
  std::string Eval(const std::string& expr) {
    std::string sql = "SELECT quote(" + expr + ")";
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      return std::string("error: ") + sqlite3_errmsg(db_);
    }
    std::string out;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    } else {
      out = std::string("error: ") + sqlite3_errmsg(db_);
    }
    sqlite3_finalize(stmt);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

TEST(PrecedenceTest, AgreesWithSqliteOnRandomExpressions) {
  ExpressionGenerator gen(20261201);
  Oracle oracle;
  int compared = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string text = gen.Generate(4);
    const std::string grouped = Grouping(text);
    const std::string want = oracle.Eval(text);
    if (want.rfind("error", 0) == 0) {
      // What SQLite cannot parse we must not parse either.
      if (want.find("syntax error") != std::string::npos ||
          want.find("incomplete") != std::string::npos) {
        EXPECT_EQ(grouped.rfind("error", 0), 0u) << text << " -> " << grouped;
      }
      continue;
    }
    ASSERT_EQ(grouped.rfind("error", 0), std::string::npos) << text << " -> " << grouped;
    EXPECT_EQ(oracle.Eval(grouped), want)
        << "seed 20261201, #" << i << ": " << text << "\n as " << grouped;
    ++compared;
  }
  EXPECT_GT(compared, 2500);
}

}  // namespace
}  // namespace engine::sql
