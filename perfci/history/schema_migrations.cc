#include "perfci/history/schema_migrations.h"

namespace perfci::history {

// Version 1. A run has sides (A, B, or one unlabelled side for `perfci run`),
// a side has points (one benchmark metric's median); comparisons and
// contract outcomes belong to the run. Text columns are NOT NULL with ""
// for unknown, except run_key: NULL when a run has no key, so that UNIQUE
// holds only between real keys. Commit hashes are full; the series query
// reads points by (benchmark, kind, metric) and sides by (profile, commit).
constexpr const char* kVersion1 = R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  run_key TEXT UNIQUE,
  command TEXT NOT NULL,
  created TEXT NOT NULL,
  branch TEXT NOT NULL,
  tool_version TEXT NOT NULL,
  hostname TEXT NOT NULL,
  cpu_model TEXT NOT NULL,
  machine TEXT NOT NULL,
  suite TEXT NOT NULL,
  outcome TEXT NOT NULL,
  source TEXT NOT NULL
);
CREATE TABLE sides (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  revision TEXT NOT NULL,
  commit_hash TEXT NOT NULL,
  parent TEXT NOT NULL,
  dirty INTEGER NOT NULL CHECK (dirty IN (0, 1)),
  profile TEXT NOT NULL,
  UNIQUE (run_id, label)
);
CREATE INDEX sides_by_profile_commit ON sides(profile, commit_hash);
CREATE INDEX sides_by_commit ON sides(commit_hash);
CREATE TABLE points (
  id INTEGER PRIMARY KEY,
  side_id INTEGER NOT NULL REFERENCES sides(id) ON DELETE CASCADE,
  benchmark TEXT NOT NULL,
  kind TEXT NOT NULL,
  metric TEXT NOT NULL,
  unit TEXT NOT NULL,
  median REAL NOT NULL,
  lo REAL,
  hi REAL,
  n INTEGER NOT NULL,
  deterministic INTEGER NOT NULL CHECK (deterministic IN (0, 1))
);
CREATE INDEX points_by_series ON points(benchmark, kind, metric);
CREATE INDEX points_by_kind_metric ON points(kind, metric);
CREATE INDEX points_by_side ON points(side_id);
CREATE TABLE comparisons (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  benchmark TEXT NOT NULL,
  kind TEXT NOT NULL,
  metric TEXT NOT NULL,
  estimate REAL,
  lo REAL,
  hi REAL,
  q REAL,
  decision TEXT NOT NULL,
  outcome TEXT NOT NULL,
  gate TEXT NOT NULL
);
CREATE INDEX comparisons_by_run ON comparisons(run_id);
CREATE INDEX comparisons_by_series ON comparisons(benchmark, kind, metric);
CREATE TABLE contracts (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  side TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  message TEXT NOT NULL
);
CREATE INDEX contracts_by_run ON contracts(run_id);
)sql";

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> steps{{1, kVersion1}};
  return steps;
}

}  // namespace perfci::history
