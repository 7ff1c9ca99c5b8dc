#include "engine/sql/parser.h"

#include <gtest/gtest.h>

#include "engine/sql/render.h"

namespace engine::sql {
namespace {

Statement Parse(std::string_view sql) {
  Result<Statement> st = ParseStatement(sql);
  EXPECT_TRUE(st.ok()) << sql << ": " << st.status().ToString();
  if (!st.ok()) return Statement{};
  return std::move(st).value();
}

std::string Where(const Statement& st) {
  const Select& s = st.ast.select(st.as<SelectStmt>()->select);
  return RenderExpr(st.ast, s.cores[0].where);
}

TEST(ParserTest, CreateTableColumnsAndConstraints) {
  Statement st = Parse(
      "CREATE TABLE IF NOT EXISTS main.t1(id INTEGER PRIMARY KEY DESC AUTOINCREMENT, "
      "name VARCHAR(20) NOT NULL DEFAULT 'x', price DOUBLE PRECISION DEFAULT -1.5, "
      "code TEXT UNIQUE COLLATE nocase, qty INT CHECK (qty > 0) DEFAULT (1+2), "
      "CONSTRAINT pk2 UNIQUE (name, code DESC) ON CONFLICT IGNORE, CHECK (price < 100))");
  const CreateTableStmt* t = st.as<CreateTableStmt>();
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->if_not_exists);
  EXPECT_EQ(t->schema, "main");
  EXPECT_EQ(t->name, "t1");
  ASSERT_EQ(t->columns.size(), 5u);
  EXPECT_EQ(t->columns[0].type, "INTEGER");
  EXPECT_TRUE(t->columns[0].primary_key);
  EXPECT_EQ(t->columns[0].primary_key_order, SortOrder::kDesc);
  EXPECT_TRUE(t->columns[0].autoincrement);
  EXPECT_EQ(t->columns[1].type, "VARCHAR(20)");
  EXPECT_TRUE(t->columns[1].not_null);
  EXPECT_EQ(RenderExpr(st.ast, t->columns[1].default_value), "'x'");
  EXPECT_EQ(t->columns[2].type, "DOUBLE PRECISION");
  EXPECT_EQ(RenderExpr(st.ast, t->columns[2].default_value), "(-1.5)");
  EXPECT_TRUE(t->columns[3].unique);
  EXPECT_EQ(t->columns[3].collation, "nocase");
  ASSERT_EQ(t->columns[4].checks.size(), 1u);
  EXPECT_EQ(RenderExpr(st.ast, t->columns[4].checks[0].expr), "(qty > 0)");
  EXPECT_EQ(t->columns[4].checks[0].text, "qty > 0");
  EXPECT_EQ(t->columns[4].checks[0].name, "");
  EXPECT_EQ(RenderExpr(st.ast, t->columns[4].default_value), "(1 + 2)");
  ASSERT_EQ(t->constraints.size(), 2u);
  EXPECT_EQ(t->constraints[0].kind, TableConstraint::Kind::kUnique);
  EXPECT_EQ(t->constraints[0].name, "pk2");
  ASSERT_EQ(t->constraints[0].columns.size(), 2u);
  EXPECT_EQ(t->constraints[0].columns[1].order, SortOrder::kDesc);
  EXPECT_EQ(t->constraints[0].conflict, ConflictAction::kIgnore);
  EXPECT_EQ(t->constraints[1].kind, TableConstraint::Kind::kCheck);
  EXPECT_EQ(t->constraints[1].check.text, "price < 100");
  EXPECT_EQ(t->constraints[1].check.name, "");  // the comma ended pk2's reach
}

TEST(ParserTest, CheckConstraintNamesFollowSqlite) {
  // sqlite3 gives a CHECK the last CONSTRAINT name in force: within a
  // column after it, from the last column into the table constraints, and
  // between table constraints not separated by a comma.
  Statement st = Parse(
      "CREATE TABLE t(a CHECK( a >  0 ) CONSTRAINT \"c 1\" NOT NULL CHECK(a<9), "
      "b CHECK(b), c CONSTRAINT [c2] NULL, CHECK(c /* x */ <> 1) CONSTRAINT c3 UNIQUE(a) "
      "CHECK(c), CHECK(\n c < 5\t))");
  const CreateTableStmt* t = st.as<CreateTableStmt>();
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->columns[0].checks.size(), 2u);
  EXPECT_EQ(t->columns[0].checks[0].name, "");
  EXPECT_EQ(t->columns[0].checks[0].text, "a >  0");
  EXPECT_EQ(t->columns[0].checks[1].name, "c 1");
  ASSERT_EQ(t->columns[1].checks.size(), 1u);
  EXPECT_EQ(t->columns[1].checks[0].name, "");
  ASSERT_EQ(t->constraints.size(), 4u);
  EXPECT_EQ(t->constraints[0].check.name, "c2");
  EXPECT_EQ(t->constraints[0].check.text, "c /* x */ <> 1");
  EXPECT_EQ(t->constraints[2].check.name, "c3");
  EXPECT_EQ(t->constraints[3].check.name, "");
  EXPECT_EQ(t->constraints[3].check.text, "c < 5");
}

TEST(ParserTest, CreateTableKeepsSchemaTextLikeSqlite) {
  Statement st = Parse("create  table if not exists t2 ( a int , b /* c */ text ) ;");
  const CreateTableStmt* t = st.as<CreateTableStmt>();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->schema_sql, "CREATE TABLE t2 ( a int , b /* c */ text )");
  EXPECT_EQ(st.text, "create  table if not exists t2 ( a int , b /* c */ text )");

  Statement idx = Parse("create unique index if not exists i1 on t2(a desc, b)");
  const CreateIndexStmt* i = idx.as<CreateIndexStmt>();
  ASSERT_NE(i, nullptr);
  EXPECT_TRUE(i->unique);
  EXPECT_EQ(i->table, "t2");
  ASSERT_EQ(i->columns.size(), 2u);
  EXPECT_EQ(i->columns[0].order, SortOrder::kDesc);
  EXPECT_EQ(i->schema_sql, "CREATE UNIQUE INDEX i1 on t2(a desc, b)");

  Statement view = Parse("create temp view v1(x) as select a from t2");
  const CreateViewStmt* v = view.as<CreateViewStmt>();
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(v->temporary);
  EXPECT_EQ(v->columns, std::vector<std::string>{"x"});
  EXPECT_EQ(v->schema_sql, "CREATE VIEW v1(x) as select a from t2");
}

TEST(ParserTest, CompositePrimaryKeyAndTableOptions) {
  Statement st = Parse("CREATE TABLE t(a, b, c, PRIMARY KEY(a, b)) WITHOUT ROWID");
  const CreateTableStmt* t = st.as<CreateTableStmt>();
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->without_rowid);
  EXPECT_EQ(t->columns[0].type, "");
  ASSERT_EQ(t->constraints.size(), 1u);
  EXPECT_EQ(t->constraints[0].kind, TableConstraint::Kind::kPrimaryKey);
  EXPECT_EQ(t->constraints[0].columns.size(), 2u);
  const Statement as = Parse("CREATE TABLE t3 AS SELECT * FROM t");
  EXPECT_TRUE(as.as<CreateTableStmt>()->as_select.has_value());
}

TEST(ParserTest, Drop) {
  Statement st = Parse("DROP TABLE IF EXISTS t1");
  ASSERT_NE(st.as<DropStmt>(), nullptr);
  EXPECT_TRUE(st.as<DropStmt>()->if_exists);
  EXPECT_EQ(st.as<DropStmt>()->kind, DropStmt::Kind::kTable);
  EXPECT_EQ(Parse("DROP INDEX i1").as<DropStmt>()->kind, DropStmt::Kind::kIndex);
  EXPECT_EQ(Parse("DROP VIEW v1").as<DropStmt>()->kind, DropStmt::Kind::kView);
}

TEST(ParserTest, Insert) {
  Statement st = Parse("INSERT INTO t1(e,c) VALUES(1,'a'),(2,NULL)");
  const InsertStmt* ins = st.as<InsertStmt>();
  ASSERT_NE(ins, nullptr);
  EXPECT_EQ(ins->table, "t1");
  EXPECT_EQ(ins->columns, (std::vector<std::string>{"e", "c"}));
  ASSERT_TRUE(ins->select);
  const Select& s = st.ast.select(*ins->select);
  ASSERT_EQ(s.cores.size(), 1u);
  ASSERT_EQ(s.cores[0].values.size(), 2u);
  EXPECT_EQ(RenderExpr(st.ast, s.cores[0].values[1][1]), "NULL");

  EXPECT_EQ(Parse("INSERT OR REPLACE INTO t VALUES(1)").as<InsertStmt>()->conflict,
            ConflictAction::kReplace);
  EXPECT_EQ(Parse("INSERT OR IGNORE INTO t VALUES(1)").as<InsertStmt>()->conflict,
            ConflictAction::kIgnore);
  EXPECT_EQ(Parse("REPLACE INTO t VALUES(1)").as<InsertStmt>()->conflict, ConflictAction::kReplace);
  EXPECT_TRUE(Parse("INSERT INTO t DEFAULT VALUES").as<InsertStmt>()->default_values);
  Statement sel = Parse("INSERT INTO t SELECT a FROM u WHERE a > 1");
  EXPECT_EQ(RenderSelect(sel.ast, *sel.as<InsertStmt>()->select), "SELECT a FROM u WHERE (a > 1)");
}

TEST(ParserTest, UpdateAndDelete) {
  Statement st = Parse("UPDATE OR ABORT t1 SET a = a + 1, b = 'x' WHERE c IS NOT NULL");
  const UpdateStmt* up = st.as<UpdateStmt>();
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->conflict, ConflictAction::kAbort);
  ASSERT_EQ(up->assignments.size(), 2u);
  EXPECT_EQ(up->assignments[0].first, "a");
  EXPECT_EQ(RenderExpr(st.ast, up->assignments[0].second), "(a + 1)");
  EXPECT_EQ(RenderExpr(st.ast, up->where), "(c IS NOT NULL)");

  Statement del = Parse("DELETE FROM t1 WHERE a BETWEEN 1 AND 5");
  ASSERT_NE(del.as<DeleteStmt>(), nullptr);
  EXPECT_EQ(RenderExpr(del.ast, del.as<DeleteStmt>()->where), "(a BETWEEN 1 AND 5)");
  EXPECT_EQ(Parse("DELETE FROM t1").as<DeleteStmt>()->where, kNoExpr);
}

TEST(ParserTest, SelectClauses) {
  Statement st = Parse(
      "SELECT DISTINCT a AS x, b y, t1.*, *, count(*), sum(DISTINCT c) 'str alias' "
      "FROM t1 AS p, t2 q LEFT OUTER JOIN t3 ON p.a = t3.a CROSS JOIN t4 "
      "JOIN t5 USING (a, b) INNER JOIN (SELECT 1 AS a) AS sub ON 1 "
      "WHERE a > 0 GROUP BY a, b HAVING count(*) > 1 "
      "ORDER BY 1 DESC, b ASC NULLS FIRST, c NULLS LAST LIMIT 10 OFFSET 5");
  const Select& s = st.ast.select(st.as<SelectStmt>()->select);
  const SelectCore& c = s.cores[0];
  EXPECT_TRUE(c.distinct);
  ASSERT_EQ(c.columns.size(), 6u);
  EXPECT_EQ(c.columns[0].alias, "x");
  EXPECT_EQ(c.columns[1].alias, "y");
  EXPECT_EQ(c.columns[2].kind, ResultColumn::Kind::kTableStar);
  EXPECT_EQ(c.columns[2].table, "t1");
  EXPECT_EQ(c.columns[3].kind, ResultColumn::Kind::kStar);
  EXPECT_EQ(c.columns[4].source_text, "count(*)");
  EXPECT_EQ(RenderExpr(st.ast, c.columns[4].expr), "count(*)");
  EXPECT_EQ(RenderExpr(st.ast, c.columns[5].expr), "sum(DISTINCT c)");
  EXPECT_EQ(c.columns[5].alias, "str alias");
  ASSERT_EQ(c.from.size(), 6u);
  EXPECT_EQ(c.from[0].alias, "p");
  EXPECT_EQ(c.from[1].join, JoinType::kComma);
  EXPECT_EQ(c.from[1].alias, "q");
  EXPECT_EQ(c.from[2].join, JoinType::kLeft);
  EXPECT_EQ(RenderExpr(st.ast, c.from[2].on), "(p.a = t3.a)");
  EXPECT_EQ(c.from[3].join, JoinType::kCross);
  EXPECT_EQ(c.from[4].join, JoinType::kInner);
  EXPECT_EQ(c.from[4].using_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(c.from[5].kind, TableRef::Kind::kSubquery);
  EXPECT_EQ(c.from[5].alias, "sub");
  EXPECT_EQ(c.group_by.size(), 2u);
  EXPECT_EQ(RenderExpr(st.ast, c.having), "(count(*) > 1)");
  ASSERT_EQ(s.order_by.size(), 3u);
  EXPECT_EQ(s.order_by[0].order, SortOrder::kDesc);
  EXPECT_EQ(s.order_by[1].nulls, NullsOrder::kFirst);
  EXPECT_EQ(s.order_by[2].nulls, NullsOrder::kLast);
  EXPECT_EQ(RenderExpr(st.ast, s.limit), "10");
  EXPECT_EQ(RenderExpr(st.ast, s.offset), "5");
}

TEST(ParserTest, ResultColumnSourceTextIsVerbatim) {
  Statement st = Parse("SELECT  a+b*2 ,  abs( b - c )AS d, (a+b+c+d+e)/5 FROM t1");
  const SelectCore& c = st.ast.select(st.as<SelectStmt>()->select).cores[0];
  EXPECT_EQ(c.columns[0].source_text, "a+b*2");
  EXPECT_EQ(c.columns[1].source_text, "abs( b - c )");
  EXPECT_EQ(c.columns[1].alias, "d");
  EXPECT_EQ(c.columns[2].source_text, "(a+b+c+d+e)/5");
}

TEST(ParserTest, LimitCommaMeansOffsetFirst) {
  Statement st = Parse("SELECT a FROM t LIMIT 5, 10");
  const Select& s = st.ast.select(st.as<SelectStmt>()->select);
  EXPECT_EQ(RenderExpr(st.ast, s.limit), "10");
  EXPECT_EQ(RenderExpr(st.ast, s.offset), "5");
}

TEST(ParserTest, CompoundAndValues) {
  Statement st = Parse(
      "SELECT a FROM t1 UNION SELECT b FROM t2 UNION ALL VALUES(1),(2) INTERSECT SELECT 3 "
      "EXCEPT SELECT 4 ORDER BY 1");
  const Select& s = st.ast.select(st.as<SelectStmt>()->select);
  ASSERT_EQ(s.cores.size(), 5u);
  EXPECT_EQ(s.ops, (std::vector<CompoundOp>{CompoundOp::kUnion, CompoundOp::kUnionAll,
                                            CompoundOp::kIntersect, CompoundOp::kExcept}));
  EXPECT_TRUE(s.cores[2].is_values());
  EXPECT_EQ(s.order_by.size(), 1u);
  EXPECT_EQ(RenderSelect(st.ast, st.as<SelectStmt>()->select),
            "SELECT a FROM t1 UNION SELECT b FROM t2 UNION ALL VALUES (1), (2) INTERSECT "
            "SELECT 3 EXCEPT SELECT 4 ORDER BY 1");
  Statement v = Parse("VALUES(1, 'a'), (2, 'b')");
  EXPECT_EQ(v.ast.select(v.as<SelectStmt>()->select).cores[0].values.size(), 2u);
}

TEST(ParserTest, ParenthesisedJoinGroup) {
  Statement st = Parse("SELECT * FROM (t1 CROSS JOIN t2) AS g, t3 NATURAL LEFT JOIN t4");
  const SelectCore& c = st.ast.select(st.as<SelectStmt>()->select).cores[0];
  ASSERT_EQ(c.from.size(), 3u);
  EXPECT_EQ(c.from[0].kind, TableRef::Kind::kGroup);
  EXPECT_EQ(c.from[0].group.size(), 2u);
  EXPECT_EQ(c.from[2].join, JoinType::kNaturalLeft);
}

TEST(ParserTest, Expressions) {
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a IN (1, 2, 3)")), "(a IN (1, 2, 3))");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a NOT IN ()")), "(a NOT IN ())");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a IN (SELECT b FROM u)")),
            "(a IN (SELECT b FROM u))");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.x = t.x)")),
            "EXISTS (SELECT 1 FROM u WHERE (u.x = t.x))");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE NOT EXISTS (SELECT 1)")), "(NOT EXISTS (SELECT 1))");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a = (SELECT max(b) FROM u)")),
            "(a = (SELECT max(b) FROM u))");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a LIKE 'x%' ESCAPE '\\'")),
            "(a LIKE 'x%' ESCAPE '\\')");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a NOT GLOB '*x'")), "(a NOT GLOB '*x')");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a ISNULL OR b NOTNULL OR c NOT NULL")),
            "(((a IS NULL) OR (b IS NOT NULL)) OR (c IS NOT NULL))");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a IS b AND a IS NOT b")),
            "((a IS b) AND (a IS NOT b))");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END")),
            "CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE CASE a WHEN 1 THEN 'x' END")),
            "CASE a WHEN 1 THEN 'x' END");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE CAST(a AS VARCHAR(10)) = '1'")),
            "(CAST(a AS VARCHAR(10)) = '1')");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE a COLLATE NOCASE = 'x'")),
            "((a COLLATE NOCASE) = 'x')");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE X'00ff' = x''")), "(X'00FF' = X'')");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE \"a b\" = [c].`d`")), "(\"a b\" = c.d)");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE replace(a, 'x', 'y') = like('a', 'b')")),
            "(replace(a, 'x', 'y') = like('a', 'b'))");
  EXPECT_EQ(Where(Parse("SELECT 1 FROM t WHERE key = 1 AND plan = 2")),
            "((\"key\" = 1) AND (\"plan\" = 2))");
}

TEST(ParserTest, NumericLiterals) {
  auto lit = [](std::string_view sql) { return Where(Parse(sql)); };
  EXPECT_EQ(lit("SELECT 1 WHERE 0x10"), "16");
  EXPECT_EQ(lit("SELECT 1 WHERE 0xFFFFFFFFFFFFFFFF"), "-1");
  EXPECT_EQ(lit("SELECT 1 WHERE 9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(lit("SELECT 1 WHERE -9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(lit("SELECT 1 WHERE 9223372036854775808"), "9223372036854775808.0");
  EXPECT_EQ(lit("SELECT 1 WHERE 1.5e3"), "1500.0");
  EXPECT_EQ(lit("SELECT 1 WHERE .25"), "0.25");
  EXPECT_EQ(lit("SELECT 1 WHERE 1e999"), "1e999");
  Statement st = Parse("SELECT 1 WHERE 'it''s'");
  EXPECT_EQ(Where(st), "'it''s'");
}

TEST(ParserTest, RenderedFunctionNamesParseBack) {
  Statement st = Parse("SELECT \"odd name\"(1), replace(a, 'b', 'c'), \"select\"() FROM t");
  const SelectStmt* sel = st.as<SelectStmt>();
  const std::string rendered = RenderSelect(st.ast, sel->select);
  EXPECT_EQ(rendered, "SELECT \"odd name\"(1), replace(a, 'b', 'c'), \"select\"() FROM t");
  Statement again = Parse(rendered);
  EXPECT_EQ(RenderSelect(again.ast, again.as<SelectStmt>()->select), rendered);
}

TEST(ParserTest, DoubleQuotedIdentifierIsMarked) {
  Statement st = Parse("SELECT \"abc\", abc FROM t");
  const SelectCore& c = st.ast.select(st.as<SelectStmt>()->select).cores[0];
  EXPECT_TRUE(st.ast.expr(c.columns[0].expr).has(Expr::kDoubleQuoted));
  EXPECT_FALSE(st.ast.expr(c.columns[1].expr).has(Expr::kDoubleQuoted));
}

TEST(ParserTest, TransactionsExplainPragma) {
  EXPECT_NE(Parse("BEGIN").as<BeginStmt>(), nullptr);
  EXPECT_EQ(Parse("BEGIN IMMEDIATE TRANSACTION").as<BeginStmt>()->mode,
            BeginStmt::Mode::kImmediate);
  EXPECT_NE(Parse("COMMIT").as<CommitStmt>(), nullptr);
  EXPECT_NE(Parse("END TRANSACTION").as<CommitStmt>(), nullptr);
  EXPECT_NE(Parse("ROLLBACK").as<RollbackStmt>(), nullptr);
  Statement ex = Parse("EXPLAIN SELECT 1");
  EXPECT_EQ(ex.explain, ExplainMode::kExplain);
  EXPECT_NE(ex.as<SelectStmt>(), nullptr);
  EXPECT_EQ(Parse("EXPLAIN QUERY PLAN SELECT 1").explain, ExplainMode::kQueryPlan);
  Statement p = Parse("PRAGMA main.page_size = 4096");
  EXPECT_EQ(p.as<PragmaStmt>()->schema, "main");
  EXPECT_EQ(p.as<PragmaStmt>()->name, "page_size");
  EXPECT_EQ(p.as<PragmaStmt>()->value, "4096");
  EXPECT_EQ(Parse("PRAGMA journal_mode(WAL)").as<PragmaStmt>()->value, "WAL");
  EXPECT_EQ(Parse("PRAGMA cache_size = -2000").as<PragmaStmt>()->value, "-2000");
  EXPECT_FALSE(Parse("PRAGMA integrity_check").as<PragmaStmt>()->value.has_value());
}

TEST(ParserTest, ScriptsSplitIntoStatements) {
  Result<std::vector<Statement>> script =
      ParseScript(";; CREATE TABLE t(a); INSERT INTO t VALUES(1) ;\n SELECT * FROM t;; -- end");
  ASSERT_TRUE(script.ok()) << script.status().ToString();
  ASSERT_EQ(script->size(), 3u);
  EXPECT_EQ((*script)[1].text, "INSERT INTO t VALUES(1)");
  EXPECT_EQ((*script)[2].text, "SELECT * FROM t");

  Parser parser("SELECT 1; SELECT 2");
  auto first = parser.Next();
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ(parser.offset(), 9u);  // just past the first ';'
  auto second = parser.Next();
  ASSERT_TRUE(second.ok() && second->has_value());
  auto end = parser.Next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
  EXPECT_TRUE(ParseScript("  -- nothing\n").ok());
  EXPECT_FALSE(ParseStatement("SELECT 1; SELECT 2").ok());
  EXPECT_FALSE(ParseStatement("   ").ok());
}

TEST(ParserTest, ExpressionHeightsAreRecorded) {
  Statement st = Parse("SELECT 1 + 2 * 3");
  const SelectCore& c = st.ast.select(st.as<SelectStmt>()->select).cores[0];
  EXPECT_EQ(st.ast.expr(c.columns[0].expr).height, 3u);
}

}  // namespace
}  // namespace engine::sql
