#include "engine/exec/trigger_run.h"

#include "engine/exec/dml_run.h"
#include "engine/exec/exec_context.h"
#include "engine/planner/planner.h"
#include "engine/sql/parser.h"

namespace engine::exec {

using Event = sql::CreateTriggerStmt::Event;

struct TriggerRun::Step {
  std::unique_ptr<sql::Statement> ast;
  std::unique_ptr<plan::Program> prog;
  std::unique_ptr<ExecContext> ctx;
  std::unique_ptr<DmlRun> dml;  // null: a SELECT, run for its effects
  bool triggers_ready = false;  // dml's own triggers are prepared on first use
};

struct TriggerRun::Program {
  const catalog::TriggerInfo* info = nullptr;
  Timing timing = Timing::kBefore;
  std::unique_ptr<sql::Statement> def;
  std::unique_ptr<plan::Program> when_prog;
  std::unique_ptr<ExecContext> when_ctx;
  int32_t when = -1;
  std::vector<Step> steps;
  TriggerFrame frame;
};

TriggerRun::~TriggerRun() = default;

namespace {

Event EventOf(plan::Dml::Kind k) {
  switch (k) {
    case plan::Dml::Kind::kInsert:
      return Event::kInsert;
    case plan::Dml::Kind::kUpdate:
      return Event::kUpdate;
    case plan::Dml::Kind::kDelete:
      break;
  }
  return Event::kDelete;
}

// UPDATE OF a, b fires only when the statement sets one of them.
bool Overlaps(const catalog::TriggerInfo& t, const catalog::TableInfo& table,
              const plan::Dml& dml) {
  if (t.columns.empty()) return true;
  for (const std::string& name : t.columns) {
    const int c = table.FindColumn(name);
    for (const auto& set : dml.sets) {
      if (set.first == c || (set.first < 0 && c >= 0 && c == table.rowid_alias)) return true;
    }
  }
  return false;
}

bool Running(const TriggerFrame* chain, const catalog::TriggerInfo* t) {
  for (const TriggerFrame* f = chain; f != nullptr; f = f->parent) {
    if (f->trigger == t) return true;
  }
  return false;
}

// An error of a trigger's text has no place in the firing statement's (no
// offset), and a main trigger's body names the tables of main, as sqlite3
// says ("no such table: main.x"); a TEMP trigger's names any database's.
Status InTriggerSchema(Status st, const catalog::TriggerInfo& info) {
  if (st.ok()) return st;
  if (info.db == catalog::Db::kTemp) return Status(st).WithOffset(-1);
  const std::string prefix = "no such table: ";
  const std::string& msg = st.message();
  if (msg.rfind(prefix, 0) != 0 || msg.rfind(prefix + "main.", 0) == 0) {
    return Status(st).WithOffset(-1);
  }
  return Status::SqlError(prefix + "main." + msg.substr(prefix.size()));
}

catalog::DbScope BodyScope(const catalog::TriggerInfo& info) {
  return info.db == catalog::Db::kMain ? catalog::DbScope::kMain : catalog::DbScope::kAny;
}

}  // namespace

Result<std::unique_ptr<TriggerRun>> TriggerRun::Prepare(const catalog::Schema* schema,
                                                        const Trees& trees, const plan::Dml& dml,
                                                        const TriggerFrame* parent) {
  const catalog::TableInfo& table = *dml.table;
  const Event event = EventOf(dml.kind);
  std::unique_ptr<TriggerRun> run(new TriggerRun());
  run->schema_ = schema;
  run->table_ = &table;
  const bool has_old = event != Event::kInsert;
  const bool has_new = event != Event::kDelete;
  for (const catalog::TriggerInfo* info : table.triggers) {
    if (info->event != event || !Overlaps(*info, table, dml)) continue;
    // INSTEAD OF triggers belong to views, the others to tables.
    if ((info->timing == Timing::kInsteadOf) != (dml.view != nullptr)) continue;
    if (Running(parent, info)) continue;  // recursive_triggers is off
    auto p = std::make_unique<Program>();
    p->info = info;
    p->timing = info->timing;
    p->frame = {parent, info, parent != nullptr ? parent->depth + 1 : 1};
    auto def = sql::ParseStatement(info->sql);
    if (!def.ok()) return def.status();
    p->def = std::make_unique<sql::Statement>(std::move(*def));
    const auto* ct = p->def->as<sql::CreateTriggerStmt>();
    if (ct == nullptr) return Status::Corruption("malformed database schema (" + info->name + ")");
    if (ct->when != sql::kNoExpr) {
      p->when_prog = std::make_unique<plan::Program>();
      plan::Planner planner(*schema, p->when_prog.get());
      planner.SetTriggerRow(&table, has_old, has_new);
      planner.SetDefaultScope(BodyScope(*info));
      auto when = planner.CompileExpr(p->def->ast, ct->when, nullptr);
      if (!when.ok()) return InTriggerSchema(when.status(), *info);
      p->when = *when;
      p->when_ctx = std::make_unique<ExecContext>(trees, p->when_prog.get());
    }
    for (const std::string& text : ct->body) {
      Step step;
      auto parsed = sql::ParseStatement(text);
      if (!parsed.ok()) return InTriggerSchema(parsed.status(), *info);
      step.ast = std::make_unique<sql::Statement>(std::move(*parsed));
      step.prog = std::make_unique<plan::Program>();
      plan::Planner planner(*schema, step.prog.get());
      planner.SetTriggerRow(&table, has_old, has_new);
      planner.SetDefaultScope(BodyScope(*info));
      const sql::Statement& st = *step.ast;
      Status planned;
      if (const auto* sel = st.as<sql::SelectStmt>()) {
        planned = planner.PlanSelect(st.ast, sel->select, nullptr).status();
      } else if (const auto* ins = st.as<sql::InsertStmt>()) {
        planned = planner.PlanInsert(st.ast, *ins);
      } else if (const auto* upd = st.as<sql::UpdateStmt>()) {
        planned = planner.PlanUpdate(st.ast, *upd);
      } else if (const auto* del = st.as<sql::DeleteStmt>()) {
        planned = planner.PlanDelete(st.ast, *del);
      } else {
        planned = Status::SqlError("malformed trigger " + info->name);
      }
      ENGINE_RETURN_IF_ERROR(InTriggerSchema(planned, *info));
      // The statement's OR clause overrides the body's own, as in SQLite.
      if (step.prog->dml && dml.conflict != sql::ConflictAction::kDefault) {
        step.prog->dml->conflict = dml.conflict;
      }
      step.ctx = std::make_unique<ExecContext>(trees, step.prog.get());
      if (step.prog->dml) step.dml = std::make_unique<DmlRun>(step.ctx.get(), step.prog->dml.get());
      p->steps.push_back(std::move(step));
    }
    (p->timing == Timing::kAfter ? run->after_ : run->before_) = true;
    run->programs_.push_back(std::move(p));
  }
  if (run->programs_.empty()) return std::unique_ptr<TriggerRun>();
  return run;
}

Status TriggerRun::Fire(Timing t, const Value* old_row, const Value* new_row, bool* ignore,
                        sql::ConflictAction* failed) {
  *ignore = false;
  *failed = sql::ConflictAction::kAbort;
  const size_t width = table_->columns.size() + 1;
  // The row's values are copied: the body may rewrite the pages they view.
  joined_.assign(2 * width, Value::Null());
  for (size_t i = 0; i < width; ++i) {
    if (old_row != nullptr) joined_[i] = old_row[i];
    if (new_row != nullptr) joined_[width + i] = new_row[i];
  }
  params_.Reset(static_cast<int>(2 * width));
  params_.Add(joined_.data());
  const Value* params = params_.row(0);
  for (const auto& p : programs_) {
    if (p->timing != t) continue;
    if (p->frame.depth > kMaxTriggerDepth) {
      return Status::SqlError("too many levels of trigger recursion");
    }
    if (p->when >= 0) {
      ExecContext& ctx = *p->when_ctx;
      ctx.NewExecution();
      ctx.params().assign(params, params + 2 * width);
      ctx.raised = sql::ConflictAction::kDefault;
      ctx.arena().Reset();
      Result<int> truth = ctx.Truth(p->when);
      if (!truth.ok()) {
        if (ctx.raised == sql::ConflictAction::kIgnore) {
          *ignore = true;
          return Status::OK();
        }
        if (ctx.raised != sql::ConflictAction::kDefault) *failed = ctx.raised;
        return truth.status();
      }
      if (*truth != 1) continue;
    }
    for (Step& step : p->steps) {
      ExecContext& ctx = *step.ctx;
      ctx.NewExecution();
      ctx.params().assign(params, params + 2 * width);
      ctx.raised = sql::ConflictAction::kDefault;
      ctx.ignore_checks = ignore_checks_;
      Status st;
      if (step.dml) {
        if (!step.triggers_ready) {
          st = step.dml->PrepareTriggers(schema_, &p->frame);
          step.triggers_ready = st.ok();
        }
        // A body's writes count in neither changes() nor last_insert_rowid().
        int64_t changes = 0, last_rowid = 0;
        if (st.ok()) st = step.dml->Execute(&changes, &last_rowid);
      } else {
        SelectRun* run = ctx.Run(0);
        st = run->Open();
        while (st.ok()) {
          Result<bool> r = run->Next();
          if (!r.ok()) st = r.status();
          if (!r.ok() || !*r) break;
        }
        run->Close();
      }
      if (st.ok()) continue;
      if (ctx.raised == sql::ConflictAction::kIgnore) {
        *ignore = true;
        return Status::OK();
      }
      if (ctx.raised != sql::ConflictAction::kDefault) {
        *failed = ctx.raised;
      } else if (step.dml) {
        *failed = step.dml->failed_action();
      }
      return st;
    }
  }
  return Status::OK();
}

}  // namespace engine::exec
