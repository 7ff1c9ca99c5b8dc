// The planner's choices, seen through EXPLAIN QUERY PLAN in SQLite's words.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/query_text.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using V = std::vector<std::string>;

class PlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.file("p.db"));
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
    ASSERT_TRUE(
        db_->Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL, d, e, f);"
                  "CREATE INDEX tab ON t(a, b);"
                  "CREATE TABLE u(k INTEGER PRIMARY KEY, v TEXT);"
                  "CREATE TABLE w(x, y, z, PRIMARY KEY(x, y))")
            .ok());
  }
  V Plan(const std::string& sql) { return testing::PlanText(*db_, sql); }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(PlannerTest, RowidSeeks) {
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id = ?"),
            V{"SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE ? = id"),
            V{"SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id BETWEEN ? AND ? + 2000"),
            V{"SEARCH t USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE id > 5"),
            V{"SEARCH t USING INTEGER PRIMARY KEY (rowid>?)"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE rowid < 5"),
            V{"SEARCH t USING INTEGER PRIMARY KEY (rowid<?)"});
}

TEST_F(PlannerTest, CompositeIndexLeftmostPrefix) {
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 1 AND b = 'x'"),
            V{"SEARCH t USING INDEX tab (a=? AND b=?)"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 1 AND b > 'x'"),
            V{"SEARCH t USING INDEX tab (a=? AND b>?)"});
  EXPECT_EQ(Plan("SELECT b FROM t WHERE a = 1"), V{"SEARCH t USING COVERING INDEX tab (a=?)"});
  EXPECT_EQ(Plan("SELECT id FROM t WHERE a BETWEEN 1 AND 5"),
            V{"SEARCH t USING COVERING INDEX tab (a>? AND a<?)"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE b = 'x'"), V{"SCAN t"});
  EXPECT_EQ(Plan("SELECT z FROM w WHERE x = 1 AND y = 2"),
            V{"SEARCH w USING INDEX sqlite_autoindex_w_1 (x=? AND y=?)"});
}

TEST_F(PlannerTest, Joins) {
  // As sqlite3 3.40 plans it: t's index holds every column t contributes.
  EXPECT_EQ(Plan("SELECT t.id, u.v FROM t JOIN u ON u.k = t.a"),
            (V{"SCAN t USING COVERING INDEX tab", "SEARCH u USING INTEGER PRIMARY KEY (rowid=?)"}));
  EXPECT_EQ(Plan("SELECT t.c, u.v FROM t LEFT JOIN u ON u.k = t.a"),
            (V{"SCAN t", "SEARCH u USING INTEGER PRIMARY KEY (rowid=?)"}));
  // A rowid seek into u beats an index seek into t plus its table lookup:
  // sqlite3 3.40 puts t outside too, whatever the FROM order (join_order.cc).
  EXPECT_EQ(Plan("SELECT * FROM u, t WHERE t.a = u.k"),
            (V{"SCAN t", "SEARCH u USING INTEGER PRIMARY KEY (rowid=?)"}));
}

TEST_F(PlannerTest, OrderByAndGrouping) {
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY id DESC LIMIT 3"), V{"SCAN t"});
  EXPECT_EQ(Plan("SELECT * FROM t WHERE a = 3 ORDER BY b"), V{"SEARCH t USING INDEX tab (a=?)"});
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY a, b"), V{"SCAN t USING INDEX tab"});
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY c"), (V{"SCAN t", "USE TEMP B-TREE FOR ORDER BY"}));
  // Descending orders walk the index downwards, as sqlite3 does.
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY a DESC, b DESC"), V{"SCAN t USING INDEX tab"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 3 AND b < 'x' ORDER BY b DESC"),
            V{"SEARCH t USING INDEX tab (a=? AND b<?)"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 3 ORDER BY b DESC, id DESC"),
            V{"SEARCH t USING INDEX tab (a=?)"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 3 ORDER BY b DESC, id"),
            (V{"SEARCH t USING INDEX tab (a=?)", "USE TEMP B-TREE FOR ORDER BY"}));
  EXPECT_EQ(Plan("SELECT d, count(*) FROM t GROUP BY d"),
            (V{"SCAN t", "USE TEMP B-TREE FOR GROUP BY"}));
  EXPECT_EQ(Plan("SELECT DISTINCT d FROM t"), (V{"SCAN t", "USE TEMP B-TREE FOR DISTINCT"}));
}

// Issue 14: an index range is in index order, not rowid order; only what
// ProveOrder (order_proof.h) proves skips the sort.
TEST_F(PlannerTest, OrderByNeedsAProof) {
  const std::string sort = "USE TEMP B-TREE FOR ORDER BY";
  EXPECT_EQ(Plan("SELECT id FROM t WHERE a <= 44 ORDER BY id"),
            (V{"SEARCH t USING COVERING INDEX tab (a<?)", sort}));
  EXPECT_EQ(Plan("SELECT id FROM t WHERE a <= 44 ORDER BY 1 DESC"),
            (V{"SEARCH t USING COVERING INDEX tab (a<?)", sort}));
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a > 4 ORDER BY b"),
            (V{"SEARCH t USING INDEX tab (a>?)", sort}));
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a > 4 ORDER BY a, b DESC"),
            (V{"SEARCH t USING INDEX tab (a>?)", sort}));
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a > 4 ORDER BY a DESC, b DESC, id DESC"),
            V{"SEARCH t USING INDEX tab (a>?)"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 4 AND b = 'x' ORDER BY id DESC"),
            V{"SEARCH t USING INDEX tab (a=? AND b=?)"});
  EXPECT_EQ(Plan("SELECT c FROM t WHERE a = 4 ORDER BY id"),
            (V{"SEARCH t USING INDEX tab (a=?)", sort}));
  EXPECT_EQ(Plan("SELECT c FROM t ORDER BY a + 0"), (V{"SCAN t", sort}));
  // Only the outer loop's own columns keep its order through a join.
  EXPECT_EQ(Plan("SELECT t.c, u.v FROM t JOIN u ON u.k = t.a ORDER BY t.id"),
            (V{"SCAN t", "SEARCH u USING INTEGER PRIMARY KEY (rowid=?)"}));
  // u finds at most one row per row of t: t.id stays unique, u.v decides nothing.
  EXPECT_EQ(Plan("SELECT t.c, u.v FROM t JOIN u ON u.k = t.a ORDER BY t.id, u.v"),
            (V{"SCAN t", "SEARCH u USING INTEGER PRIMARY KEY (rowid=?)"}));
  EXPECT_EQ(Plan("SELECT t.c, s.c FROM t JOIN t AS s ON s.a = t.a ORDER BY t.id, s.c"),
            (V{"SCAN t", "SEARCH s USING INDEX tab (a=?)", sort}));
  EXPECT_EQ(Plan("SELECT t.c, s.c FROM t JOIN t AS s ON s.a = t.a ORDER BY t.id, t.c"),
            (V{"SCAN t", "SEARCH s USING INDEX tab (a=?)"}));
  EXPECT_EQ(
      Plan("SELECT t.c, s.c FROM t JOIN t AS s ON s.a = t.a WHERE t.id = 3 ORDER BY s.c"),
      (V{"SEARCH t USING INTEGER PRIMARY KEY (rowid=?)", "SEARCH s USING INDEX tab (a=?)", sort}));
  ASSERT_TRUE(
      db_->Exec("INSERT INTO t(id, a) VALUES (3, 14), (5, 11), (6, 7), (8, 90), (9, 50)").ok());
  auto ids = [&](const std::string& sql) {
    std::vector<int64_t> out;
    auto st = db_->Prepare(sql);
    EXPECT_TRUE(st.ok()) << st.status().ToString();
    if (!st.ok()) return out;
    while (true) {
      auto r = (*st)->Step();
      if (!r.ok() || !*r) break;
      out.push_back((*st)->column_int(0));
    }
    return out;
  };
  EXPECT_EQ(ids("SELECT id FROM t WHERE a <= 44 ORDER BY 1"), (std::vector<int64_t>{3, 5, 6}));
  EXPECT_EQ(ids("SELECT id FROM t WHERE a <= 44 ORDER BY id DESC"),
            (std::vector<int64_t>{6, 5, 3}));
  EXPECT_EQ(ids("SELECT id FROM t WHERE a > 10 ORDER BY a DESC LIMIT 2"),
            (std::vector<int64_t>{8, 9}));
}

// ORDER BY sorts by the term's collation (COLLATE, else the column's own),
// and no BINARY index proves a NOCASE order.
TEST_F(PlannerTest, OrderByCollation) {
  ASSERT_TRUE(
      db_->Exec("CREATE TABLE n(id INTEGER PRIMARY KEY, s TEXT, ci TEXT COLLATE NOCASE);"
                "CREATE INDEX n_s ON n(s);"
                "INSERT INTO n VALUES (1, 'b', 'B'), (2, 'A', 'a'), (3, 'a', 'C'), (4, 'B', 'b')")
          .ok());
  const std::string sort = "USE TEMP B-TREE FOR ORDER BY";
  EXPECT_EQ(Plan("SELECT id FROM n ORDER BY s"), V{"SCAN n USING COVERING INDEX n_s"});
  EXPECT_EQ(Plan("SELECT id FROM n ORDER BY s COLLATE NOCASE"), (V{"SCAN n", sort}));
  EXPECT_EQ(Plan("SELECT id FROM n ORDER BY id COLLATE NOCASE"), V{"SCAN n"});
  auto ids = [&](const std::string& sql) {
    std::string out;
    auto st = db_->Prepare(sql);
    EXPECT_TRUE(st.ok()) << sql << ": " << st.status().ToString();
    if (!st.ok()) return out;
    while (true) {
      auto r = (*st)->Step();
      if (!r.ok() || !*r) break;
      out += std::to_string((*st)->column_int(0));
    }
    return out;
  };
  // Expected orders as sqlite3 3.40 gives them.
  EXPECT_EQ(ids("SELECT id FROM n ORDER BY s, id"), "2431");
  EXPECT_EQ(ids("SELECT id FROM n ORDER BY s COLLATE NOCASE, id"), "2314");
  EXPECT_EQ(ids("SELECT id FROM n ORDER BY ci, id"), "2143");
  EXPECT_EQ(ids("SELECT id FROM n ORDER BY ci COLLATE BINARY, id"), "1324");
  EXPECT_EQ(ids("SELECT id FROM n ORDER BY +ci DESC, id"), "3142");
  EXPECT_EQ(ids("SELECT id FROM n ORDER BY ci || '', id"), "1324");
  EXPECT_EQ(ids("SELECT id, s AS x FROM n ORDER BY x COLLATE NOCASE DESC, 1"), "1423");
  EXPECT_EQ(ids("SELECT id, s COLLATE NOCASE FROM n ORDER BY 2, 1"), "2314");
  EXPECT_FALSE(db_->Prepare("SELECT id FROM n ORDER BY 1 COLLATE klingon").ok());
}

TEST_F(PlannerTest, LimitStopsEarlyAndPlansAreReused) {
  ASSERT_TRUE(db_->Exec("BEGIN").ok());
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(db_->Exec("INSERT INTO t(a, b) VALUES (" + std::to_string(i % 10) + ", 'v')").ok());
  }
  ASSERT_TRUE(db_->Exec("COMMIT").ok());
  auto st = db_->Prepare("SELECT id FROM t ORDER BY id DESC LIMIT ?");
  ASSERT_TRUE(st.ok());
  for (int limit : {1, 3, 0}) {
    ASSERT_TRUE((*st)->BindInt(1, limit).ok());
    std::vector<int64_t> ids;
    while (true) {
      auto r = (*st)->Step();
      ASSERT_TRUE(r.ok());
      if (!*r) break;
      ids.push_back((*st)->column_int(0));
    }
    ASSERT_EQ(ids.size(), static_cast<size_t>(limit));
    if (limit > 0) {
      EXPECT_EQ(ids[0], 500);
    }
    ASSERT_TRUE((*st)->Reset().ok());
  }
}

// TPC-C's statements (engine/bench/tpcc.h) seek on composite primary keys
// as sqlite3 plans them: every one of them, the Stock-Level join included,
// is a SEARCH; none scans a table.
TEST_F(PlannerTest, TpccStatementsSeekOnCompositeKeys) {
  ASSERT_TRUE(
      db_->Exec("CREATE TABLE district(d_id INTEGER, d_w_id INTEGER, d_next_o_id INTEGER,"
                "  PRIMARY KEY(d_w_id, d_id));"
                "CREATE TABLE stock(s_i_id INTEGER, s_w_id INTEGER, s_quantity INTEGER,"
                "  PRIMARY KEY(s_w_id, s_i_id));"
                "CREATE TABLE orders(o_id INTEGER, o_d_id INTEGER, o_w_id INTEGER,"
                "  o_c_id INTEGER, o_carrier_id INTEGER, PRIMARY KEY(o_w_id, o_d_id, o_id));"
                "CREATE INDEX orders_customer ON orders(o_w_id, o_d_id, o_c_id, o_id);"
                "CREATE TABLE new_order(no_o_id INTEGER, no_d_id INTEGER, no_w_id INTEGER,"
                "  PRIMARY KEY(no_w_id, no_d_id, no_o_id));"
                "CREATE TABLE order_line(ol_o_id INTEGER, ol_d_id INTEGER, ol_w_id INTEGER,"
                "  ol_number INTEGER, ol_i_id INTEGER, ol_amount REAL,"
                "  PRIMARY KEY(ol_w_id, ol_d_id, ol_o_id, ol_number));")
          .ok());
  EXPECT_EQ(Plan("SELECT count(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND "
                 "ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND "
                 "s_i_id = ol_i_id AND s_quantity < ?"),
            (V{"SEARCH order_line USING INDEX sqlite_autoindex_order_line_1 (ol_w_id=? AND "
               "ol_d_id=? AND ol_o_id>? AND ol_o_id<?)",
               "SEARCH stock USING INDEX sqlite_autoindex_stock_1 (s_w_id=? AND s_i_id=?)"}));
  EXPECT_EQ(Plan("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?"),
            V{"SEARCH district USING INDEX sqlite_autoindex_district_1 (d_w_id=? AND d_id=?)"});
  EXPECT_EQ(Plan("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?"),
            V{"SEARCH district USING INDEX sqlite_autoindex_district_1 (d_w_id=? AND d_id=?)"});
  EXPECT_EQ(Plan("UPDATE stock SET s_quantity = ? WHERE s_w_id = ? AND s_i_id = ?"),
            V{"SEARCH stock USING INDEX sqlite_autoindex_stock_1 (s_w_id=? AND s_i_id=?)"});
  EXPECT_EQ(Plan("DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?"),
            V{"SEARCH new_order USING INDEX sqlite_autoindex_new_order_1 (no_w_id=? AND "
              "no_d_id=? AND no_o_id=?)"});
  EXPECT_EQ(Plan("SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY "
                 "no_o_id LIMIT 1"),
            V{"SEARCH new_order USING COVERING INDEX sqlite_autoindex_new_order_1 (no_w_id=? AND "
              "no_d_id=?)"});
  EXPECT_EQ(Plan("UPDATE order_line SET ol_amount = ? WHERE ol_w_id = ? AND ol_d_id = ? AND "
                 "ol_o_id = ?"),
            V{"SEARCH order_line USING INDEX sqlite_autoindex_order_line_1 (ol_w_id=? AND "
              "ol_d_id=? AND ol_o_id=?)"});
  // Order-Status's latest order: the index walked downwards, no sort.
  EXPECT_EQ(Plan("SELECT o_id, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND "
                 "o_c_id = ? ORDER BY o_id DESC LIMIT 1"),
            V{"SEARCH orders USING INDEX orders_customer (o_w_id=? AND o_d_id=? AND o_c_id=?)"});
  EXPECT_EQ(Plan("SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND "
                 "ol_o_id = ?"),
            V{"SEARCH order_line USING INDEX sqlite_autoindex_order_line_1 (ol_w_id=? AND "
              "ol_d_id=? AND ol_o_id=?)"});
}

}  // namespace
}  // namespace engine
