// Parameters are numbered as SQLite numbers them (sqlite3ExprAssignVarNumber).
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/sql/parser.h"
#include "engine/sql/render.h"

namespace engine::sql {
namespace {

struct Numbered {
  std::vector<uint32_t> indexes;  // of each parameter, in source order
  std::vector<std::string> names;
};

void Collect(const Ast& ast, ExprId id, std::vector<std::pair<ExprId, uint32_t>>& out) {
  const Expr& e = ast.expr(id);
  if (e.kind == ExprKind::kParameter) out.emplace_back(id, e.u.ids.b);
  for (ExprId c : {e.left, e.right, e.third}) {
    if (c != kNoExpr) Collect(ast, c, out);
  }
  for (uint32_t i = 0; i < e.list_size; ++i) Collect(ast, ast.list(e)[i], out);
}

Numbered Number(std::string_view values) {
  std::string sql = "SELECT " + std::string(values);
  Result<Statement> st = ParseStatement(sql);
  EXPECT_TRUE(st.ok()) << st.status().ToString();
  Numbered out;
  if (!st.ok()) return out;
  std::vector<std::pair<ExprId, uint32_t>> found;
  for (const ResultColumn& c : st->ast.select(st->as<SelectStmt>()->select).cores[0].columns) {
    Collect(st->ast, c.expr, found);
  }
  std::sort(found.begin(), found.end());  // node ids follow source order for leaves
  for (auto& [id, index] : found) out.indexes.push_back(index);
  out.names = st->parameter_names;
  return out;
}

TEST(ParameterTest, AnonymousAreSequential) {
  Numbered n = Number("?, ?, ?");
  EXPECT_EQ(n.indexes, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(n.names, (std::vector<std::string>{"", "", ""}));
}

TEST(ParameterTest, NumberedSetTheIndexAndAnonymousContinueAfterTheLargest) {
  Numbered n = Number("?, ?5, ?, ?2, ?5");
  EXPECT_EQ(n.indexes, (std::vector<uint32_t>{1, 5, 6, 2, 5}));
  EXPECT_EQ(n.names, (std::vector<std::string>{"", "?2", "", "", "?5", ""}));
}

TEST(ParameterTest, NamedReuseTheirIndex) {
  Numbered n = Number(":a, @b, $c, :a, ?, @b, ?1");
  EXPECT_EQ(n.indexes, (std::vector<uint32_t>{1, 2, 3, 1, 4, 2, 1}));
  EXPECT_EQ(n.names, (std::vector<std::string>{":a", "@b", "$c", ""}));
}

TEST(ParameterTest, NamedAfterNumberedTakeTheNextIndex) {
  Numbered n = Number("?3, :x, ?");
  EXPECT_EQ(n.indexes, (std::vector<uint32_t>{3, 4, 5}));
  EXPECT_EQ(n.names, (std::vector<std::string>{"", "", "?3", ":x", ""}));
}

TEST(ParameterTest, CountSpansSubqueriesAndClauses) {
  Result<Statement> st = ParseStatement(
      "SELECT ? FROM t WHERE a IN (SELECT b FROM u WHERE c = ?) AND d BETWEEN ? AND ? LIMIT ?");
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->parameter_names.size(), 5u);
  Result<Statement> ins = ParseStatement("INSERT INTO t VALUES(?, ?), (?, ?)");
  ASSERT_TRUE(ins.ok());
  EXPECT_EQ(ins->parameter_names.size(), 4u);
}

TEST(ParameterTest, NumberingRestartsForEachStatement) {
  Result<std::vector<Statement>> script = ParseScript("SELECT ?, ?; SELECT :a, ?");
  ASSERT_TRUE(script.ok());
  EXPECT_EQ((*script)[0].parameter_names.size(), 2u);
  EXPECT_EQ((*script)[1].parameter_names, (std::vector<std::string>{":a", ""}));
}

TEST(ParameterTest, OutOfRangeNumbers) {
  for (const char* bad : {"SELECT ?0", "SELECT ?32767", "SELECT ?99999999999999999999"}) {
    Result<Statement> st = ParseStatement(bad);
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_EQ(st.status().message(), "variable number must be between ?1 and ?32766");
  }
  Result<Statement> max = ParseStatement("SELECT ?32766");
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->parameter_names.size(), 32766u);
}

TEST(ParameterTest, RendersAsWritten) {
  Result<Statement> st = ParseStatement("SELECT 1 WHERE a = ?2 AND b = :name AND c = ?");
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(RenderExpr(st->ast, st->ast.select(st->as<SelectStmt>()->select).cores[0].where),
            "(((a = ?2) AND (b = :name)) AND (c = ?))");
}

}  // namespace
}  // namespace engine::sql
