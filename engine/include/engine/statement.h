// A prepared statement: its parse tree, its plan and its executor, built
// once by Database::Prepare. Reset() + Bind*() + Step() run it again without
// re-parsing or re-planning; on the read paths a row costs no allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/value.h"

namespace engine {

class Database;
namespace sql {
struct Statement;
}
namespace plan {
struct Program;
struct ExplainRow;
}  // namespace plan
namespace exec {
class ExecContext;
class SelectRun;
class DmlRun;
struct PragmaResult;
}  // namespace exec

class Statement {
 public:
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are numbered from 1, as in sqlite3_bind_*.
  int parameter_count() const;
  Status BindNull(int i);
  Status BindInt(int i, int64_t v);
  Status BindReal(int i, double v);
  Status BindText(int i, std::string_view v);       // copies
  Status BindBlob(int i, const void* p, size_t n);  // copies
  void ClearBindings();

  // true: a row is ready; false: the statement has finished.
  Result<bool> Step();
  // Back to the start, bindings kept; ends the statement's read transaction.
  Status Reset();

  int column_count() const { return static_cast<int>(names_.size()); }
  const std::string& column_name(int i) const { return names_[static_cast<size_t>(i)]; }
  ValueType column_type(int i) const { return column_value(i).type(); }
  int64_t column_int(int i) const;
  double column_real(int i) const;
  // Numbers rendered as sqlite3_column_text renders them; NULL as "".
  std::string_view column_text(int i) const;
  std::string_view column_blob(int i) const;
  const Value& column_value(int i) const;

  const std::string& sql() const;
  // Whether the statement only reads (SELECT, EXPLAIN).
  bool read_only() const;
  // EXPLAIN QUERY PLAN: its rows are (id, parent, notused, detail).
  bool explains_query_plan() const;

 private:
  friend class Database;
  enum class Kind : uint8_t {
    kSelect,
    kExplain,
    kDml,
    kCreateTable,
    kCreateIndex,
    kCreateView,
    kCreateTrigger,
    kDrop,
    kBegin,
    kCommit,
    kRollback,
    kPragma,
    kReindex
  };
  enum class State : uint8_t { kIdle, kRunning, kDone };

  explicit Statement(Database* db);
  // Plans the statement the first time: with the catalog the connection
  // already has, reading the file's schema only when that plan fails (a
  // table another connection made is then found), as sqlite3_prepare plans
  // without a lock and re-reads the schema only on an error (schemaIsValid).
  // Each run checks the schema cookie under its own transaction.
  Status Compile();
  // Plans again against the current catalog (read first when stale).
  Status Build();
  Status Plan();
  Status Start();
  Status StartPragma();
  Result<bool> StepPrecomputed();
  Status RunOnce();
  // CREATE and DROP, inside RunOnce's write.
  Status RunDdl();
  void Finish();
  Status CheckIndex(int i) const;

  Database* db_;
  std::unique_ptr<sql::Statement> ast_;
  Kind kind_ = Kind::kSelect;
  std::unique_ptr<plan::Program> prog_;
  std::unique_ptr<exec::ExecContext> ctx_;
  std::unique_ptr<exec::DmlRun> dml_;
  exec::SelectRun* select_ = nullptr;
  std::vector<plan::ExplainRow> explain_;
  std::unique_ptr<exec::PragmaResult> pragma_;  // a PRAGMA's rows, computed at its start
  size_t explain_pos_ = 0;                      // next row of EXPLAIN, or of pragma_
  std::vector<Value> explain_row_;
  uint64_t schema_generation_ = 0;
  std::vector<Value> binds_;
  std::vector<std::string> bind_bytes_;
  State state_ = State::kIdle;
  bool holds_read_ = false;
  const Value* row_ = nullptr;
  std::vector<std::string> names_;
  mutable std::vector<std::string> text_;
};

}  // namespace engine
