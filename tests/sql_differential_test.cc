// Differential test: random schemas (indexes with DESC and rowid columns),
// data (NULLs, mixed types, duplicates) and random queries from the
// supported subset, each run on the engine and on the real SQLite. Results
// without ORDER BY are compared as multisets; with ORDER BY, in order: the
// sequence of sort keys exactly, the rows within a run of equal keys as a
// multiset (ties may come in any order, and LIMIT / OFFSET may cut a run
// anywhere), or row for row when the keys include every table's rowid. A
// fixed seed keeps every run identical; a mismatch prints the seed and the
// query.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
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
constexpr int kSchemas = 40;
constexpr int kQueriesPerSchema = 600;

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

// One value as "n", "i:3", "r:2.5", "t:abc" or "b:6162": the type is part
// of the result.
using Row = std::vector<std::string>;

struct Outcome {
  bool error = false;
  std::string message;
  std::vector<Row> rows;
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
    Row row;
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      switch (sqlite3_column_type(stmt, i)) {
        case SQLITE_NULL:
          row.push_back("n");
          break;
        case SQLITE_INTEGER:
          row.push_back("i:" + std::to_string(sqlite3_column_int64(stmt, i)));
          break;
        case SQLITE_FLOAT:
          row.push_back("r:" + RealText(sqlite3_column_double(stmt, i)));
          break;
        case SQLITE_TEXT:
          row.push_back("t:" +
                        std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)),
                                    static_cast<size_t>(sqlite3_column_bytes(stmt, i))));
          break;
        default:
          row.push_back("b:" + Hex(sqlite3_column_blob(stmt, i),
                                   static_cast<size_t>(sqlite3_column_bytes(stmt, i))));
      }
    }
    o.rows.push_back(std::move(row));
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
    Row row;
    for (int i = 0; i < (*stmt)->column_count(); ++i) {
      const Value& v = (*stmt)->column_value(i);
      switch (v.type()) {
        case ValueType::kNull:
          row.push_back("n");
          break;
        case ValueType::kInteger:
          row.push_back("i:" + std::to_string(v.as_int()));
          break;
        case ValueType::kReal:
          row.push_back("r:" + RealText(v.as_real()));
          break;
        case ValueType::kText:
          row.push_back("t:" + std::string(v.as_text()));
          break;
        case ValueType::kBlob:
          row.push_back("b:" + Hex(v.data(), v.size()));
          break;
      }
    }
    o.rows.push_back(std::move(row));
  }
  return o;
}

std::string RowText(const Row& row) {
  std::string out;
  for (const std::string& v : row) out += v + "|";
  return out;
}

// "r:3" becomes "i:3" for every integral REAL.
void NormalizeNumbers(std::vector<Row>* rows) {
  for (Row& row : *rows) {
    for (std::string& v : row) {
      if (v.rfind("r:", 0) == 0 && v.find_first_of(".eEin", 2) == std::string::npos) v[0] = 'i';
      if (v == "i:-0") v = "i:0";
    }
  }
}

// Text as NOCASE and RTRIM both see it: ASCII letters folded, trailing
// spaces dropped.
std::string LooseText(const std::string& tagged) {
  std::string s = tagged;
  while (s.size() > 2 && s.back() == ' ') s.pop_back();
  for (size_t i = 2; i < s.size(); ++i) {
    s[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
  }
  return s;
}

// Under a NOCASE or RTRIM collation a GROUP BY key, a DISTINCT or compound
// row, a min() or max() stands for every value equal to it, and which of
// them depends on the scan order (plans differ): texts by their loose form.
void LoosenTexts(std::vector<Row>* rows) {
  for (Row& row : *rows) {
    for (std::string& v : row) {
      if (v.rfind("t:", 0) == 0) v = LooseText(v);
    }
  }
}

// Whether two values tie under ORDER BY: equal numbers of either type, equal
// text (NOCASE folds ASCII letters; `loose`, for columns whose collation the
// generator does not track, also ignores trailing spaces), equal blobs, or
// two NULLs.
bool SortEqual(const std::string& a, const std::string& b, bool nocase, bool loose = false) {
  auto rank = [](char tag) {
    return tag == 'n' ? 0 : tag == 'i' || tag == 'r' ? 1 : tag == 't' ? 2 : 3;
  };
  if (rank(a[0]) != rank(b[0])) return false;
  switch (rank(a[0])) {
    case 0:
      return true;
    case 1:
      return std::strtold(a.c_str() + 2, nullptr) == std::strtold(b.c_str() + 2, nullptr);
    case 2:
      if (loose) return LooseText(a) == LooseText(b);
      if (!nocase) return a.compare(2, std::string::npos, b, 2) == 0;
      return a.size() == b.size() &&
             std::equal(a.begin() + 2, a.end(), b.begin() + 2, [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
             });
    default:
      return a == b;
  }
}

// What a query's result is compared by.
struct Check {
  enum class Order {
    kNone,   // no ORDER BY: the rows as a multiset
    kKeys,   // ORDER BY over output columns `keys`: the key sequence in order, rows
             // within a run of equal keys as a multiset
    kExact,  // the ORDER BY keys include every table's rowid: one order only
  };
  Order order = Order::kNone;
  std::vector<int> keys;     // kKeys: output columns, in ORDER BY order
  std::vector<bool> nocase;  // per key
  bool limit = false;        // LIMIT may cut the last run of equal keys
  bool offset = false;       // OFFSET may cut the first one
  // UNION / INTERSECT / EXCEPT and DISTINCT keep one of several equal rows
  // (1 and 1.0), and which one depends on scan order: numbers by value.
  bool set_op = false;
  bool aggregate = false;  // groups and min()/max() keep one of several equal values too
  // NOCASE / RTRIM columns or COLLATE in the query: text ties (and, with
  // set_op or aggregate, the values kept) are compared loosely.
  bool loose_text = false;
};

// Empty when `got` is a correct answer where `want` is SQLite's.
std::string Compare(const Check& check, std::vector<Row> want, std::vector<Row> got) {
  if (check.set_op || (check.aggregate && check.loose_text)) {
    NormalizeNumbers(&want);
    NormalizeNumbers(&got);
  }
  if (check.loose_text && (check.set_op || check.aggregate)) {
    LoosenTexts(&want);
    LoosenTexts(&got);
  }
  if (want.size() != got.size()) return "row counts differ";
  auto as_multiset = [](std::vector<Row>::iterator b, std::vector<Row>::iterator e) {
    std::vector<std::string> out;
    for (auto it = b; it != e; ++it) out.push_back(RowText(*it));
    std::sort(out.begin(), out.end());
    return out;
  };
  switch (check.order) {
    case Check::Order::kNone:
      return as_multiset(want.begin(), want.end()) == as_multiset(got.begin(), got.end())
                 ? ""
                 : "rows differ";
    case Check::Order::kExact:
      for (size_t i = 0; i < want.size(); ++i) {
        if (want[i] != got[i]) return "row " + std::to_string(i) + " differs (total order)";
      }
      return "";
    case Check::Order::kKeys:
      break;
  }
  auto ties = [&](const Row& a, const Row& b) {
    for (size_t k = 0; k < check.keys.size(); ++k) {
      const size_t c = static_cast<size_t>(check.keys[k]);
      if (c >= a.size() || c >= b.size() ||
          !SortEqual(a[c], b[c], check.nocase[k], check.loose_text)) {
        return false;
      }
    }
    return true;
  };
  for (size_t i = 0; i < want.size();) {
    size_t j = i + 1;
    while (j < want.size() && ties(want[j], want[i])) ++j;
    for (size_t r = i; r < j; ++r) {
      if (!ties(got[r], want[i])) return "row " + std::to_string(r) + " is out of order";
    }
    // LIMIT and OFFSET may cut a run anywhere: which of its rows come back
    // is not specified, only their keys are.
    const bool cut = (check.limit && j == want.size()) || (check.offset && i == 0);
    const auto b = static_cast<std::ptrdiff_t>(i), e = static_cast<std::ptrdiff_t>(j);
    if (!cut && as_multiset(want.begin() + b, want.begin() + e) !=
                    as_multiset(got.begin() + b, got.begin() + e)) {
      return "rows " + std::to_string(i) + ".." + std::to_string(j - 1) + " (equal keys) differ";
    }
    i = j;
  }
  return "";
}

struct Column {
  std::string name;
  std::string type;
  std::string coll;  // "", "NOCASE" or "RTRIM"
};

struct Index {
  std::vector<int> cols;  // positions in Table::cols (0 is the rowid)
  std::vector<bool> desc;
};

struct Table {
  std::string name;
  std::vector<Column> cols;  // cols[0] is "id INTEGER PRIMARY KEY"
  std::vector<Index> indexes;
};

// An ORDER BY term as generated: its SQL, and the output column it is
// (-1: not an output column).
struct Term {
  std::string sql;
  bool desc = false;
  int output = -1;
  bool nocase = false;
  std::string rowid_of;  // the table whose rowid it is, else ""
};

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed), seed_(seed) {}

  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int percent) { return Int(1, 100) <= percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Int(0, static_cast<int>(v.size()) - 1))];
  }

  std::string Literal() {
    switch (Int(0, 7)) {
      case 0:
        return "NULL";
      case 1:
        return std::to_string(Int(-3, 12));
      case 2:
        return RealText(Int(-8, 40) / 4.0);
      case 3:
        return "'" + std::string(1, static_cast<char>('a' + Int(0, 4))) + "'";
      case 4:
        return "'" + std::to_string(Int(0, 9)) + "'";
      case 5:
        return std::to_string(Int(0, 5));
      case 6:
        // Mixed case, sometimes with trailing spaces: NOCASE and RTRIM
        // equate some of these, BINARY none.
        return "'" + std::string(1, static_cast<char>((Chance(50) ? 'A' : 'a') + Int(0, 3))) +
               std::string(1, static_cast<char>('a' + Int(0, 2))) +
               std::string(static_cast<size_t>(Chance(25) ? Int(1, 2) : 0), ' ') + "'";
      default:
        return "X'" + Hex(std::string(1, static_cast<char>('a' + Int(0, 2))).data(), 1) + "'";
    }
  }

  // A literal that is not NULL, for equalities and range bounds that should match rows.
  std::string Bound() {
    std::string v;
    do v = Literal();
    while (v == "NULL" && !Chance(5));
    return v;
  }

  std::vector<Table> Schema(std::vector<std::string>* ddl) {
    static const std::vector<std::string> kTypes = {"INTEGER", "TEXT", "REAL",      "",
                                                    "NUMERIC", "INT",  "VARCHAR(5)"};
    std::vector<Table> tables;
    const int n = Int(2, 3);
    for (int t = 0; t < n; ++t) {
      Table tab;
      tab.name = "t" + std::to_string(t);
      tab.cols.push_back({"id", "INTEGER PRIMARY KEY", ""});
      const int nc = Int(2, 4);
      for (int c = 0; c < nc; ++c) {
        // Some columns compare, group, sort and index under NOCASE or RTRIM.
        std::string coll = Chance(15) ? Pick(std::vector<std::string>{"NOCASE", "RTRIM"}) : "";
        const std::string name = "c" + std::to_string(c);
        if (!coll.empty()) {
          collated_refs_.push_back(tab.name + "." + name);
          collated_refs_.push_back("s." + name);  // Cond's correlated alias
        }
        tab.cols.push_back({name, Pick(kTypes), coll});
      }
      std::string sql = "CREATE TABLE " + tab.name + "(";
      for (size_t c = 0; c < tab.cols.size(); ++c) {
        if (c > 0) sql += ", ";
        sql += tab.cols[c].name + (tab.cols[c].type.empty() ? "" : " " + tab.cols[c].type);
        if (!tab.cols[c].coll.empty()) sql += " COLLATE " + tab.cols[c].coll;
      }
      ddl->push_back(sql + ")");
      // Indexes of one to three columns, some DESC, some UNIQUE, a few
      // ending in the rowid: every shape an ORDER BY proof must get right.
      const int nidx = Int(0, 3);
      for (int i = 0; i < nidx; ++i) {
        Index ix;
        const int width = Chance(50) ? 1 : Int(2, 3);
        for (int k = 0; k < width; ++k) {
          const int c = Chance(8) ? 0 : Int(1, nc);
          if (std::find(ix.cols.begin(), ix.cols.end(), c) != ix.cols.end()) continue;
          ix.cols.push_back(c);
          ix.desc.push_back(Chance(30));
        }
        std::string cols;
        for (size_t k = 0; k < ix.cols.size(); ++k) {
          // An index column's own COLLATE overrides the column's.
          std::string coll;
          if (ix.cols[k] != 0 && Chance(8)) {
            coll = " COLLATE " + Pick(std::vector<std::string>{"NOCASE", "RTRIM", "BINARY"});
          }
          cols += (k ? ", " : "") + tab.cols[static_cast<size_t>(ix.cols[k])].name + coll +
                  (ix.desc[k] ? " DESC" : "");
        }
        const bool unique = Chance(10);
        ddl->push_back(std::string("CREATE ") + (unique ? "UNIQUE " : "") + "INDEX " + tab.name +
                       "_i" + std::to_string(i) + " ON " + tab.name + "(" + cols + ")");
        tab.indexes.push_back(ix);
      }
      const int rows = Int(5, 60);
      for (int r = 0; r < rows; ++r) {
        std::string ins =
            "INSERT INTO " + tab.name + " VALUES (" +
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
      case 0:
        return "(" + Expr(from, depth - 1) + " + " + Expr(from, depth - 1) + ")";
      case 1:
        return "(" + Expr(from, depth - 1) + " - " + Expr(from, depth - 1) + ")";
      case 2:
        return "(" + Expr(from, depth - 1) + " * " + Expr(from, depth - 1) + ")";
      case 3:
        return "abs(" + Expr(from, depth - 1) + ")";
      case 4:
        return "coalesce(" + Expr(from, depth - 1) + ", " + Expr(from, depth - 1) + ")";
      case 5:
        return "length(" + Expr(from, depth - 1) + ")";
      case 6:
        return "CASE WHEN " + Cond(from, depth - 1) + " THEN " + Expr(from, depth - 1) + " ELSE " +
               Expr(from, depth - 1) + " END";
      case 7:
        return "(" + Expr(from, depth - 1) + " || " + Expr(from, depth - 1) + ")";
      case 8:
        return "upper(" + Expr(from, depth - 1) + ")";
      case 9:
        return "CAST(" + Expr(from, depth - 1) + " AS " +
               Pick(std::vector<std::string>{"INTEGER", "TEXT", "REAL", "NUMERIC"}) + ")";
      case 10:
        return "typeof(" + Expr(from, depth - 1) + ")";
      default:
        return "(" + Expr(from, depth - 1) + " % " + Expr(from, depth - 1) + ")";
    }
  }

  std::string Cond(const std::vector<const Table*>& from, int depth) {
    static const std::vector<std::string> kOps = {"=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT"};
    switch (depth <= 0 ? Int(0, 3) : Int(0, 9)) {
      case 0:
      case 1: {
        // Now and then a COLLATE on either side decides the comparison.
        std::string lhs = Col(from), rhs = Chance(60) ? Literal() : Col(from);
        if (Chance(12)) {
          (Chance(50) ? lhs : rhs) +=
              " COLLATE " + Pick(std::vector<std::string>{"NOCASE", "RTRIM", "BINARY"});
        }
        return lhs + " " + Pick(kOps) + " " + rhs;
      }
      case 2:
        return Col(from) + (Chance(50) ? " IS NULL" : " IS NOT NULL");
      case 3:
        return Col(from) + (Chance(20) ? " NOT" : "") + " BETWEEN " + Literal() + " AND " +
               Literal();
      case 4:
        return "(" + Cond(from, depth - 1) + " AND " + Cond(from, depth - 1) + ")";
      case 5:
        return "(" + Cond(from, depth - 1) + " OR " + Cond(from, depth - 1) + ")";
      case 6:
        return "NOT (" + Cond(from, depth - 1) + ")";
      case 7:
        return Col(from) + (Chance(20) ? " NOT" : "") + " IN (" + Literal() + ", " + Literal() +
               ", " + Literal() + ")";
      case 8:
        return Col(from) + " LIKE '" +
               Pick(std::vector<std::string>{"a%", "%b", "_", "A%", "%1%"}) + "'";
      default: {
        const Table* t = &Pick(*tables_);
        const std::string inner = t->name + "." + Pick(t->cols).name;
        if (Chance(50)) {
          return Col(from) + " IN (SELECT " + inner + " FROM " + t->name + " WHERE " + inner +
                 " IS NOT NULL)";
        }
        // Correlated EXISTS through an alias.
        return "EXISTS (SELECT 1 FROM " + t->name + " AS s WHERE s." + Pick(t->cols).name + " = " +
               Col(from) + ")";
      }
    }
  }

  // A query of every kind the engine supports; its order is checked where
  // it ORDERs BY every output column.
  std::string Query(const std::vector<Table>& tables, Check* check) {
    tables_ = &tables;
    *check = Check{};
    std::vector<const Table*> from{&Pick(tables)};
    std::string from_sql = from[0]->name;
    if (Chance(35)) {
      const Table* u = &Pick(tables);
      if (u != from[0]) {
        const bool left = Chance(40);
        const std::string on = from[0]->name + "." + Pick(from[0]->cols).name + " = " + u->name +
                               "." + (Chance(60) ? std::string("id") : Pick(u->cols).name);
        from_sql += (left ? " LEFT JOIN " : " JOIN ") + u->name + " ON " + on;
        from.push_back(u);
      }
    }
    std::string links;
    if (from.size() == 1 && Chance(20)) {
      // A comma join of every table in a scrambled order, linked by
      // equalities in WHERE (mostly on a rowid): the planner picks the
      // loop order (issue 14's join ordering); the rows must not change.
      std::vector<const Table*> all;
      for (const Table& t : tables) all.push_back(&t);
      for (size_t i = all.size() - 1; i > 0; --i) {
        std::swap(all[i], all[static_cast<size_t>(Int(0, static_cast<int>(i)))]);
      }
      from = all;
      from_sql.clear();
      for (size_t i = 0; i < all.size(); ++i) from_sql += (i ? ", " : "") + all[i]->name;
      for (size_t i = 1; i < all.size(); ++i) {
        const Table* a = all[static_cast<size_t>(Int(0, static_cast<int>(i) - 1))];
        links += (i > 1 ? " AND " : "") + a->name + "." + Pick(a->cols).name + " = " +
                 all[i]->name + "." + (Chance(70) ? std::string("id") : Pick(all[i]->cols).name);
      }
    } else if (from.size() == 1 && Chance(10)) {
      // Index hints change the plan, never the rows.
      const Table* t = from[0];
      if (!t->indexes.empty() && Chance(60)) {
        from_sql += " INDEXED BY " + t->name + "_i" +
                    std::to_string(Int(0, static_cast<int>(t->indexes.size()) - 1));
      } else {
        from_sql += " NOT INDEXED";
      }
    }
    std::string where = Chance(75) ? " WHERE " + Cond(from, 2) : "";
    if (!links.empty())
      where = " WHERE " + links + (where.empty() ? "" : " AND (" + where.substr(7) + ")");
    if (Chance(25)) {
      // Aggregate query.
      check->aggregate = true;
      const std::string key = Col(from);
      static const std::vector<std::string> kAggs = {"count(*)", "count(X)",         "sum(X)",
                                                     "total(X)", "min(X)",           "max(X)",
                                                     "avg(X)",   "count(DISTINCT X)"};
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
    check->set_op = Chance(15);
    std::string q = std::string("SELECT ") + (check->set_op ? "DISTINCT " : "") + cols + " FROM " +
                    from_sql + where;
    if (Chance(10)) {
      q += Pick(std::vector<std::string>{" UNION ", " UNION ALL ", " INTERSECT ", " EXCEPT "});
      std::vector<const Table*> f2{&Pick(tables)};
      std::string c2;
      for (int i = 0; i < n; ++i) c2 += (i ? ", " : "") + Expr(f2, 1);
      q += "SELECT " + c2 + " FROM " + f2[0]->name;
      check->set_op = true;
      return q;
    }
    if (Chance(30)) {
      OrderByOutputs(n, &q, check);
    }
    return q;
  }

  // Issue 14's class: a range (or IN, OR, IS NULL, equality prefix) on an
  // index of the first table, read under an ORDER BY on other columns, the
  // rowid, DESC columns, expressions, aliases, column numbers, COLLATE
  // NOCASE, with LIMIT / OFFSET on top, alone or as a join's outer table.
  // Every one is checked in order.
  std::string OrderedQuery(const std::vector<Table>& tables, Check* check) {
    tables_ = &tables;
    *check = Check{};
    const Table* t = &Pick(tables);
    std::vector<const Table*> from{t};
    std::string from_sql = t->name;
    if (Chance(35)) {
      const Table* u = &Pick(tables);
      if (u != t) {
        // `+u.y`, not `u.y`: sqlite3 takes an ORDER BY on a column that ON
        // equates with another column as fixed by it, even where the two
        // differ (5 = '5' under the comparison's affinity) and sorts them in
        // scan order; the engine sorts them, as ORDER BY says.
        const std::string on =
            t->name + "." + Pick(t->cols).name + " = " +
            (Chance(50) ? u->name + ".id" : "+" + u->name + "." + Pick(u->cols).name);
        from_sql += (Chance(40) ? " LEFT JOIN " : " JOIN ") + u->name + " ON " + on;
        from.push_back(u);
      }
    }
    // The index the WHERE clause aims at (or a column as if it had one).
    Index ix;
    if (!t->indexes.empty() && Chance(85)) {
      ix = Pick(t->indexes);
    } else {
      ix.cols = {Int(0, static_cast<int>(t->cols.size()) - 1)};
      ix.desc = {false};
    }
    auto name = [&](int c) { return t->name + "." + t->cols[static_cast<size_t>(c)].name; };
    std::vector<std::string> conds;
    size_t eq = 0;
    while (eq + 1 < ix.cols.size() && Chance(40))
      conds.push_back(name(ix.cols[eq++]) + " = " + Bound());
    if (eq < ix.cols.size()) {
      const std::string c = name(ix.cols[eq]);
      switch (Int(0, 12)) {
        case 0:
          conds.push_back(c + " < " + Bound());
          break;
        case 1:
          conds.push_back(c + " <= " + Bound());
          break;
        case 2:
          conds.push_back(c + " > " + Bound());
          break;
        case 3:
          conds.push_back(c + " >= " + Bound());
          break;
        case 4:
          conds.push_back(c + " BETWEEN " + Bound() + " AND " + Bound());
          break;
        case 5:
          conds.push_back(c + " > " + Bound() + " AND " + c + " <= " + Bound());
          break;
        case 6:
          conds.push_back(c + " IN (" + Bound() + ", " + Bound() + ", " + Bound() + ")");
          break;
        case 7:
          conds.push_back("(" + c + " < " + Bound() + " OR " + c + " > " + Bound() + ")");
          break;
        case 8:
          conds.push_back("(" + c + " = " + Bound() + " OR " + c + " = " + Bound() + ")");
          break;
        case 9:
          conds.push_back(c + " IS NULL");
          break;
        case 10:
          conds.push_back(c + " IS NOT NULL");
          break;
        case 11:
          conds.push_back(c + " = " + Bound());
          break;
        default:
          break;  // the equality prefix alone, or a full scan
      }
    }
    if (Chance(15)) {
      conds.push_back(t->name + ".id " + Pick(std::vector<std::string>{"<", ">", ">=", "IN"}) +
                      " " + std::to_string(Int(0, 60)));
      if (conds.back().find(" IN ") != std::string::npos) {
        conds.back() = t->name + ".id IN (" + std::to_string(Int(0, 60)) + ", " +
                       std::to_string(Int(0, 60)) + ")";
      }
    }
    if (Chance(20)) conds.push_back(Cond(from, 1));
    std::string where;
    for (size_t i = 0; i < conds.size(); ++i) where += (i ? " AND " : " WHERE ") + conds[i];

    // ORDER BY: index-shaped (the index's columns after the equalities, all
    // its way or all against it, maybe the rowid after them) or random.
    std::vector<Term> terms;
    auto add = [&](std::string sql, bool desc, std::string rowid_of = "") {
      Term term;
      term.sql = std::move(sql);
      term.desc = desc;
      term.rowid_of = std::move(rowid_of);
      terms.push_back(std::move(term));
    };
    auto column_term = [&](const Table* tab, int c, bool desc) {
      add(tab->name + "." + tab->cols[static_cast<size_t>(c)].name, desc, c == 0 ? tab->name : "");
    };
    if (Chance(55)) {
      const bool flip = Chance(50);
      const size_t start = Chance(80) ? eq : 0;
      const size_t len = static_cast<size_t>(
          Int(0, static_cast<int>(ix.cols.size() - std::min(start, ix.cols.size()))));
      for (size_t k = start; k < start + len; ++k) {
        column_term(t, ix.cols[k], Chance(85) ? ix.desc[k] != flip : Chance(50));
      }
      if (Chance(40)) column_term(t, 0, Chance(80) ? flip : Chance(50));
      if (terms.empty() || Chance(25)) {
        const Table* tab = Pick(from);
        column_term(tab, Int(0, static_cast<int>(tab->cols.size()) - 1), Chance(40));
      }
    } else {
      const int n = Int(1, 3);
      for (int i = 0; i < n; ++i) {
        const Table* tab = Pick(from);
        switch (Int(0, 5)) {
          case 0:
            column_term(tab, 0, Chance(50));
            break;
          case 1: {
            // An integer literal would name an output column: only
            // expressions that read a column.
            std::string e = Expr(from, 1);
            if (e.find(".c") == std::string::npos && e.find(".id") == std::string::npos)
              e = "+" + Col(from);
            add(e, Chance(40));
            break;
          }
          case 2: {
            std::string e =
                Pick(std::vector<std::string>{"-X", "+X", "abs(X)", "length(X)", "X || ''"});
            e.replace(e.find('X'), 1, Col(from));
            add(e, Chance(40));
            break;
          }
          default:
            column_term(tab, Int(0, static_cast<int>(tab->cols.size()) - 1), Chance(40));
            break;
        }
      }
    }
    for (Term& term : terms) {
      if (term.rowid_of.empty() && Chance(10)) {
        term.sql += " COLLATE NOCASE";
        term.nocase = true;
      }
    }

    // Output columns: some of the terms (so ORDER BY can name them by number
    // or alias), and other columns or expressions.
    std::vector<std::string> outputs;
    std::vector<std::string> aliases;
    for (Term& term : terms) {
      if (!Chance(60)) continue;
      std::string expr = term.sql;
      if (term.nocase && Chance(50))
        expr = expr.substr(0, expr.size() - std::string(" COLLATE NOCASE").size());
      // An output without the COLLATE is still the term's column when the
      // term says "n COLLATE NOCASE".
      const auto found = std::find(outputs.begin(), outputs.end(), expr);
      int pos = static_cast<int>(found - outputs.begin());
      if (found == outputs.end()) {
        outputs.push_back(expr);
        aliases.push_back(Chance(30) ? "o" + std::to_string(outputs.size()) : "");
      }
      term.output = pos;
      const std::string collate = term.nocase ? " COLLATE NOCASE" : "";
      switch (Int(0, 2)) {
        case 0:
          term.sql = std::to_string(pos + 1) + collate;
          break;
        case 1:
          if (!aliases[static_cast<size_t>(pos)].empty())
            term.sql = aliases[static_cast<size_t>(pos)] + collate;
          break;
        default:
          break;  // the expression again
      }
    }
    const int extra = outputs.empty() ? Int(1, 2) : Int(0, 2);
    for (int i = 0; i < extra; ++i) {
      outputs.push_back(Chance(60) ? Col(from) : Expr(from, 1));
      aliases.push_back(Chance(20) ? "o" + std::to_string(outputs.size()) : "");
    }

    // Ties: when the terms are all output columns they are checked run by
    // run; otherwise every table's rowid goes last, and the order is total.
    bool visible = true;
    for (const Term& term : terms) visible &= term.output >= 0;
    const bool distinct = visible && Chance(10);
    std::vector<std::string> rowids;
    for (const Term& term : terms) {
      if (!term.rowid_of.empty()) rowids.push_back(term.rowid_of);
    }
    bool total = true;
    for (const Table* tab : from) {
      total &= std::find(rowids.begin(), rowids.end(), tab->name) != rowids.end();
    }
    if (!visible && !total) {
      for (const Table* tab : from) {
        if (std::find(rowids.begin(), rowids.end(), tab->name) == rowids.end())
          column_term(tab, 0, Chance(50));
      }
      total = true;
    }
    check->order = total && !distinct ? Check::Order::kExact : Check::Order::kKeys;
    check->set_op = distinct;
    for (const Term& term : terms) {
      check->keys.push_back(term.output);
      check->nocase.push_back(term.nocase);
    }

    std::string q = std::string("SELECT ") + (distinct ? "DISTINCT " : "");
    for (size_t i = 0; i < outputs.size(); ++i) {
      q += (i ? ", " : "") + outputs[i] + (aliases[i].empty() ? "" : " AS " + aliases[i]);
    }
    q += " FROM " + from_sql + where + " ORDER BY ";
    for (size_t i = 0; i < terms.size(); ++i) {
      q += (i ? ", " : "") + terms[i].sql + (terms[i].desc ? " DESC" : Chance(20) ? " ASC" : "");
    }
    if (Chance(50)) AddLimit(&q, check);
    return q;
  }

  // GROUP BY under ORDER BY, checked in order: the groups' keys are unique.
  // Whether `sql` may compare text under NOCASE or RTRIM: it says COLLATE,
  // or reads a column declared so. (An index's own COLLATE changes no
  // answer, so it leaves the comparison exact.)
  bool Collated(const std::string& sql) const {
    if (sql.find("COLLATE") != std::string::npos) return true;
    for (const std::string& ref : collated_refs_) {
      for (size_t at = sql.find(ref); at != std::string::npos; at = sql.find(ref, at + 1)) {
        const size_t end = at + ref.size();
        const bool whole =
            (end == sql.size() || !std::isalnum(static_cast<unsigned char>(sql[end])));
        const bool start = at == 0 || !std::isalnum(static_cast<unsigned char>(sql[at - 1]));
        if (whole && start) return true;
      }
    }
    return false;
  }

  std::string OrderedAggregate(const std::vector<Table>& tables, Check* check) {
    tables_ = &tables;
    *check = Check{};
    const Table* t = &Pick(tables);
    std::vector<const Table*> from{t};
    const std::string key = Col(from);
    std::string q = "SELECT " + key + ", count(*), " +
                    Pick(std::vector<std::string>{"min", "max", "sum"}) + "(" + Col(from) +
                    ") FROM " + t->name;
    if (Chance(60)) q += " WHERE " + Cond(from, 1);
    q += " GROUP BY " + key + " ORDER BY ";
    check->order = Check::Order::kKeys;
    check->aggregate = true;
    const int n = Int(1, 2);
    for (int i = 0; i < n; ++i) {
      const int c = i == 0 ? 1 : Int(1, 3);
      q += (i ? ", " : "") + std::to_string(c) + (Chance(40) ? " DESC" : "");
      check->keys.push_back(c - 1);
      check->nocase.push_back(false);
    }
    AddLimit(&q, check);
    return q;
  }

  // WITH: plain CTEs over the random tables (column lists or aliases, read
  // once, twice, joined, chained, in subqueries) and recursive ones
  // (counters, walks over a table, binary trees through an ORDER BY queue)
  // under UNION and UNION ALL, with LIMIT / OFFSET inside and outside.
  std::string CteQuery(const std::vector<Table>& tables, Check* check) {
    tables_ = &tables;
    *check = Check{};
    const Table* t = &Pick(tables);
    std::vector<const Table*> from{t};
    const int kind = Int(0, 9);
    if (kind < 5) {
      const int n = Int(1, 3);
      const bool list = Chance(60);
      std::string cols, names;
      for (int i = 0; i < n; ++i) {
        const std::string x = "x" + std::to_string(i);
        cols += (i ? ", " : "") + Expr(from, 1) + (list ? "" : " AS " + x);
        names += (i ? ", " : "") + x;
      }
      std::string with = "WITH " + std::string(Chance(20) ? "RECURSIVE " : "") + "c" +
                         (list ? "(" + names + ")" : "") + " AS " +
                         (Chance(15) ? "MATERIALIZED " : "") + "(SELECT " + cols + " FROM " +
                         t->name + (Chance(60) ? " WHERE " + Cond(from, 1) : "") + ")";
      const Table* u = &Pick(tables);
      std::vector<const Table*> ufrom{u};
      switch (kind) {
        case 0: {
          std::string q = with + " SELECT " + names + " FROM c";
          if (Chance(40))
            q +=
                " WHERE x0 " + Pick(std::vector<std::string>{"<", ">=", "=", "<>"}) + " " + Bound();
          if (Chance(50)) {
            OrderByOutputs(n, &q, check);
          }
          return q;
        }
        case 1:
          return with + " SELECT a.x0, b." + "x" + std::to_string(Int(0, n - 1)) +
                 " FROM c AS a JOIN c AS b ON a.x0 = b.x0" +
                 (Chance(50) ? " WHERE a.x0 IS NOT NULL" : "");
        case 2:
          return with + " SELECT c.x0, " + Col(ufrom) + " FROM c " +
                 (Chance(40) ? "LEFT JOIN " : "JOIN ") + u->name + " ON " + u->name + "." +
                 (Chance(60) ? std::string("id") : Pick(u->cols).name) + " = c.x0";
        case 3:
          // Which of a group's equal keys (4 and 4.0) is shown is the
          // engine's GROUP BY question, not the CTE's: numbers by value.
          check->set_op = true;
          return with + ", d(y) AS (SELECT x0 FROM c WHERE x0 IS NOT " + Bound() +
                 ") SELECT y, count(*) FROM d GROUP BY y";
        default:
          return with + " SELECT " + u->name + ".id, " +
                 (Chance(50) ? "(SELECT count(*) FROM c WHERE c.x0 = " + Col(ufrom) + ")"
                             : Col(ufrom) + " IN (SELECT x0 FROM c)") +
                 " FROM " + u->name;
      }
    }
    const std::string op = Chance(50) ? " UNION " : " UNION ALL ";
    if (kind < 7) {
      // A counter: start, start+step, ... up to a bound, or round a modulus.
      const int start = Int(-3, 5), step = Int(1, 3);
      std::string next = "n+" + std::to_string(step);
      const bool modulo = Chance(30);
      if (modulo) next = "(n*" + std::to_string(Int(2, 5)) + "+1) % " + std::to_string(Int(5, 17));
      std::string body = "SELECT " + std::to_string(start) + op + "SELECT " + next + " FROM r";
      if (!modulo || Chance(50)) body += " WHERE n < " + std::to_string(start + Int(0, 30));
      const bool endless = modulo && op == " UNION ALL ";
      if (endless || Chance(30)) {
        body += " LIMIT " + std::to_string(Int(0, 25));
        if (Chance(30)) body += " OFFSET " + std::to_string(Int(1, 5));
      }
      const std::string with = "WITH RECURSIVE r(n) AS (" + body + ")";
      if (Chance(30)) {
        return with + " SELECT r.n, " + Col(from) + " FROM r JOIN " + t->name + " ON " + t->name +
               ".id = r.n";
      }
      // One row per step: the queue's order is the only order.
      check->order = Check::Order::kExact;
      if (!endless && Chance(20)) {
        // An endless counter as the only FROM item: the outer LIMIT ends it.
        return "WITH RECURSIVE r(n) AS (SELECT " + std::to_string(start) + " UNION ALL SELECT n+" +
               std::to_string(step) + " FROM r) SELECT n FROM r LIMIT " +
               std::to_string(Int(0, 20));
      }
      return with + " SELECT n, n*n FROM r";
    }
    if (kind < 9) {
      // A walk along t.c = id, a few levels deep; its rows as a multiset.
      const std::string link = Pick(t->cols).name;
      std::string q = "WITH RECURSIVE w(id, d) AS (SELECT id, 0 FROM " + t->name + " WHERE " +
                      Cond(from, 1) + op + "SELECT " + t->name + ".id, w.d+1 FROM " + t->name +
                      " JOIN w ON " + t->name + "." + link + " = w.id WHERE w.d < " +
                      std::to_string(Int(1, 3)) + ") SELECT id, d FROM w";
      if (Chance(40)) {
        q += " ORDER BY 2, 1";
        check->order = Check::Order::kKeys;
        check->keys = {1, 0};
        check->nocase = {false, false};
        AddLimit(&q, check);
      }
      return q;
    }
    // A binary tree numbered 1, 2, 3, ... taken out of a priority queue: the
    // values are distinct, so the order (and what LIMIT keeps) is unique.
    const std::string bound = std::to_string(Int(2, 40));
    // ORDER BY names the setup's columns (its aliases), not the CTE's.
    const bool aliased = Chance(50);
    std::string q = "WITH RECURSIVE b(n, depth) AS (SELECT " +
                    std::string(aliased ? "1 AS n, 0 AS depth" : "1, 0") + op +
                    "SELECT n*2, depth+1 FROM b WHERE n < " + bound + op +
                    "SELECT n*2+1, depth+1 FROM b WHERE n < " + bound + " ORDER BY " +
                    (aliased ? Pick(std::vector<std::string>{"n DESC", "depth, n", "depth DESC, 1"})
                             : Pick(std::vector<std::string>{"1", "1 DESC", "2, 1", "2 DESC, 1"}));
    if (Chance(40)) q += " LIMIT " + std::to_string(Int(0, 20));
    check->order = Check::Order::kExact;
    return q + ") SELECT n, depth FROM b";
  }

  // Window functions over one table, or over its groups: every function,
  // PARTITION BY / ORDER BY on columns and expressions, every frame kind
  // with random offsets, EXCLUDE, FILTER, WINDOW definitions, windows in
  // expressions, under an ORDER BY on the rowid (or the group key). Rows
  // that tie in a window's order come in scan order, which the two engines
  // need not share: so either every window's ORDER BY ends in the rowid, or
  // the query uses only what the order of peers cannot change (ranks,
  // counts, min / max, and sums of the data's exact quarters, over RANGE
  // and GROUPS frames that take or leave whole peer groups).
  std::string WindowQuery(const std::vector<Table>& tables, Check* check) {
    tables_ = &tables;
    *check = Check{};
    const Table* t = &Pick(tables);
    std::vector<const Table*> from{t};
    const bool grouped = Chance(25);
    const bool exact = grouped || Chance(65);
    const std::string id = t->name + ".id";
    const std::string key = Col(from);  // the group key when grouped
    auto value = [&]() {
      if (grouped) {
        return Pick(std::vector<std::string>{"count(*)", "sum(" + Col(from) + ")",
                                             "min(" + Col(from) + ")", key});
      }
      // Sums over peers in any order stay exact only over the data's own values.
      return Chance(60) || !exact ? Col(from) : Expr(from, 1);
    };
    // ORDER BY terms of a window; `single`: one term (RANGE with an offset).
    auto order = [&](bool single) {
      std::string o;
      if (exact && !grouped) {
        if (!single) {
          for (int i = Int(0, 2); i > 0; --i) {
            o += value() + (Chance(30) ? " DESC" : "") +
                 (Chance(10) ? (Chance(50) ? " NULLS FIRST" : " NULLS LAST") : "") + ", ";
          }
        }
        return o + id + (Chance(30) ? " DESC" : "");
      }
      if (grouped) return key + (Chance(30) ? " DESC" : "");
      for (int i = single ? 1 : Int(1, 2); i > 0; --i) {
        o += (o.empty() ? "" : ", ") + value() + (Chance(30) ? " DESC" : "") +
             (Chance(10) ? (Chance(50) ? " NULLS FIRST" : " NULLS LAST") : "");
      }
      return o;
    };
    auto offset = [&](bool range) {
      if (range && Chance(30)) return Pick(std::vector<std::string>{"0.5", "1.5", "2.25"});
      if (Chance(2)) return std::string("-1");  // an error on both sides
      return std::to_string(Int(0, 3));
    };
    // [PARTITION BY] [ORDER BY] [frame], the frame only with an ORDER BY.
    auto definition = [&](bool with_partition, bool with_order) {
      std::string d;
      if (with_partition && Chance(50)) {
        d += "PARTITION BY " + value();
        if (Chance(25)) d += ", " + value();
      }
      const bool ordered = with_order && (exact || Chance(80));
      const bool framed = Chance(60);
      std::string unit = framed ? Pick(exact ? std::vector<std::string>{"ROWS", "RANGE", "GROUPS"}
                                             : std::vector<std::string>{"RANGE", "GROUPS"})
                                : "";
      const bool offsets = Chance(60);
      const bool single = unit == "RANGE" && offsets;
      if (ordered) {
        if (single && exact && !grouped) {
          d += std::string(d.empty() ? "" : " ") + "ORDER BY " + id + (Chance(30) ? " DESC" : "");
        } else {
          d += std::string(d.empty() ? "" : " ") + "ORDER BY " + order(single);
        }
      } else if (unit == "ROWS" || single) {
        unit = "GROUPS";  // ROWS and RANGE offsets need an order
      }
      if (unit.empty()) return d;
      auto bound = [&](bool start) {
        switch (Int(0, 3)) {
          case 0:
            return std::string(start ? "UNBOUNDED PRECEDING" : "UNBOUNDED FOLLOWING");
          case 1:
            return std::string("CURRENT ROW");
          case 2:
            return offsets ? offset(unit == "RANGE") + " PRECEDING" : std::string("CURRENT ROW");
          default:
            return offsets ? offset(unit == "RANGE") + " FOLLOWING" : std::string("CURRENT ROW");
        }
      };
      d += " " + unit + " ";
      if (Chance(20)) {
        d += Pick(std::vector<std::string>{"UNBOUNDED PRECEDING", "CURRENT ROW"});
      } else {
        std::string b = bound(true), e = bound(false);
        // Mostly frames that do not end before they start.
        auto rank = [](const std::string& x) {
          return x.find("UNBOUNDED P") == 0                 ? 0
                 : x.find("PRECEDING") != std::string::npos ? 1
                 : x == "CURRENT ROW"                       ? 2
                 : x.find("FOLLOWING") != std::string::npos &&
                         x.find("UNBOUNDED") == std::string::npos
                     ? 3
                     : 4;
        };
        if (rank(b) > rank(e) && !Chance(5)) std::swap(b, e);
        if (b.find("UNBOUNDED F") == 0) b = "UNBOUNDED PRECEDING";
        if (e.find("UNBOUNDED P") == 0) e = "UNBOUNDED FOLLOWING";
        d += "BETWEEN " + b + " AND " + e;
      }
      if (Chance(25)) {
        d += " EXCLUDE " +
             Pick(std::vector<std::string>{"NO OTHERS", "CURRENT ROW", "GROUP", "TIES"});
      }
      return d;
    };
    const bool named = Chance(25);
    const std::string named_def = named ? definition(true, true) : "";
    const bool named_frame = named_def.find("ROWS") != std::string::npos ||
                             named_def.find("RANGE") != std::string::npos ||
                             named_def.find("GROUPS") != std::string::npos;
    auto call = [&]() {
      std::string f;
      bool aggregate = false;
      const int n = exact ? Int(0, 18) : Int(0, 10);
      switch (exact ? n : std::vector<int>{1, 2, 3, 4, 12, 13, 14, 15, 16, 17, 18}[n]) {
        case 0:
          f = "row_number()";
          break;
        case 1:
          f = "rank()";
          break;
        case 2:
          f = "dense_rank()";
          break;
        case 3:
          f = "percent_rank()";
          break;
        case 4:
          f = "cume_dist()";
          break;
        case 5:
          f = "ntile(" + std::to_string(Int(1, 4)) + ")";
          break;
        case 6:
        case 7: {
          f = std::string(n == 6 ? "lag(" : "lead(") + value();
          if (Chance(60)) f += ", " + std::to_string(Int(0, 3));
          if (Chance(40) && f.find(',') != std::string::npos) f += ", " + Literal();
          f += ")";
          break;
        }
        case 8:
          f = "first_value(" + value() + ")";
          break;
        case 9:
          f = "last_value(" + value() + ")";
          break;
        case 10:
          f = "nth_value(" + value() + ", " + std::to_string(Int(1, 3)) + ")";
          break;
        case 11:
          f = "group_concat(" + value() + (Chance(30) ? ", '-')" : ")");
          aggregate = true;
          break;
        case 12:
          f = "count(*)";
          aggregate = true;
          break;
        default:
          f = Pick(std::vector<std::string>{"count", "sum", "total", "avg", "min", "max"}) + "(" +
              value() + ")";
          aggregate = true;
          break;
      }
      // (Not over groups: a bare column there is any row of the group.)
      if (aggregate && !grouped && Chance(20)) f += " FILTER (WHERE " + Cond(from, 0) + ")";
      if (named && Chance(60)) {
        if (Chance(50) || named_frame) return f + " OVER w";
        return f + " OVER (w " + definition(false, false) + ")";
      }
      return f + " OVER (" + definition(true, true) + ")";
    };
    // DISTINCT over the windows' values alone: compared as a set.
    const bool distinct = !grouped && Chance(8);
    std::string q = distinct ? "SELECT DISTINCT " : "SELECT " + (grouped ? key + ", count(*)" : id);
    const int ncalls = Int(1, 3);
    for (int i = 0; i < ncalls; ++i) {
      std::string c = call();
      if (Chance(15)) c = "coalesce(" + c + ", 0) + 1";
      q += (i > 0 || !distinct ? ", " : "") + c;
    }
    q += " FROM " + t->name;
    if (Chance(40)) q += " WHERE " + Cond(from, 1);
    if (grouped) {
      q += " GROUP BY " + key;
      check->aggregate = true;  // a NOCASE key's spelling is the scan's first row's
    }
    if (named) q += " WINDOW w AS (" + named_def + ")";
    if (distinct) {
      check->set_op = true;
      return q;
    }
    // The windowed select as a FROM subquery, ordered outside.
    if (Chance(12)) q = "SELECT * FROM (" + q + ")";
    if (grouped) {
      q += " ORDER BY 1" + std::string(Chance(30) ? " DESC" : "");
      check->order = Check::Order::kKeys;
      check->keys = {0};
      check->nocase = {false};
    } else {
      q += Chance(30) ? " ORDER BY 2, 1" : Chance(30) ? " ORDER BY 1 DESC" : " ORDER BY 1";
      check->order = Check::Order::kExact;
    }
    AddLimit(&q, check);
    return q;
  }

  // A CHECK constraint on column `col` (a random one of several shapes
  // that random rows break now and then: comparisons with literals, NULL
  // tests, typeof(), length(), the bare value), sometimes named, sometimes
  // spaced oddly (sqlite3 quotes its text as written).
  std::string CheckOn(const std::string& col, const std::string& name) {
    std::string e;
    switch (Int(0, 5)) {
      case 0:
        e = col + (Chance(30) ? "  <>  " : " <> ") + Literal();
        break;
      case 1:
        e = col + " IS NULL OR " + col + " < " + std::to_string(Int(0, 10));
        break;
      case 2:
        e = "typeof(" + col + ") <> '" +
            Pick(std::vector<std::string>{"blob", "real", "text", "integer", "null"}) + "'";
        break;
      case 3:
        e = "length(" + col + ")<" + std::to_string(Int(1, 3));
        break;
      case 4:
        e = col;
        break;
      default:
        e = col + " >= " + std::to_string(Int(-2, 3));
    }
    std::string out = name.empty() || Chance(50) ? "" : " CONSTRAINT " + name;
    return out + " CHECK(" + (Chance(20) ? " " + e + " " : e) + ")";
  }

  // Column and table CHECK constraints for ConflictDml's copy, drawn from
  // their own generator so that the main stream (every other query of the
  // schema) stays what it was without them.
  std::string TableChecks(const std::vector<std::string>& cols, const std::string& copy) {
    if (!Chance(50)) return "";
    std::string out;
    for (int i = 0, n = Int(1, 2); i < n; ++i) {
      out += ",";
      const std::string name = Chance(50) ? "" : " CONSTRAINT " + copy + "_t" + std::to_string(i);
      switch (Int(0, 2)) {
        case 0:
          out += name + " CHECK(id < " + std::to_string(Int(15, 50)) + ")";
          break;
        case 1:
          out += name + " CHECK(" + Pick(cols) + " IS NOT " + Pick(cols) + ")";
          break;
        default:
          out += name + " CHECK(coalesce(" + Pick(cols) + ", 0) <> " + Literal() + ")";
      }
    }
    return out;
  }

  // DML with conflict clauses on `copy`, a scratch copy of a random table:
  // its CREATE TABLE with random constraint-level ON CONFLICT clauses (on
  // the INTEGER PRIMARY KEY, NOT NULL with or without a DEFAULT, UNIQUE on
  // a column or a pair) and, from a generator of their own, CHECK
  // constraints (column and table level, named and unnamed), its rows,
  // sometimes triggers (logging into
  // `copy`_log, writing the copy, RAISE), then INSERT / REPLACE / UPDATE
  // (and DELETE with triggers) with a random OR clause, a few with ON
  // CONFLICT DO NOTHING / DO UPDATE, some in an explicit transaction. Rows come in rowid
  // order (ORDER BY id, rowid ranges), so which row meets a conflict first
  // is the same on both sides. The caller compares each statement's error
  // and changes(), and the copy's rows after it.
  std::vector<std::string> ConflictDml(const std::vector<Table>& tables, const std::string& copy) {
    tables_ = &tables;
    static const std::vector<std::string> kOn = {"",
                                                 "",
                                                 " ON CONFLICT ROLLBACK",
                                                 " ON CONFLICT ABORT",
                                                 " ON CONFLICT FAIL",
                                                 " ON CONFLICT IGNORE",
                                                 " ON CONFLICT REPLACE"};
    static const std::vector<std::string> kInsert = {
        "INSERT",           "INSERT OR ROLLBACK", "INSERT OR ABORT", "INSERT OR FAIL",
        "INSERT OR IGNORE", "INSERT OR REPLACE",  "REPLACE"};
    static const std::vector<std::string> kUpdate = {"UPDATE",           "UPDATE OR ROLLBACK",
                                                     "UPDATE OR ABORT",  "UPDATE OR FAIL",
                                                     "UPDATE OR IGNORE", "UPDATE OR REPLACE"};
    const Table& src = Pick(tables);
    std::vector<const Table*> from{&src};
    const size_t nc = src.cols.size();
    uint32_t h = seed_;
    for (char ch : copy) h = (h ^ static_cast<uint8_t>(ch)) * 16777619u;  // FNV-1a
    Generator checks(h);
    const bool with_checks = checks.Chance(60);
    // Some copies, or only their logs, are TEMP tables (drawn from `checks`
    // too, so the main sequence stays as it was): a TEMP trigger on a main
    // copy writes a TEMP log, and a trigger on a TEMP copy is TEMP itself.
    const bool temp_copy = checks.Chance(25);
    const bool temp_log = temp_copy || checks.Chance(20);
    std::vector<std::string> names;
    std::string create = std::string(temp_copy ? "CREATE TEMP TABLE " : "CREATE TABLE ") + copy +
                         "(id INTEGER PRIMARY KEY" + (Chance(40) ? Pick(kOn) : std::string());
    for (size_t c = 1; c < nc; ++c) {
      const std::string& col = src.cols[c].name;
      names.push_back(col);
      create += ", " + col + (src.cols[c].type.empty() ? "" : " " + src.cols[c].type);
      if (Chance(35)) {
        create += " NOT NULL" + Pick(kOn);
        if (Chance(50)) create += " DEFAULT " + Literal();
      }
      if (Chance(35)) create += " UNIQUE" + Pick(kOn);
      if (with_checks && checks.Chance(35)) {
        create += checks.CheckOn(col, copy + "_c" + std::to_string(c));
      }
    }
    if (nc > 2 && Chance(30)) {
      create += ", UNIQUE(" + src.cols[1].name + ", " + src.cols[2].name + ")" + Pick(kOn);
    }
    if (with_checks && !names.empty()) create += checks.TableChecks(names, copy);
    std::vector<std::string> out = {
        create + ")", "INSERT OR IGNORE INTO " + copy + " SELECT * FROM " + src.name,
        std::string(temp_log ? "CREATE TEMP TABLE " : "CREATE TABLE ") + copy + "_log(k, v, w)"};
    // Triggers on the copy: they log, write the copy itself, or RAISE.
    const int ntrig = Chance(40) ? Int(1, 3) : 0;
    for (int i = 0; i < ntrig; ++i) {
      const std::string event = Pick(std::vector<std::string>{"INSERT", "UPDATE", "DELETE"});
      const std::string row = event == "DELETE" ? "old" : "new";
      const std::string col = src.cols[static_cast<size_t>(Int(1, static_cast<int>(nc) - 1))].name;
      std::string t = std::string(temp_log ? "CREATE TEMP TRIGGER " : "CREATE TRIGGER ") + copy +
                      "_tr" + std::to_string(i) + " " +
                      Pick(std::vector<std::string>{"BEFORE", "AFTER"}) + " " + event;
      if (event == "UPDATE" && Chance(30)) t += " OF " + col;
      t += " ON " + copy;
      if (Chance(40)) t += " WHEN " + row + "." + col + (Chance(50) ? " IS NOT NULL" : " > 2");
      t += " BEGIN ";
      const std::string other = event == "UPDATE" ? "old." + col : Literal();
      switch (Int(0, 5)) {
        case 0:
        case 1:
          t += "INSERT INTO " + copy + "_log VALUES('" + event + "', " + row + ".id, " + row + "." +
               col + "); ";
          t += "INSERT INTO " + copy + "_log VALUES('other', " + other + ", typeof(" + row + "." +
               col + "));";
          break;
        case 2:
          t += "UPDATE " + copy + " SET " + col + " = " + Literal() + " WHERE id = " + row +
               ".id + " + std::to_string(Int(1, 3)) + ";";
          break;
        case 3:
          t += "DELETE FROM " + copy + " WHERE id = " + row + ".id + " + std::to_string(Int(1, 3)) +
               ";";
          break;
        case 4:
          t += "SELECT RAISE(IGNORE) WHERE " + row + "." + col + " IS NULL;";
          break;
        default:
          t += "SELECT RAISE(" + Pick(std::vector<std::string>{"ABORT", "FAIL", "ROLLBACK"}) +
               ", 'no " + col + "') WHERE " + row + "." + col + " = " + Literal() + ";";
      }
      out.push_back(t + " END");
    }
    const bool txn = Chance(25);
    if (txn) out.push_back("BEGIN");
    const int n = Int(1, 4);
    for (int i = 0; i < n; ++i) {
      const int kind = Int(0, ntrig > 0 ? 4 : 3);
      if (kind == 4) {
        const int lo = Int(0, 60);
        out.push_back("DELETE FROM " + copy + " WHERE id BETWEEN " + std::to_string(lo) + " AND " +
                      std::to_string(lo + Int(0, 20)));
      } else if (kind == 0) {
        // Rows of the source, shifted onto and off the existing keys.
        std::string q = Pick(kInsert) + " INTO " + copy + " SELECT ";
        q += Chance(50) ? "id" : "id + " + std::to_string(Int(-3, 30));
        for (size_t c = 1; c < nc; ++c) {
          q += ", " + (Chance(60) ? src.name + "." + src.cols[c].name : Expr(from, 1));
        }
        q += " FROM " + src.name;
        if (Chance(50)) q += " WHERE " + Cond(from, 1);
        q += " ORDER BY id";
        if (Chance(30)) q += " LIMIT " + std::to_string(Int(1, 10));
        out.push_back(q);
      } else if (kind == 1) {
        std::string q = Pick(kInsert) + " INTO " + copy + " VALUES ";
        const int rows = Int(1, 4);
        for (int r = 0; r < rows; ++r) {
          q += r ? ", (" : "(";
          q += Chance(70) ? std::to_string(Int(1, 40)) : std::string("NULL");
          for (size_t c = 1; c < nc; ++c) q += ", " + Literal();
          q += ")";
        }
        if (Chance(15)) q += Chance(50) ? " ON CONFLICT DO NOTHING" : " ON CONFLICT(id) DO NOTHING";
        if (Chance(10)) {
          const std::string col =
              src.cols[static_cast<size_t>(Int(1, static_cast<int>(nc) - 1))].name;
          q += " ON CONFLICT" + std::string(Chance(50) ? "(id)" : "") + " DO UPDATE SET " + col +
               " = " + (Chance(50) ? "excluded." + col : Literal()) +
               (Chance(30) ? " WHERE " + col + " IS NOT NULL" : "");
        }
        out.push_back(q);
      } else if (kind == 2) {
        // A subset of the columns, the others take their defaults.
        std::string cols = src.cols[1].name, vals = Literal();
        if (nc > 2 && Chance(50)) {
          cols += ", " + src.cols[2].name;
          vals += ", " + Literal();
        }
        out.push_back(Pick(kInsert) + " INTO " + copy + "(" + cols + ") VALUES (" + vals + ")");
      } else {
        std::vector<const Table*> self{&src};
        std::string q = Pick(kUpdate) + " " + copy + " SET ";
        const size_t c = static_cast<size_t>(Int(Chance(15) ? 0 : 1, static_cast<int>(nc) - 1));
        q += src.cols[c].name + " = " +
             (c == 0       ? "id + " + std::to_string(Int(-2, 3))
              : Chance(50) ? Literal()
                           : src.cols[c].name + " || ''");
        if (Chance(30)) {
          const size_t d = static_cast<size_t>(Int(1, static_cast<int>(nc) - 1));
          if (d != c) q += ", " + src.cols[d].name + " = " + Literal();
        }
        const int lo = Int(0, 60);
        q += " WHERE id BETWEEN " + std::to_string(lo) + " AND " + std::to_string(lo + Int(0, 40));
        out.push_back(q);
      }
    }
    if (txn) out.push_back("COMMIT");
    return out;
  }

  // The date and time functions over random time values (dates, times,
  // julian day numbers, Unix seconds, the tables' columns, other date
  // expressions) and modifier chains (some built from columns), in the
  // select list, WHERE, GROUP BY and ORDER BY. Never 'now' nor
  // 'localtime' / 'utc': those differ between the two sides by nature.
  std::string DateTimeQuery(const std::vector<Table>& tables, Check* check) {
    tables_ = &tables;
    *check = Check{};
    const Table* t = &Pick(tables);
    std::vector<const Table*> from{t};
    std::string from_sql = t->name;
    if (Chance(20)) {
      const Table* u = &Pick(tables);
      if (u != t) {
        from_sql += " JOIN " + u->name + " ON " + t->name + ".id = " + u->name + ".id";
        from.push_back(u);
      }
    }
    std::string where;
    if (Chance(40)) {
      static const std::vector<std::string> kOps = {"=", "<", ">=", "<>", "IS NOT"};
      where = " WHERE " + DateExpr(from, 1) + " " + Pick(kOps) + " " +
              (Chance(50) ? DateExpr(from, 1) : "'" + DateLiteral() + "'");
    } else if (Chance(30)) {
      where = " WHERE " + Cond(from, 1);
    }
    if (Chance(15)) {
      const std::string key = "strftime('" +
                              Pick(std::vector<std::string>{"%Y", "%m", "%w", "%Y-%m", "%j"}) +
                              "', " + DateValue(from, 1) + ")";
      std::string q = "SELECT " + key + ", count(*), min(" + DateExpr(from, 1) + ") FROM " +
                      from_sql + where + " GROUP BY 1";
      check->aggregate = true;
      if (Chance(50)) {
        q += " ORDER BY 1";
        check->order = Check::Order::kKeys;
        check->keys.push_back(0);
        check->nocase.push_back(false);
        AddLimit(&q, check);
      }
      return q;
    }
    std::string cols;
    const int n = Int(1, 3);
    for (int i = 0; i < n; ++i)
      cols += (i ? ", " : "") + (Chance(15) ? Col(from) : DateExpr(from, 2));
    std::string q = "SELECT " + cols + " FROM " + from_sql + where;
    if (Chance(40)) {
      OrderByOutputs(n, &q, check);
    }
    return q;
  }

  // 'YYYY-MM-DD[ HH:MM[:SS[.fff]]][zone]', mostly valid, sometimes not.
  std::string DateLiteral() {
    auto two = [&](int lo, int hi) { return two_digits(Int(lo, hi)); };
    const int year = Chance(80) ? Int(1900, 2100) : Int(0, 9999);
    std::string y = std::to_string(year);
    while (y.size() < 4) y = "0" + y;
    std::string s = (Chance(3) ? "-" : "") + y + "-" + two(1, Chance(5) ? 13 : 12) + "-" +
                    two(1, Chance(20) ? 31 : 28);
    if (Chance(60)) {
      s += (Chance(20) ? "T" : " ") + two(0, 23) + ":" + two(0, 59);
      if (Chance(70)) s += ":" + two(0, 59);
      if (Chance(30)) s += "." + std::to_string(Int(0, 9999));
      if (Chance(15))
        s += Chance(30) ? "Z" : (Chance(50) ? "+" : "-") + two(0, 14) + ":" + two(0, 59);
    }
    return s;
  }

  // A time value: a literal, a number, a column, or another date expression.
  std::string DateValue(const std::vector<const Table*>& from, int depth) {
    switch (Int(0, 9)) {
      case 0:
      case 1:
      case 2:
        return "'" + DateLiteral() + "'";
      case 3:
        return "'" + two_digits(Int(0, 24)) + ":" + two_digits(Int(0, 59)) +
               (Chance(50) ? ":" + two_digits(Int(0, 59)) : "") + "'";
      case 4:
        return RealText(Int(2400000, 2500000) + Int(0, 7) / 8.0);
      case 5:
        // Unix seconds: mostly with 'unixepoch' or 'auto' (the value
        // must come right before them).
        return std::to_string(Int(-100000, 2000000000)) +
               (Chance(70) ? Chance(70) ? ", 'unixepoch'" : ", 'auto'" : "");
      case 6:
        return Col(from);
      case 7:
        return "(" + std::to_string(Int(2440000, 2470000)) + " + " + Col(from) + ")";
      default:
        return depth > 0 ? DateExpr(from, depth - 1) : "'" + DateLiteral() + "'";
    }
  }

  std::string Modifier(const std::vector<const Table*>& from) {
    static const std::vector<std::string> kUnits = {"days",   "hours",  "minutes", "seconds",
                                                    "months", "years",  "day",     "month",
                                                    "year",   "second", "hour",    "minute"};
    const std::string sign = Pick(std::vector<std::string>{"+", "-", ""});
    switch (Int(0, 11)) {
      case 0:
      case 1:
      case 2:
        return "'" + sign + std::to_string(Int(0, 400)) + " " + Pick(kUnits) + "'";
      case 3:
        return "'" + sign + RealText(Int(0, 100) / 4.0) + " " + Pick(kUnits) + "'";
      case 4:
        return "'start of " + Pick(std::vector<std::string>{"day", "month", "year"}) + "'";
      case 5:
        return "'weekday " + std::to_string(Int(0, 7)) + "'";
      case 6:
        return "'" + Pick(std::vector<std::string>{"unixepoch", "julianday", "auto"}) + "'";
      case 7:
        return "'" + std::string(Chance(50) ? "+" : "-") + two_digits(Int(0, 30)) + ":" +
               two_digits(Int(0, 59)) + (Chance(40) ? ":" + two_digits(Int(0, 59)) : "") + "'";
      case 8:
        return "(" + Col(from) + " || ' " + Pick(kUnits) + "')";
      case 9:
        return Chance(50) ? "NULL" : Col(from);
      case 10:
        return "'" +
               Pick(std::vector<std::string>{"+1 fortnight", "start of week", "subsec", "weekday",
                                             "", "+1.5 months", "-0.5 years"}) +
               "'";
      default:
        return "'" + sign + std::to_string(Int(0, 40000)) + " " + Pick(kUnits) + "'";
    }
  }

  std::string StrftimeFormat() {
    static const std::vector<std::string> kParts = {
        "%d", "%f", "%H", "%j", "%J", "%m", "%M", "%s",       "%S",       "%w", "%W",
        "%Y", "%%", "-",  " ",  ":",  "T",  "x",  "%Y-%m-%d", "%H:%M:%S", "%e", "%"};
    std::string f;
    for (int i = Int(1, 4); i > 0; --i) f += Pick(kParts);
    return f;
  }

  static std::string two_digits(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

  std::string DateExpr(const std::vector<const Table*>& from, int depth) {
    std::string args = DateValue(from, depth);
    for (int i = Int(0, 3); i > 0; --i) args += ", " + Modifier(from);
    switch (Int(0, 6)) {
      case 0:
        return "date(" + args + ")";
      case 1:
        return "time(" + args + ")";
      case 2:
        return "datetime(" + args + ")";
      case 3:
        return "julianday(" + args + ")";
      case 4:
        return "unixepoch(" + args + ")";
      default:
        return "strftime('" + StrftimeFormat() + "', " + args + ")";
    }
  }

 private:
  // ORDER BY every output column (1..n) in random directions, checked by
  // those keys, then maybe LIMIT / OFFSET.
  void OrderByOutputs(int n, std::string* q, Check* check) {
    *q += " ORDER BY ";
    check->order = Check::Order::kKeys;
    for (int i = 1; i <= n; ++i) {
      *q += (i > 1 ? ", " : "") + std::to_string(i) + (Chance(30) ? " DESC" : "");
      check->keys.push_back(i - 1);
      check->nocase.push_back(false);
    }
    AddLimit(q, check);
  }

  void AddLimit(std::string* q, Check* check) {
    if (!Chance(50)) return;
    *q += " LIMIT " + std::to_string(Int(0, 8));
    check->limit = true;
    if (Chance(30)) {
      *q += " OFFSET " + std::to_string(Int(1, 4));
      check->offset = true;
    }
  }

  std::mt19937 rng_;
  uint32_t seed_;
  const std::vector<Table>* tables_ = nullptr;
  std::vector<std::string> collated_refs_;  // "t1.c2" (and "s.c2") of NOCASE / RTRIM columns
};

// The checker itself: ties may come in any order, keys may not.
TEST(SqlDifferentialCompareTest, TiesAnyOrderKeysInOrder) {
  Check keys;
  keys.order = Check::Order::kKeys;
  keys.keys = {0};
  keys.nocase = {false};
  const std::vector<Row> want = {{"i:1", "t:a"}, {"r:1", "t:b"}, {"i:2", "t:c"}, {"i:2", "t:d"}};
  EXPECT_EQ(Compare(keys, want, {{"r:1", "t:b"}, {"i:1", "t:a"}, {"i:2", "t:d"}, {"i:2", "t:c"}}),
            "");
  EXPECT_NE(Compare(keys, want, {{"i:2", "t:c"}, {"i:1", "t:a"}, {"r:1", "t:b"}, {"i:2", "t:d"}}),
            "");
  // Right keys, but a row of one run traded for another row.
  EXPECT_NE(Compare(keys, want, {{"i:1", "t:a"}, {"r:1", "t:b"}, {"i:2", "t:c"}, {"i:2", "t:x"}}),
            "");
  keys.limit = true;  // ... which LIMIT allows in the last run only
  EXPECT_EQ(Compare(keys, want, {{"i:1", "t:a"}, {"r:1", "t:b"}, {"i:2", "t:c"}, {"i:2", "t:x"}}),
            "");
  EXPECT_NE(Compare(keys, want, {{"i:1", "t:x"}, {"r:1", "t:b"}, {"i:2", "t:c"}, {"i:2", "t:d"}}),
            "");
  keys.offset = true;  // and OFFSET in the first
  EXPECT_EQ(Compare(keys, want, {{"i:1", "t:x"}, {"r:1", "t:b"}, {"i:2", "t:c"}, {"i:2", "t:d"}}),
            "");
  EXPECT_NE(Compare(keys, want, {{"i:1", "t:a"}}), "");
  Check nocase = keys;
  nocase.limit = nocase.offset = false;
  nocase.keys = {1};
  nocase.nocase = {true};
  EXPECT_EQ(Compare(nocase, {{"i:1", "t:A"}, {"i:2", "t:a"}, {"i:3", "t:b"}},
                    {{"i:2", "t:a"}, {"i:1", "t:A"}, {"i:3", "t:b"}}),
            "");
  nocase.nocase = {false};
  EXPECT_NE(Compare(nocase, {{"i:1", "t:A"}, {"i:2", "t:a"}, {"i:3", "t:b"}},
                    {{"i:2", "t:a"}, {"i:1", "t:A"}, {"i:3", "t:b"}}),
            "");
  Check exact;
  exact.order = Check::Order::kExact;
  EXPECT_NE(Compare(exact, {{"i:1"}, {"r:1"}}, {{"r:1"}, {"i:1"}}), "");
  Check none;
  EXPECT_EQ(Compare(none, {{"i:1"}, {"r:1"}}, {{"r:1"}, {"i:1"}}), "");
  EXPECT_NE(Compare(none, {{"i:1"}, {"r:1"}}, {{"i:1"}, {"i:1"}}), "");
}

uint32_t EnvNumber(const char* name, uint32_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? static_cast<uint32_t>(std::strtoul(v, nullptr, 10))
                                    : fallback;
}

// SQL_DIFF_SEED and SQL_DIFF_SCHEMAS run other or longer series by hand
// (each schema gets kQueriesPerSchema queries); SQL_DIFF_DUMP prints the
// schema and data of the first mismatching schema, to replay in a shell.
TEST(SqlDifferentialTest, RandomQueriesMatchSqlite) {
  testing::TempDir dir;
  const uint32_t base_seed = EnvNumber("SQL_DIFF_SEED", kSeed);
  const int schemas = static_cast<int>(EnvNumber("SQL_DIFF_SCHEMAS", kSchemas));
  int queries = 0, ordered = 0, ordered_rows = 0, mismatches = 0, both_errors = 0;
  int conflict_scripts = 0;
  int check_scripts = 0;   // conflict scripts whose table has CHECK constraints
  int temp_scripts = 0;    // conflict scripts with a TEMP table (the copy or its log)
  int check_failures = 0;  // their statements that sqlite3 failed on one
  int loose = 0;           // queries whose text ties compare under NOCASE and RTRIM at once
  for (int s = 0; s < schemas; ++s) {
    const uint32_t seed = base_seed + static_cast<uint32_t>(s);
    Generator gen(seed);
    std::vector<std::string> ddl;
    const std::vector<Table> tables = gen.Schema(&ddl);
    const std::string epath = dir.file("e" + std::to_string(s) + ".db");
    auto edb = Database::Open(epath);
    ASSERT_TRUE(edb.ok());
    sqlite3* sdb = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &sdb), SQLITE_OK);
    // sqlite3's automatic indexes key a column by its own collation, not
    // by the comparison's (ON x_rtrim = y_nocase then misses rows that the
    // comparison matches): a plan choice that changes answers, which the
    // oracle must not make. The engine builds no automatic indexes.
    ASSERT_FALSE(RunSqlite(sdb, "PRAGMA automatic_index = OFF").error);
    ASSERT_TRUE((*edb)->Exec("BEGIN").ok());
    for (const std::string& stmt : ddl) {
      const Outcome want = RunSqlite(sdb, stmt);
      const Outcome got = RunEngine(edb->get(), stmt);
      ASSERT_EQ(got.error, want.error)
          << "seed " << seed << ": " << stmt << "\n  engine: " << got.message
          << "\n  sqlite: " << want.message;
    }
    ASSERT_TRUE((*edb)->Exec("COMMIT").ok());
    bool dumped = false;
    for (int q = 0; q < kQueriesPerSchema; ++q) {
      Check check;
      const int kind = gen.Int(0, 99);
      if (kind >= 97) {
        // Conflict clauses: each statement's error and changes(), then
        // the scratch table's rows, as sqlite3's.
        ++queries;
        ++conflict_scripts;
        const std::string copy = "x" + std::to_string(q);
        const std::vector<std::string> script = gen.ConflictDml(tables, copy);
        check_scripts += script[0].find("CHECK(") != std::string::npos;
        temp_scripts += script[2].find("TEMP") != std::string::npos;
        for (const std::string& stmt : script) {
          const Outcome want = RunSqlite(sdb, stmt);
          const Outcome got = RunEngine(edb->get(), stmt);
          check_failures += want.error && want.message.starts_with("CHECK constraint failed");
          std::string diff;
          if (got.error != want.error || got.message != want.message) {
            diff = "engine: " + (got.error ? got.message : "ok") +
                   ", sqlite: " + (want.error ? want.message : "ok");
          } else if (stmt.find("CREATE") != 0 && stmt != "BEGIN" && stmt != "COMMIT" &&
                     (*edb)->changes() != sqlite3_changes64(sdb)) {
            diff = "changes() " + std::to_string((*edb)->changes()) + " vs " +
                   std::to_string(sqlite3_changes64(sdb));
          } else {
            const std::string dump = "SELECT * FROM " + copy + " ORDER BY id";
            const std::string log = "SELECT * FROM " + copy + "_log ORDER BY rowid";
            Check exact;
            exact.order = Check::Order::kExact;
            Outcome want_rows = RunSqlite(sdb, dump), got_rows = RunEngine(edb->get(), dump);
            if (Compare(exact, want_rows.rows, got_rows.rows).empty()) {
              want_rows = RunSqlite(sdb, log);
              got_rows = RunEngine(edb->get(), log);
            }
            diff = Compare(exact, want_rows.rows, got_rows.rows);
            for (size_t i = 0; !diff.empty() && i < want_rows.rows.size(); ++i) {
              diff += "\n    " + RowText(want_rows.rows[i]) + "  vs  " +
                      (i < got_rows.rows.size() ? RowText(got_rows.rows[i]) : "-");
            }
          }
          if (diff.empty()) continue;
          ++mismatches;
          if (!dumped && std::getenv("SQL_DIFF_DUMP") != nullptr) {
            dumped = true;
            for (const std::string& line : ddl) std::fprintf(stderr, "%s;\n", line.c_str());
          }
          if (mismatches <= 20) {
            std::string all;
            for (const std::string& line : script) all += "\n    " + line + ";";
            ADD_FAILURE() << "seed " << seed << " query " << q << ": " << stmt << "\n  " << diff
                          << "\n  script:" << all;
          }
          break;
        }
        for (const std::string& t : {copy, copy + "_log"}) {
          (void)RunSqlite(sdb, "DROP TABLE " + t);
          (void)RunEngine(edb->get(), "DROP TABLE " + t);
        }
        continue;
      }
      const std::string sql = kind < 36   ? gen.Query(tables, &check)
                              : kind < 74 ? gen.OrderedQuery(tables, &check)
                              : kind < 80 ? gen.OrderedAggregate(tables, &check)
                              : kind < 86 ? gen.DateTimeQuery(tables, &check)
                              : kind < 91 ? gen.CteQuery(tables, &check)
                                          : gen.WindowQuery(tables, &check);
      check.loose_text = gen.Collated(sql);
      loose += check.loose_text;
      const Outcome want = RunSqlite(sdb, sql);
      const Outcome got = RunEngine(edb->get(), sql);
      ++queries;
      if (want.error && got.error) {
        ++both_errors;
        continue;
      }
      ordered += check.order != Check::Order::kNone;
      ordered_rows += check.order != Check::Order::kNone && want.rows.size() >= 2;
      const std::string diff = got.error != want.error ? std::string("one side failed")
                                                       : Compare(check, want.rows, got.rows);
      if (diff.empty()) continue;
      ++mismatches;
      if (!dumped && std::getenv("SQL_DIFF_DUMP") != nullptr) {
        dumped = true;
        for (const std::string& stmt : ddl) std::fprintf(stderr, "%s;\n", stmt.c_str());
      }
      if (mismatches <= 20) {
        std::string detail = "seed " + std::to_string(seed) + " query " + std::to_string(q) + ": " +
                             sql + "\n  " + diff;
        detail += "\n  engine" + (got.error ? " error: " + got.message
                                            : " rows: " + std::to_string(got.rows.size()));
        detail += "\n  sqlite" + (want.error ? " error: " + want.message
                                             : " rows: " + std::to_string(want.rows.size()));
        for (size_t i = 0; i < std::max(got.rows.size(), want.rows.size()) && i < 8; ++i) {
          detail += "\n    " + (i < got.rows.size() ? RowText(got.rows[i]) : std::string("-")) +
                    "   vs   " + (i < want.rows.size() ? RowText(want.rows[i]) : std::string("-"));
        }
        ADD_FAILURE() << detail;
      }
    }
    // The schema pragmas answer as sqlite3's (same DDL, same catalog), and
    // the file the engine wrote passes its own integrity check.
    std::vector<std::string> pragmas = {"PRAGMA integrity_check"};
    for (const Table& t : tables) {
      pragmas.push_back("PRAGMA table_info(" + t.name + ")");
      pragmas.push_back("PRAGMA index_list(" + t.name + ")");
      for (size_t i = 0; i < t.indexes.size(); ++i) {
        pragmas.push_back("PRAGMA index_info(" + t.name + "_i" + std::to_string(i) + ")");
        pragmas.push_back("PRAGMA index_xinfo(" + t.name + "_i" + std::to_string(i) + ")");
      }
    }
    for (const std::string& sql : pragmas) {
      const Outcome want = RunSqlite(sdb, sql);
      const Outcome got = RunEngine(edb->get(), sql);
      EXPECT_FALSE(got.error) << "seed " << seed << ": " << sql << ": " << got.message;
      Check in_order;  // pragma rows come in one order
      in_order.order = Check::Order::kExact;
      EXPECT_EQ(Compare(in_order, want.rows, got.rows), "") << "seed " << seed << ": " << sql;
    }
    sqlite3_close(sdb);
  }
  std::printf(
      "%d queries (%d checked in order, %d of them with 2+ rows; %d failed on both; %d "
      "conflict-clause DML scripts, %d with CHECK constraints, %d statements failing one, %d "
      "with TEMP tables; %d over collated text, its ties compared loosely), %d mismatches, seeds "
      "%u..%u\n",
      queries, ordered, ordered_rows, both_errors, conflict_scripts, check_scripts, check_failures,
      temp_scripts, loose, mismatches, base_seed, base_seed + static_cast<uint32_t>(schemas) - 1);
  EXPECT_GE(queries, std::min(20000, schemas * kQueriesPerSchema));
  EXPECT_LE(both_errors, queries / 20) << "the generator writes too much invalid SQL";
  EXPECT_EQ(mismatches, 0) << "of " << queries << " queries (" << both_errors << " failed on both)";
}

}  // namespace
}  // namespace engine
