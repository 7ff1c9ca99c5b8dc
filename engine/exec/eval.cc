// The expression evaluator: a switch over compiled plan::Nodes. Column
// references read the source's current record in place; TEXT results live in
// the current query's arena until its next row.
#include <algorithm>

#include "engine/exec/exec_context.h"
#include "engine/exec/recursive_cte.h"
#include "engine/func/affinity.h"
#include "engine/func/arith.h"
#include "engine/func/cast.h"
#include "engine/func/like.h"
#include "engine/func/scalar_functions.h"

namespace engine::exec {

using plan::Node;
using plan::Op;

ExecContext::ExecContext(Trees trees, const plan::Program* prog)
    : trees_(trees), prog_(prog), arena_(&base_arena_) {
  sources_.resize(static_cast<size_t>(prog->source_count));
  params_.resize(static_cast<size_t>(prog->parameter_count));
  runs_.resize(prog->selects.size());
  caches_.resize(prog->selects.size());
  recursive_runs_.resize(prog->ctes.size());
}

ExecContext::~ExecContext() = default;

SelectRun* ExecContext::Run(int select_index) {
  auto& r = runs_[static_cast<size_t>(select_index)];
  if (!r) r = std::make_unique<SelectRun>(this, select_index);
  return r.get();
}

RecursiveRun* ExecContext::Recursive(int index) {
  auto& r = recursive_runs_[static_cast<size_t>(index)];
  if (!r) r = std::make_unique<RecursiveRun>(this, index);
  return r.get();
}

Result<int> ExecContext::Truth(int32_t node) {
  Value v;
  ENGINE_RETURN_IF_ERROR(Eval(node, &v));
  return func::TruthValue(v);
}

namespace {

func::CompareOp ToCompare(sql::BinaryOp op) {
  switch (op) {
    case sql::BinaryOp::kEq:
      return func::CompareOp::kEq;
    case sql::BinaryOp::kNe:
      return func::CompareOp::kNe;
    case sql::BinaryOp::kIs:
      return func::CompareOp::kIs;
    case sql::BinaryOp::kIsNot:
      return func::CompareOp::kIsNot;
    case sql::BinaryOp::kLt:
      return func::CompareOp::kLt;
    case sql::BinaryOp::kLe:
      return func::CompareOp::kLe;
    case sql::BinaryOp::kGt:
      return func::CompareOp::kGt;
    default:
      return func::CompareOp::kGe;
  }
}

// A subquery that aggregates points the context at its own groups; the
// enclosing query's group must be current again when it returns.
class GroupScope {
 public:
  explicit GroupScope(ExecContext* ctx)
      : ctx_(ctx), captures_(ctx->group_captures), aggs_(ctx->group_aggs) {}
  ~GroupScope() {
    ctx_->group_captures = captures_;
    ctx_->group_aggs = aggs_;
  }
  GroupScope(const GroupScope&) = delete;
  GroupScope& operator=(const GroupScope&) = delete;

 private:
  ExecContext* ctx_;
  const Value* captures_;
  const Value* aggs_;
};

bool IsComparisonOp(sql::BinaryOp op) {
  return op >= sql::BinaryOp::kEq && op <= sql::BinaryOp::kGe;
}

}  // namespace

Status ExecContext::Eval(int32_t id, Value* out) {
  const Node& n = prog_->node(id);
  switch (n.op) {
    case Op::kConst:
      *out = n.k;
      return Status::OK();
    case Op::kParam:
      *out = params_[static_cast<size_t>(n.col)];
      return Status::OK();
    case Op::kColumn:
      EvalColumn(n, out);
      return Status::OK();
    case Op::kGroupCol:
      *out = group_captures[n.col];
      return Status::OK();
    case Op::kAggRef:
      *out = group_aggs[n.col];
      return Status::OK();
    case Op::kUnary: {
      Value a;
      ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
      *out = func::EvalUnary(static_cast<sql::UnaryOp>(n.sub), a);
      return Status::OK();
    }
    case Op::kBinary: {
      const auto op = static_cast<sql::BinaryOp>(n.sub);
      Value a, b;
      if (op == sql::BinaryOp::kAnd || op == sql::BinaryOp::kOr) {
        ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
        const int ta = func::TruthValue(a);
        // Short-circuit as SQLite does: the right side may be expensive.
        if (op == sql::BinaryOp::kAnd && ta == 0) {
          *out = Value::Integer(0);
          return Status::OK();
        }
        if (op == sql::BinaryOp::kOr && ta == 1) {
          *out = Value::Integer(1);
          return Status::OK();
        }
        ENGINE_RETURN_IF_ERROR(Eval(n.b, &b));
        *out = op == sql::BinaryOp::kAnd ? func::And(a, b) : func::Or(a, b);
        return Status::OK();
      }
      ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
      ENGINE_RETURN_IF_ERROR(Eval(n.b, &b));
      if (IsComparisonOp(op)) {
        func::ApplyComparisonAffinity(n.aff, &a, &b, *arena_);
        *out = func::Compare(ToCompare(op), a, b, plan::CompareCollation(n));
        return Status::OK();
      }
      *out = func::EvalBinary(op, a, b, *arena_);
      return Status::OK();
    }
    case Op::kIsNull: {
      Value a;
      ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
      const bool r = a.is_null() != ((n.flags & Node::kNegated) != 0);
      *out = Value::Integer(r ? 1 : 0);
      return Status::OK();
    }
    case Op::kBetween: {
      Value a, lo, hi;
      ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
      ENGINE_RETURN_IF_ERROR(Eval(n.b, &lo));
      ENGINE_RETURN_IF_ERROR(Eval(n.c, &hi));
      Value a1 = a, a2 = a;
      func::ApplyComparisonAffinity(n.aff, &a1, &lo, *arena_);
      func::ApplyComparisonAffinity(n.aff, &a2, &hi, *arena_);
      const Value ge = func::Compare(func::CompareOp::kGe, a1, lo, plan::CompareCollation(n));
      const Value le =
          func::Compare(func::CompareOp::kLe, a2, hi, static_cast<func::Collation>(n.sub));
      Value r = func::And(ge, le);
      if (n.flags & Node::kNegated) r = func::Not(r);
      *out = r;
      return Status::OK();
    }
    case Op::kLike: {
      Value a, p, e;
      ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
      ENGINE_RETURN_IF_ERROR(Eval(n.b, &p));
      Result<Value> r = Value();
      if (static_cast<sql::LikeOp>(n.sub) == sql::LikeOp::kGlob) {
        r = func::Glob(a, p, *arena_);
      } else {
        if (n.c >= 0) ENGINE_RETURN_IF_ERROR(Eval(n.c, &e));
        r = func::Like(a, p, n.c >= 0 ? &e : nullptr, *arena_);
      }
      if (!r.ok()) return r.status();
      *out = (n.flags & Node::kNegated) ? func::Not(*r) : *r;
      return Status::OK();
    }
    case Op::kInList:
      return EvalIn(n, out);
    case Op::kInSelect:
      return EvalInSelect(n, out);
    case Op::kExists:
    case Op::kScalar:
      return EvalSubquery(n, out);
    case Op::kCase:
      return EvalCase(n, out);
    case Op::kCast: {
      Value a;
      ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
      *out = func::CastValue(a, n.aff, *arena_);
      return Status::OK();
    }
    case Op::kFunction:
      return EvalFunction(n, out);
    case Op::kRaise:
      raised = static_cast<sql::ConflictAction>(n.sub);
      return Status::Constraint(std::string(n.k.as_text()));
  }
  return Status::SqlError("bad expression");
}

Status ExecContext::EvalIn(const Node& n, Value* out) {
  Value a;
  ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
  const bool negated = (n.flags & Node::kNegated) != 0;
  if (n.nlist == 0) {
    *out = Value::Integer(negated ? 1 : 0);
    return Status::OK();
  }
  if (a.is_null()) {
    *out = Value::Null();
    return Status::OK();
  }
  bool saw_null = false;
  for (uint32_t i = 0; i < n.nlist; ++i) {
    Value x;
    ENGINE_RETURN_IF_ERROR(Eval(prog_->lists[n.list + i], &x));
    if (x.is_null()) {
      saw_null = true;
      continue;
    }
    Value l = a;
    // The left operand's affinity governs IN (SQLite's sqlite3ExprAffinity).
    const func::Affinity aff = func::ComparisonAffinity(n.aff, func::Affinity::kNone);
    func::ApplyComparisonAffinity(aff, &l, &x, *arena_);
    if (func::CompareCollated(l, x, plan::CompareCollation(n)) == 0) {
      *out = Value::Integer(negated ? 0 : 1);
      return Status::OK();
    }
  }
  *out = saw_null ? Value::Null() : Value::Integer(negated ? 1 : 0);
  return Status::OK();
}

Status ExecContext::EvalInSelect(const Node& n, Value* out) {
  Value a;
  ENGINE_RETURN_IF_ERROR(Eval(n.a, &a));
  const bool negated = (n.flags & Node::kNegated) != 0;
  const func::Collation coll = plan::CompareCollation(n);
  const plan::Select& sel = prog_->selects[static_cast<size_t>(n.src)];
  auto& cache = caches_[static_cast<size_t>(n.src)];
  if (!cache) cache = std::make_unique<Cache>();
  if (sel.correlated || cache->generation != generation_) {
    GroupScope keep(this);
    SelectRun* run = Run(n.src);
    RowStore& rows = cache->rows;
    rows.Reset(1);
    ENGINE_RETURN_IF_ERROR(run->Materialize(&rows));
    cache->has_null = false;
    std::vector<Value> vals;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Value& v = rows.row(i)[0];
      if (v.is_null()) {
        cache->has_null = true;
      } else {
        vals.push_back(v);
      }
    }
    std::sort(vals.begin(), vals.end(), [coll](const Value& x, const Value& y) {
      return func::CompareCollated(x, y, coll) < 0;
    });
    // The values still point into the store's arena; write them back sorted.
    RowStore& store = rows;
    for (size_t i = 0; i < vals.size(); ++i) store.mutable_row(i)[0] = vals[i];
    for (size_t i = vals.size(); i < store.size();) store.RemoveLast();
    cache->generation = generation_;
  }
  const RowStore& rows = cache->rows;
  if (rows.size() == 0 && !cache->has_null) {
    *out = Value::Integer(negated ? 1 : 0);
    return Status::OK();
  }
  if (a.is_null()) {
    *out = Value::Null();
    return Status::OK();
  }
  Value probe = a;
  Value dummy;
  if (n.aff != func::Affinity::kNone && n.aff != func::Affinity::kBlob) {
    func::ApplyComparisonAffinity(n.aff, &probe, &dummy, *arena_);
  }
  size_t lo = 0, hi = rows.size();
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (func::CompareCollated(rows.row(mid)[0], probe, coll) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  bool found = lo < rows.size() && func::CompareCollated(rows.row(lo)[0], probe, coll) == 0;
  if (!found && n.aff != func::Affinity::kNone && n.aff != func::Affinity::kBlob) {
    // Affinity may also convert the subquery's values; check them one by one.
    for (size_t i = 0; i < rows.size() && !found; ++i) {
      Value l = a, r = rows.row(i)[0];
      func::ApplyComparisonAffinity(n.aff, &l, &r, *arena_);
      found = func::CompareCollated(l, r, coll) == 0;
    }
  }
  if (found) {
    *out = Value::Integer(negated ? 0 : 1);
  } else {
    *out = cache->has_null ? Value::Null() : Value::Integer(negated ? 1 : 0);
  }
  return Status::OK();
}

Status ExecContext::EvalSubquery(const Node& n, Value* out) {
  const plan::Select& sel = prog_->selects[static_cast<size_t>(n.src)];
  auto& cache = caches_[static_cast<size_t>(n.src)];
  if (!cache) cache = std::make_unique<Cache>();
  if (!sel.correlated && cache->generation == generation_) {
    *out = n.op == Op::kExists ? Value::Integer(cache->exists ? 1 : 0) : cache->scalar;
    return Status::OK();
  }
  GroupScope keep(this);
  SelectRun* run = Run(n.src);
  ENGINE_RETURN_IF_ERROR(run->Open());
  ENGINE_ASSIGN_OR_RETURN(bool has, run->Next());
  Value v;
  if (has && n.op == Op::kScalar) v = run->row()[0];
  if (!sel.correlated) {
    // Keep the value beyond the subquery's next run.
    cache->rows.Reset(1);
    cache->rows.Add(&v);
    cache->scalar = cache->rows.row(0)[0];
    cache->exists = has;
    cache->generation = generation_;
    v = cache->scalar;
  } else {
    v = arena_->Copy(v);
  }
  run->Close();
  *out = n.op == Op::kExists ? Value::Integer(has ? 1 : 0) : v;
  return Status::OK();
}

Status ExecContext::EvalCase(const Node& n, Value* out) {
  const int32_t* list = prog_->lists.data() + n.list;
  Value base;
  if (n.a >= 0) ENGINE_RETURN_IF_ERROR(Eval(n.a, &base));
  for (uint32_t i = 0; i + 1 < n.nlist; i += 2) {
    Value w;
    ENGINE_RETURN_IF_ERROR(Eval(list[i], &w));
    bool hit;
    if (n.a >= 0) {
      const func::Collation coll = n.col >= 0
                                       ? prog_->case_collations[static_cast<size_t>(n.col)][i / 2]
                                       : plan::CompareCollation(n);
      hit = func::TruthValue(func::Compare(func::CompareOp::kEq, base, w, coll)) == 1;
    } else {
      hit = func::TruthValue(w) == 1;
    }
    if (hit) return Eval(list[i + 1], out);
  }
  if (n.b >= 0) return Eval(n.b, out);
  *out = Value::Null();
  return Status::OK();
}

Status ExecContext::EvalFunction(const Node& n, Value* out) {
  Value small[8];
  std::vector<Value> big;
  Value* args = small;
  if (n.nlist > 8) {
    big.resize(n.nlist);
    args = big.data();
  }
  for (uint32_t i = 0; i < n.nlist; ++i) {
    ENGINE_RETURN_IF_ERROR(Eval(prog_->lists[n.list + i], &args[i]));
  }
  const func::ScalarFunction& fn = func::ScalarFunctionsBegin()[n.col];
  if (n.flags & Node::kCmpMask) {
    return fn.collated(args, static_cast<int>(n.nlist), plan::CompareCollation(n), *arena_, out);
  }
  return fn.fn(args, static_cast<int>(n.nlist), *arena_, out);
}

}  // namespace engine::exec
