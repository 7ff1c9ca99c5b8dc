// Differential test: random schemas, data (NULLs, mixed types, duplicates)
// and random queries from the supported subset, each run on the engine and
// on the real SQLite; results compared as multisets (or in order where
// ORDER BY fixes it). A fixed seed keeps every run identical; a mismatch
// prints the seed and the query.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

constexpr uint32_t kSeed = 20261201;
constexpr int kSchemas = 8;
constexpr int kQueriesPerSchema = 300;

std::string RealText(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}

std::string Hex(const void* p, size_t n) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string out;
  const auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[b[i] >> 4];
    out += kDigits[b[i] & 15];
  }
  return out;
}

struct Outcome {
  bool error = false;
  std::string message;
  std::vector<std::string> rows;  // values tagged with their type
};

Outcome RunSqlite(sqlite3* db, const std::string& sql) {
  Outcome o;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    o.error = true;
    o.message = sqlite3_errmsg(db);
    return o;
  }
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    std::string row;
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      switch (sqlite3_column_type(stmt, i)) {
        case SQLITE_NULL: row += "n|"; break;
        case SQLITE_INTEGER: row += "i:" + std::to_string(sqlite3_column_int64(stmt, i)) + "|"; break;
        case SQLITE_FLOAT: row += "r:" + RealText(sqlite3_column_double(stmt, i)) + "|"; break;
        case SQLITE_TEXT:
          row += "t:" + std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)),
                                    static_cast<size_t>(sqlite3_column_bytes(stmt, i))) + "|";
          break;
        default:
          row += "b:" + Hex(sqlite3_column_blob(stmt, i), static_cast<size_t>(sqlite3_column_bytes(stmt, i))) + "|";
      }
    }
    o.rows.push_back(row);
  }
  if (rc != SQLITE_DONE) {
    o.error = true;
    o.message = sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  return o;
}

Outcome RunEngine(Database* db, const std::string& sql) {
  Outcome o;
  auto stmt = db->Prepare(sql);
  if (!stmt.ok()) {
    o.error = true;
    o.message = stmt.status().message();
    return o;
  }
  for (;;) {
    auto r = (*stmt)->Step();
    if (!r.ok()) {
      o.error = true;
      o.message = r.status().message();
      return o;
    }
    if (!*r) break;
    std::string row;
    for (int i = 0; i < (*stmt)->column_count(); ++i) {
      const Value& v = (*stmt)->column_value(i);
      switch (v.type()) {
        case ValueType::kNull: row += "n|"; break;
        case ValueType::kInteger: row += "i:" + std::to_string(v.as_int()) + "|"; break;
        case ValueType::kReal: row += "r:" + RealText(v.as_real()) + "|"; break;
        case ValueType::kText: row += "t:" + std::string(v.as_text()) + "|"; break;
        case ValueType::kBlob: row += "b:" + Hex(v.data(), v.size()) + "|"; break;
      }
    }
    o.rows.push_back(row);
  }
  return o;
}

// "r:3|" becomes "i:3|" for every integral REAL of every row.
void NormalizeNumbers(std::vector<std::string>* rows) {
  for (std::string& row : *rows) {
    std::string out;
    size_t pos = 0;
    while (pos < row.size()) {
      size_t end = row.find('|', pos);
      if (end == std::string::npos) end = row.size();
      std::string v = row.substr(pos, end - pos);
      if (v.rfind("r:", 0) == 0 && v.find_first_of(".eEin", 2) == std::string::npos) v[0] = 'i';
      if (v == "i:-0") v = "i:0";
      out += v + "|";
      pos = end + 1;
    }
    row = out;
  }
}

struct Column {
  std::string name;
  std::string type;
};

struct Table {
  std::string name;
  std::vector<Column> cols;  // cols[0] is "id INTEGER PRIMARY KEY"
};

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int percent) { return Int(1, 100) <= percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) { return v[static_cast<size_t>(Int(0, static_cast<int>(v.size()) - 1))]; }

  std::string Literal() {
    switch (Int(0, 7)) {
      case 0: return "NULL";
      case 1: return std::to_string(Int(-3, 12));
      case 2: return RealText(Int(-8, 40) / 4.0);
      case 3: return "'" + std::string(1, static_cast<char>('a' + Int(0, 4))) + "'";
      case 4: return "'" + std::to_string(Int(0, 9)) + "'";
      case 5: return std::to_string(Int(0, 5));
      case 6: return "'" + std::string(1, static_cast<char>('A' + Int(0, 3))) + std::string(1, static_cast<char>('a' + Int(0, 2))) + "'";
      default: return "X'" + Hex(std::string(1, static_cast<char>('a' + Int(0, 2))).data(), 1) + "'";
    }
  }

  std::vector<Table> Schema(std::vector<std::string>* ddl) {
    static const std::vector<std::string> kTypes = {"INTEGER", "TEXT", "REAL", "", "NUMERIC", "INT", "VARCHAR(5)"};
    std::vector<Table> tables;
    const int n = Int(2, 3);
    for (int t = 0; t < n; ++t) {
      Table tab;
      tab.name = "t" + std::to_string(t);
      tab.cols.push_back({"id", "INTEGER PRIMARY KEY"});
      const int nc = Int(2, 4);
      for (int c = 0; c < nc; ++c) tab.cols.push_back({"c" + std::to_string(c), Pick(kTypes)});
      std::string sql = "CREATE TABLE " + tab.name + "(";
      for (size_t c = 0; c < tab.cols.size(); ++c) {
        if (c > 0) sql += ", ";
        sql += tab.cols[c].name + (tab.cols[c].type.empty() ? "" : " " + tab.cols[c].type);
      }
      ddl->push_back(sql + ")");
      const int nidx = Int(0, 2);
      for (int i = 0; i < nidx; ++i) {
        std::string cols = tab.cols[static_cast<size_t>(Int(1, nc))].name;
        if (Chance(40)) cols += ", " + tab.cols[static_cast<size_t>(Int(1, nc))].name;
        if (cols.find(',') != std::string::npos &&
            cols.substr(0, cols.find(',')) == cols.substr(cols.find(',') + 2)) {
          cols = cols.substr(0, cols.find(','));
        }
        ddl->push_back("CREATE INDEX " + tab.name + "_i" + std::to_string(i) + " ON " + tab.name + "(" + cols + ")");
      }
      const int rows = Int(5, 60);
      for (int r = 0; r < rows; ++r) {
        std::string ins = "INSERT INTO " + tab.name + " VALUES (" +
                          (Chance(85) ? std::to_string(r * 2 + Int(0, 1) + 1) : std::string("NULL"));
        for (int c = 0; c < nc; ++c) ins += ", " + Literal();
        ins += ")";
        ddl->push_back("INSERT OR IGNORE" + ins.substr(6));
      }
      tables.push_back(tab);
    }
    return tables;
  }

  // A column reference to one of `from`.
  std::string Col(const std::vector<const Table*>& from) {
    const Table* t = Pick(from);
    return t->name + "." + Pick(t->cols).name;
  }

  std::string Expr(const std::vector<const Table*>& from, int depth) {
    if (depth <= 0 || Chance(35)) return Chance(70) ? Col(from) : Literal();
    switch (Int(0, 11)) {
      case 0: return "(" + Expr(from, depth - 1) + " + " + Expr(from, depth - 1) + ")";
      case 1: return "(" + Expr(from, depth - 1) + " - " + Expr(from, depth - 1) + ")";
      case 2: return "(" + Expr(from, depth - 1) + " * " + Expr(from, depth - 1) + ")";
      case 3: return "abs(" + Expr(from, depth - 1) + ")";
      case 4: return "coalesce(" + Expr(from, depth - 1) + ", " + Expr(from, depth - 1) + ")";
      case 5: return "length(" + Expr(from, depth - 1) + ")";
      case 6: return "CASE WHEN " + Cond(from, depth - 1) + " THEN " + Expr(from, depth - 1) + " ELSE " + Expr(from, depth - 1) + " END";
      case 7: return "(" + Expr(from, depth - 1) + " || " + Expr(from, depth - 1) + ")";
      case 8: return "upper(" + Expr(from, depth - 1) + ")";
      case 9: return "CAST(" + Expr(from, depth - 1) + " AS " + Pick(std::vector<std::string>{"INTEGER", "TEXT", "REAL", "NUMERIC"}) + ")";
      case 10: return "typeof(" + Expr(from, depth - 1) + ")";
      default: return "(" + Expr(from, depth - 1) + " % " + Expr(from, depth - 1) + ")";
    }
  }

  std::string Cond(const std::vector<const Table*>& from, int depth) {
    static const std::vector<std::string> kOps = {"=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT"};
    switch (depth <= 0 ? Int(0, 3) : Int(0, 9)) {
      case 0:
      case 1: return Col(from) + " " + Pick(kOps) + " " + (Chance(60) ? Literal() : Col(from));
      case 2: return Col(from) + (Chance(50) ? " IS NULL" : " IS NOT NULL");
      case 3: return Col(from) + (Chance(20) ? " NOT" : "") + " BETWEEN " + Literal() + " AND " + Literal();
      case 4: return "(" + Cond(from, depth - 1) + " AND " + Cond(from, depth - 1) + ")";
      case 5: return "(" + Cond(from, depth - 1) + " OR " + Cond(from, depth - 1) + ")";
      case 6: return "NOT (" + Cond(from, depth - 1) + ")";
      case 7: return Col(from) + (Chance(20) ? " NOT" : "") + " IN (" + Literal() + ", " + Literal() + ", " + Literal() + ")";
      case 8: return Col(from) + " LIKE '" + Pick(std::vector<std::string>{"a%", "%b", "_", "A%", "%1%"}) + "'";
      default: {
        const Table* t = &Pick(*tables_);
        const std::string inner = t->name + "." + Pick(t->cols).name;
        if (Chance(50)) {
          return Col(from) + " IN (SELECT " + inner + " FROM " + t->name + " WHERE " + inner + " IS NOT NULL)";
        }
        // Correlated EXISTS through an alias.
        return "EXISTS (SELECT 1 FROM " + t->name + " AS s WHERE s." + Pick(t->cols).name + " = " + Col(from) + ")";
      }
    }
  }

  // A query and whether its row order is fully determined.
  std::string Query(const std::vector<Table>& tables, bool* ordered) {
    tables_ = &tables;
    *ordered = false;
    std::vector<const Table*> from{&Pick(tables)};
    std::string from_sql = from[0]->name;
    if (Chance(35)) {
      const Table* u = &Pick(tables);
      if (u != from[0]) {
        const bool left = Chance(40);
        const std::string on = from[0]->name + "." + Pick(from[0]->cols).name + " = " + u->name + "." +
                               (Chance(60) ? std::string("id") : Pick(u->cols).name);
        from_sql += (left ? " LEFT JOIN " : " JOIN ") + u->name + " ON " + on;
        from.push_back(u);
      }
    }
    std::string where = Chance(75) ? " WHERE " + Cond(from, 2) : "";
    if (Chance(25)) {
      // Aggregate query.
      const std::string key = Col(from);
      static const std::vector<std::string> kAggs = {"count(*)", "count(X)", "sum(X)", "total(X)", "min(X)", "max(X)", "avg(X)", "count(DISTINCT X)"};
      std::string aggs;
      const int n = Int(1, 3);
      for (int i = 0; i < n; ++i) {
        std::string a = Pick(kAggs);
        const size_t x = a.find('X');
        if (x != std::string::npos) a.replace(x, 1, Col(from));
        aggs += ", " + a;
      }
      if (Chance(30)) return "SELECT " + aggs.substr(2) + " FROM " + from_sql + where;
      std::string q = "SELECT " + key + aggs + " FROM " + from_sql + where + " GROUP BY " + key;
      if (Chance(30)) q += " HAVING count(*) > " + std::to_string(Int(0, 2));
      return q;
    }
    std::string cols;
    const int n = Int(1, 3);
    for (int i = 0; i < n; ++i) cols += (i ? ", " : "") + Expr(from, 2);
    std::string q = std::string("SELECT ") + (Chance(15) ? "DISTINCT " : "") + cols + " FROM " + from_sql + where;
    if (Chance(10)) {
      q += Pick(std::vector<std::string>{" UNION ", " UNION ALL ", " INTERSECT ", " EXCEPT "});
      std::vector<const Table*> f2{&Pick(tables)};
      std::string c2;
      for (int i = 0; i < n; ++i) c2 += (i ? ", " : "") + Expr(f2, 1);
      q += "SELECT " + c2 + " FROM " + f2[0]->name;
      return q;
    }
    if (Chance(30)) {
      // ORDER BY every result column makes the order (and LIMIT) deterministic.
      q += " ORDER BY ";
      for (int i = 1; i <= n; ++i) q += (i > 1 ? ", " : "") + std::to_string(i) + (Chance(30) ? " DESC" : "");
      if (Chance(50)) q += " LIMIT " + std::to_string(Int(0, 8)) + (Chance(30) ? " OFFSET 2" : "");
      *ordered = true;
    }
    return q;
  }

 private:
  std::mt19937 rng_;
  const std::vector<Table>* tables_ = nullptr;
};

TEST(SqlDifferentialTest, RandomQueriesMatchSqlite) {
  testing::TempDir dir;
  int queries = 0, mismatches = 0, both_errors = 0;
  for (int s = 0; s < kSchemas; ++s) {
    const uint32_t seed = kSeed + static_cast<uint32_t>(s);
    Generator gen(seed);
    std::vector<std::string> ddl;
    const std::vector<Table> tables = gen.Schema(&ddl);
    const std::string epath = dir.file("e" + std::to_string(s) + ".db");
    auto edb = Database::Open(epath);
    ASSERT_TRUE(edb.ok());
    sqlite3* sdb = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &sdb), SQLITE_OK);
    ASSERT_TRUE((*edb)->Exec("BEGIN").ok());
    for (const std::string& stmt : ddl) {
      const Outcome want = RunSqlite(sdb, stmt);
      const Outcome got = RunEngine(edb->get(), stmt);
      ASSERT_EQ(got.error, want.error) << "seed " << seed << ": " << stmt << "\n  engine: "
                                       << got.message << "\n  sqlite: " << want.message;
    }
    ASSERT_TRUE((*edb)->Exec("COMMIT").ok());
    bool dumped = false;
    for (int q = 0; q < kQueriesPerSchema; ++q) {
      bool ordered = false;
      const std::string sql = gen.Query(tables, &ordered);
      Outcome want = RunSqlite(sdb, sql);
      Outcome got = RunEngine(edb->get(), sql);
      ++queries;
      if (want.error && got.error) {
        ++both_errors;
        continue;
      }
      if (sql.find(" UNION ") != std::string::npos || sql.find(" INTERSECT ") != std::string::npos ||
          sql.find(" EXCEPT ") != std::string::npos) {
        // Set operations keep one of several equal rows (1 and 1.0), and
        // which one depends on scan order: compare numbers by value there.
        NormalizeNumbers(&want.rows);
        NormalizeNumbers(&got.rows);
      }
      if (!ordered) {
        std::sort(want.rows.begin(), want.rows.end());
        std::sort(got.rows.begin(), got.rows.end());
      }
      if (got.error != want.error || got.rows != want.rows) {
        ++mismatches;
        if (!dumped && std::getenv("SQL_DIFF_DUMP") != nullptr) {
          // The schema and data, to replay a mismatch in a shell.
          dumped = true;
          for (const std::string& stmt : ddl) std::fprintf(stderr, "%s;\n", stmt.c_str());
        }
        if (mismatches <= 20) {
          std::string detail = "seed " + std::to_string(seed) + " query " + std::to_string(q) + ": " + sql;
          detail += "\n  engine" + (got.error ? " error: " + got.message : " rows: " + std::to_string(got.rows.size()));
          detail += "\n  sqlite" + (want.error ? " error: " + want.message : " rows: " + std::to_string(want.rows.size()));
          for (size_t i = 0; i < std::max(got.rows.size(), want.rows.size()) && i < 6; ++i) {
            detail += "\n    " + (i < got.rows.size() ? got.rows[i] : std::string("-")) + "   vs   " +
                      (i < want.rows.size() ? want.rows[i] : std::string("-"));
          }
          ADD_FAILURE() << detail;
        }
      }
    }
    sqlite3_close(sdb);
  }
  EXPECT_GE(queries, 2000);
  EXPECT_EQ(mismatches, 0) << "of " << queries << " queries (" << both_errors << " failed on both)";
}

}  // namespace
}  // namespace engine
