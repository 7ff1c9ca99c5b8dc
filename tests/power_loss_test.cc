// Durability under power loss: workloads run on a simulated disk
// (engine/testing/fault_injection_env.h) that loses power at a chosen
// operation, keeping of each file what was synced plus none, a random
// subset or a torn tail of the rest, and of each unsynced name change
// either side. The survivors are then reopened through the real POSIX file
// layer — hot-journal recovery by the engine, or by sqlite3 — and checked:
// sqlite3's integrity_check is ok, every transaction whose COMMIT returned
// is there, and the one in flight is there whole or not at all.
//
// Every transaction stamps its rows and the counter row with its number, so
// the database names the last transaction it holds, and the test compares
// it with what the model says that transaction left.
//
// POWER_LOSS_SEED (default 22) and POWER_LOSS_CUTS (default 300;
// scripts/power-loss.sh runs thousands) choose the run; POWER_LOSS_CASE=k
// replays one case, as a failure prints it; the run stops after
// POWER_LOSS_MAX_FAILURES (default 20) failures.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/testing/fault_injection_env.h"
#include "engine/testing/sqlite_oracle.h"
#include "engine/testing/temp_dir.h"

namespace engine {
namespace {

using testing::CutMode;
using testing::FaultInjectionEnv;
using testing::SqliteDb;
using testing::TempDir;

uint64_t EnvU64(const char* name, uint64_t dflt) {
  const char* v = std::getenv(name);
  return v == nullptr || *v == '\0' ? dflt : std::strtoull(v, nullptr, 10);
}

uint64_t Mix(uint64_t x) {  // splitmix64: independent streams from (seed, case)
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// One transaction of a workload: its statements, and whether it means to
// commit (a ROLLBACK one leaves nothing).
struct Txn {
  int number;
  bool commits;
  std::vector<std::string> sql;
  std::vector<bool> may_fail;  // the statement is meant to fail on a constraint
};

// The model: per stamp, rows and pad bytes; rendered like Dump() below.
using Model = std::map<int, std::pair<int64_t, int64_t>>;

std::string Render(int counter, const Model& m) {
  std::string s = "n=" + std::to_string(counter) + ";";
  for (const auto& [txn, v] : m) {
    s += std::to_string(txn) + ":" + std::to_string(v.first) + "," + std::to_string(v.second) + ";";
  }
  return s;
}

std::string Pad(int txn, size_t len) { return std::string(len, static_cast<char>('a' + txn % 26)); }

std::string Rows(int txn, int from, int to, const std::vector<size_t>& lens) {
  std::string s = "INSERT INTO log VALUES ";
  for (int k = from; k < to; ++k) {
    if (k > from) s += ",";
    s += "(" + std::to_string(txn) + "," + std::to_string(k) + ",'" +
         Pad(txn, lens[static_cast<size_t>(k - from)]) + "')";
  }
  return s;
}

struct Workload {
  // At NORMAL the journal's deletion is not synced, so a power cut may undo
  // the last commit (as in SQLite): the state before it is accepted too.
  Synchronous sync = Synchronous::kFull;
  std::vector<Txn> txns;
  std::map<int, std::string> after;  // committed txn number (0: start) -> state
};

// Transactions that commit, roll back, grow the file (many pages, overflow
// pages, cache spills), shrink it (DELETE: pages to the freelist), rewrite
// rows and undo a failed statement inside a transaction.
Workload MakeWorkload(uint64_t seed) {
  std::mt19937_64 rng(seed);
  Workload w;
  Model m;
  int committed = 0;
  w.after[0] = Render(0, m);
  const int n = 24 + static_cast<int>(rng() % 8);
  for (int i = 1; i <= n; ++i) {
    Txn t{i, true, {"BEGIN", "UPDATE ctr SET n = " + std::to_string(i) + " WHERE id = 1"}, {}};
    Model next = m;
    auto lens = [&](int rows, size_t lo, size_t hi) {
      std::vector<size_t> v;
      for (int r = 0; r < rows; ++r) {
        size_t len = lo + static_cast<size_t>(rng() % (hi - lo + 1));
        if (rng() % 10 == 0) len = 1500 + static_cast<size_t>(rng() % 4000);  // overflow pages
        v.push_back(len);
      }
      return v;
    };
    auto add = [&](int txn, const std::vector<size_t>& v) {
      for (size_t len : v) {
        next[txn].first += 1;
        next[txn].second += static_cast<int64_t>(len);
      }
    };
    const unsigned kind = m.empty() ? 0 : static_cast<unsigned>(rng() % 7);
    switch (kind) {
      case 0:
      case 1: {  // a few rows
        auto v = lens(1 + static_cast<int>(rng() % 30), 10, 200);
        t.sql.push_back(Rows(i, 0, static_cast<int>(v.size()), v));
        add(i, v);
        break;
      }
      case 2: {  // many pages: the cache spills before the commit
        auto v = lens(150 + static_cast<int>(rng() % 150), 100, 400);
        t.sql.push_back(Rows(i, 0, static_cast<int>(v.size()), v));
        add(i, v);
        break;
      }
      case 3: {  // delete an earlier transaction's rows: pages to the freelist
        auto it = std::next(m.begin(), static_cast<long>(rng() % m.size()));
        t.sql.push_back("DELETE FROM log WHERE txn = " + std::to_string(it->first));
        next.erase(it->first);
        break;
      }
      case 4: {  // rewrite an earlier transaction's rows
        auto it = std::next(m.begin(), static_cast<long>(rng() % m.size()));
        const size_t len = 5 + static_cast<size_t>(rng() % 600);
        t.sql.push_back("UPDATE log SET pad = '" + Pad(i, len) +
                        "' WHERE txn = " + std::to_string(it->first));
        next[it->first].second = next[it->first].first * static_cast<int64_t>(len);
        break;
      }
      case 5: {  // a statement fails on UNIQUE after many rows: undone alone
        auto v = lens(5, 10, 100);
        t.sql.push_back(Rows(i, 0, 5, v));
        add(i, v);
        auto bad = lens(100 + static_cast<int>(rng() % 100), 50, 300);
        std::string s = Rows(i, 5, 5 + static_cast<int>(bad.size()), bad);
        s += ",(" + std::to_string(i) + ",0,'dup')";
        t.sql.push_back(s);
        t.may_fail.resize(t.sql.size(), false);
        t.may_fail.back() = true;
        auto more = lens(3, 10, 100);
        t.sql.push_back(Rows(i, 5, 8, more));
        add(i, more);
        break;
      }
      case 6: {  // rolled back after growing the file
        t.commits = false;
        auto v = lens(100 + static_cast<int>(rng() % 200), 100, 400);
        t.sql.push_back(Rows(i, 0, static_cast<int>(v.size()), v));
        break;
      }
    }
    t.sql.push_back(t.commits ? "COMMIT" : "ROLLBACK");
    t.may_fail.resize(t.sql.size(), false);
    w.txns.push_back(std::move(t));
    if (w.txns.back().commits) {
      m = next;
      committed = i;
      w.after[committed] = Render(committed, m);
    }
  }
  return w;
}

DatabaseOptions Options(FaultInjectionEnv* env, Synchronous sync = Synchronous::kFull) {
  DatabaseOptions o;
  o.env = env;
  o.page_size = 1024;
  o.cache_pages = 16;  // spills: the database file changes before COMMIT
  o.synchronous = sync;
  return o;
}

// Creates the schema on `env` and makes it durable.
void Prepare(FaultInjectionEnv& env, const std::string& path) {
  {
    auto db = Database::Open(path, Options(&env));
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Status st = (*db)->Exec(
        "CREATE TABLE log(txn INTEGER, k INTEGER, pad TEXT, UNIQUE(txn, k));"
        "CREATE INDEX log_k ON log(k);"
        "CREATE TABLE ctr(id INTEGER PRIMARY KEY, n INTEGER);"
        "INSERT INTO ctr VALUES (1, 0);");
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  env.SyncEverything();
}

struct RunResult {
  int last_ok = 0;     // last transaction whose COMMIT returned OK
  int in_flight = -1;  // a committing transaction cut short, if any
  std::string error;   // an unexpected failure before the cut
};

RunResult RunWorkload(FaultInjectionEnv& env, const std::string& path, const Workload& w) {
  RunResult r;
  auto db = Database::Open(path, Options(&env, w.sync));
  if (!db.ok()) {
    if (!env.power_cut()) r.error = "open: " + db.status().ToString();
    return r;
  }
  for (const Txn& t : w.txns) {
    for (size_t i = 0; i < t.sql.size(); ++i) {
      Status st = (*db)->Exec(t.sql[i]);
      if (env.power_cut()) {
        if (t.commits) r.in_flight = t.number;
        return r;  // the Database goes with the power: its rollback fails too
      }
      if (st.ok() == t.may_fail[i]) {
        r.error = "txn " + std::to_string(t.number) + " statement " + std::to_string(i) + ": " +
                  (st.ok() ? std::string("succeeded") : st.ToString());
        return r;
      }
    }
    if (t.commits) r.last_ok = t.number;
  }
  return r;
}

std::string Dump(SqliteDb& db) {
  auto n = db.Query("SELECT n FROM ctr WHERE id = 1");
  std::string s = "n=" + (n.size() == 1 ? n[0][0] : std::string("?")) + ";";
  for (auto& r : db.Query("SELECT txn, count(*), sum(length(pad)) FROM log GROUP BY txn")) {
    s += r[0] + ":" + r[1] + "," + r[2] + ";";
  }
  return s;
}

struct Case {
  uint64_t workload;
  uint64_t cut;
  CutMode mode;
  bool sqlite_recovers;
  uint64_t rng_seed;
};

class PowerLossTest : public ::testing::Test {
 protected:
  static constexpr int kWorkloads = 8;
  uint64_t seed_ = EnvU64("POWER_LOSS_SEED", 22);
  TempDir dir_;
  std::string path_ = dir_.file("p.db");
  std::vector<Workload> workloads_;
  std::vector<uint64_t> total_ops_;

  void SetUp() override {
    for (int i = 0; i < kWorkloads; ++i) {
      workloads_.push_back(MakeWorkload(Mix(seed_ * 1000 + static_cast<uint64_t>(i))));
      if (i >= kWorkloads - 2) workloads_.back().sync = Synchronous::kNormal;
      FaultInjectionEnv env;
      Prepare(env, path_);
      RunResult r = RunWorkload(env, path_, workloads_.back());
      ASSERT_EQ(r.error, "") << "workload " << i << " fails without a cut";
      total_ops_.push_back(env.ops());
    }
  }

  Case CaseAt(uint64_t k) const {
    const uint64_t h = Mix(seed_ ^ Mix(k));
    const size_t w = static_cast<size_t>(k % kWorkloads);
    return Case{w, 1 + (h >> 8) % total_ops_[w], static_cast<CutMode>(h % 3), ((h >> 2) & 1) != 0,
                Mix(h)};
  }

  // Runs one case; an empty string when it holds, else what went wrong.
  std::string Run(uint64_t k, std::map<std::string, int>* outcomes) {
    const Case c = CaseAt(k);
    const Workload& w = workloads_[c.workload];
    FaultInjectionEnv env;
    Prepare(env, path_);
    env.CutAt(c.cut);
    RunResult r = RunWorkload(env, path_, w);
    if (!r.error.empty()) return r.error;
    std::mt19937_64 rng(c.rng_seed);
    Status st = env.WriteSurvivors(env.Survivors(c.mode, rng));
    if (!st.ok()) return st.ToString();
    if (c.sqlite_recovers) {
      SqliteDb rw(path_);
      if (!rw.ok() || !rw.Exec("SELECT count(*) FROM sqlite_schema")) {
        return "sqlite3 cannot recover: " + rw.error();
      }
    } else {
      auto db = Database::Open(path_);  // the POSIX Env: hot-journal recovery
      if (!db.ok()) return "engine cannot reopen: " + db.status().ToString();
    }
    SqliteDb check(path_, /*read_only=*/true);
    const std::string integrity = check.IntegrityCheck();
    if (integrity != "ok") return "integrity_check: " + integrity;
    const std::string got = Dump(check);
    // The commit before the last one that returned (NORMAL only).
    int previous = -1;
    if (w.sync == Synchronous::kNormal) {
      auto last = w.after.find(r.last_ok);
      if (last != w.after.begin()) previous = std::prev(last)->first;
    }
    for (int ok_txn : {r.last_ok, r.in_flight, previous}) {
      auto it = w.after.find(ok_txn);
      if (it != w.after.end() && it->second == got) {
        if (outcomes) {
          ++(*outcomes)[ok_txn == r.last_ok     ? "committed"
                        : ok_txn == r.in_flight ? "in-flight kept"
                                                : "last commit undone"];
        }
        return "";
      }
    }
    return "lost or half-applied transaction: last OK commit " + std::to_string(r.last_ok) +
           ", in flight " + std::to_string(r.in_flight) + ", database holds " + got +
           ", expected " + w.after.at(r.last_ok);
  }
};

TEST_F(PowerLossTest, EveryCutLeavesASoundDatabaseWithEveryCommit) {
  const char* one = std::getenv("POWER_LOSS_CASE");
  const uint64_t first = one ? std::strtoull(one, nullptr, 10) : 0;
  const uint64_t count = one ? 1 : EnvU64("POWER_LOSS_CUTS", 300);
  std::map<std::string, int> outcomes;
  int failures = 0;
  for (uint64_t k = first; k < first + count; ++k) {
    std::string err = Run(k, &outcomes);
    if (err.empty()) continue;
    const Case c = CaseAt(k);
    ADD_FAILURE() << "POWER_LOSS_SEED=" << seed_ << " POWER_LOSS_CASE=" << k << " (workload "
                  << c.workload << ", cut at op " << c.cut << " of " << total_ops_[c.workload]
                  << ", " << CutModeName(c.mode) << ", "
                  << (workloads_[c.workload].sync == Synchronous::kFull ? "FULL" : "NORMAL") << ", "
                  << (c.sqlite_recovers ? "sqlite3" : "engine") << " recovers): " << err;
    if (++failures >= static_cast<int>(EnvU64("POWER_LOSS_MAX_FAILURES", 20))) break;
  }
  uint64_t ops = 0;
  for (uint64_t t : total_ops_) ops += t;
  std::printf(
      "power-loss: %llu cuts over %d workloads (%llu file operations), seed %llu, %d failures; "
      "recovered to: last commit %d, in-flight commit %d, commit before the last (NORMAL) %d\n",
      static_cast<unsigned long long>(count), kWorkloads, static_cast<unsigned long long>(ops),
      static_cast<unsigned long long>(seed_), failures, outcomes["committed"],
      outcomes["in-flight kept"], outcomes["last commit undone"]);
}

// An I/O error (not a power cut) at any operation of a transaction, one
// that fits in the cache and one that spills: the transaction fails and is
// rolled back, or commits; reopened, the file holds exactly the state
// before or after it.
class IoErrorTest : public ::testing::TestWithParam<int> {};

TEST_P(IoErrorTest, AFailedOperationLeavesBeforeOrAfter) {
  TempDir dir;
  const std::string path = dir.file("e.db");
  const int rows = GetParam();
  std::vector<size_t> lens(static_cast<size_t>(rows), 300);
  for (size_t i = 0; i < lens.size(); i += 7) lens[i] = 2500;  // overflow pages
  const std::vector<std::string> txn = {"BEGIN", "UPDATE ctr SET n = 1 WHERE id = 1",
                                        Rows(1, 0, rows, lens), "COMMIT"};
  int64_t bytes = 0;
  for (size_t len : lens) bytes += static_cast<int64_t>(len);
  const std::string before = "n=0;",
                    after = "n=1;1:" + std::to_string(rows) + "," + std::to_string(bytes) + ";";
  uint64_t total = 0;
  for (uint64_t fail = 0; fail == 0 || fail <= total; ++fail) {
    FaultInjectionEnv env;
    Prepare(env, path);
    bool committed = false;
    {
      auto db = Database::Open(path, Options(&env));
      ASSERT_TRUE(db.ok()) << db.status().ToString();
      env.FailOnce(fail);
      Status st;
      for (const std::string& sql : txn) {
        st = (*db)->Exec(sql);
        if (!st.ok()) break;
      }
      committed = st.ok();
      if (!st.ok() && (*db)->in_transaction()) (void)(*db)->Exec("ROLLBACK");
      if (fail == 0) {
        ASSERT_TRUE(committed) << st.ToString();
        total = env.ops();
      }
    }
    ASSERT_TRUE(env.WriteSurvivors(env.Current()).ok());
    {
      auto db = Database::Open(path);  // the POSIX Env; recovers a journal left behind
      ASSERT_TRUE(db.ok()) << "failing op " << fail << ": " << db.status().ToString();
    }
    SqliteDb check(path, /*read_only=*/true);
    ASSERT_EQ(check.IntegrityCheck(), "ok") << "failing op " << fail;
    const std::string got = Dump(check);
    if (committed) {
      EXPECT_EQ(got, after) << "failing op " << fail;
    } else {
      EXPECT_TRUE(got == before || got == after) << "failing op " << fail << ": " << got;
    }
  }
  EXPECT_GT(total, 5u);
}

INSTANTIATE_TEST_SUITE_P(InCacheAndSpilling, IoErrorTest, ::testing::Values(6, 300));

// Statements that no constraint can stop half-way run inside BEGIN without a
// statement journal (as in sqlite3). Run `setup` in a transaction, then
// `stmt` with an I/O error at each of its operations in turn (a 16-page
// cache: the pager spills mid-statement). A failure before the statement's
// first write leaves the transaction open with `setup`'s rows (`after_setup`
// once committed); one after it rolls the transaction back (`before`), as
// sqlite3 does for I/O errors; success gives `after_stmt`. Never the setup
// with part of the statement.
void CheckUnjournaledIoErrors(const std::vector<std::string>& setup, const std::string& stmt,
                              const std::string& before, const std::string& after_setup,
                              const std::string& after_stmt) {
  TempDir dir;
  const std::string path = dir.file("o.db");
  uint64_t total = 0;
  std::map<std::string, int> outcomes;
  for (uint64_t fail = 0; fail == 0 || fail <= total; ++fail) {
    FaultInjectionEnv env;
    Prepare(env, path);
    std::string outcome;
    {
      auto db = Database::Open(path, Options(&env));
      ASSERT_TRUE(db.ok()) << db.status().ToString();
      ASSERT_TRUE((*db)->Exec("BEGIN").ok());
      for (const std::string& sql : setup) ASSERT_TRUE((*db)->Exec(sql).ok()) << sql;
      const uint64_t ops_before = env.ops();
      env.FailOnce(fail);
      Status st = (*db)->Exec(stmt);
      if (fail == 0) {
        ASSERT_TRUE(st.ok()) << st.ToString();
        total = env.ops() - ops_before;
      }
      outcome = st.ok()                   ? "statement ok"
                : (*db)->in_transaction() ? "failed, txn open"
                                          : "failed, txn rolled back";
      if ((*db)->in_transaction()) {
        Status c = (*db)->Exec("COMMIT");
        ASSERT_TRUE(c.ok()) << "failing op " << fail << ": " << c.ToString();
      }
    }
    ASSERT_TRUE(env.WriteSurvivors(env.Current()).ok());
    SqliteDb check(path, /*read_only=*/true);
    ASSERT_EQ(check.IntegrityCheck(), "ok") << "failing op " << fail;
    const std::string want = outcome == "statement ok"       ? after_stmt
                             : outcome == "failed, txn open" ? after_setup
                                                             : before;
    EXPECT_EQ(Dump(check), want) << "failing op " << fail << ": " << outcome;
    ++outcomes[outcome];
  }
  // The statement spilled, so some failure came after its first write.
  EXPECT_GT(total, 3u);
  EXPECT_GT(outcomes["failed, txn rolled back"], 0);
}

TEST(UnjournaledStatementIoErrorTest, OneRowInsertSpanningOverflowPages) {
  CheckUnjournaledIoErrors({"INSERT INTO log VALUES (1, 1, '" + std::string(300, 'a') + "')"},
                           "INSERT INTO log VALUES (1, 2, '" + std::string(20000, 'b') + "')",
                           "n=0;", "n=0;1:1,300;", "n=0;1:2,20300;");
}

TEST(UnjournaledStatementIoErrorTest, ManyRowUpdateOfAnUnconstrainedColumn) {
  std::vector<size_t> lens(60, 200);
  CheckUnjournaledIoErrors({"UPDATE ctr SET n = 1 WHERE id = 1", Rows(1, 0, 60, lens)},
                           "UPDATE log SET pad = '" + std::string(900, 'c') + "' WHERE k >= 10",
                           "n=0;", "n=1;1:60,12000;", "n=1;1:60,47000;");
}

TEST(UnjournaledStatementIoErrorTest, ManyRowDelete) {
  std::vector<size_t> lens(80, 700);
  CheckUnjournaledIoErrors({"UPDATE ctr SET n = 1 WHERE id = 1", Rows(1, 0, 80, lens)},
                           "DELETE FROM log WHERE k % 3 <> 0", "n=0;", "n=1;1:80,56000;",
                           "n=1;1:27,18900;");
}

// The simulator itself: what a cut keeps.
TEST(FaultInjectionEnvTest, KeepsSyncedBytesAndSyncedNamesOnly) {
  TempDir dir;
  const std::string a = dir.file("a"), b = dir.file("b");
  FaultInjectionEnv env;
  {
    auto f = env.Open(a, File::Mode::kCreate);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->WriteAt(0, "synced", 6).ok());
    ASSERT_TRUE((*f)->Sync().ok());
    ASSERT_TRUE(env.SyncDir(a).ok());
    ASSERT_TRUE((*f)->WriteAt(0, "SYNCED-AND-MORE", 15).ok());
    auto g = env.Open(b, File::Mode::kCreate);  // never dir-synced
    ASSERT_TRUE(g.ok());
    ASSERT_TRUE((*g)->WriteAt(0, "x", 1).ok());
    ASSERT_TRUE((*g)->Sync().ok());
  }
  env.CutAt(1);
  EXPECT_FALSE(env.Delete(a).ok());  // the power is gone
  EXPECT_TRUE(env.power_cut());
  std::mt19937_64 rng(1);
  auto s = env.Survivors(CutMode::kDropUnsynced, rng);
  EXPECT_EQ(s.size(), 1u);
  EXPECT_EQ(s[a], "synced");
  // The other modes keep the unsynced write whole, not at all, or a prefix
  // of it over the old bytes (torn).
  const std::string before = "synced", after = "SYNCED-AND-MORE";
  auto torn = [&](const std::string& got) {
    for (size_t len = 0; len <= after.size(); ++len) {
      if (got == after.substr(0, len) + (len < before.size() ? before.substr(len) : ""))
        return true;
    }
    return false;
  };
  for (int i = 0; i < 20; ++i) {
    std::string subset = env.Survivors(CutMode::kRandomSubset, rng)[a];
    EXPECT_TRUE(subset == before || subset == after) << subset;
    EXPECT_TRUE(torn(env.Survivors(CutMode::kTornWrite, rng)[a]));
  }
  // A name created without a directory sync may survive (with its synced
  // bytes) or not.
  int kept_b = 0;
  for (int i = 0; i < 40; ++i) kept_b += env.Survivors(CutMode::kRandomSubset, rng).count(b);
  EXPECT_GT(kept_b, 0);
  EXPECT_LT(kept_b, 40);
}

}  // namespace
}  // namespace engine
