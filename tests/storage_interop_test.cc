// The engine's storage layer against the real sqlite3, both ways: files the
// engine writes pass sqlite3's integrity_check and read back row for row;
// files sqlite3 writes (every page size, vacuumed or not) read back in the
// engine row for row, tables and indexes alike; corrupt files give errors.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/storage/btree.h"
#include "engine/storage/record.h"
#include "engine/storage/schema_table.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::SqliteDb;
using testing::TempDir;

constexpr char kCreateTable[] =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB)";
constexpr char kCreateIndexI[] = "CREATE INDEX t_i ON t(i)";
constexpr char kCreateIndexS[] = "CREATE INDEX t_s ON t(s)";

// One row of the test shape, a pure function of its id: integers of every
// serial width, reals, NULLs, short and 10 KB+ text and blobs.
struct Row {
  int64_t id;
  int64_t i;
  std::optional<double> r;
  std::optional<std::string> s;
  std::optional<std::string> b;
};

Row MakeRow(int64_t id) {
  static const int64_t kInts[] = {
      0,        1,        -1,         100,         -100,           30000,           -30000,
      8000000,  -8000000, 2000000000, -2000000000, 100000000000ll, -100000000000ll, INT64_MAX,
      INT64_MIN};
  Row row;
  row.id = id;
  const int64_t base = kInts[id % 15];
  row.i = (base == INT64_MAX || base == INT64_MIN || base == 0 || base == 1) ? base : base + id % 5;
  if (id % 5 != 0) row.r = static_cast<double>(id) * 0.25 - 1000.5;
  if (id % 9 != 0) {
    row.s = id % 997 == 0 ? std::string(12000 + static_cast<size_t>(id % 100),
                                        static_cast<char>('a' + id % 26))
                          : "row-" + std::to_string(id * 7919 % 100003);
  }
  if (id % 11 != 0) {
    const size_t n = id % 1009 == 0 ? 15000 : static_cast<size_t>(id % 20);
    std::string b(n, '\0');
    for (size_t k = 0; k < n; ++k)
      b[k] = static_cast<char>((id + static_cast<int64_t>(k) * 31) & 0xff);
    row.b = b;
  }
  return row;
}

std::vector<Value> RowValues(const Row& row) {
  return {Value::Null(),  // INTEGER PRIMARY KEY: the rowid is the value
          Value::Integer(row.i), row.r ? Value::Real(*row.r) : Value::Null(),
          row.s ? Value::Text(*row.s) : Value::Null(),
          row.b ? Value::Blob(row.b->data(), row.b->size()) : Value::Null()};
}

Value SValue(const Row& row) { return row.s ? Value::Text(*row.s) : Value::Null(); }

// Expected index entries (column value, rowid) in index order.
std::vector<std::pair<Row, int>> Sorted(const std::vector<Row>& rows, bool by_s) {
  std::vector<std::pair<Row, int>> v;
  for (const Row& r : rows) v.push_back({r, 0});
  std::sort(v.begin(), v.end(), [&](const auto& a, const auto& b) {
    const Value x = by_s ? SValue(a.first) : Value::Integer(a.first.i);
    const Value y = by_s ? SValue(b.first) : Value::Integer(b.first.i);
    const int c = compare_values(x, y);
    return c != 0 ? c < 0 : a.first.id < b.first.id;
  });
  return v;
}

void ExpectColumn(const Value& got, const std::optional<std::string>& want, ValueType type,
                  int64_t id) {
  if (!want) {
    EXPECT_TRUE(got.is_null()) << "row " << id;
    return;
  }
  ASSERT_EQ(got.type(), type) << "row " << id;
  ASSERT_EQ(std::string(got.data(), got.size()), *want) << "row " << id;
}

// Reads the table and both indexes through the engine and compares them with
// the rows that should be there.
void ExpectEngineReads(const std::string& path, const std::vector<Row>& rows) {
  PagerOptions opts;
  opts.read_only = true;
  auto tree_or = BTree::Open(path, opts);
  ASSERT_TRUE(tree_or.ok()) << tree_or.status().ToString();
  BTree& tree = **tree_or;
  ASSERT_TRUE(tree.BeginRead().ok());
  auto schema = ReadSchema(tree);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  std::map<std::string, uint32_t> roots;
  for (const SchemaEntry& e : *schema) roots[e.name] = e.rootpage;
  ASSERT_EQ(roots.size(), 3u);

  RecordReader rr;
  {
    BtCursor c(&tree, roots["t"]);
    ASSERT_TRUE(c.first().ok());
    size_t n = 0;
    while (c.valid()) {
      ASSERT_LT(n, rows.size());
      const Row& want = rows[n++];
      ASSERT_EQ(c.rowid(), want.id);
      std::span<const uint8_t> p;
      ASSERT_TRUE(c.payload(&p).ok());
      ASSERT_TRUE(rr.Parse(p).ok());
      ASSERT_EQ(rr.column_count(), 5);
      EXPECT_TRUE(rr.column(0).is_null());
      ASSERT_EQ(rr.column(1).type(), ValueType::kInteger);
      EXPECT_EQ(rr.column(1).as_int(), want.i) << want.id;
      if (want.r) {
        // REAL columns may hold integral values as integers on disk.
        ASSERT_TRUE(rr.column(2).is_numeric()) << want.id;
        EXPECT_EQ(compare_values(rr.column(2), Value::Real(*want.r)), 0) << want.id;
      } else {
        EXPECT_TRUE(rr.column(2).is_null()) << want.id;
      }
      ExpectColumn(rr.column(3), want.s, ValueType::kText, want.id);
      ExpectColumn(rr.column(4), want.b, ValueType::kBlob, want.id);
      ASSERT_TRUE(c.next().ok());
    }
    EXPECT_EQ(n, rows.size());
    // And a seek for every 13th row.
    for (size_t k = 0; k < rows.size(); k += 13) {
      bool found;
      ASSERT_TRUE(c.seek(rows[k].id, &found).ok());
      ASSERT_TRUE(found) << rows[k].id;
    }
  }
  for (bool by_s : {false, true}) {
    const auto want = Sorted(rows, by_s);
    BtCursor c(&tree, roots[by_s ? "t_s" : "t_i"]);
    ASSERT_TRUE(c.first().ok());
    size_t n = 0;
    while (c.valid()) {
      ASSERT_LT(n, want.size());
      const Row& w = want[n++].first;
      std::span<const uint8_t> p;
      ASSERT_TRUE(c.payload(&p).ok());
      ASSERT_TRUE(rr.Parse(p).ok());
      ASSERT_EQ(rr.column_count(), 2);
      const Value expect = by_s ? SValue(w) : Value::Integer(w.i);
      ASSERT_EQ(compare_values(rr.column(0), expect), 0) << w.id;
      ASSERT_EQ(rr.column(1).as_int(), w.id);
      ASSERT_TRUE(c.next().ok());
    }
    EXPECT_EQ(n, want.size());
    // Seeks on the index land on the first entry with the value.
    for (size_t k = 0; k < want.size(); k += 97) {
      const Value key = by_s ? SValue(want[k].first) : Value::Integer(want[k].first.i);
      bool exact;
      ASSERT_TRUE(c.seek_index(&key, 1, SeekOp::kGE, &exact).ok());
      ASSERT_TRUE(exact);
      std::span<const uint8_t> p;
      ASSERT_TRUE(c.payload(&p).ok());
      ASSERT_TRUE(rr.Parse(p).ok());
      size_t first = k;
      while (first > 0 && compare_values(by_s ? SValue(want[first - 1].first)
                                              : Value::Integer(want[first - 1].first.i),
                                         key) == 0) {
        --first;
      }
      EXPECT_EQ(rr.column(1).as_int(), want[first].first.id);
    }
  }
  ASSERT_TRUE(tree.EndRead().ok());
}

std::vector<uint8_t> IndexKey(RecordBuilder& b, const Value& v, int64_t rowid) {
  const Value k[] = {v, Value::Integer(rowid)};
  auto r = b.Build(k, 2);
  return {r.begin(), r.end()};
}

Status DeleteIndexEntry(BTree& tree, uint32_t root, const Value& v, int64_t rowid) {
  BtCursor c(&tree, root);
  const Value key[] = {v, Value::Integer(rowid)};
  bool exact = false;
  ENGINE_RETURN_IF_ERROR(c.seek_index(key, 2, SeekOp::kGE, &exact));
  if (!exact) return Status::NotFound("index entry missing for rowid " + std::to_string(rowid));
  return tree.Delete(&c);
}

TEST(StorageInteropTest, EngineWritesSqliteReads) {
  TempDir dir;
  const std::string path = dir.file("engine.db");
  constexpr int64_t kRows = 50000;
  std::vector<int64_t> ids;
  for (int64_t id = 1; id <= kRows; ++id) ids.push_back(id);
  std::mt19937_64 rng(2024);
  std::shuffle(ids.begin(), ids.end(), rng);
  {
    auto tree_or = BTree::Open(path, PagerOptions{});
    ASSERT_TRUE(tree_or.ok()) << tree_or.status().ToString();
    BTree& tree = **tree_or;
    ASSERT_TRUE(tree.BeginWrite().ok());
    auto t = tree.CreateTable();
    auto ti = tree.CreateIndex();
    auto ts = tree.CreateIndex();
    ASSERT_TRUE(t.ok() && ti.ok() && ts.ok());
    SchemaEntry e1{"table", "t", "t", *t, kCreateTable, 0};
    SchemaEntry e2{"index", "t_i", "t", *ti, kCreateIndexI, 0};
    SchemaEntry e3{"index", "t_s", "t", *ts, kCreateIndexS, 0};
    ASSERT_TRUE(AddSchemaEntry(tree, &e1).ok());
    ASSERT_TRUE(AddSchemaEntry(tree, &e2).ok());
    ASSERT_TRUE(AddSchemaEntry(tree, &e3).ok());
    RecordBuilder rb(tree.file_format());
    RecordBuilder kb(tree.file_format());
    for (int64_t id : ids) {
      const Row row = MakeRow(id);
      const auto vals = RowValues(row);
      ASSERT_TRUE(tree.Insert(*t, id, rb.Build(vals)).ok()) << id;
      ASSERT_TRUE(tree.InsertIndex(*ti, IndexKey(kb, Value::Integer(row.i), id)).ok()) << id;
      ASSERT_TRUE(tree.InsertIndex(*ts, IndexKey(kb, SValue(row), id)).ok()) << id;
    }
    ASSERT_TRUE(tree.Commit().ok());

    // Delete a third of the rows at random, with their index entries.
    ASSERT_TRUE(tree.BeginWrite().ok());
    for (size_t k = 0; k < ids.size() / 3; ++k) {
      const int64_t id = ids[k];
      const Row row = MakeRow(id);
      BtCursor c(&tree, *t);
      bool found;
      ASSERT_TRUE(c.seek(id, &found).ok());
      ASSERT_TRUE(found) << id;
      const Status st = tree.Delete(&c);
      ASSERT_TRUE(st.ok()) << st.ToString();
      const Status si = DeleteIndexEntry(tree, *ti, Value::Integer(row.i), id);
      ASSERT_TRUE(si.ok()) << si.ToString();
      const Status ss = DeleteIndexEntry(tree, *ts, SValue(row), id);
      ASSERT_TRUE(ss.ok()) << ss.ToString();
    }
    ASSERT_TRUE(tree.Commit().ok());
  }
  std::vector<int64_t> kept(ids.begin() + static_cast<long>(ids.size() / 3), ids.end());
  std::sort(kept.begin(), kept.end());
  std::vector<Row> rows;
  for (int64_t id : kept) rows.push_back(MakeRow(id));

  SqliteDb db(path, true);
  ASSERT_TRUE(db.ok()) << db.error();
  EXPECT_EQ(db.IntegrityCheck(), "ok");
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(
      sqlite3_prepare_v2(db.raw(), "SELECT id, i, r, s, b FROM t ORDER BY id", -1, &st, nullptr),
      SQLITE_OK);
  size_t n = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    ASSERT_LT(n, rows.size());
    const Row& w = rows[n++];
    ASSERT_EQ(sqlite3_column_int64(st, 0), w.id);
    ASSERT_EQ(sqlite3_column_int64(st, 1), w.i);
    if (w.r) {
      ASSERT_EQ(sqlite3_column_type(st, 2), SQLITE_FLOAT);
      ASSERT_EQ(sqlite3_column_double(st, 2), *w.r);
    } else {
      ASSERT_EQ(sqlite3_column_type(st, 2), SQLITE_NULL);
    }
    if (w.s) {
      ASSERT_EQ(sqlite3_column_type(st, 3), SQLITE_TEXT);
      ASSERT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 3)),
                            static_cast<size_t>(sqlite3_column_bytes(st, 3))),
                *w.s);
    } else {
      ASSERT_EQ(sqlite3_column_type(st, 3), SQLITE_NULL);
    }
    if (w.b) {
      ASSERT_EQ(sqlite3_column_type(st, 4), SQLITE_BLOB);
      const int len = sqlite3_column_bytes(st, 4);
      const auto* p = static_cast<const char*>(sqlite3_column_blob(st, 4));
      ASSERT_EQ(std::string(p == nullptr ? "" : std::string(p, static_cast<size_t>(len))), *w.b);
    } else {
      ASSERT_EQ(sqlite3_column_type(st, 4), SQLITE_NULL);
    }
  }
  sqlite3_finalize(st);
  EXPECT_EQ(n, rows.size());
  // The indexes answer queries too.
  auto c1 = db.Query("SELECT count(*) FROM t INDEXED BY t_i WHERE i >= 100000000000");
  const auto big =
      std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.i >= 100000000000ll; });
  ASSERT_EQ(c1.size(), 1u);
  EXPECT_EQ(c1[0][0], std::to_string(big));
  // dbstat paths: "/" for the root, "/000/" for its children, "/000/000/" a level below.
  auto depth = db.Query(
      "SELECT max(length(path) - length(replace(path, '/', ''))) FROM dbstat WHERE name='t'");
  ASSERT_EQ(depth.size(), 1u) << db.error();
  EXPECT_GE(std::stoi(depth[0][0]), 3) << "table t should be 3+ levels deep";
  // Then the engine reads its own file back too.
  ExpectEngineReads(path, rows);
}

struct SqliteShape {
  uint32_t page_size;
  bool vacuum;
};

class SqliteWritesEngineReads : public ::testing::TestWithParam<SqliteShape> {};

TEST_P(SqliteWritesEngineReads, RowForRow) {
  TempDir dir;
  const std::string path = dir.file("sqlite.db");
  constexpr int64_t kRows = 30000;
  {
    SqliteDb db(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db.Exec("PRAGMA page_size=" + std::to_string(GetParam().page_size)));
    ASSERT_TRUE(db.Exec(std::string(kCreateTable) + ";" + kCreateIndexI + ";" + kCreateIndexS));
    ASSERT_TRUE(db.Exec("BEGIN"));
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db.raw(), "INSERT INTO t VALUES(?,?,?,?,?)", -1, &st, nullptr),
              SQLITE_OK);
    for (int64_t id = 1; id <= kRows; ++id) {
      const Row row = MakeRow(id);
      sqlite3_bind_int64(st, 1, id);
      sqlite3_bind_int64(st, 2, row.i);
      if (row.r) {
        sqlite3_bind_double(st, 3, *row.r);
      } else {
        sqlite3_bind_null(st, 3);
      }
      if (row.s) {
        sqlite3_bind_text(st, 4, row.s->data(), static_cast<int>(row.s->size()), SQLITE_TRANSIENT);
      } else {
        sqlite3_bind_null(st, 4);
      }
      if (row.b) {
        sqlite3_bind_blob(st, 5, row.b->data(), static_cast<int>(row.b->size()), SQLITE_TRANSIENT);
      } else {
        sqlite3_bind_null(st, 5);
      }
      ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
      sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    ASSERT_TRUE(db.Exec("DELETE FROM t WHERE id % 3 = 1; COMMIT"));
    if (GetParam().vacuum) {
      ASSERT_TRUE(db.Exec("VACUUM"));
    }
    ASSERT_EQ(db.IntegrityCheck(), "ok");
  }
  std::vector<Row> rows;
  for (int64_t id = 1; id <= kRows; ++id) {
    if (id % 3 != 1) rows.push_back(MakeRow(id));
  }
  ExpectEngineReads(path, rows);
}

INSTANTIATE_TEST_SUITE_P(Shapes, SqliteWritesEngineReads,
                         ::testing::Values(SqliteShape{1024, false}, SqliteShape{1024, true},
                                           SqliteShape{4096, false}, SqliteShape{4096, true},
                                           SqliteShape{65536, false}, SqliteShape{65536, true}),
                         [](const auto& info) {
                           return std::to_string(info.param.page_size) +
                                  (info.param.vacuum ? "_vacuumed" : "_plain");
                         });

// ---- Corrupt files ----

// Opens the file and reads everything in it; the first error, if any.
Status ReadEverything(const std::string& path) {
  PagerOptions opts;
  opts.read_only = true;
  ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<BTree> tree, BTree::Open(path, opts));
  ENGINE_RETURN_IF_ERROR(tree->BeginRead());
  ENGINE_ASSIGN_OR_RETURN(std::vector<SchemaEntry> schema, ReadSchema(*tree));
  for (const SchemaEntry& e : schema) {
    if (e.rootpage == 0) continue;
    BtCursor c(tree.get(), e.rootpage);
    ENGINE_RETURN_IF_ERROR(c.first());
    while (c.valid()) {
      std::span<const uint8_t> p;
      ENGINE_RETURN_IF_ERROR(c.payload(&p));
      RecordReader rr;
      ENGINE_RETURN_IF_ERROR(rr.Parse(p));
      ENGINE_RETURN_IF_ERROR(c.next());
    }
    ENGINE_RETURN_IF_ERROR(c.last());
    while (c.valid()) ENGINE_RETURN_IF_ERROR(c.prev());
    if (c.is_table()) ENGINE_RETURN_IF_ERROR(c.seek(12345));
  }
  return tree->EndRead();
}

class CorruptFileTest : public ::testing::Test {
 protected:
  // A sqlite3 file with a 3-level table, an index and an overflowing row.
  void SetUp() override {
    path_ = dir_.file("c.db");
    SqliteDb db(path_);
    ASSERT_TRUE(db.Exec(
        "PRAGMA page_size=1024; CREATE TABLE t(a INTEGER, b TEXT); CREATE INDEX t_a ON t(a);"
        "CREATE TABLE big(x BLOB);"));
    ASSERT_TRUE(
        db.Exec("WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k+1 FROM n WHERE k < 20000)"
                " INSERT INTO t SELECT k, printf('value %d', k) FROM n"));
    ASSERT_TRUE(db.Exec("INSERT INTO big VALUES(zeroblob(20000))"));
    auto r = db.Query("SELECT rootpage FROM sqlite_schema WHERE name='t'");
    t_root_ = static_cast<uint32_t>(std::stoul(r.at(0).at(0)));
    r = db.Query("SELECT rootpage FROM sqlite_schema WHERE name='big'");
    big_root_ = static_cast<uint32_t>(std::stoul(r.at(0).at(0)));
    ASSERT_TRUE(ReadEverything(path_).ok());
    std::ifstream in(path_, std::ios::binary);
    bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  uint8_t* page(uint32_t pgno) { return bytes_.data() + (pgno - 1) * 1024; }
  void Write() {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes_.data()),
              static_cast<std::streamsize>(bytes_.size()));
  }
  void ExpectError() {
    Write();
    const Status st = ReadEverything(path_);
    EXPECT_FALSE(st.ok());
    EXPECT_FALSE(st.message().empty());
  }

  TempDir dir_;
  std::string path_;
  std::vector<uint8_t> bytes_;
  uint32_t t_root_ = 0;
  uint32_t big_root_ = 0;
};

TEST_F(CorruptFileTest, TruncatedFile) {
  bytes_.resize(bytes_.size() / 2);
  ExpectError();
}

TEST_F(CorruptFileTest, TruncatedInsideTheHeader) {
  bytes_.resize(60);
  ExpectError();
}

TEST_F(CorruptFileTest, WrongMagic) {
  std::memcpy(bytes_.data(), "SQLite format 4", 15);
  ExpectError();
}

TEST_F(CorruptFileTest, ChildPageBeyondTheEnd) {
  ASSERT_EQ(page(t_root_)[0], kTableInterior);
  put_u32(page(t_root_) + 8, static_cast<uint32_t>(bytes_.size() / 1024) + 50);
  ExpectError();
}

TEST_F(CorruptFileTest, RootPageBeyondTheEnd) {
  // Rewrite sqlite_schema's rootpage for t through sqlite itself.
  {
    SqliteDb db(path_);
    ASSERT_TRUE(db.Exec(
        "PRAGMA writable_schema=ON; UPDATE sqlite_schema SET rootpage=99999 WHERE name='t'"));
  }
  std::ifstream in(path_, std::ios::binary);
  bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  ExpectError();
}

TEST_F(CorruptFileTest, CycleInChildPointers) {
  ASSERT_EQ(page(t_root_)[0], kTableInterior);
  const uint32_t child = get_u32(page(t_root_) + 8);
  ASSERT_EQ(page(child)[0], kTableInterior);  // three levels: the child is interior too
  put_u32(page(child) + 8, t_root_);
  ExpectError();
}

TEST_F(CorruptFileTest, CycleInOverflowChain) {
  PageInfo pg;
  ASSERT_TRUE(parse_page_header(page(big_root_), big_root_, 1024, &pg).ok());
  ASSERT_EQ(pg.ncell, 1);
  CellInfo c;
  ASSERT_TRUE(
      parse_cell_header(page(big_root_), pg, read_cell_ptr(page(big_root_), pg.ptrs_off, 0), &c));
  ASSERT_NE(c.overflow, 0u);
  const uint32_t second = get_u32(page(c.overflow));
  ASSERT_NE(second, 0u);
  put_u32(page(second), c.overflow);  // second -> first -> second -> ...
  ExpectError();
}

TEST_F(CorruptFileTest, CellOffsetOutsideThePage) {
  ASSERT_EQ(page(t_root_)[0], kTableInterior);
  const uint32_t child = get_u32(page(t_root_) + 8);
  const uint32_t leaf = get_u32(page(child) + 8);
  ASSERT_EQ(page(leaf)[0], kTableLeaf);
  put_u16(page(leaf) + 8, 1023);  // cell 0 at the last byte of the page
  ExpectError();
}

TEST_F(CorruptFileTest, CellPointerIntoTheHeader) {
  put_u16(page(big_root_) + 8, 2);
  ExpectError();
}

}  // namespace
}  // namespace engine
