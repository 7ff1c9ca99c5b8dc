// Join ordering: the loops of a SELECT core in the order of least estimated
// cost, found as SQLite's "next generation query planner" finds it — a
// bounded N-best search over join prefixes, each extended by every table
// not yet in it, with each table's access path chosen (by ChooseAccess, the
// same code that plans the final loop) from the conjuncts that the tables
// already in the prefix make usable.
//
// Estimates follow SQLite's without ANALYZE: every table is assumed to hold
// about a million rows; a rowid or full unique-key equality yields one row,
// an index equality prefix about ten, each range bound a quarter; a seek
// costs about as much as reading twenty rows. The numbers only have to rank
// plans: an equality seek beats a scan inside a loop by orders of magnitude.
//
// Only a leading run of inner-joined tables is reordered: a LEFT JOIN's
// right side must stay inside its left side (and SQLite keeps every later
// table after it too), a CROSS JOIN fixes the order by definition, and a
// FROM subquery ends the run as well (it has no access paths to compare).
// When no order is strictly cheaper than the FROM order, that order stays.
#include <algorithm>
#include <cmath>

#include "engine/planner/planner.h"

namespace engine::plan {
namespace {

constexpr double kTableRows = 1048576.0;  // SQLite's default nRowLogEst (200)
constexpr double kSeekCost = 20.0;        // ~log2 of the table's size
constexpr double kCostCap = 1e300;        // products of row counts overflow past 64 loops
constexpr size_t kPathsKept = 10;         // SQLite's mxChoice for three tables or more

struct Estimate {
  double rows = 1;  // rows the loop yields per outer row
  double cost = 1;  // work per outer row
};

struct Path {
  uint64_t mask = 0;
  std::vector<int> order;
  double cost = 0;
  double rows = 1;
  // Tables scanned that some other table's equality could have reached:
  // the tie-break between paths of equal cost. Without it a chain of
  // equal-sized tables is started anywhere (every first scan costs the
  // same), and the tables before that start in the chain end up scanned
  // inside the loops; sqlite3 itself falls into this on 64-table chains.
  int avoidable_scans = 0;
};

bool Cheaper(const Path& a, const Path& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  return a.avoidable_scans < b.avoidable_scans;
}

double Capped(double v) { return v > kCostCap ? kCostCap : v; }

// Rows and cost of a loop whose access ChooseAccess has just picked;
// `leftover` conjuncts are tested on its rows (a little selectivity each).
Estimate EstimateAccess(const Level& lv, size_t leftover) {
  Estimate e;
  const double range_factor = (lv.lo >= 0 ? 0.25 : 1.0) * (lv.hi >= 0 ? 0.25 : 1.0);
  switch (lv.access) {
    case Access::kRowidEq:
      e.rows = 1;
      e.cost = kSeekCost;
      break;
    case Access::kRowidIn:
      e.rows = static_cast<double>(lv.eq.size());
      e.cost = kSeekCost * e.rows;
      break;
    case Access::kRowidRange:
      e.rows = kTableRows * range_factor;
      e.cost = kSeekCost + e.rows;
      break;
    case Access::kIndex: {
      const size_t neq = lv.eq.size();
      if (lv.index->unique && neq == lv.index->columns.size()) {
        e.rows = 1;
      } else if (neq > 0) {
        // SQLite's default index statistics: 10, 9, 8, 7, 6 rows per key prefix.
        e.rows = std::max(6.0, 11.0 - static_cast<double>(neq)) * range_factor;
      } else {
        e.rows = kTableRows * range_factor;
      }
      e.cost = kSeekCost + e.rows * (lv.covering ? 1.0 : 2.0);
      break;
    }
    default:
      e.rows = kTableRows;
      e.cost = kTableRows;
      break;
  }
  for (size_t i = 0; i < leftover; ++i) e.rows *= 0.9;
  return e;
}

}  // namespace

uint64_t Planner::LevelMask(int32_t id) const {
  const Node& n = prog_->node(id);
  uint64_t m = 0;
  auto bit_of = [&](int src) -> uint64_t {
    if (static_cast<size_t>(src) >= src_level_.size()) return 0;
    const int l = src_level_[static_cast<size_t>(src)];
    return l >= 0 && l < 64 ? uint64_t{1} << l : 0;
  };
  switch (n.op) {
    case Op::kColumn:
      return bit_of(n.src);
    case Op::kExists:
    case Op::kScalar:
    case Op::kInSelect:
      for (int src : prog_->selects[static_cast<size_t>(n.src)].outer_refs) m |= bit_of(src);
      break;
    default:
      break;
  }
  if (n.a >= 0) m |= LevelMask(n.a);
  if (n.b >= 0) m |= LevelMask(n.b);
  if (n.c >= 0) m |= LevelMask(n.c);
  for (uint32_t i = 0; i < n.nlist; ++i) m |= LevelMask(prog_->lists[n.list + i]);
  return m;
}

void Planner::OrderJoins(Core* core, const std::vector<int32_t>& where) {
  size_t n = 0;
  while (n < core->levels.size() && n < 64) {
    const Level& lv = core->levels[n];
    if (lv.table == nullptr || lv.left_join || (lv.cross_join && n > 0)) break;
    ++n;
  }
  if (n < 2) return;

  // Which of the first n levels each conjunct reads; a conjunct that also
  // reads a later level, or a level past 64, is never usable in the run.
  src_level_.assign(static_cast<size_t>(prog_->source_count), -1);
  for (size_t i = 0; i < core->levels.size(); ++i) {
    src_level_[static_cast<size_t>(core->levels[i].src)] = static_cast<int>(i < n ? i : 64);
  }
  struct Term {
    int32_t node;
    uint64_t mask;
  };
  std::vector<Term> terms;
  for (int32_t c : where) {
    if (MaxLevel(c) >= static_cast<int>(n)) continue;
    terms.push_back({c, LevelMask(c)});
  }

  // The estimate of level t inside the loops `bound`: ChooseAccess run with
  // src_level_ saying bound (0), t (1) and not yet bound (2).
  std::vector<int32_t> conj;
  auto estimate = [&](int t, uint64_t bound) {
    for (size_t i = 0; i < n; ++i) {
      const int src = core->levels[i].src;
      src_level_[static_cast<size_t>(src)] = static_cast<int>(i) == t ? 1
                                             : ((bound >> i) & 1)     ? 0
                                                                      : 2;
    }
    conj.clear();
    const uint64_t bit = uint64_t{1} << t;
    for (const Term& term : terms) {
      if ((term.mask & bit) && (term.mask & ~(bound | bit)) == 0) conj.push_back(term.node);
    }
    Level probe;
    probe.src = core->levels[static_cast<size_t>(t)].src;
    probe.table = core->levels[static_cast<size_t>(t)].table;
    probe.indexed_by = core->levels[static_cast<size_t>(t)].indexed_by;
    probe.not_indexed = core->levels[static_cast<size_t>(t)].not_indexed;
    ChooseAccess(&probe, conj, 1);
    const size_t leftover =
        probe.access == Access::kRowidIn ? conj.size() - 1 : probe.residual_filters.size();
    return std::make_pair(
        EstimateAccess(probe, probe.access == Access::kScan ? conj.size() : leftover),
        probe.access == Access::kScan);
  };
  // Tables some equality reaches once every other table is bound.
  const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  std::vector<bool> reachable(n);
  for (size_t t = 0; t < n; ++t) {
    reachable[t] = !estimate(static_cast<int>(t), all & ~(uint64_t{1} << t)).second;
  }

  auto extend = [&](const Path& p, int t) {
    const auto [e, scan] = estimate(t, p.mask);
    Path q;
    q.mask = p.mask | (uint64_t{1} << t);
    q.order = p.order;
    q.order.push_back(t);
    q.cost = Capped(p.cost + Capped(p.rows * e.cost));
    q.rows = Capped(p.rows * e.rows);
    q.avoidable_scans = p.avoidable_scans + (scan && reachable[static_cast<size_t>(t)] ? 1 : 0);
    return q;
  };

  // The FROM order's own cost: the reference any other order must beat.
  Path from_order;
  for (size_t i = 0; i < n; ++i) from_order = extend(from_order, static_cast<int>(i));

  std::vector<Path> paths(1);
  for (size_t step = 0; step < n; ++step) {
    std::vector<Path> next;
    for (const Path& p : paths) {
      for (size_t t = 0; t < n; ++t) {
        if ((p.mask >> t) & 1) continue;
        Path q = extend(p, static_cast<int>(t));
        // One path per set of tables: the cheapest (the first found on a tie).
        auto same =
            std::find_if(next.begin(), next.end(), [&](const Path& o) { return o.mask == q.mask; });
        if (same != next.end()) {
          if (Cheaper(q, *same)) *same = std::move(q);
          continue;
        }
        if (next.size() < kPathsKept) {
          next.push_back(std::move(q));
          continue;
        }
        auto worst = std::max_element(next.begin(), next.end(), Cheaper);
        if (Cheaper(q, *worst)) *worst = std::move(q);
      }
    }
    paths = std::move(next);
  }
  const Path* best = &paths[0];
  for (const Path& p : paths) {
    if (Cheaper(p, *best)) best = &p;
  }
  if (!(best->cost < from_order.cost)) return;
  std::vector<Level> reordered;
  reordered.reserve(core->levels.size());
  for (int t : best->order) reordered.push_back(std::move(core->levels[static_cast<size_t>(t)]));
  for (size_t i = n; i < core->levels.size(); ++i) reordered.push_back(std::move(core->levels[i]));
  core->levels = std::move(reordered);
}

}  // namespace engine::plan
