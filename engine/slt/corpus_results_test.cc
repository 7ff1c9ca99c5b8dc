// The formatter and hasher reproduce every expected result of the scripts in
// ../shared/slt when the real SQLite computes the rows, which checks them
// against what sqllogictest itself printed.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "engine/slt/corpus_dir.h"
#include "engine/slt/result_format.h"
#include "engine/slt/result_hash.h"
#include "engine/slt/script_reader.h"

namespace engine::slt {
namespace {

std::vector<std::vector<Value>> RunSql(sqlite3* db, const std::string& sql, std::string* error) {
  std::vector<std::vector<Value>> rows;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    *error = sqlite3_errmsg(db);
    return rows;
  }
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    std::vector<Value>& row = rows.emplace_back();
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_INTEGER:
          row.emplace_back(static_cast<int64_t>(sqlite3_column_int64(stmt, c)));
          break;
        case SQLITE_FLOAT:
          row.emplace_back(sqlite3_column_double(stmt, c));
          break;
        case SQLITE_NULL:
          row.emplace_back();
          break;
        default:
          row.emplace_back(std::string(reinterpret_cast<const char*>(sqlite3_column_blob(stmt, c)),
                                       static_cast<size_t>(sqlite3_column_bytes(stmt, c))));
      }
    }
  }
  if (rc != SQLITE_DONE) *error = sqlite3_errmsg(db);
  sqlite3_finalize(stmt);
  return rows;
}

class CorpusResultsTest : public testing::TestWithParam<const char*> {};

TEST_P(CorpusResultsTest, FormatterReproducesExpectedResults) {
  Result<std::vector<Record>> records = ReadScriptFile(CorpusDir() + "/" + GetParam());
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  int threshold = 0;
  size_t checked = 0, printed_form = 0;
  for (const Record& rec : *records) {
    if (!rec.AppliesTo("sqlite")) continue;
    if (rec.kind == RecordKind::kHalt) break;
    if (rec.kind == RecordKind::kHashThreshold) threshold = rec.threshold;
    if (rec.kind != RecordKind::kStatement && rec.kind != RecordKind::kQuery) continue;
    std::string error;
    std::vector<std::vector<Value>> rows = RunSql(db, rec.sql, &error);
    if (rec.kind == RecordKind::kStatement) {
      EXPECT_EQ(error.empty(), rec.expect_ok) << "line " << rec.line << ": " << error;
      continue;
    }
    ASSERT_TRUE(error.empty()) << "line " << rec.line << ": " << error;
    std::vector<std::string> values = FormatResult(rows, rec.types, rec.sort);
    EXPECT_TRUE(MatchesExpected(rec, values)) << GetParam() << ":" << rec.line;
    if (threshold > 0) {
      // Where the script sets the threshold, the exact printed lines match too.
      EXPECT_EQ(ResultLines(values, threshold), rec.expected) << GetParam() << ":" << rec.line;
      ++printed_form;
    }
    ++checked;
  }
  sqlite3_close(db);
  EXPECT_EQ(checked, 1000u);
  if (std::string(GetParam()) == "select2.test") {
    EXPECT_EQ(printed_form, 1000u);
  }
}

INSTANTIATE_TEST_SUITE_P(Scripts, CorpusResultsTest,
                         testing::Values("select1.test", "select2.test"));

}  // namespace
}  // namespace engine::slt
