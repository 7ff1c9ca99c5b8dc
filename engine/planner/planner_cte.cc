// Common table expressions: WITH clauses as name scopes, a CTE reference as
// a FROM item, and recursive CTEs split into their setup and step selects.
//
// A CTE's body is planned where it is first referenced (an unused CTE is
// never checked, as in SQLite), with the names visible at its WITH: the
// WITH's own CTEs and those of the enclosing WITHs, never those of a WITH
// nested around the reference. While a body is being planned its name
// resolves to an error (SQLite's zCteErr): "circular reference" in a plain
// body or a recursive CTE's setup, "multiple recursive references" in the
// step, where only the step's direct FROM references are the recursive row.
#include <algorithm>
#include <optional>

#include "engine/planner/planner.h"

namespace engine::plan {

using catalog::EqualsNoCase;

namespace {

// Deeper chains of CTE bodies planned inside each other (c2 reads c1, which
// reads c0, ...) are refused: each level costs about 2 KB of planner stack,
// and 500 stay well within a 2 MB thread stack. sqlite3 has no such limit.
constexpr int kMaxCteDepth = 500;

// The FROM items of `refs` (into parenthesised joins) that name `name`
// without a schema: a recursive term's references to its own CTE.
void DirectRefs(const std::vector<sql::TableRef>& refs, const std::string& name,
                std::vector<const sql::TableRef*>* out) {
  for (const sql::TableRef& r : refs) {
    if (r.kind == sql::TableRef::Kind::kGroup) {
      DirectRefs(r.group, name, out);
    } else if (r.kind == sql::TableRef::Kind::kTable && r.schema.empty() &&
               EqualsNoCase(r.name, name)) {
      out->push_back(&r);
    }
  }
}

// The result column count of a core when it can be told without planning
// (no `*`), else -1.
int PlainWidth(const sql::SelectCore& core) {
  if (core.is_values()) return static_cast<int>(core.values[0].size());
  for (const sql::ResultColumn& rc : core.columns) {
    if (rc.kind != sql::ResultColumn::Kind::kExpr) return -1;
  }
  return static_cast<int>(core.columns.size());
}

Status WidthError(const sql::CommonTableExpr& cte, int width) {
  return Status::SqlError("table " + cte.name + " has " + std::to_string(width) + " values for " +
                          std::to_string(cte.columns.size()) + " columns");
}

}  // namespace

int Planner::EnterWith(const sql::Ast& ast, int32_t with, const Scope* outer) {
  const int saved = cte_top_;
  if (with < 0) return saved;
  auto frame = std::make_unique<CteFrame>();
  frame->ast = &ast;
  frame->with = &ast.withs[static_cast<size_t>(with)];
  frame->parent = cte_top_;
  frame->outer = outer;
  frame->states.resize(frame->with->ctes.size());
  cte_frames_.push_back(std::move(frame));
  cte_top_ = static_cast<int>(cte_frames_.size() - 1);
  return saved;
}

Result<int> Planner::PlanSelect(const sql::Ast& ast, sql::SelectId id, const Scope* outer) {
  const sql::Select& s = ast.select(id);
  const int saved = EnterWith(ast, s.with, outer);
  Result<int> r = PlanSelectBody(ast, s, outer);
  LeaveWith(saved);
  return r;
}

void Planner::MarkCorrelated(const Scope* scope, const std::vector<int>& refs) {
  for (int src : refs) {
    for (const Scope* t = scope; t != nullptr; t = t->parent) {
      bool owns = false;
      for (const ScopeItem& it : t->items) owns |= it.src == src;
      if (owns) break;
      if (t->select != nullptr) {
        t->select->correlated = true;
        t->select->outer_refs.push_back(src);
      }
    }
  }
}

Result<bool> Planner::ResolveCte(const sql::TableRef& ref, const Scope* scope, ScopeItem* item,
                                 Level* level) {
  int f = cte_top_;
  size_t i = 0;
  for (; f >= 0; f = cte_frames_[static_cast<size_t>(f)]->parent) {
    const auto& ctes = cte_frames_[static_cast<size_t>(f)]->with->ctes;
    for (i = 0; i < ctes.size(); ++i) {
      if (EqualsNoCase(ctes[i].name, ref.name)) break;
    }
    if (i < ctes.size()) break;
  }
  if (f < 0) return false;
  CteFrame& frame = *cte_frames_[static_cast<size_t>(f)];
  const sql::CommonTableExpr& cte = frame.with->ctes[i];
  item->name = ref.alias.empty() ? cte.name : ref.alias;
  item->hidden_rowid = false;
  level->display = item->name;
  {
    CteFrame::State& st = frame.states[i];
    if (std::find(st.recursive_refs.begin(), st.recursive_refs.end(), &ref) !=
        st.recursive_refs.end()) {
      const RecursiveCte& rc = prog_->ctes[static_cast<size_t>(st.recursive)];
      const Select& setup = prog_->selects[static_cast<size_t>(rc.setup)];
      item->columns = cte.columns.empty() ? setup.names : cte.columns;
      item->affinities = st.affinities;
      for (const CollationOf& c : setup.collations) item->collations.push_back(c.coll);
      level->access = Access::kRecursiveRow;
      level->subquery = st.recursive;
      return true;
    }
    if (st.error != nullptr) return Status::SqlError(st.error + cte.name);
  }
  if (cte_depth_ >= kMaxCteDepth) {
    return Status::SqlError("too many levels of nesting in common table expression " + cte.name);
  }
  const sql::Ast& ast = *frame.ast;
  const sql::Select& body = ast.select(cte.select);
  // The recursive terms: the last ones joined by the same UNION or UNION ALL
  // that name the CTE in their FROM (SQLite's rule; one reference each).
  size_t first_recursive = body.cores.size();
  const size_t n = body.cores.size();
  if (n > 1 && (body.ops.back() == sql::CompoundOp::kUnion ||
                body.ops.back() == sql::CompoundOp::kUnionAll)) {
    for (size_t k = n - 1; k >= 1 && body.ops[k - 1] == body.ops.back(); --k) {
      std::vector<const sql::TableRef*> term;
      DirectRefs(body.cores[k].from, cte.name, &term);
      if (term.size() > 1) {
        return Status::SqlError("multiple references to recursive table: " + cte.name);
      }
      if (term.empty()) break;
      first_recursive = k;
    }
  }
  if (!cte.columns.empty() && first_recursive == n) {
    const int width = PlainWidth(body.cores[0]);
    if (width >= 0 && static_cast<size_t>(width) != cte.columns.size()) {
      return WidthError(cte, width);
    }
  }
  const int saved_top = cte_top_;
  cte_top_ = f;
  ++cte_depth_;
  Status planned;
  if (first_recursive == n) {
    int sel = frame.states[i].select;
    // A CTE read a second time is materialised by SQLite (unless NOT
    // MATERIALIZED), which applies the columns' affinities.
    if (sel >= 0 && cte.materialized != sql::CommonTableExpr::Materialized::kNo) {
      prog_->selects[static_cast<size_t>(sel)].store_affinity = true;
    }
    if (sel < 0) {
      frame.states[i].error = "circular reference: ";
      Result<int> r = PlanSelect(ast, cte.select, frame.outer);
      frame.states[i].error = nullptr;
      planned = r.status();
      if (r.ok()) {
        frame.states[i].select = sel = *r;
        prog_->selects[static_cast<size_t>(sel)].store_affinity =
            cte.materialized == sql::CommonTableExpr::Materialized::kYes;
      }
    }
    if (planned.ok()) {
      const Select& s = prog_->selects[static_cast<size_t>(sel)];
      if (!cte.columns.empty() && cte.columns.size() != static_cast<size_t>(s.visible)) {
        planned = WidthError(cte, s.visible);
      } else {
        item->columns = cte.columns.empty() ? s.names : cte.columns;
        item->affinities = s.affinities;
        for (const CollationOf& c : s.collations) item->collations.push_back(c.coll);
        MarkCorrelated(scope, s.outer_refs);
        level->subquery = sel;
        level->access = s.correlated ? Access::kCorrelatedSubquery : Access::kSubquery;
      }
    }
  } else {
    int index = -1;
    planned = PlanRecursiveCte(f, i, first_recursive, &index);
    if (planned.ok()) {
      const RecursiveCte& rc = prog_->ctes[static_cast<size_t>(index)];
      item->columns =
          cte.columns.empty() ? prog_->selects[static_cast<size_t>(rc.setup)].names : cte.columns;
      item->affinities = frame.states[i].affinities;
      item->collations = rc.collations;
      MarkCorrelated(scope, prog_->selects[static_cast<size_t>(rc.setup)].outer_refs);
      MarkCorrelated(scope, prog_->selects[static_cast<size_t>(rc.step)].outer_refs);
      level->subquery = index;
      level->access = Access::kRecursive;
    }
  }
  --cte_depth_;
  cte_top_ = saved_top;
  ENGINE_RETURN_IF_ERROR(planned);
  return true;
}

Status Planner::PlanRecursiveCte(int f, size_t i, size_t first_recursive, int* index) {
  CteFrame& frame = *cte_frames_[static_cast<size_t>(f)];
  const sql::CommonTableExpr& cte = frame.with->ctes[i];
  const sql::Ast& ast = *frame.ast;
  const sql::Select& body = ast.select(cte.select);
  // The setup: the terms before the recursive ones, as a select of their
  // own; the step: the recursive terms, UNION ALL among themselves (the
  // queue's distinct set does what their UNION would).
  sql::Select setup;
  setup.cores.assign(body.cores.begin(), body.cores.begin() + static_cast<long>(first_recursive));
  setup.ops.assign(body.ops.begin(), body.ops.begin() + static_cast<long>(first_recursive - 1));
  sql::Select step;
  step.cores.assign(body.cores.begin() + static_cast<long>(first_recursive), body.cores.end());
  step.ops.assign(step.cores.size() - 1, sql::CompoundOp::kUnionAll);
  const int saved = EnterWith(ast, body.with, frame.outer);
  CteFrame::State* st = &cte_frames_[static_cast<size_t>(f)]->states[i];
  RecursiveCte rc;
  rc.distinct = body.ops.back() == sql::CompoundOp::kUnion;
  rc.name = cte.name;
  st->error = "circular reference: ";
  Result<int> setup_index = PlanSelectBody(ast, setup, frame.outer);
  auto finish = [&](Status s) {
    st = &cte_frames_[static_cast<size_t>(f)]->states[i];
    st->error = nullptr;
    st->recursive_refs.clear();
    LeaveWith(saved);
    return s;
  };
  if (!setup_index.ok()) return finish(setup_index.status());
  rc.setup = *setup_index;
  {
    const Select& s = prog_->selects[static_cast<size_t>(rc.setup)];
    if (!cte.columns.empty() && cte.columns.size() != static_cast<size_t>(s.visible)) {
      return finish(WidthError(cte, s.visible));
    }
    rc.width = s.visible;
    rc.affinities = s.affinities;
    st->affinities = s.affinities;
  }
  *index = static_cast<int>(prog_->ctes.size());
  prog_->ctes.push_back(rc);
  st->recursive = *index;
  st->error = "multiple recursive references: ";
  for (const sql::SelectCore& core : step.cores)
    DirectRefs(core.from, cte.name, &st->recursive_refs);
  Result<int> step_index = PlanSelectBody(ast, step, frame.outer);
  if (!step_index.ok()) return finish(step_index.status());
  RecursiveCte& out = prog_->ctes[static_cast<size_t>(*index)];
  out.step = *step_index;
  const Select& setup_plan = prog_->selects[static_cast<size_t>(out.setup)];
  const Select& step_plan = prog_->selects[static_cast<size_t>(out.step)];
  if (step_plan.visible != setup_plan.visible) {
    return finish(Status::SqlError(std::string("SELECTs to the left and right of ") +
                                   CompoundName(body.ops[first_recursive - 1]) +
                                   " do not have the same number of result columns"));
  }
  for (const Core& core : step_plan.cores) {
    if (core.aggregate)
      return finish(Status::SqlError("recursive aggregate queries not supported"));
  }
  // The first term's (left to right) that has one: the setup's, else the step's.
  out.collations.assign(static_cast<size_t>(setup_plan.visible), func::Collation::kBinary);
  for (size_t c = 0; c < out.collations.size(); ++c) {
    CollationOf pick = setup_plan.collations[c];
    if (pick.source == CollationOf::Source::kNone && c < step_plan.collations.size()) {
      pick = step_plan.collations[c];
    }
    out.collations[c] = pick.coll;
  }
  // ORDER BY names result columns, as on any compound select; it orders
  // the queue instead of the output.
  for (size_t k = 0; k < body.order_by.size(); ++k) {
    std::optional<func::Collation> explicit_coll;
    Result<int> term =
        OrderTermColumn(ast, body.order_by[k].expr, k, setup_plan, true, &explicit_coll);
    // sqlite3 finds no result column for a name under an unknown collation
    // here (a number still gets "no such collation sequence").
    sql::ExprId target = body.order_by[k].expr;
    while (ast.expr(target).kind == sql::ExprKind::kCollate) target = ast.expr(target).left;
    const bool named = ast.expr(target).kind != sql::ExprKind::kInteger;
    if (!term.ok() && !(named && term.status().message().starts_with("no such collation"))) {
      return finish(term.status());
    }
    const int col = term.ok() ? *term : -1;
    if (col < 0) {
      return finish(Status::SqlError(OrdinalText(k) +
                                     " ORDER BY term does not match any column in the result set"));
    }
    const func::Collation coll =
        explicit_coll ? *explicit_coll : out.collations[static_cast<size_t>(col)];
    out.order.push_back({col, body.order_by[k].order == sql::SortOrder::kDesc, coll});
  }
  if (body.limit != sql::kNoExpr) {
    Result<int32_t> limit = Compile(ast, body.limit, nullptr);
    if (!limit.ok()) return finish(limit.status());
    prog_->ctes[static_cast<size_t>(*index)].limit = *limit;
  }
  if (body.offset != sql::kNoExpr) {
    Result<int32_t> offset = Compile(ast, body.offset, nullptr);
    if (!offset.ok()) return finish(offset.status());
    prog_->ctes[static_cast<size_t>(*index)].offset = *offset;
  }
  return finish(Status::OK());
}

}  // namespace engine::plan
