#include "engine/slt/script_reader.h"

#include <gtest/gtest.h>

#include "engine/slt/corpus_dir.h"

namespace engine::slt {
namespace {

constexpr char kScript[] =
    "# a comment\n"
    "hash-threshold 8\n"
    "\n"
    "statement ok\n"
    "CREATE TABLE t1(a INTEGER,\n"
    "  b TEXT)\n"
    "\n"
    "skipif mysql\n"
    "# comment between condition and record\n"
    "onlyif sqlite\n"
    "statement error\n"
    "INSERT INTO nowhere VALUES(1)\n"
    "\n"
    "\n"
    "query IT rowsort label-1\n"
    "SELECT a, b\n"
    "  FROM t1\n"
    "----\n"
    "1\n"
    "(empty)\n"
    "NULL\n"
    "x y\n"
    "\n"
    "query R\r\n"
    "SELECT 1.5\r\n"
    "----\r\n"
    "1 value hashing to 0123456789abcdef0123456789abcdef\r\n"
    "\r\n"
    "query I valuesort\n"
    "SELECT 1\n"
    "\n"
    "onlyif mssql\n"
    "halt\n"
    "\n"
    "query I nosort\n"
    "SELECT 2\n"
    "----\n"
    "2";

TEST(ScriptReaderTest, ReadsEveryRecordKind) {
  Result<std::vector<Record>> r = ReadScript(kScript);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const std::vector<Record>& recs = *r;
  ASSERT_EQ(recs.size(), 8u);

  EXPECT_EQ(recs[0].kind, RecordKind::kHashThreshold);
  EXPECT_EQ(recs[0].threshold, 8);
  EXPECT_EQ(recs[0].line, 2);

  EXPECT_EQ(recs[1].kind, RecordKind::kStatement);
  EXPECT_TRUE(recs[1].expect_ok);
  EXPECT_EQ(recs[1].sql, "CREATE TABLE t1(a INTEGER,\n  b TEXT)");
  EXPECT_EQ(recs[1].line, 4);
  EXPECT_EQ(recs[1].sql_line, 5);

  EXPECT_EQ(recs[2].kind, RecordKind::kStatement);
  EXPECT_FALSE(recs[2].expect_ok);
  EXPECT_EQ(recs[2].line, 8);
  ASSERT_EQ(recs[2].conditions.size(), 2u);
  EXPECT_FALSE(recs[2].conditions[0].only_if);
  EXPECT_EQ(recs[2].conditions[0].engine, "mysql");
  EXPECT_TRUE(recs[2].conditions[1].only_if);
  EXPECT_TRUE(recs[2].AppliesTo("sqlite"));
  EXPECT_FALSE(recs[2].AppliesTo("mysql"));
  EXPECT_FALSE(recs[2].AppliesTo("postgresql"));

  const Record& q = recs[3];
  EXPECT_EQ(q.kind, RecordKind::kQuery);
  EXPECT_EQ(q.line, 15);
  EXPECT_EQ(q.types, "IT");
  EXPECT_EQ(q.sort, SortMode::kRowSort);
  EXPECT_EQ(q.label, "label-1");
  EXPECT_EQ(q.sql, "SELECT a, b\n  FROM t1");
  EXPECT_EQ(q.expected, (std::vector<std::string>{"1", "(empty)", "NULL", "x y"}));
  EXPECT_FALSE(q.expects_hash);

  EXPECT_EQ(recs[4].types, "R");
  EXPECT_EQ(recs[4].sort, SortMode::kNoSort);
  EXPECT_EQ(recs[4].sql, "SELECT 1.5");
  EXPECT_TRUE(recs[4].expects_hash);
  EXPECT_EQ(recs[4].hash_count, 1u);
  EXPECT_EQ(recs[4].hash, "0123456789abcdef0123456789abcdef");

  EXPECT_EQ(recs[5].sort, SortMode::kValueSort);
  EXPECT_TRUE(recs[5].expected.empty());

  EXPECT_EQ(recs[6].kind, RecordKind::kHalt);
  EXPECT_EQ(recs[6].line, 32);
  EXPECT_FALSE(recs[6].AppliesTo("sqlite"));

  EXPECT_EQ(recs[7].expected, std::vector<std::string>{"2"});
  EXPECT_EQ(recs[7].line, 35);
}

TEST(ScriptReaderTest, MalformedRecordsAreErrorsWithLineNumbers) {
  struct Case {
    const char* script;
    const char* message;
  };
  const Case cases[] = {
      {"statement maybe\nSELECT 1\n", "line 1: expected 'statement ok' or 'statement error'"},
      {"\n\nquery X nosort\nSELECT 1\n", "line 3: bad column type in query: X"},
      {"query I sideways\nSELECT 1\n", "line 1: unknown sort mode: sideways"},
      {"query\nSELECT 1\n", "line 1: expected 'query <types> [sort] [label]'"},
      {"frobnicate\n", "line 1: unknown record type: frobnicate"},
      {"statement ok\n\n", "line 2: record without SQL"},
      {"skipif sqlite\n\nstatement ok\nSELECT 1\n", "line 1: skipif/onlyif without a record"},
      {"onlyif\nstatement ok\nSELECT 1\n", "line 1: onlyif without an engine name"},
      {"hash-threshold many\n", "line 1: hash-threshold needs a count"},
      {"query I\nSELECT 1\n----\n3 values hashing to abc\n", "line 1: malformed hash: abc"},
  };
  for (const Case& c : cases) {
    Result<std::vector<Record>> r = ReadScript(c.script);
    ASSERT_FALSE(r.ok()) << c.script;
    EXPECT_EQ(r.status().message(), c.message) << c.script;
  }
  EXPECT_TRUE(ReadScript("").ok());
  EXPECT_TRUE(ReadScript("# only comments\n\n# here\n").ok());
  EXPECT_FALSE(ReadScriptFile("/nonexistent/script.test").ok());
}

TEST(ScriptReaderTest, Select1) {
  Result<std::vector<Record>> r = ReadScriptFile(CorpusDir() + "/select1.test");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  size_t statements = 0, queries = 0, hashed = 0;
  for (const Record& rec : *r) {
    statements += rec.kind == RecordKind::kStatement;
    queries += rec.kind == RecordKind::kQuery;
    hashed += rec.expects_hash;
    EXPECT_TRUE(rec.AppliesTo("sqlite"));
  }
  EXPECT_EQ(r->size(), 1031u);
  EXPECT_EQ(statements, 31u);
  EXPECT_EQ(queries, 1000u);
  EXPECT_EQ(hashed, 909u);
  EXPECT_EQ(r->front().line, 1);
  EXPECT_EQ(r->front().sql,
            "CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER)");
  const Record& first_query = (*r)[31];
  EXPECT_EQ(first_query.line, 94);
  EXPECT_EQ(first_query.sql_line, 95);
  EXPECT_EQ(first_query.types, "I");
  EXPECT_EQ(first_query.hash_count, 30u);
  EXPECT_EQ(first_query.hash, "3c13dee48d9356ae19af2515e05e6b54");
  const Record& last = r->back();
  EXPECT_EQ(last.line, 12181);
  EXPECT_EQ(last.hash_count, 29u);
  EXPECT_EQ(last.hash, "20a327dd7dddd406aa915b0ee3795434");
}

TEST(ScriptReaderTest, Select2) {
  Result<std::vector<Record>> r = ReadScriptFile(CorpusDir() + "/select2.test");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1032u);
  EXPECT_EQ(r->front().kind, RecordKind::kHashThreshold);
  EXPECT_EQ(r->front().threshold, 8);
  size_t queries = 0, rowsort = 0, hashed = 0;
  for (const Record& rec : *r) {
    queries += rec.kind == RecordKind::kQuery;
    rowsort += rec.sort == SortMode::kRowSort;
    hashed += rec.expects_hash;
  }
  EXPECT_EQ(queries, 1000u);
  EXPECT_EQ(hashed, 877u);
  EXPECT_GT(rowsort, 0u);
  EXPECT_EQ((*r)[32].line, 96);
  EXPECT_EQ((*r)[32].sort, SortMode::kRowSort);
  EXPECT_EQ(r->back().line, 11210);
}

}  // namespace
}  // namespace engine::slt
