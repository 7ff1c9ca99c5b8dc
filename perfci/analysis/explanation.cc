#include "perfci/analysis/explanation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "perfci/stats/descriptive.h"

namespace perfci::analysis {
namespace {

using nlohmann::json;

std::map<std::string, const contracts::ContractResult*> by_key(const contracts::ContractReport& r) {
  std::map<std::string, const contracts::ContractResult*> out;
  for (const auto& c : r.results) out[c.key()] = &c;
  return out;
}

std::vector<ContractChange> changes(const Contracts& a, const Contracts& b,
                                    const std::string* benchmark) {
  std::vector<ContractChange> out;
  if (!a || !b) return out;  // a side was not checked: nothing to compare
  auto ca = by_key(*a);
  auto cb = by_key(*b);
  auto consider = [&](const std::string& key, const contracts::ContractResult* ra,
                      const contracts::ContractResult* rb) {
    const contracts::ContractResult& any = rb ? *rb : *ra;
    if (benchmark && !any.concerns(*benchmark)) return;
    std::string sa(ra ? contracts::verdict_name(ra->verdict) : "absent");
    std::string sb(rb ? contracts::verdict_name(rb->verdict) : "absent");
    if (sa == sb) return;
    out.push_back({key, sa, sb, rb ? rb->message : ""});
  };
  for (const auto& [key, ra] : ca) consider(key, ra, cb.count(key) ? cb[key] : nullptr);
  for (const auto& [key, rb] : cb)
    if (!ca.count(key)) consider(key, nullptr, rb);
  return out;
}

struct Cost {
  double per_iteration = 0;
  double share = 0;
};

// Per-function self cost of one side: callgrind when it ran, else profile shares.
std::map<std::string, Cost> costs(const BenchmarkResult& r, const std::string& source) {
  std::map<std::string, Cost> out;
  if (source == "callgrind" && r.callgrind) {
    const auto& cg = *r.callgrind;
    double iterations = cg.iterations ? static_cast<double>(cg.iterations) : 1;
    for (const auto& f : cg.functions) {
      Cost& c = out[f.name];
      c.per_iteration += static_cast<double>(f.self_ir) / iterations;
      c.share +=
          cg.total_ir ? static_cast<double>(f.self_ir) / static_cast<double>(cg.total_ir) : 0;
    }
  } else if (r.profile) {
    for (const auto& s : r.profile->symbols) {
      Cost& c = out[s.symbol];
      c.share += s.share;
      c.per_iteration += s.share * 100;  // percent of samples: profiles have no absolute cost
    }
  }
  return out;
}

// Who calls the allocator, per iteration; share of the side's allocations.
std::map<std::string, Cost> allocation_costs(const BenchmarkResult& r) {
  std::map<std::string, Cost> out;
  if (!r.callgrind || !r.callgrind->allocations) return out;
  const Allocations& a = *r.callgrind->allocations;
  for (const auto& s : a.sites)
    out[s.function] = {s.per_iteration,
                       a.per_iteration > 0 ? s.per_iteration / a.per_iteration : 0};
  return out;
}

// Self L1 misses per function per iteration; share of the side's L1 misses.
std::map<std::string, Cost> miss_costs(const BenchmarkResult& r) {
  std::map<std::string, Cost> out;
  if (!r.callgrind || !r.callgrind->cache) return out;
  const CallgrindResult& cg = *r.callgrind;
  const double iterations = cg.iterations ? static_cast<double>(cg.iterations) : 1;
  const double total = cg.cache->l1_misses();
  for (const auto& f : cg.functions) {
    if (!f.self_l1_misses) continue;
    Cost& c = out[f.name];
    const double per = static_cast<double>(*f.self_l1_misses) / iterations;
    c.per_iteration += per;
    c.share += total > 0 ? per / total : 0;
  }
  return out;
}

// A's and B's costs compared: the entries above min_share on either side
// whose cost changed, largest absolute change first, at most `top`.
std::vector<SymbolChange> diff_costs(const std::map<std::string, Cost>& ca,
                                     const std::map<std::string, Cost>& cb, double min_share,
                                     std::size_t top) {
  std::vector<SymbolChange> all;
  for (const auto& [name, a] : ca) {
    auto it = cb.find(name);
    Cost b = it == cb.end() ? Cost{} : it->second;
    if (a.share < min_share && b.share < min_share) continue;
    std::string change =
        it == cb.end() ? "vanished" : (b.per_iteration >= a.per_iteration ? "grew" : "shrank");
    all.push_back({name, change, a.share, b.share, a.per_iteration, b.per_iteration});
  }
  for (const auto& [name, b] : cb) {
    if (ca.count(name) || b.share < min_share) continue;
    all.push_back({name, "appeared", 0, b.share, 0, b.per_iteration});
  }
  // Largest absolute change of cost first: where the time went.
  std::stable_sort(all.begin(), all.end(), [](const SymbolChange& x, const SymbolChange& y) {
    return std::fabs(x.cost_b - x.cost_a) > std::fabs(y.cost_b - y.cost_a);
  });
  std::vector<SymbolChange> out;
  for (const auto& s : all) {
    if (out.size() >= top) break;
    if (s.cost_a != s.cost_b) out.push_back(s);
  }
  return out;
}

// A metric with a verdict worth a sentence of its own.
bool changed(const MetricRun& m) {
  return m.decision.verdict == stats::Verdict::kRegressed ||
         m.decision.verdict == stats::Verdict::kImproved;
}

// "callgrind, hook-free (process mode): ..." for one side.
std::string callgrind_mode_words(const CallgrindResult& c) {
  if (c.mode != "process") return "callgrind, hook mode: perfci::BenchHook's timed region only";
  std::string s = "callgrind, hook-free (process mode): collected inside " +
                  (c.entry.empty() ? std::string("the function Google Benchmark runs") : c.entry);
  if (c.fit_iterations.size() == 2 && c.setup_ir.value_or(0) < 0)
    // A negative fixed part: later iterations cost more (state that grows
    // as the benchmark runs), so the figure is the mean of those iterations.
    return s + fmt::format(
                   "; per iteration, the mean of iterations {} to {} of a call (two-point fit; "
                   "its setup came out negative, {:.0f} Ir: the cost grows as the benchmark runs)",
                   c.fit_iterations[0] + 1, c.fit_iterations[1], c.setup_ir.value_or(0));
  if (c.fit_iterations.size() == 2)
    return s + fmt::format(
                   "; per iteration, setup ({:.0f} Ir a call) separated by a two-point fit over "
                   "calls of {} and {} iterations",
                   c.setup_ir.value_or(0), c.fit_iterations[0], c.fit_iterations[1]);
  if (c.fit_iterations.size() == 1)
    return s + fmt::format("; one call of its fixed {} iterations, setup included",
                           c.fit_iterations[0]);
  return s;
}

std::string percent(double x) { return fmt::format("{:.1f}%", x * 100); }
// A count that rose from zero has no finite ratio.
std::string signed_percent(double x) {
  return std::isfinite(x) ? fmt::format("{:+.1f}%", x * 100) : std::string("from 0");
}

std::string amount(double v) {
  double a = std::fabs(v);
  if (a >= 1e9) return fmt::format("{:.2f}G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.2f}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:.1f}k", v / 1e3);
  if (a >= 100) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3g}", v);
}

}  // namespace

std::vector<ContractChange> contract_changes(const Contracts& a, const Contracts& b) {
  return changes(a, b, nullptr);
}

std::vector<ContractChange> contract_changes_for(const std::string& benchmark, const Contracts& a,
                                                 const Contracts& b) {
  return changes(a, b, &benchmark);
}

Explanation explain(const BenchmarkRun& run, const Contracts& contracts_a,
                    const Contracts& contracts_b, const ExplanationOptions& options) {
  Explanation e;
  // Counter deltas: medians over the trials of every non-wall metric, plus IPC.
  std::map<std::string, std::pair<double, double>> medians;
  for (const auto& m : run.metrics) {
    if (m.a.empty() || m.b.empty()) continue;
    double a = stats::median(m.a), b = stats::median(m.b);
    medians[m.metric] = {a, b};
    if (m.kind == "wall") continue;
    e.counters.push_back({m.metric, a, b, a != 0 ? b / a - 1 : 0});
  }
  if (medians.count("instructions") && medians.count("cycles")) {
    auto [ia, ib] = medians["instructions"];
    auto [ca, cb] = medians["cycles"];
    if (ca > 0 && cb > 0) {
      double ipc_a = ia / ca, ipc_b = ib / cb;
      e.counters.push_back({"ipc", ipc_a, ipc_b, ipc_a != 0 ? ipc_b / ipc_a - 1 : 0});
    }
  }

  if (run.detail_a && run.detail_b) {
    if (run.detail_a->callgrind && run.detail_b->callgrind)
      e.source = "callgrind";
    else if (run.detail_a->profile && run.detail_b->profile)
      e.source = run.detail_a->profile->source;
  }
  if (run.detail_a && run.detail_b && run.detail_a->callgrind && run.detail_b->callgrind) {
    const std::string a = callgrind_mode_words(*run.detail_a->callgrind);
    const std::string b = callgrind_mode_words(*run.detail_b->callgrind);
    e.measured_by = a == b ? a : "A: " + a + "; B: " + b;
  }
  if (!e.source.empty())
    e.symbols = diff_costs(costs(*run.detail_a, e.source), costs(*run.detail_b, e.source),
                           options.min_share, options.top_symbols);
  if (e.source == "callgrind") {
    // Every site and every missing function counts: one allocation a call
    // is a small share of the cost but the whole of the change.
    e.allocation_sites = diff_costs(allocation_costs(*run.detail_a),
                                    allocation_costs(*run.detail_b), 0, options.top_symbols);
    e.cache_misses = diff_costs(miss_costs(*run.detail_a), miss_costs(*run.detail_b),
                                options.min_share, options.top_symbols);
  }
  e.contracts = contract_changes_for(run.name, contracts_a, contracts_b);

  // Sentences, most telling first.
  for (const auto& m : run.metrics) {
    if (!changed(m)) continue;
    e.notes.push_back(fmt::format(
        "{} {} {} ({} -> {} per iteration)", m.kind == "wall" ? m.metric : m.kind + " " + m.metric,
        stats::to_string(m.decision.verdict), signed_percent(m.comparison.change()),
        amount(m.comparison.a.median), amount(m.comparison.b.median)));
  }
  for (const auto& c : e.contracts)
    e.notes.push_back(fmt::format("contract '{}' went from {} to {}{}{}", c.contract, c.status_a,
                                  c.status_b, c.message.empty() ? "" : ": ", c.message));
  auto changed_metric = [&](const char* metric) {
    return std::any_of(run.metrics.begin(), run.metrics.end(), [&](const MetricRun& m) {
      return m.kind == "callgrind" && m.metric == metric && changed(m);
    });
  };
  // Where allocations or misses changed, when that is what changed: the
  // function is the explanation.
  if (changed_metric("allocations") || changed_metric("allocated_bytes"))
    for (std::size_t i = 0; i < e.allocation_sites.size() && i < 3; ++i) {
      const SymbolChange& s = e.allocation_sites[i];
      e.notes.push_back(fmt::format("{} allocations per iteration in {} ({} -> {}{})",
                                    s.change == "appeared" ? "new" : s.change, s.symbol,
                                    amount(s.cost_a), amount(s.cost_b),
                                    s.change == "appeared" ? ", none in A" : ""));
    }
  if (changed_metric("l1_misses") || changed_metric("ll_misses") ||
      changed_metric("estimated_cycles"))
    for (std::size_t i = 0; i < e.cache_misses.size() && i < 3; ++i) {
      const SymbolChange& s = e.cache_misses[i];
      e.notes.push_back(fmt::format("L1 misses {} in {}: {} -> {} per iteration (share {} -> {})",
                                    s.change, s.symbol, amount(s.cost_a), amount(s.cost_b),
                                    percent(s.share_a), percent(s.share_b)));
    }
  for (const auto& s : e.symbols) {
    const char* unit = e.source == "callgrind" ? " Ir" : " samples%";
    if (s.change == "appeared")
      e.notes.push_back(
          fmt::format("{} appeared: {} of B's cost ({}{} per iteration); it is a real "
                      "function in B but not in A (no longer inlined?)",
                      s.symbol, percent(s.share_b), amount(s.cost_b), unit));
    else if (s.change == "vanished")
      e.notes.push_back(fmt::format("{} vanished: it was {} of A's cost (inlined or removed in B)",
                                    s.symbol, percent(s.share_a)));
    else
      e.notes.push_back(
          fmt::format("{} {} {} per iteration ({} -> {}{}; share {} -> {})", s.symbol, s.change,
                      signed_percent(s.cost_a ? s.cost_b / s.cost_a - 1 : 0), amount(s.cost_a),
                      amount(s.cost_b), unit, percent(s.share_a), percent(s.share_b)));
    if (e.notes.size() >= 12) break;
  }
  for (const auto& c : e.counters) {
    // A regressed or improved metric already has its sentence.
    const bool said = std::any_of(run.metrics.begin(), run.metrics.end(), [&](const MetricRun& m) {
      return m.metric == c.metric && changed(m);
    });
    if (said || std::fabs(c.change) < 0.005) continue;
    e.notes.push_back(fmt::format("{}: {} -> {} per iteration ({})", c.metric, amount(c.a),
                                  amount(c.b), signed_percent(c.change)));
  }
  // Last, so the telling sentences come first; in every rendering.
  if (!e.measured_by.empty()) e.notes.push_back("measured by " + e.measured_by);
  return e;
}

}  // namespace perfci::analysis
