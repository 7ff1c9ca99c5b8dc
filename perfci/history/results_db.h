// The results database (issue 16): every run of check, compare, ab, aa, run
// and bisect kept in one SQLite file, so that a benchmark's trend across
// commits, its change points and a bisect's measurements can be read back.
//
// The file is perfci's own: PRAGMA application_id says so and PRAGMA
// user_version holds the schema version, migrated forward on open. It runs
// in WAL mode with a busy timeout, and every run is written in one
// BEGIN IMMEDIATE transaction, so two CI jobs writing at once both land and
// a process killed half-way leaves the file as it was before that run.
// A file that is not SQLite, another program's SQLite file, a schema newer
// than this perfci, or a corrupt database is refused with perfci::Error and
// never written to.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfci/history/run_record.h"

struct sqlite3;

namespace perfci::history {

// 'pfci' as a big-endian integer: PRAGMA application_id of every results database.
inline constexpr std::int32_t kApplicationId = 0x70666369;
// The schema this perfci writes; older ones are migrated on open.
inline constexpr int kSchemaVersion = 1;

// Which stored points to read: empty fields match everything.
struct PointQuery {
  std::string profile;
  std::string benchmark_regex;       // ECMAScript, searched in the benchmark name
  std::string kind;                  // wall, counters, callgrind
  std::string metric;                // real_time_ns, ir, an event name
  std::vector<std::string> commits;  // only these commits, when non-empty
};

// One stored point with the run it came from.
struct StoredPoint {
  std::int64_t run_id = 0;
  std::string command;  // check, compare, ab, aa, run, bisect
  std::string created;
  std::string branch;
  std::string side;  // "A", "B" or "" (run)
  std::string commit;
  std::string parent;
  bool dirty = false;
  std::string profile;
  std::string hostname;  // of the machine the run ran on
  std::string cpu_model;
  Point point;
};

// A check that accepted a regression of this metric at this commit (a
// comparison whose gate is "accepted", at its run's side B).
struct AcceptedMark {
  std::string commit;
  std::string benchmark;
  std::string kind;
  std::string metric;
};

struct StoredRun {
  std::int64_t id = 0;
  RunRecord record;
};

class ResultsDb {
 public:
  // Opens `path`, creating it (and its folder) when it does not exist, and
  // migrates an older schema. Throws perfci::Error "<path>: ..." for a file
  // it must not touch: not SQLite (read as bytes, never opened by SQLite),
  // another program's SQLite file (application_id), a newer schema, or a
  // database PRAGMA quick_check finds corrupt; none of them is written to.
  // quick_check reads the whole file: opening costs time linear in its size.
  static ResultsDb open(const std::filesystem::path& path);
  ~ResultsDb();
  ResultsDb(ResultsDb&& other) noexcept;
  ResultsDb& operator=(ResultsDb&& other) noexcept;
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Stores the run in one transaction and returns its id; returns nullopt
  // (and stores nothing) when a run with the same non-empty `key` is
  // already there, which makes `history import` idempotent. Once it
  // returns, the run is durable (synchronous FULL). Throws perfci::Error
  // (nothing stored) for a median that is not finite or a failed write.
  std::optional<std::int64_t> add_run(const RunRecord& run);

  // Oldest run first (by created, then id). Throws perfci::Error for a bad regex.
  std::vector<StoredPoint> points(const PointQuery& query) const;
  // Every run, oldest first, with its sides, points, comparisons and contracts.
  std::vector<StoredRun> runs() const;
  std::int64_t run_count() const;
  // Every accepted regression, oldest run first.
  std::vector<AcceptedMark> accepted_marks() const;

 private:
  ResultsDb(std::filesystem::path path, sqlite3* db) : path_(std::move(path)), db_(db) {}
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
};

}  // namespace perfci::history
