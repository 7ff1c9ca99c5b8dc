// Row triggers at run time. A DML statement on a table with triggers holds a
// TriggerRun: per trigger that its event fires, the WHEN clause and each body
// statement planned as its own program (NEW.x / OLD.x are parameters of it),
// run once per row before or after the row's write. Statements on tables
// without triggers hold none and pay nothing.
//
// SQLite's rules kept here: the newest trigger fires first; a trigger whose
// program is already running up the chain does not fire again
// (recursive_triggers is off); RAISE(IGNORE) abandons the row's remaining
// programs and the row itself; any other error, RAISE(ABORT|FAIL|ROLLBACK)
// or a constraint in a body, fails the statement with that action; an OR
// clause of the statement overrides the body statements' own.
#pragma once

#include <memory>
#include <vector>

#include "engine/catalog/schema.h"
#include "engine/exec/row_store.h"
#include "engine/exec/trees.h"
#include "engine/planner/plan.h"
#include "engine/sql/ast.h"
#include "engine/status.h"

namespace engine {
class BTree;
}

namespace engine::exec {

// The trigger programs running, innermost first.
struct TriggerFrame {
  const TriggerFrame* parent = nullptr;
  const catalog::TriggerInfo* trigger = nullptr;
  int depth = 0;
};

inline constexpr int kMaxTriggerDepth = 1000;  // SQLite's SQLITE_MAX_TRIGGER_DEPTH

class TriggerRun {
 public:
  using Timing = sql::CreateTriggerStmt::Timing;

  // The triggers `dml` fires on its table, planned; null when it fires none.
  // Errors are the body's, as sqlite3 reports them when preparing the
  // statement ("no such column: new.x").
  static Result<std::unique_ptr<TriggerRun>> Prepare(const catalog::Schema* schema,
                                                     const Trees& trees, const plan::Dml& dml,
                                                     const TriggerFrame* parent);
  ~TriggerRun();

  // (A view's INSTEAD OF triggers count as BEFORE: they are all it has.)
  bool has(Timing t) const { return t == Timing::kAfter ? after_ : before_; }
  // Fires the triggers of timing `t` for one row. old_row / new_row: the
  // row's values in table order then its rowid, or null where the event has
  // none. *ignore: a RAISE(IGNORE) ended the row. On error *failed is the
  // conflict action the failure carries.
  Status Fire(Timing t, const Value* old_row, const Value* new_row, bool* ignore,
              sql::ConflictAction* failed);
  // PRAGMA ignore_check_constraints for the body statements' writes: the
  // firing statement's.
  void set_ignore_checks(bool ignore) { ignore_checks_ = ignore; }

 private:
  struct Step;
  struct Program;
  TriggerRun() = default;

  const catalog::Schema* schema_ = nullptr;
  const catalog::TableInfo* table_ = nullptr;
  std::vector<std::unique_ptr<Program>> programs_;
  bool before_ = false, after_ = false;
  bool ignore_checks_ = false;
  RowStore params_;  // OLD then NEW of the row firing, owned
  std::vector<Value> joined_;
};

}  // namespace engine::exec
