// Window syntax: OVER (...) and OVER name, FILTER, frames with every bound
// and EXCLUDE, the WINDOW clause; the words stay usable as names.
#include <gtest/gtest.h>

#include "engine/sql/parser.h"
#include "engine/sql/render.h"

namespace engine::sql {
namespace {

Statement Parse(std::string_view sql) {
  Result<Statement> st = ParseStatement(sql);
  EXPECT_TRUE(st.ok()) << sql << ": " << st.status().ToString();
  if (!st.ok()) return Statement{};
  return std::move(st).value();
}

const SelectCore& Core(const Statement& st) {
  return st.ast.select(st.as<SelectStmt>()->select).cores[0];
}

const Expr& Column(const Statement& st, size_t i) { return st.ast.expr(Core(st).columns[i].expr); }

TEST(ParserWindowTest, OverClauseWithFrame) {
  Statement st = Parse(
      "SELECT sum(x) FILTER (WHERE x > 0) OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST "
      "ROWS BETWEEN 2 PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES) FROM t");
  const Expr& e = Column(st, 0);
  ASSERT_EQ(e.kind, ExprKind::kFunction);
  ASSERT_TRUE(e.has(Expr::kOver));
  EXPECT_NE(e.third, kNoExpr);  // the FILTER
  const WindowDef& w = st.ast.windows[e.u.ids.b];
  EXPECT_EQ(w.partition_by.size(), 2u);
  ASSERT_EQ(w.order_by.size(), 1u);
  EXPECT_EQ(w.order_by[0].order, SortOrder::kDesc);
  EXPECT_EQ(w.order_by[0].nulls, NullsOrder::kFirst);
  EXPECT_TRUE(w.has_frame);
  EXPECT_EQ(w.unit, FrameUnit::kRows);
  EXPECT_EQ(w.start, FrameBound::kPreceding);
  EXPECT_NE(w.start_expr, kNoExpr);
  EXPECT_EQ(w.end, FrameBound::kUnboundedFollowing);
  EXPECT_EQ(w.exclude, FrameExclude::kTies);
  EXPECT_TRUE(w.has_exclude);
}

TEST(ParserWindowTest, StartOnlyFramesEndAtTheCurrentRow) {
  for (const char* unit : {"RANGE", "GROUPS", "ROWS"}) {
    Statement st = Parse(std::string("SELECT count(*) OVER (ORDER BY a ") + unit +
                         " UNBOUNDED PRECEDING) FROM t");
    const WindowDef& w = st.ast.windows[Column(st, 0).u.ids.b];
    EXPECT_EQ(w.start, FrameBound::kUnboundedPreceding);
    EXPECT_EQ(w.end, FrameBound::kCurrentRow);
    EXPECT_FALSE(w.has_exclude);
  }
}

TEST(ParserWindowTest, NamedWindows) {
  Statement st = Parse(
      "SELECT rank() OVER w, sum(a) OVER (w ROWS CURRENT ROW) FROM t "
      "WINDOW w AS (PARTITION BY a ORDER BY b), v AS (w)");
  const WindowDef& bare = st.ast.windows[Column(st, 0).u.ids.b];
  EXPECT_TRUE(bare.bare_name);
  EXPECT_EQ(bare.base, "w");
  const WindowDef& based = st.ast.windows[Column(st, 1).u.ids.b];
  EXPECT_FALSE(based.bare_name);
  EXPECT_EQ(based.base, "w");
  EXPECT_TRUE(based.has_frame);
  ASSERT_EQ(Core(st).windows.size(), 2u);
  EXPECT_EQ(st.ast.windows[Core(st).windows[0]].name, "w");
  EXPECT_EQ(st.ast.windows[Core(st).windows[1]].base, "w");
}

TEST(ParserWindowTest, WordsStayNames) {
  // A table aliased "window", columns named "over", "rows", "filter".
  Statement st = Parse("SELECT over, rows, filter FROM t window WHERE over > 1");
  EXPECT_EQ(Core(st).from[0].alias, "window");
  Parse("SELECT count(*) over FROM t");  // OVER without a window: an alias
  Parse("SELECT a FROM t WINDOW w AS ()");
}

TEST(ParserWindowTest, SyntaxErrors) {
  for (const char* sql : {
           "SELECT sum(a) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t",
           "SELECT sum(a) OVER (ROWS UNBOUNDED FOLLOWING) FROM t",
           "SELECT sum(a) OVER (ROWS BETWEEN 1 PRECEDING AND UNBOUNDED PRECEDING) FROM t",
           "SELECT sum(a) OVER (ROWS 1) FROM t",
           "SELECT sum(a) OVER (ROWS CURRENT ROW EXCLUDE NOTHING) FROM t",
           "SELECT sum(a) OVER (ORDER BY a",
           "SELECT sum(a) FILTER (a > 1) FROM t",
           "SELECT sum(a) OVER w FROM t WINDOW w AS (ORDER BY a), FROM t",
       }) {
    EXPECT_FALSE(ParseStatement(sql).ok()) << sql;
  }
}

// The renderer writes windows back as SQL that parses to the same tree.
TEST(ParserWindowTest, RenderRoundTrips) {
  for (const char* sql : {
           "SELECT sum(x) FILTER (WHERE x > 0) OVER (PARTITION BY a ORDER BY c DESC NULLS FIRST "
           "ROWS BETWEEN 2 PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES) FROM t",
           "SELECT rank() OVER w, count(*) OVER (w GROUPS CURRENT ROW) FROM t WINDOW w AS "
           "(ORDER BY b), v AS (w RANGE BETWEEN 1.5 FOLLOWING AND UNBOUNDED FOLLOWING "
           "EXCLUDE NO OTHERS)",
       }) {
    Statement st = Parse(sql);
    const std::string once = RenderSelect(st.ast, st.as<SelectStmt>()->select);
    Statement again = Parse(once);
    EXPECT_EQ(RenderSelect(again.ast, again.as<SelectStmt>()->select), once) << sql;
    EXPECT_NE(once.find("OVER"), std::string::npos) << once;
  }
}

}  // namespace
}  // namespace engine::sql
