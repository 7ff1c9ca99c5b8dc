// Tables that sqlite3's ALTER TABLE ADD COLUMN widened: the rows written
// before it keep their shorter records, and sqlite3 reads the new column's
// DEFAULT there. The engine must read the same values — in results,
// comparisons, sorting, index builds, the rows an UPDATE rewrites, and
// integrity_check — or it answers wrongly on any database a migration
// touched. Files are made by sqlite3; each query script runs on the engine
// and on sqlite3, on copies, and the transcripts must match.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/testing/expect_like_sqlite.h"
#include "engine/testing/script_compare.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::DumpTables;
using testing::EngineTranscript;
using testing::SqliteDb;
using testing::SqliteTranscript;
using testing::TempDir;

// The defaults sqlite3 accepts for an added column, each added under four
// affinities: INTEGER, TEXT, REAL and none. Their readings differ by
// affinity in ways that are easy to get wrong (1e3 is '1e3' as TEXT, -'5'
// is -5, a 64-bit literal goes through its text, hex beyond 32 bits stays
// text).
const char* const kDefaults[] = {"7",       "-5",          "+5",
                                 "(-3)",    "1e3",         "(2.5)",
                                 "- 2.5",   "3000000000",  "-3000000000",
                                 "0x10",    "0x100000000", "'  7 '",
                                 "'x'",     "-'5'",        "-'abc'",
                                 "X'0102'", "-X'01'",      "NULL",
                                 "true",    "false",       "-9223372036854775808"};

void MakeAlteredTable(const std::string& path) {
  SqliteDb db(path);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(
      db.Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, a);"
              "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)"
              " INSERT INTO t SELECT i, i % 7 FROM n;"))
      << db.error();
  int k = 0;
  for (const char* d : kDefaults) {
    for (const char* type : {"INTEGER", "TEXT", "REAL", ""}) {
      // TRUE in a TEXT column reads the integer 1, which sqlite3's own
      // integrity_check then reports ("NUMERIC value in t.c"): left out.
      const bool boolean = std::string(d) == "true" || std::string(d) == "false";
      if (boolean && std::string(type) == "TEXT") type = "INTEGER";
      const std::string sql =
          "ALTER TABLE t ADD COLUMN c" + std::to_string(k++) + " " + type + " DEFAULT " + d;
      ASSERT_TRUE(db.Exec(sql)) << sql << ": " << db.error();
    }
  }
  // Rows written after the change hold every column; sqlite3 indexes the
  // new ones over both kinds of row.
  ASSERT_TRUE(
      db.Exec("INSERT INTO t(id, a, c0, c1) VALUES(1000, 1, 70, 'seventy');"
              "CREATE INDEX t_c1 ON t(c1, c5);"))
      << db.error();
}

std::string Columns() {
  std::string cols;
  for (int k = 0; k < 4 * static_cast<int>(std::size(kDefaults)); ++k)
    cols += (k ? ", quote(c" : "quote(c") + std::to_string(k) + ")";
  return cols;
}

TEST(AlteredTableTest, RowsWrittenBeforeAddColumnReadItsDefault) {
  TempDir dir;
  const std::string ours = dir.file("engine.db");
  const std::string theirs = dir.file("sqlite.db");
  MakeAlteredTable(ours);
  if (HasFatalFailure()) return;
  std::filesystem::copy_file(ours, theirs);
  const std::string script =
      "SELECT id, " + Columns() +
      " FROM t WHERE id IN (1, 2, 1000) ORDER BY id;\n"
      "SELECT typeof(c0), typeof(c1), typeof(c2), typeof(c3), typeof(c16) FROM t WHERE id = 5;\n"
      // Comparisons and sorting read the default too.
      "SELECT count(*) FROM t WHERE c0 = 7 AND c1 = '7' AND c4 = -5 AND c17 = '1e3';\n"
      "SELECT id FROM t ORDER BY c1 DESC, id LIMIT 3;\n"
      "SELECT c5, count(*) FROM t GROUP BY c5 ORDER BY c5;\n"
      // An index sqlite3 built over both kinds of row, read through.
      "SELECT id, c1 FROM t INDEXED BY t_c1 WHERE c1 >= '7' ORDER BY c1, c5, id LIMIT 4;\n"
      // An index the engine builds: its entries are sqlite3's.
      "CREATE INDEX t_c17 ON t(c17, c0);\n"
      "SELECT count(*) FROM t INDEXED BY t_c17 WHERE c17 = '1e3';\n"
      // An UPDATE rewrites the row whole: the defaults become stored values.
      "UPDATE t SET a = a + 1 WHERE id <= 10;\n"
      "SELECT id, " +
      Columns() +
      " FROM t WHERE id IN (3, 11) ORDER BY id;\n"
      "DELETE FROM t WHERE id % 3 = 0;\n"
      "PRAGMA integrity_check;\n";
  const std::string expected = SqliteTranscript(theirs, script);
  EXPECT_EQ(EngineTranscript(ours, script), expected);
  EXPECT_EQ(DumpTables(ours), DumpTables(theirs));
  SqliteDb check(ours);
  EXPECT_EQ(check.IntegrityCheck(), "ok");
  // The case is there: the first rows read defaults, not NULLs.
  EXPECT_NE(expected.find("'1e3'"), std::string::npos) << expected;
}

TEST(AlteredTableTest, DefaultsSqlite3WritesParseAndInsertAsItsOwn) {
  // The DEFAULT forms ALTER TABLE leaves in sqlite_schema must parse (a
  // file with DEFAULT -'5' was "malformed" to the engine), and TRUE/FALSE
  // are 1 and 0 wherever no column has the name.
  testing::ExpectLikeSqlite(R"(
    CREATE TABLE q(a DEFAULT true, b TEXT DEFAULT -'5', c DEFAULT -X'01', d INTEGER DEFAULT FALSE,
                   e TEXT DEFAULT true, f DEFAULT +NULL, g DEFAULT 'true');
    INSERT INTO q DEFAULT VALUES;
    SELECT quote(a), quote(b), quote(c), quote(d), quote(e), quote(f), quote(g) FROM q;
    PRAGMA table_info(q);
    SELECT true, false, typeof(TRUE), true + 1, NOT false, "true";
    CREATE TABLE r(true, x);
    INSERT INTO r VALUES(5, 6);
    SELECT true, x FROM r WHERE true;
  )");
}

}  // namespace
}  // namespace engine
