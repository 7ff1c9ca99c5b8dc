// Prepared statements run thousands of times inside transactions, on the
// engine and on the real SQLite side by side: the executor paths that carry
// state from one execution to the next (a table cursor kept on the last row
// written, rowid-order appends, index inserts placed by the UNIQUE probe,
// updates in place, seeks that stay in a leaf, index seeks that skip the
// conjuncts they already guarantee) must give SQLite's answers, through
// commits, rollbacks and statements that fail halfway. Deterministic: one
// fixed seed, no timing.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "engine/database.h"
#include "engine/statement.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

struct Null {};
using Arg = std::variant<Null, int64_t, double, std::string>;

std::string Real(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

// One SQL statement prepared on both sides.
class Twin {
 public:
  Twin(Database* e, sqlite3* s, const std::string& sql) : sql_(sql) {
    auto st = e->Prepare(sql);
    EXPECT_TRUE(st.ok()) << sql << ": " << st.status().ToString();
    if (st.ok()) engine_ = std::move(*st);
    EXPECT_EQ(sqlite3_prepare_v2(s, sql.c_str(), -1, &sqlite_, nullptr), SQLITE_OK) << sql;
  }
  ~Twin() { sqlite3_finalize(sqlite_); }
  Twin(const Twin&) = delete;
  Twin& operator=(const Twin&) = delete;

  // Runs with these parameters on both sides; the rows (typed, in order)
  // and whether it failed must agree.
  void Run(const std::vector<Arg>& args, bool ordered = true) {
    std::vector<std::string> e = RunEngine(args), s = RunSqlite(args);
    if (!ordered) {
      std::sort(e.begin(), e.end());
      std::sort(s.begin(), s.end());
    }
    ASSERT_EQ(e, s) << sql_;
  }

 private:
  std::vector<std::string> RunEngine(const std::vector<Arg>& args) {
    std::vector<std::string> rows;
    Statement& st = *engine_;
    EXPECT_TRUE(st.Reset().ok());
    for (size_t i = 0; i < args.size(); ++i) {
      const int n = static_cast<int>(i) + 1;
      Status bound;
      if (std::holds_alternative<int64_t>(args[i]))
        bound = st.BindInt(n, std::get<int64_t>(args[i]));
      if (std::holds_alternative<double>(args[i]))
        bound = st.BindReal(n, std::get<double>(args[i]));
      if (std::holds_alternative<std::string>(args[i]))
        bound = st.BindText(n, std::get<std::string>(args[i]));
      if (std::holds_alternative<Null>(args[i])) bound = st.BindNull(n);
      EXPECT_TRUE(bound.ok()) << bound.ToString();
    }
    for (;;) {
      auto r = st.Step();
      if (!r.ok()) {
        rows.push_back("error");
        break;
      }
      if (!*r) break;
      std::string row;
      for (int c = 0; c < st.column_count(); ++c) {
        const Value& v = st.column_value(c);
        switch (v.type()) {
          case ValueType::kNull:
            row += "n|";
            break;
          case ValueType::kInteger:
            row += "i" + std::to_string(v.as_int()) + "|";
            break;
          case ValueType::kReal:
            row += "r" + Real(v.as_real()) + "|";
            break;
          default:
            row += "t" + std::string(v.as_text()) + "|";
            break;
        }
      }
      rows.push_back(row);
    }
    return rows;
  }

  std::vector<std::string> RunSqlite(const std::vector<Arg>& args) {
    std::vector<std::string> rows;
    sqlite3_reset(sqlite_);
    for (size_t i = 0; i < args.size(); ++i) {
      const int n = static_cast<int>(i) + 1;
      if (std::holds_alternative<int64_t>(args[i]))
        sqlite3_bind_int64(sqlite_, n, std::get<int64_t>(args[i]));
      if (std::holds_alternative<double>(args[i]))
        sqlite3_bind_double(sqlite_, n, std::get<double>(args[i]));
      if (std::holds_alternative<std::string>(args[i])) {
        const std::string& t = std::get<std::string>(args[i]);
        sqlite3_bind_text(sqlite_, n, t.data(), static_cast<int>(t.size()), SQLITE_TRANSIENT);
      }
      if (std::holds_alternative<Null>(args[i])) sqlite3_bind_null(sqlite_, n);
    }
    int rc;
    while ((rc = sqlite3_step(sqlite_)) == SQLITE_ROW) {
      std::string row;
      for (int c = 0; c < sqlite3_column_count(sqlite_); ++c) {
        switch (sqlite3_column_type(sqlite_, c)) {
          case SQLITE_NULL:
            row += "n|";
            break;
          case SQLITE_INTEGER:
            row += "i" + std::to_string(sqlite3_column_int64(sqlite_, c)) + "|";
            break;
          case SQLITE_FLOAT:
            row += "r" + Real(sqlite3_column_double(sqlite_, c)) + "|";
            break;
          default:
            row += "t" +
                   std::string(reinterpret_cast<const char*>(sqlite3_column_text(sqlite_, c)),
                               static_cast<size_t>(sqlite3_column_bytes(sqlite_, c))) +
                   "|";
        }
      }
      rows.push_back(row);
    }
    if (rc != SQLITE_DONE) rows.push_back("error");
    return rows;
  }

  std::string sql_;
  std::unique_ptr<Statement> engine_;
  sqlite3_stmt* sqlite_ = nullptr;
};

constexpr const char* kSchema =
    "CREATE TABLE item(i_id INTEGER PRIMARY KEY, i_name TEXT, i_price REAL);"
    "CREATE TABLE stock(s_i_id INTEGER, s_w_id INTEGER, s_quantity INTEGER, s_data TEXT,"
    "  PRIMARY KEY(s_w_id, s_i_id));"
    "CREATE TABLE ol(o_id INTEGER, d_id INTEGER, w_id INTEGER, num INTEGER, i_id INTEGER,"
    "  amount REAL, info TEXT, PRIMARY KEY(w_id, d_id, o_id, num));"
    "CREATE INDEX ol_item ON ol(i_id);"
    "CREATE TABLE hist(a INTEGER, b TEXT);"
    "CREATE TABLE mixed(id INTEGER PRIMARY KEY, k INTEGER, t TEXT, u);"
    "CREATE INDEX mixed_k ON mixed(k);"
    "CREATE INDEX mixed_t ON mixed(t);"
    "CREATE INDEX mixed_uk ON mixed(u, k);";

class PreparedDmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.file("e.db");
    auto db = Database::Open(path_);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    ASSERT_EQ(sqlite3_open(dir_.file("s.db").c_str(), &sqlite_), SQLITE_OK);
    ASSERT_TRUE(db_->Exec(kSchema).ok());
    ASSERT_EQ(sqlite3_exec(sqlite_, kSchema, nullptr, nullptr, nullptr), SQLITE_OK);
  }
  void TearDown() override { sqlite3_close(sqlite_); }

  void Exec(const std::string& sql) {
    const Status st = db_->Exec(sql);
    ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
    ASSERT_EQ(sqlite3_exec(sqlite_, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sql;
  }

  std::unique_ptr<Twin> Prep(const std::string& sql) {
    return std::make_unique<Twin>(db_.get(), sqlite_, sql);
  }

  // Every table, every row, in key order.
  void ExpectSameTables() {
    for (const char* q :
         {"SELECT * FROM item ORDER BY i_id", "SELECT * FROM stock ORDER BY s_w_id, s_i_id",
          "SELECT * FROM ol ORDER BY w_id, d_id, o_id, num",
          "SELECT rowid, * FROM hist ORDER BY rowid", "SELECT * FROM mixed ORDER BY id"}) {
      Prep(q)->Run({});
    }
  }

  testing::TempDir dir_;
  std::string path_;
  std::unique_ptr<Database> db_;
  sqlite3* sqlite_ = nullptr;
};

TEST_F(PreparedDmlTest, TransactionsOfPreparedStatementsMatchSqlite) {
  auto item_ins = Prep("INSERT INTO item VALUES (?, ?, ?)");
  auto item_replace = Prep("INSERT OR REPLACE INTO item VALUES (?, ?, ?)");
  auto item_new = Prep("INSERT INTO item(i_name, i_price) VALUES (?, ?)");
  auto item_get = Prep("SELECT i_price, i_name FROM item WHERE i_id = ?");
  auto item_upd = Prep("UPDATE item SET i_name = ?, i_price = i_price + 1 WHERE i_id = ?");
  auto stock_ins = Prep("INSERT INTO stock VALUES (?, ?, ?, ?)");
  auto stock_get = Prep("SELECT s_quantity, s_data FROM stock WHERE s_w_id = ? AND s_i_id = ?");
  auto stock_upd =
      Prep("UPDATE stock SET s_quantity = ?, s_data = ? WHERE s_w_id = ? AND s_i_id = ?");
  auto ol_ins = Prep("INSERT INTO ol VALUES (?, ?, ?, ?, ?, ?, NULL)");
  auto ol_deliver = Prep("UPDATE ol SET info = ? WHERE w_id = ? AND d_id = ? AND o_id = ?");
  auto ol_del = Prep("DELETE FROM ol WHERE w_id = ? AND d_id = ? AND o_id = ?");
  auto ol_sum =
      Prep("SELECT sum(amount), count(*) FROM ol WHERE w_id = ? AND d_id = ? AND o_id = ?");
  auto ol_range =
      Prep("SELECT o_id, num, i_id FROM ol WHERE w_id = ? AND d_id = ? AND o_id >= ? AND o_id < ?");
  auto stock_level = Prep(
      "SELECT count(DISTINCT s_i_id) FROM ol, stock WHERE w_id = ? AND d_id = ? AND o_id < ? AND "
      "o_id >= ? AND s_w_id = ? AND s_i_id = i_id AND s_quantity < ?");
  auto by_item = Prep("SELECT o_id, num FROM ol WHERE i_id = ? ORDER BY 1, 2");
  auto hist_ins = Prep("INSERT INTO hist VALUES (?, ?)");

  std::mt19937_64 rng(424242);
  auto pick = [&](int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  auto text = [&](size_t n) { return std::string(n, static_cast<char>('a' + rng() % 26)); };

  // Items in rowid order (the append path), stock for two warehouses.
  Exec("BEGIN");
  for (int64_t i = 1; i <= 400; ++i) {
    item_ins->Run(
        {i, text(static_cast<size_t>(pick(3, 30))), static_cast<double>(pick(100, 9999)) / 100});
  }
  for (int64_t w = 1; w <= 2; ++w) {
    for (int64_t i = 1; i <= 400; ++i)
      stock_ins->Run({i, w, pick(10, 100), text(static_cast<size_t>(pick(0, 40)))});
  }
  Exec("COMMIT");
  ExpectSameTables();

  int64_t next_o[2][5] = {};
  int64_t first_o[2][5] = {};
  for (int round = 0; round < 120; ++round) {
    Exec("BEGIN");
    for (int op = 0; op < 60; ++op) {
      const int64_t w = pick(1, 2), d = pick(1, 4);
      switch (rng() % 12) {
        case 0: {  // a new order: lines appended in key order per district
          const int64_t o = ++next_o[w - 1][d];
          const int64_t lines = pick(1, 12);
          for (int64_t n = 1; n <= lines; ++n) {
            ol_ins->Run({o, d, w, n, pick(1, 400), static_cast<double>(pick(1, 50000)) / 100});
          }
          break;
        }
        case 1:  // delivery: rows grow (NULL to text), then their sum
          ol_deliver->Run({text(static_cast<size_t>(pick(1, 20))), w, d, first_o[w - 1][d] + 1});
          ol_sum->Run({w, d, first_o[w - 1][d] + 1});
          break;
        case 2:  // the oldest order goes
          if (first_o[w - 1][d] < next_o[w - 1][d]) ol_del->Run({w, d, ++first_o[w - 1][d]});
          break;
        case 3: {  // stock update: same size, bigger, smaller
          const int64_t i = pick(1, 400);
          stock_get->Run({w, i});
          stock_upd->Run({pick(1, 200), text(static_cast<size_t>(pick(0, 60))), w, i});
          break;
        }
        case 4:  // point reads, found and missing
          item_get->Run({pick(-5, 420)});
          stock_get->Run({w, pick(0, 410)});
          break;
        case 5:
          stock_level->Run({w, d, next_o[w - 1][d] + 1, next_o[w - 1][d] - 20, w, pick(10, 120)});
          ol_range->Run({w, d, pick(0, 30), pick(10, 60)}, false);
          break;
        case 6:  // inserts out of order, replacing, and with a new rowid
          item_replace->Run({pick(1, 600), text(static_cast<size_t>(pick(0, 50))), 1.5});
          item_new->Run({text(3), 2.25});
          break;
        case 7:
          item_upd->Run({text(static_cast<size_t>(pick(0, 30))), pick(1, 420)});
          break;
        case 8:  // a duplicate key: this statement fails alone, on both sides
          stock_ins->Run({pick(1, 400), w, 1, "dup"});
          break;
        case 9:
          hist_ins->Run({pick(0, 1000), text(static_cast<size_t>(pick(0, 80)))});
          break;
        case 10:
          by_item->Run({pick(1, 400)});
          break;
        default:
          stock_upd->Run({pick(1, 200), text(static_cast<size_t>(pick(0, 5))), w, pick(390, 410)});
          break;
      }
      if (HasFatalFailure()) return;
    }
    if (rng() % 8 == 0) {
      Exec("ROLLBACK");
      // Both sides forget the round; so does the model of order numbers.
      for (auto& row : next_o) {
        for (auto& o : row) o = 0;
      }
      Prep("SELECT max(o_id), min(o_id) FROM ol")->Run({});
      auto last = Prep("SELECT w_id, d_id, max(o_id), min(o_id) - 1 FROM ol GROUP BY 1, 2");
      last->Run({});
      auto q = db_->Prepare("SELECT w_id, d_id, max(o_id), min(o_id) - 1 FROM ol GROUP BY 1, 2");
      ASSERT_TRUE(q.ok());
      for (auto& row : first_o) {
        for (auto& o : row) o = 0;
      }
      for (;;) {
        auto r = (*q)->Step();
        ASSERT_TRUE(r.ok());
        if (!*r) break;
        const int64_t qw = (*q)->column_int(0), qd = (*q)->column_int(1);
        next_o[qw - 1][qd] = (*q)->column_int(2);
        first_o[qw - 1][qd] = (*q)->column_int(3);
      }
    } else {
      Exec("COMMIT");
    }
    if (round % 20 == 19) ExpectSameTables();
  }
  ExpectSameTables();
  // Prepared statements die before the connection; then SQLite checks the file.
  item_ins.reset();
  item_replace.reset();
  item_new.reset();
  item_get.reset();
  item_upd.reset();
  stock_ins.reset();
  stock_get.reset();
  stock_upd.reset();
  ol_ins.reset();
  ol_deliver.reset();
  ol_del.reset();
  ol_sum.reset();
  ol_range.reset();
  stock_level.reset();
  by_item.reset();
  hist_ins.reset();
  db_.reset();
  testing::SqliteDb check(path_, true);
  EXPECT_EQ(check.IntegrityCheck(), "ok");
}

// Index seeks no longer re-test the conjuncts they used: the seek must then
// apply exactly SQLite's comparison, for keys of every type against columns
// of every affinity, for equalities and both kinds of bounds.
TEST_F(PreparedDmlTest, IndexSeeksWithMixedTypesMatchSqlite) {
  Exec("BEGIN");
  auto ins = Prep("INSERT INTO mixed VALUES (?, ?, ?, ?)");
  std::mt19937_64 rng(77);
  const std::vector<Arg> values = {Null{},
                                   int64_t{5},
                                   int64_t{-3},
                                   5.0,
                                   5.5,
                                   std::string("5"),
                                   std::string("5.0"),
                                   std::string("abc"),
                                   std::string(""),
                                   int64_t{7},
                                   7.25,
                                   std::string("07")};
  for (int64_t id = 1; id <= 300; ++id) {
    ins->Run({id, values[rng() % values.size()], values[rng() % values.size()],
              values[rng() % values.size()]});
  }
  Exec("COMMIT");
  const char* queries[] = {
      "SELECT id FROM mixed WHERE k = ?",
      "SELECT id FROM mixed WHERE k > ?",
      "SELECT id FROM mixed WHERE k <= ?",
      "SELECT id FROM mixed WHERE k BETWEEN ? AND 7",
      "SELECT id FROM mixed WHERE t = ?",
      "SELECT id FROM mixed WHERE t >= ?",
      "SELECT id FROM mixed WHERE t < ?",
      "SELECT id FROM mixed WHERE u = ? AND k = 5",
      "SELECT id FROM mixed WHERE u = ? AND k > 5.0",
      "SELECT id FROM mixed WHERE u = 5 AND k < ?",
      "SELECT id, k FROM mixed WHERE k = ? AND t IS NOT NULL",
  };
  // Each query once per value; `in_order` compares the rows as SQLite sorts them.
  auto run_with_each_value = [&](const auto& sqls, bool in_order) {
    for (const char* sql : sqls) {
      auto q = Prep(sql);
      for (const Arg& a : values) {
        q->Run({a}, in_order);
        if (HasFatalFailure()) return;
      }
    }
  };
  run_with_each_value(queries, false);
  if (HasFatalFailure()) return;
  auto join = Prep("SELECT a.id, b.id FROM mixed a, mixed b WHERE b.k = a.t AND a.id < ?");
  join->Run({int64_t{120}}, false);
  // Descending orders walk the indexes downwards: bounds, NULLs (which sort
  // first and satisfy no bound) and LIMIT must come out as SQLite's sort.
  const char* ordered[] = {
      "SELECT id, k, ? FROM mixed ORDER BY k DESC, id DESC",
      "SELECT id, k FROM mixed WHERE k < ? ORDER BY k DESC, id DESC",
      "SELECT id, k FROM mixed WHERE k <= ? ORDER BY k DESC, id DESC LIMIT 3",
      "SELECT id, k FROM mixed WHERE k > ? ORDER BY k DESC, id DESC",
      "SELECT id, k FROM mixed WHERE k BETWEEN ? AND 7 ORDER BY k DESC, id DESC",
      "SELECT id, t FROM mixed WHERE t >= ? ORDER BY t DESC, id DESC",
      "SELECT id, k FROM mixed WHERE u = ? ORDER BY k DESC, id DESC",
      "SELECT id, k FROM mixed WHERE u = ? AND k < 7 ORDER BY k DESC, id DESC LIMIT 2",
      "SELECT id, k FROM mixed WHERE u = 5 AND k >= ? ORDER BY k DESC, id DESC",
  };
  run_with_each_value(ordered, true);
}

}  // namespace
}  // namespace engine
