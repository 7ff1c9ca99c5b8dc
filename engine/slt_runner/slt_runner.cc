#include "engine/slt_runner/slt_runner.h"

#include <filesystem>

#include "engine/database.h"
#include "engine/slt/result_format.h"
#include "engine/slt/result_hash.h"
#include "engine/slt/script_reader.h"

namespace engine::slt {

namespace {

Value ToSltValue(const engine::Value& v) {
  switch (v.type()) {
    case ValueType::kNull:
      return std::monostate{};
    case ValueType::kInteger:
      return v.as_int();
    case ValueType::kReal:
      return v.as_real();
    case ValueType::kText:
    case ValueType::kBlob:
      return std::string(v.as_text());
  }
  return std::monostate{};
}

Result<std::vector<std::vector<Value>>> RunQuery(Database& db, const std::string& sql) {
  ENGINE_ASSIGN_OR_RETURN(std::unique_ptr<Statement> stmt, db.Prepare(sql));
  std::vector<std::vector<Value>> rows;
  if (!stmt) return rows;
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool have, stmt->Step());
    if (!have) break;
    std::vector<Value> row;
    for (int i = 0; i < stmt->column_count(); ++i) row.push_back(ToSltValue(stmt->column_value(i)));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

RunCounts RunScriptFile(const std::string& path, const std::string& scratch_dir,
                        std::ostream& errors) {
  RunCounts counts;
  auto script = ReadScriptFile(path);
  if (!script.ok()) {
    errors << path << ": " << script.status().message() << "\n";
    ++counts.failed;
    return counts;
  }
  const std::string db_path = scratch_dir + "/slt.db";
  std::error_code ec;
  std::filesystem::remove(db_path, ec);
  std::filesystem::remove(db_path + "-journal", ec);
  DatabaseOptions options;
  options.synchronous = Synchronous::kOff;
  auto db = Database::Open(db_path, options);
  if (!db.ok()) {
    errors << path << ": " << db.status().message() << "\n";
    ++counts.failed;
    return counts;
  }
  int threshold = 0;
  for (const Record& rec : *script) {
    if (rec.kind == RecordKind::kHalt) {
      if (rec.AppliesTo("sqlite")) break;
      continue;
    }
    if (rec.kind == RecordKind::kHashThreshold) {
      threshold = rec.threshold;
      continue;
    }
    if (!rec.AppliesTo("sqlite")) continue;
    if (rec.kind == RecordKind::kStatement) {
      Status st = (*db)->Exec(rec.sql);
      if (st.ok() == rec.expect_ok) {
        ++counts.passed;
      } else {
        ++counts.failed;
        errors << path << ":" << rec.line << ": statement "
               << (rec.expect_ok ? "failed: " + st.message()
                                 : std::string("succeeded unexpectedly"))
               << "\n  " << rec.sql << "\n";
      }
      continue;
    }
    auto rows = RunQuery(**db, rec.sql);
    if (!rows.ok()) {
      ++counts.failed;
      errors << path << ":" << rec.line << ": query failed: " << rows.status().message() << "\n  "
             << rec.sql << "\n";
      continue;
    }
    std::vector<std::string> values = FormatResult(*rows, rec.types, rec.sort);
    if (MatchesExpected(rec, values)) {
      ++counts.passed;
      continue;
    }
    ++counts.failed;
    errors << path << ":" << rec.line << ": wrong result\n  " << rec.sql << "\n  got:";
    for (const std::string& line : ResultLines(values, threshold)) errors << " " << line;
    errors << "\n  expected:";
    if (rec.expects_hash) {
      errors << " " << rec.hash_count << " values hashing to " << rec.hash;
    } else {
      for (const std::string& line : rec.expected) errors << " " << line;
    }
    errors << "\n";
  }
  db->reset();
  std::filesystem::remove(db_path, ec);
  return counts;
}

}  // namespace engine::slt
