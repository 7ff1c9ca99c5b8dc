#include "engine/sql/time_keyword.h"

#include <gtest/gtest.h>

#include "engine/sql/parser.h"
#include "engine/sql/render.h"

namespace engine::sql {
namespace {

TEST(TimeKeywordTest, BareWordsAreZeroArgumentCalls) {
  Result<Statement> st = ParseStatement("SELECT current_date, CURRENT_TIME, Current_Timestamp");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  const Select& s = st->ast.select(st->as<SelectStmt>()->select);
  ASSERT_EQ(s.cores[0].columns.size(), 3u);
  const char* names[] = {"current_date", "current_time", "current_timestamp"};
  for (size_t i = 0; i < 3; i++) {
    const Expr& e = st->ast.expr(s.cores[0].columns[i].expr);
    EXPECT_EQ(e.kind, ExprKind::kFunction);
    EXPECT_EQ(e.list_size, 0u);
    EXPECT_EQ(st->ast.str(e.u.ids.a), names[i]);
  }
  // Rendered without parentheses, so that the text parses again.
  const std::string rendered = RenderSelect(st->ast, st->as<SelectStmt>()->select);
  EXPECT_EQ(rendered, "SELECT current_date, current_time, current_timestamp");
  EXPECT_TRUE(ParseStatement(rendered).ok());
}

TEST(TimeKeywordTest, QuotedOrQualifiedIsAColumn) {
  Result<Statement> st = ParseStatement("SELECT \"current_date\", t.current_time FROM t");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  const Select& s = st->ast.select(st->as<SelectStmt>()->select);
  for (const auto& c : s.cores[0].columns) {
    EXPECT_EQ(st->ast.expr(c.expr).kind, ExprKind::kColumn);
  }
  EXPECT_TRUE(ParseStatement("CREATE TABLE u(current_date, current_timestamp TEXT)").ok());
}

TEST(TimeKeywordTest, SqliteSyntaxErrors) {
  for (const char* sql : {"SELECT current_date()", "SELECT current_date.x FROM u"}) {
    Result<Statement> st = ParseStatement(sql);
    EXPECT_FALSE(st.ok()) << sql;
  }
  EXPECT_EQ(ParseStatement("SELECT current_date()").status().message(), "near \"(\": syntax error");
}

TEST(TimeKeywordTest, Defaults) {
  Result<Statement> st = ParseStatement(
      "CREATE TABLE t(a DEFAULT CURRENT_TIMESTAMP, b DEFAULT current_date, c DEFAULT abc)");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  const auto* ct = st->as<CreateTableStmt>();
  ASSERT_NE(ct, nullptr);
  EXPECT_EQ(st->ast.expr(ct->columns[0].default_value).kind, ExprKind::kFunction);
  EXPECT_EQ(ct->columns[0].default_text, "CURRENT_TIMESTAMP");
  EXPECT_EQ(st->ast.expr(ct->columns[1].default_value).kind, ExprKind::kFunction);
  EXPECT_EQ(st->ast.expr(ct->columns[2].default_value).kind, ExprKind::kString);
}

}  // namespace
}  // namespace engine::sql
