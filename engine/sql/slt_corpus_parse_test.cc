// Every statement and query of the sqllogictest scripts in ../shared/slt
// parses, and what we parse renders back to SQL that parses to the same text.
#include <gtest/gtest.h>

#include "engine/slt/corpus_dir.h"
#include "engine/slt/script_reader.h"
#include "engine/sql/parser.h"
#include "engine/sql/render.h"

namespace engine::sql {
namespace {

class SltCorpusParseTest : public testing::TestWithParam<const char*> {};

TEST_P(SltCorpusParseTest, EverySqlTextParses) {
  const std::string path = slt::CorpusDir() + "/" + GetParam();
  Result<std::vector<slt::Record>> records = slt::ReadScriptFile(path);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  size_t parsed = 0;
  for (const slt::Record& rec : *records) {
    if (rec.kind != slt::RecordKind::kStatement && rec.kind != slt::RecordKind::kQuery) continue;
    Result<Statement> st = ParseStatement(rec.sql);
    if (!rec.expect_ok) continue;  // "statement error" may be a syntax error on purpose
    ASSERT_TRUE(st.ok()) << path << ":" << rec.sql_line << ": " << st.status().ToString() << "\n"
                         << rec.sql;
    ++parsed;
    if (const SelectStmt* sel = st->as<SelectStmt>()) {
      // The rendering is a fixed point: parsing it again renders identically.
      const std::string rendered = RenderSelect(st->ast, sel->select);
      Result<Statement> again = ParseStatement(rendered);
      ASSERT_TRUE(again.ok()) << rendered << ": " << again.status().ToString();
      EXPECT_EQ(RenderSelect(again->ast, again->as<SelectStmt>()->select), rendered)
          << path << ":" << rec.sql_line;
    }
  }
  EXPECT_GT(parsed, 1000u);
}

INSTANTIATE_TEST_SUITE_P(Scripts, SltCorpusParseTest,
                         testing::Values("select1.test", "select2.test"));

}  // namespace
}  // namespace engine::sql
