#include "engine/planner/explain.h"

namespace engine::plan {

namespace {

std::string ColumnName(const catalog::TableInfo& t, int col) {
  if (col < 0 || col == t.rowid_alias) return "rowid";
  return t.columns[static_cast<size_t>(col)].name;
}

class Explainer {
 public:
  explicit Explainer(const Program& prog) : prog_(prog) {
    kind_.assign(prog.selects.size(), "");
    for (const Node& n : prog.nodes) {
      if (n.op == Op::kScalar || n.op == Op::kExists) {
        kind_[static_cast<size_t>(n.src)] = "SCALAR SUBQUERY";
      } else if (n.op == Op::kInSelect) {
        kind_[static_cast<size_t>(n.src)] = "LIST SUBQUERY";
      }
    }
  }

  void Select(int index, int parent) {
    const plan::Select& s = prog_.selects[static_cast<size_t>(index)];
    if (s.cores.size() > 1) {
      const int compound = Add(parent, "COMPOUND QUERY");
      for (size_t i = 0; i < s.cores.size(); ++i) {
        std::string what = "LEFT-MOST SUBQUERY";
        if (i > 0) {
          switch (s.ops[i - 1]) {
            case sql::CompoundOp::kUnion:
              what = "UNION USING TEMP B-TREE";
              break;
            case sql::CompoundOp::kUnionAll:
              what = "UNION ALL";
              break;
            case sql::CompoundOp::kIntersect:
              what = "INTERSECT USING TEMP B-TREE";
              break;
            case sql::CompoundOp::kExcept:
              what = "EXCEPT USING TEMP B-TREE";
              break;
          }
        }
        Core(s.cores[i], Add(compound, what), index);
      }
    } else {
      Core(s.cores[0], parent, index);
    }
    if (s.sort_needed) Add(parent, "USE TEMP B-TREE FOR ORDER BY");
  }

  std::vector<ExplainRow> rows;

 private:
  int Add(int parent, std::string detail) {
    rows.push_back({next_id_, parent, std::move(detail)});
    return next_id_++;
  }

  // `select`: the index of the SELECT the core is of.
  void Core(const plan::Core& core, int parent, int select) {
    if (core.values) {
      Add(parent, "SCAN " + std::to_string(core.value_rows.size()) + "-ROW VALUES CLAUSE");
      return;
    }
    if (core.levels.empty()) Add(parent, "SCAN CONSTANT ROW");
    for (size_t li = 0; li < core.levels.size(); ++li) {
      const Level& lv = core.levels[li];
      if (lv.access == Access::kSubquery || lv.access == Access::kCorrelatedSubquery) {
        // A CTE read twice is materialised once (its plan is shared).
        if (shown_.size() <= static_cast<size_t>(lv.subquery)) shown_.resize(lv.subquery + 1);
        if (!shown_[static_cast<size_t>(lv.subquery)]) {
          shown_[static_cast<size_t>(lv.subquery)] = true;
          const int m = Add(parent, "MATERIALIZE " + lv.display);
          Select(lv.subquery, m);
        }
        Add(parent, "SCAN " + lv.display);
        continue;
      }
      if (lv.access == Access::kRecursive) {
        // Streamed as the outermost loop; SQLite says CO-ROUTINE where it
        // is the only one or the next is an outer or CROSS join.
        const bool coroutine = li == 0 && (core.levels.size() == 1 || core.levels[1].left_join ||
                                           core.levels[1].cross_join);
        const RecursiveCte& rc = prog_.ctes[static_cast<size_t>(lv.subquery)];
        const int m = Add(parent, (coroutine ? "CO-ROUTINE " : "MATERIALIZE ") + rc.name);
        Select(rc.setup, Add(m, "SETUP"));
        Select(rc.step, Add(m, "RECURSIVE STEP"));
        Add(parent, "SCAN " + lv.display);
        continue;
      }
      Add(parent, DescribeLevel(lv));
    }
    if (core.aggregate && !core.group_by.empty()) Add(parent, "USE TEMP B-TREE FOR GROUP BY");
    if (core.distinct) Add(parent, "USE TEMP B-TREE FOR DISTINCT");
    // The subqueries of this SELECT's expressions are listed after its
    // (first) core; one planned outside any SELECT goes with the first.
    for (size_t i = 1; i < prog_.selects.size(); ++i) {
      if (listed_.size() <= i) listed_.resize(i + 1, false);
      if (listed_[i] || kind_[i].empty()) continue;
      const int owner = prog_.selects[i].parent;
      if (owner >= 0 && owner != select) continue;
      listed_[i] = true;
      const plan::Select& s = prog_.selects[i];
      const int sub =
          Add(parent, (s.correlated ? "CORRELATED " : "") + kind_[i] + " " + std::to_string(i));
      Select(static_cast<int>(i), sub);
    }
  }

  const Program& prog_;
  std::vector<std::string> kind_;
  std::vector<bool> listed_;
  std::vector<bool> shown_;  // FROM subqueries already shown as MATERIALIZE
  int next_id_ = 2;
};

}  // namespace

std::string DescribeLevel(const Level& lv) {
  const catalog::TableInfo* t = lv.table;
  switch (lv.access) {
    case Access::kOneRow:
      return "SCAN CONSTANT ROW";
    case Access::kSubquery:
    case Access::kCorrelatedSubquery:
    case Access::kRecursive:
    case Access::kRecursiveRow:
      return "SCAN " + lv.display;
    case Access::kScan:
      if (lv.index != nullptr) {
        return "SCAN " + lv.display + (lv.covering ? " USING COVERING INDEX " : " USING INDEX ") +
               lv.index->name;
      }
      return "SCAN " + lv.display;
    case Access::kRowidEq:
    case Access::kRowidIn:
      return "SEARCH " + lv.display + " USING INTEGER PRIMARY KEY (rowid=?)";
    case Access::kRowidRange: {
      std::string c;
      if (lv.lo >= 0) c = "rowid>?";
      if (lv.hi >= 0) c += std::string(c.empty() ? "" : " AND ") + "rowid<?";
      return "SEARCH " + lv.display + " USING INTEGER PRIMARY KEY (" + c + ")";
    }
    case Access::kIndex: {
      std::string c;
      size_t k = 0;
      for (; k < lv.eq.size(); ++k) {
        if (!c.empty()) c += " AND ";
        c += ColumnName(*t, lv.index->columns[k]) + "=?";
      }
      if (k < lv.index->columns.size()) {
        const std::string name = ColumnName(*t, lv.index->columns[k]);
        if (lv.lo >= 0) c += (c.empty() ? "" : " AND ") + name + ">?";
        if (lv.hi >= 0) c += (c.empty() ? "" : " AND ") + name + "<?";
      }
      std::string out = "SEARCH " + lv.display +
                        (lv.covering ? " USING COVERING INDEX " : " USING INDEX ") + lv.index->name;
      if (!c.empty()) out += " (" + c + ")";
      return out;
    }
  }
  return "SCAN " + lv.display;
}

std::vector<ExplainRow> ExplainQueryPlan(const Program& prog) {
  Explainer e(prog);
  if (prog.dml) {
    if (prog.dml->kind != Dml::Kind::kInsert)
      e.rows.push_back({2, 0, DescribeLevel(prog.dml->level)});
    return e.rows;
  }
  if (!prog.selects.empty()) e.Select(0, 0);
  return e.rows;
}

}  // namespace engine::plan
