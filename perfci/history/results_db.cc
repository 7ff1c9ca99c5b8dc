#include "perfci/history/results_db.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <regex>
#include <thread>

#include "perfci/history/schema_migrations.h"
#include "perfci/history/sqlite_statement.h"
#include "perfci/util/error.h"

namespace perfci::history {
namespace {

namespace fs = std::filesystem;

// Every SQLite file starts so (https://www.sqlite.org/fileformat.html §1.3).
constexpr char kSqliteMagic[] = "SQLite format 3";  // and its NUL: 16 bytes
constexpr int kBusyTimeoutMs = 30000;

// What is refused is left exactly as it was: the file is read here, before
// SQLite opens it, and a file that is not SQLite never reaches SQLite.
void check_header(const fs::path& path) {
  const std::string where = path.string();
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw Error(where + ": cannot read the results database: " + ec.message());
  if (size == 0) return;  // an empty file is an empty database: SQLite's own rule
  std::ifstream in(path, std::ios::binary);
  char head[16] = {};
  in.read(head, sizeof head);
  if (!in || std::string(head, sizeof head) != std::string(kSqliteMagic, sizeof kSqliteMagic))
    throw Error(where +
                ": not an SQLite database (it does not start with \"SQLite format 3\"); a results "
                "database is perfci's own SQLite file. Left as it was: name another file with "
                "--history or perfci.json's history.database");
}

std::int64_t pragma_int(sqlite3* db, const std::string& where, const char* sql) {
  Statement s(db, where, sql);
  return s.step() ? s.int64(0) : 0;
}

// BEGIN IMMEDIATE takes the write lock at once (waiting up to the busy
// timeout), so two writers never both read and then collide on commit.
class Transaction {
 public:
  Transaction(sqlite3* db, std::string where) : db_(db), where_(std::move(where)) {
    exec_sql(db_, where_, "BEGIN IMMEDIATE");
  }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    exec_sql(db_, where_, "COMMIT");
    done_ = true;
  }

 private:
  sqlite3* db_;
  std::string where_;
  bool done_ = false;
};

// One snapshot for a read of several tables: a run committed meanwhile by
// another process is either wholly in it or not at all.
class ReadSnapshot {
 public:
  ReadSnapshot(sqlite3* db, const std::string& where) : db_(db) { exec_sql(db, where, "BEGIN"); }
  ~ReadSnapshot() { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  sqlite3* db_;
};

struct Identity {
  std::int64_t application_id = 0;
  std::int64_t version = 0;
  std::int64_t objects = 0;  // tables, indexes, ...: none in a new file
};

// Reads only, in one snapshot: another process creating the file at the
// same moment is seen before or after its creation, never half-way.
Identity read_identity(sqlite3* db, const std::string& where) {
  Identity id;
  try {
    id.application_id = pragma_int(db, where, "PRAGMA application_id");
    id.version = pragma_int(db, where, "PRAGMA user_version");
    id.objects = pragma_int(db, where, "SELECT count(*) FROM sqlite_master");
  } catch (const Error& e) {
    throw Error(std::string(e.what()) +
                "; not a readable SQLite database, left as it was (restore it from a copy, or "
                "name another file)");
  }
  return id;
}

// Throws for a file perfci must not write to; true when it is new (empty).
bool check_identity(const Identity& id, const std::string& where) {
  const bool fresh = id.application_id == 0 && id.version == 0 && id.objects == 0;
  if (id.application_id != kApplicationId && !fresh)
    throw Error(fmt::format(
        "{}: an SQLite database of another program (application_id {:#x}, {} schema objects), "
        "not a perfci results database (application_id {:#x}); left as it was",
        where, static_cast<std::uint32_t>(id.application_id), id.objects, kApplicationId));
  if (id.version > kSchemaVersion)
    throw Error(fmt::format(
        "{}: results database schema version {} is newer than this perfci's ({}); use the perfci "
        "that wrote it, or a newer one. Left as it was",
        where, id.version, kSchemaVersion));
  return fresh;
}

void quick_check(sqlite3* db, const std::string& where) {
  std::string problems;
  try {
    Statement check(db, where, "PRAGMA quick_check");
    while (check.step())
      if (std::string line = check.text(0); line != "ok") problems += "\n  " + line;
  } catch (const Error& e) {
    problems += std::string("\n  ") + e.what();  // too damaged for quick_check to finish
  }
  if (!problems.empty())
    throw Error(where + ": the results database is corrupt (PRAGMA quick_check):" + problems +
                "\n  Nothing was written to it. Restore it from a copy, or name another file");
}

// Reads only: a file refused here is closed untouched.
void identify(sqlite3* db, const std::string& where) {
  ReadSnapshot snapshot(db, where);
  if (!check_identity(read_identity(db, where), where)) quick_check(db, where);
}

// Switching to WAL needs the file to itself for a moment, and SQLite does
// not wait for that with the busy handler: retried until the busy timeout,
// while another connection holds it (SQLITE_BUSY / SQLITE_LOCKED, or the
// old mode answered back); any other error (a read-only file, an I/O
// error) is not going to pass and is raised at once.
void use_wal(sqlite3* db, const std::string& where) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    try {
      Statement s(db, where, "PRAGMA journal_mode=WAL");
      const std::string mode = s.step() ? s.text(0) : "";
      if (mode == "wal") return;
      if (std::chrono::steady_clock::now() > deadline)
        throw Error(where + ": cannot put the results database in WAL mode (journal mode is '" +
                    mode + "')");
    } catch (const Error&) {
      const int rc = sqlite3_errcode(db) & 0xff;
      if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || std::chrono::steady_clock::now() > deadline)
        throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void migrate(sqlite3* db, const std::string& where) {
  if (pragma_int(db, where, "PRAGMA user_version") == kSchemaVersion) return;
  Transaction t(db, where);
  // Read again under the write lock: another process may have created or
  // migrated it since identify().
  const Identity id = read_identity(db, where);
  check_identity(id, where);
  const std::int64_t version = id.version;
  if (version == kSchemaVersion) return;  // the transaction rolls back: nothing to do
  for (const Migration& m : migrations())
    if (m.to_version > version)
      exec_sql(db, where + ": schema step to version " + std::to_string(m.to_version), m.sql);
  exec_sql(db, where,
           fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {}", kApplicationId,
                       kSchemaVersion));
  t.commit();
}

void require_finite(double v, const std::string& what) {
  if (!std::isfinite(v)) throw Error(what + " is not a finite number");
}

}  // namespace

ResultsDb ResultsDb::open(const fs::path& path) {
  const std::string where = path.string();
  std::error_code ec;
  const auto st = fs::status(path, ec);
  const bool exists = fs::exists(st);
  if (exists && !fs::is_regular_file(st))
    throw Error(where + ": not a file; a results database is one SQLite file");
  if (exists) {
    check_header(path);
  } else if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec)
      throw Error(where + ": cannot create the folder of the results database: " + ec.message());
  }
  sqlite3* raw = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
  const int rc = sqlite3_open_v2(where.c_str(), &raw, flags, nullptr);
  ResultsDb db(path, raw);  // closes it on every way out
  if (rc != SQLITE_OK)
    throw Error(where + ": cannot open the results database: " +
                (raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
  sqlite3_extended_result_codes(raw, 1);
  // Two CI jobs may write at once: the later one waits for the lock.
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
  exec_sql(raw, where, "PRAGMA foreign_keys = ON");
  // A committed run survives a power loss too, not only a killed process.
  exec_sql(raw, where, "PRAGMA synchronous = FULL");
  identify(raw, where);
  use_wal(raw, where);
  migrate(raw, where);
  return db;
}

ResultsDb::~ResultsDb() {
  if (db_) sqlite3_close(db_);
}

ResultsDb::ResultsDb(ResultsDb&& other) noexcept
    : path_(std::move(other.path_)), db_(std::exchange(other.db_, nullptr)) {}

ResultsDb& ResultsDb::operator=(ResultsDb&& other) noexcept {
  if (this != &other) {
    if (db_) sqlite3_close(db_);
    path_ = std::move(other.path_);
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

std::optional<std::int64_t> ResultsDb::add_run(const RunRecord& run) {
  const std::string where = path_.string();
  for (const auto& side : run.sides)
    for (const auto& p : side.points)
      require_finite(p.median, "run " + run.key + ": side '" + side.label + "': " + p.benchmark +
                                   " " + p.kind + "/" + p.metric + ": the median");
  Transaction t(db_, where);
  if (!run.key.empty()) {
    Statement existing(db_, where, "SELECT id FROM runs WHERE run_key = ?1");
    existing.bind(1, run.key);
    if (existing.step()) return std::nullopt;  // the transaction rolls back: nothing written
  }
  Statement r(db_, where,
              "INSERT INTO runs (run_key, command, created, branch, tool_version, hostname, "
              "cpu_model, machine, suite, outcome, source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
              "?8, ?9, ?10, ?11)");
  if (run.key.empty())
    r.bind_null(1);
  else
    r.bind(1, run.key);
  r.bind(2, run.command)
      .bind(3, run.created)
      .bind(4, run.branch)
      .bind(5, run.tool_version)
      .bind(6, run.hostname)
      .bind(7, run.cpu_model)
      .bind(8, run.machine.dump())
      .bind(9, run.suite)
      .bind(10, run.outcome)
      .bind(11, run.source);
  r.run();
  const std::int64_t run_id = sqlite3_last_insert_rowid(db_);

  Statement s(db_, where,
              "INSERT INTO sides (run_id, label, revision, commit_hash, parent, dirty, profile) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  Statement p(db_, where,
              "INSERT INTO points (side_id, benchmark, kind, metric, unit, median, lo, hi, n, "
              "deterministic) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  for (const SideRecord& side : run.sides) {
    s.bind(1, run_id)
        .bind(2, side.label)
        .bind(3, side.revision)
        .bind(4, side.commit)
        .bind(5, side.parent)
        .bind(6, std::int64_t{side.dirty})
        .bind(7, side.profile);
    s.run();
    const std::int64_t side_id = sqlite3_last_insert_rowid(db_);
    for (const Point& pt : side.points) {
      p.bind(1, side_id)
          .bind(2, pt.benchmark)
          .bind(3, pt.kind)
          .bind(4, pt.metric)
          .bind(5, pt.unit)
          .bind(6, pt.median)
          .bind(7, pt.lo)
          .bind(8, pt.hi)
          .bind(9, std::int64_t{pt.n})
          .bind(10, std::int64_t{pt.deterministic});
      p.run();
    }
  }
  Statement c(db_, where,
              "INSERT INTO comparisons (run_id, benchmark, kind, metric, estimate, lo, hi, q, "
              "decision, outcome, gate) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  for (const ComparisonRecord& cmp : run.comparisons) {
    c.bind(1, run_id)
        .bind(2, cmp.benchmark)
        .bind(3, cmp.kind)
        .bind(4, cmp.metric)
        .bind(5, std::isfinite(cmp.estimate) ? std::optional<double>(cmp.estimate) : std::nullopt)
        .bind(6, cmp.lo)
        .bind(7, cmp.hi)
        .bind(8, cmp.q)
        .bind(9, cmp.decision)
        .bind(10, cmp.outcome)
        .bind(11, cmp.gate);
    c.run();
  }
  Statement k(db_, where,
              "INSERT INTO contracts (run_id, side, name, status, message) VALUES (?1, ?2, ?3, "
              "?4, ?5)");
  for (const ContractRecord& ct : run.contracts) {
    k.bind(1, run_id).bind(2, ct.side).bind(3, ct.name).bind(4, ct.status).bind(5, ct.message);
    k.run();
  }
  t.commit();
  return run_id;
}

std::vector<StoredPoint> ResultsDb::points(const PointQuery& q) const {
  const std::string where = path_.string();
  std::optional<std::regex> name_re;
  if (!q.benchmark_regex.empty()) {
    try {
      name_re.emplace(q.benchmark_regex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw Error("benchmark regex '" + q.benchmark_regex + "': " + e.what());
    }
  }
  // Only the filters given are in the WHERE clause (as bound parameters,
  // never as text), so that SQLite can use the sides and points indexes for
  // them; an "?1 = '' OR ..." form would keep it from any index.
  std::string sql =
      "SELECT r.id, r.command, r.created, r.branch, s.label, s.commit_hash, s.parent, s.dirty, "
      "s.profile, p.benchmark, p.kind, p.metric, p.unit, p.median, p.lo, p.hi, p.n, "
      "p.deterministic, r.hostname, r.cpu_model FROM points p JOIN sides s ON p.side_id = s.id "
      "JOIN runs r ON s.run_id = r.id WHERE 1";
  if (!q.profile.empty()) sql += " AND s.profile = ?1";
  if (!q.kind.empty()) sql += " AND p.kind = ?2";
  if (!q.metric.empty()) sql += " AND p.metric = ?3";
  if (!q.commits.empty()) sql += " AND s.commit_hash IN (SELECT value FROM json_each(?4))";
  sql += " ORDER BY r.created, r.id, s.label, p.id";
  Statement s(db_, where, sql.c_str());
  if (!q.profile.empty()) s.bind(1, q.profile);
  if (!q.kind.empty()) s.bind(2, q.kind);
  if (!q.metric.empty()) s.bind(3, q.metric);
  if (!q.commits.empty()) s.bind(4, nlohmann::json(q.commits).dump());
  std::vector<StoredPoint> out;
  while (s.step()) {
    StoredPoint sp;
    sp.point.benchmark = s.text(9);
    if (name_re && !std::regex_search(sp.point.benchmark, *name_re)) continue;
    sp.run_id = s.int64(0);
    sp.command = s.text(1);
    sp.created = s.text(2);
    sp.branch = s.text(3);
    sp.side = s.text(4);
    sp.commit = s.text(5);
    sp.parent = s.text(6);
    sp.dirty = s.int64(7) != 0;
    sp.profile = s.text(8);
    sp.point.kind = s.text(10);
    sp.point.metric = s.text(11);
    sp.point.unit = s.text(12);
    sp.point.median = s.real(13);
    sp.point.lo = s.optional_real(14);
    sp.point.hi = s.optional_real(15);
    sp.point.n = static_cast<int>(s.int64(16));
    sp.point.deterministic = s.int64(17) != 0;
    sp.hostname = s.text(18);
    sp.cpu_model = s.text(19);
    out.push_back(std::move(sp));
  }
  return out;
}

std::vector<StoredRun> ResultsDb::runs() const {
  const std::string where = path_.string();
  std::vector<StoredRun> out;
  ReadSnapshot snapshot(db_, where);
  Statement r(db_, where,
              "SELECT id, run_key, command, created, branch, tool_version, hostname, cpu_model, "
              "machine, suite, outcome, source FROM runs ORDER BY id");
  while (r.step()) {
    StoredRun run;
    run.id = r.int64(0);
    RunRecord& rec = run.record;
    rec.key = r.text(1);
    rec.command = r.text(2);
    rec.created = r.text(3);
    rec.branch = r.text(4);
    rec.tool_version = r.text(5);
    rec.hostname = r.text(6);
    rec.cpu_model = r.text(7);
    rec.machine = nlohmann::json::parse(r.text(8), nullptr, false);
    if (rec.machine.is_discarded()) rec.machine = nlohmann::json::object();
    rec.suite = r.text(9);
    rec.outcome = r.text(10);
    rec.source = r.text(11);
    out.push_back(std::move(run));
  }
  Statement s(db_, where,
              "SELECT id, label, revision, commit_hash, parent, dirty, profile FROM sides WHERE "
              "run_id = ?1 ORDER BY id");
  Statement p(db_, where,
              "SELECT benchmark, kind, metric, unit, median, lo, hi, n, deterministic FROM points "
              "WHERE side_id = ?1 ORDER BY id");
  Statement c(db_, where,
              "SELECT benchmark, kind, metric, estimate, lo, hi, q, decision, outcome, gate FROM "
              "comparisons WHERE run_id = ?1 ORDER BY id");
  Statement k(db_, where,
              "SELECT side, name, status, message FROM contracts WHERE run_id = ?1 ORDER BY id");
  for (StoredRun& run : out) {
    RunRecord& rec = run.record;
    s.bind(1, run.id);
    while (s.step()) {
      SideRecord side;
      side.label = s.text(1);
      side.revision = s.text(2);
      side.commit = s.text(3);
      side.parent = s.text(4);
      side.dirty = s.int64(5) != 0;
      side.profile = s.text(6);
      p.bind(1, s.int64(0));
      while (p.step()) {
        Point pt;
        pt.benchmark = p.text(0);
        pt.kind = p.text(1);
        pt.metric = p.text(2);
        pt.unit = p.text(3);
        pt.median = p.real(4);
        pt.lo = p.optional_real(5);
        pt.hi = p.optional_real(6);
        pt.n = static_cast<int>(p.int64(7));
        pt.deterministic = p.int64(8) != 0;
        side.points.push_back(std::move(pt));
      }
      p.reset();
      rec.sides.push_back(std::move(side));
    }
    s.reset();
    c.bind(1, run.id);
    while (c.step()) {
      ComparisonRecord cmp;
      cmp.benchmark = c.text(0);
      cmp.kind = c.text(1);
      cmp.metric = c.text(2);
      cmp.estimate = c.optional_real(3).value_or(std::nan(""));
      cmp.lo = c.optional_real(4);
      cmp.hi = c.optional_real(5);
      cmp.q = c.optional_real(6);
      cmp.decision = c.text(7);
      cmp.outcome = c.text(8);
      cmp.gate = c.text(9);
      rec.comparisons.push_back(std::move(cmp));
    }
    c.reset();
    k.bind(1, run.id);
    while (k.step()) rec.contracts.push_back({k.text(0), k.text(1), k.text(2), k.text(3)});
    k.reset();
  }
  return out;
}

std::int64_t ResultsDb::run_count() const {
  return pragma_int(db_, path_.string(), "SELECT count(*) FROM runs");
}

std::vector<AcceptedMark> ResultsDb::accepted_marks() const {
  Statement s(
      db_, path_.string(),
      "SELECT s.commit_hash, c.benchmark, c.kind, c.metric FROM comparisons c JOIN sides s "
      "ON s.run_id = c.run_id AND s.label = 'B' WHERE c.gate = 'accepted' ORDER BY c.run_id, "
      "c.id");
  std::vector<AcceptedMark> out;
  while (s.step()) out.push_back({s.text(0), s.text(1), s.text(2), s.text(3)});
  return out;
}

}  // namespace perfci::history
