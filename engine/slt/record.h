// One record of a sqllogictest script, as read from the file. The runner
// decides what to do with it; the reader only checks the format.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace engine::slt {

enum class RecordKind { kStatement, kQuery, kHashThreshold, kHalt };
enum class SortMode { kNoSort, kRowSort, kValueSort };

// `skipif NAME` / `onlyif NAME` lines that precede a record.
struct Condition {
  bool only_if = false;  // false: skipif
  std::string engine;
};

struct Record {
  RecordKind kind = RecordKind::kStatement;
  int line = 0;  // 1-based line of the record's first line (its first condition, if any)
  std::vector<Condition> conditions;

  // kStatement and kQuery.
  std::string sql;  // lines joined with '\n'
  int sql_line = 0;

  // kStatement.
  bool expect_ok = true;  // statement ok / statement error

  // kQuery.
  std::string types;  // one of I, T, R per column
  SortMode sort = SortMode::kNoSort;
  std::string label;
  std::vector<std::string> expected;  // result lines after "----"
  bool expects_hash = false;          // "N values hashing to H"
  size_t hash_count = 0;
  std::string hash;

  // kHashThreshold.
  int threshold = 0;

  // Whether the record applies to `engine_name` given its skipif/onlyif lines.
  bool AppliesTo(const std::string& engine_name) const;
};

}  // namespace engine::slt
