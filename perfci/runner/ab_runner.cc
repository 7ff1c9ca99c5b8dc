#include "perfci/runner/ab_runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "perfci/meters/benchmark_process.h"
#include "perfci/runner/pair_order.h"
#include "perfci/runner/shard_plan.h"
#include "perfci/util/error.h"
#include "perfci/util/interrupt.h"

namespace perfci {
namespace {

using Clock = std::chrono::steady_clock;

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string format_seconds(double s) {
  char buf[32];
  if (s < 120) {
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  } else {
    std::snprintf(buf, sizeof buf, "%.0fm%02.0fs", std::floor(s / 60), std::fmod(s, 60));
  }
  return buf;
}

// Series of one benchmark x metric, keyed "kind\nmetric".
using SeriesKey = std::pair<std::string, std::string>;
struct Series {
  std::vector<double> a, b;
};

struct BenchmarkState {
  std::string error;
  std::map<SeriesKey, Series> series;
  std::vector<SeriesKey> order;  // first-seen order, for a stable report
};

class Scheduler {
 public:
  Scheduler(std::string a, std::string b, const AbRunOptions& o)
      : binary_{std::move(a), std::move(b)}, o_(o), start_(Clock::now()) {
    for (const auto& m : o.measure.meters) {
      if (m == "wall" || m == "counters")
        trial_meters_.push_back(m);
      else
        once_meters_.push_back(m);
    }
  }

  AbRun run();

 private:
  RunResults measure(int side, const std::vector<std::string>& meters,
                     const std::vector<std::string>& names, const std::string& what);
  // One pair of trials of `names`; values go to `into` (per benchmark).
  void run_pair(bool a_first, const std::vector<std::string>& names, const std::string& label,
                std::map<std::string, BenchmarkState>& into);
  void record(int side, const RunResults& r, const std::vector<std::string>& requested,
              const std::string& label, std::map<std::string, BenchmarkState>& into);
  std::vector<std::string> active() const;
  void say(const std::string& s) const {
    if (o_.progress) o_.progress(s);
  }
  void mark_failed(const std::string& name, const std::string& error) {
    auto& st = state_[name];
    if (st.error.empty()) st.error = error;
  }
  std::vector<stats::MetricSamples> samples_of(const std::map<std::string, BenchmarkState>& st,
                                               const std::vector<std::string>& names) const;
  void confirm(AbRun& run);
  void add_explanation_details(AbRun& run);

  std::string binary_[2];
  const AbRunOptions& o_;
  Clock::time_point start_;
  std::vector<std::string> trial_meters_, once_meters_;
  std::vector<std::string> names_;
  std::map<std::string, BenchmarkState> state_;
  std::map<std::string, BenchmarkResult> detail_[2];
  std::string order_;
  nlohmann::json context_[2] = {nlohmann::json::object(), nlohmann::json::object()};
  PairOrder pair_order_{1};
  int planned_pairs_ = 0;  // for an interrupted run's "3 of 10 pairs"
};

RunResults Scheduler::measure(int side, const std::vector<std::string>& meters,
                              const std::vector<std::string>& names, const std::string& what) {
  MeasureOptions m = o_.measure;
  m.meters = meters;
  m.names = names;
  m.progress = [this, what](const std::string& s) { say(what + ": " + s); };
  RunResults r = measure_binary(binary_[side], m);
  // A trial cut short is of no use to a pair: the run stops here.
  if (r.incomplete) throw Interrupted(r.incomplete->signo);
  if (context_[side].empty() && !r.context.empty()) context_[side] = r.context;
  return r;
}

void Scheduler::record(int side, const RunResults& r, const std::vector<std::string>& requested,
                       const std::string& label, std::map<std::string, BenchmarkState>& into) {
  const char* side_name = side == 0 ? "A" : "B";
  for (const auto& b : r.benchmarks) {
    if (b.failed()) {
      mark_failed(b.name, label + " of " + side_name + " (" + binary_[side] + "): " + b.error);
      continue;
    }
    auto& st = into[b.name];
    for (const auto& v : metric_values(b)) {
      SeriesKey key{v.kind, v.metric};
      if (!st.series.count(key)) st.order.push_back(key);
      (side == 0 ? st.series[key].a : st.series[key].b).push_back(v.value);
    }
  }
  for (const auto& n : requested)
    if (!r.find(n)) mark_failed(n, label + " of " + side_name + ": no result for this benchmark");
}

std::vector<std::string> Scheduler::active() const {
  std::vector<std::string> out;
  for (const auto& n : names_) {
    auto it = state_.find(n);
    if (it == state_.end() || it->second.error.empty()) out.push_back(n);
  }
  return out;
}

void Scheduler::run_pair(bool a_first, const std::vector<std::string>& names,
                         const std::string& label, std::map<std::string, BenchmarkState>& into) {
  order_ += a_first ? "AB" : "BA";
  order_ += ' ';
  std::map<std::string, BenchmarkState> pair;
  for (int k = 0; k < 2; ++k) {
    int side = (k == 0) == a_first ? 0 : 1;
    std::vector<std::string> run_names;
    for (const auto& n : names)
      if (state_[n].error.empty()) run_names.push_back(n);
    if (run_names.empty()) return;
    RunResults r = measure(side, trial_meters_, run_names, label + " " + (side == 0 ? "A" : "B"));
    record(side, r, run_names, label, pair);
  }
  // Keep a pair only when both sides measured the benchmark: the samples stay paired.
  for (auto& [name, st] : pair) {
    if (!state_[name].error.empty()) continue;
    auto& dst = into[name];
    for (const auto& key : st.order) {
      const Series& s = st.series[key];
      if (s.a.size() != 1 || s.b.size() != 1) continue;  // a metric one side lacks
      if (!dst.series.count(key)) dst.order.push_back(key);
      dst.series[key].a.push_back(s.a[0]);
      dst.series[key].b.push_back(s.b[0]);
    }
  }
}

std::vector<stats::MetricSamples> Scheduler::samples_of(
    const std::map<std::string, BenchmarkState>& st, const std::vector<std::string>& names) const {
  std::vector<stats::MetricSamples> out;
  for (const auto& n : names) {
    auto it = st.find(n);
    if (it == st.end()) continue;
    for (const auto& key : it->second.order) {
      const Series& s = it->second.series.at(key);
      if (s.a.empty() || s.a.size() != s.b.size()) continue;
      const stats::MetricPolicy policy = o_.policies.policy(n, key.first, key.second);
      bool ok = true;
      // A sampled event read 0 on one side has no ratio; a deterministic
      // count that rose from 0 (allocations) is compared as what it is.
      for (std::size_t i = 0; i < s.a.size(); ++i)
        if (!(std::isfinite(s.a[i]) && std::isfinite(s.b[i]) && s.a[i] >= 0 && s.b[i] >= 0) ||
            (!policy.deterministic && (s.a[i] == 0) != (s.b[i] == 0)))
          ok = false;
      if (!ok) continue;  // reported as "not compared" when the run is assembled
      out.push_back(stats::MetricSamples{.benchmark = n,
                                         .metric = key.first + "/" + key.second,
                                         .policy = policy,
                                         .a = s.a,
                                         .b = s.b,
                                         .unpaired = false});
    }
  }
  return out;
}

void Scheduler::confirm(AbRun& run) {
  std::set<std::string> suspects;
  for (const auto& b : run.benchmarks)
    for (const auto& m : b.metrics)
      if (stats::needs_confirmation(m.policy, m.first_decision)) suspects.insert(b.name);
  if (suspects.empty() || o_.plan.confirm_pairs <= 0 || trial_meters_.empty()) return;
  std::vector<std::string> names;
  for (const auto& n : names_)
    if (suspects.count(n)) names.push_back(n);
  std::map<std::string, BenchmarkState> fresh;
  for (int k = 0; k < o_.plan.confirm_pairs; ++k) {
    std::string label =
        "confirmation pair " + std::to_string(k + 1) + "/" + std::to_string(o_.plan.confirm_pairs);
    say(label + " of " + std::to_string(names.size()) + " suspect(s), " +
        format_seconds(seconds_since(start_)) + " elapsed");
    run_pair(pair_order_.next_a_first(), names, label, fresh);
    ++run.confirmation_pairs;
  }
  auto samples = samples_of(fresh, names);
  auto outcomes = stats::analyze_run(samples, o_.analysis);
  for (auto& b : run.benchmarks) {
    for (auto& m : b.metrics) {
      if (!stats::needs_confirmation(m.policy, m.first_decision)) continue;
      const stats::MetricOutcome* found = nullptr;
      for (const auto& oc : outcomes)
        if (oc.benchmark == b.name && oc.metric == m.kind + "/" + m.metric) found = &oc;
      if (!found) continue;  // failed during confirmation: the benchmark's error says so
      const auto& s = fresh[b.name].series[{m.kind, m.metric}];
      m.confirmation = Confirmation{s.a, s.b, found->comparison, found->q_value, found->decision};
      m.decision = stats::confirm(m.first_decision, found->decision, static_cast<int>(s.a.size()));
    }
  }
}

void Scheduler::add_explanation_details(AbRun& run) {
  if (!o_.explain_with_callgrind || !once_meters_.empty()) return;
  std::vector<std::string> names;
  for (const auto& b : run.benchmarks) {
    if (!state_[b.name].error.empty()) continue;
    for (const auto& m : b.metrics)
      if (m.decision.verdict == stats::Verdict::kRegressed ||
          m.decision.verdict == stats::Verdict::kImproved) {
        names.push_back(b.name);
        break;
      }
  }
  if (names.empty()) return;
  for (int side = 0; side < 2; ++side) {
    MeasureOptions m = o_.measure;
    m.meters = {"callgrind"};
    m.callgrind_filter = ".*";
    m.names = names;
    m.progress = [this, side](const std::string& s) {
      say(std::string("explaining ") + (side == 0 ? "A" : "B") + ": " + s);
    };
    try {
      RunResults r = measure_binary(binary_[side], m);
      for (auto& b : r.benchmarks) {
        if (b.failed()) {
          say("no callgrind profile of " + b.name + " for the explanation: " + b.error);
        } else if (b.callgrind) {
          detail_[side][b.name] = std::move(b);
        }
      }
    } catch (const Error& e) {
      say(std::string("no callgrind profile for the explanation: ") + e.what());
    }
  }
  for (auto& b : run.benchmarks) {
    if (detail_[0].count(b.name) && detail_[1].count(b.name)) {
      b.detail_a = detail_[0][b.name];
      b.detail_b = detail_[1][b.name];
    }
  }
}

AbRun Scheduler::run() {
  const TrialPlan& p = o_.plan;
  if (p.budget ? p.budget->count() <= 0 : p.pairs < 1)
    throw Error("the A/B needs at least one pair (--pairs) or a positive --budget");
  if (p.min_pairs < 1 || p.max_pairs < p.min_pairs || p.warmup < 0 || p.confirm_pairs < 0)
    throw Error("invalid trial plan: pairs, warm-up or confirmation count out of range");
  if (o_.measure.meters.empty()) throw Error("no meter selected");
  for (int side = 0; side < 2; ++side) {
    std::error_code ec;
    binary_[side] = std::filesystem::absolute(binary_[side], ec).lexically_normal().string();
    check_binary(binary_[side]);
  }
  pair_order_ = PairOrder(p.seed);

  AbRun run;
  run.aa = binary_[0] == binary_[1];
  run.seed = p.seed;
  run.warmup = trial_meters_.empty() ? 0 : p.warmup;

  auto names_a = list_benchmarks(binary_[0], o_.measure.filter, o_.measure.conditions);
  auto names_b =
      run.aa ? names_a : list_benchmarks(binary_[1], o_.measure.filter, o_.measure.conditions);
  for (const auto& n : names_a)
    if (has(names_b, n)) names_.push_back(n);
  if (names_.empty())
    throw Error("A and B have no benchmark in common under the filter '" + o_.measure.filter + "'");
  for (const auto& n : names_a)
    if (!has(names_b, n)) say("note: " + n + " exists only in A; skipped");
  for (const auto& n : names_b)
    if (!has(names_a, n)) say("note: " + n + " exists only in B; skipped");
  if (o_.shard) {
    run.shard_plan = plan_shards(names_, {}, o_.shard->count);
    names_ = run.shard_plan->names_of(o_.shard->index);
    say("shard " + format_shard(*o_.shard) + ": " + std::to_string(names_.size()) + " of " +
        std::to_string(run.shard_plan->entries.size()) + " benchmarks");
  }

  std::map<std::string, BenchmarkState> samples;
  planned_pairs_ = trial_meters_.empty() ? 0 : (p.budget ? p.min_pairs : p.pairs);
  // SIGINT or SIGTERM: the complete pairs measured so far are analysed and
  // reported, marked incomplete.
  int stopped_by = 0;
  try {
    if (!trial_meters_.empty()) {
      for (int w = 0; w < run.warmup; ++w) {
        for (int side = 0; side < 2; ++side) {
          std::string label = "warm-up " + std::to_string(w + 1);
          say(label + " " + (side == 0 ? "A" : "B"));
          std::map<std::string, BenchmarkState> discard;
          auto names = active();
          if (names.empty()) break;
          record(side, measure(side, trial_meters_, names, label + (side == 0 ? " A" : " B")),
                 names, label, discard);
        }
      }
      double warm_end = seconds_since(start_);
      int target = p.budget ? p.max_pairs : p.pairs;
      for (int k = 0; k < target && !active().empty(); ++k) {
        double elapsed = seconds_since(start_);
        double per_pair = k > 0 ? (elapsed - warm_end) / k : 0;
        if (p.budget && k >= p.min_pairs &&
            elapsed + per_pair > static_cast<double>(p.budget->count()))
          break;
        std::string label =
            "pair " + std::to_string(k + 1) + (p.budget ? "" : "/" + std::to_string(target));
        std::string eta;
        if (k > 0) {
          double left = p.budget ? std::max(0.0, static_cast<double>(p.budget->count()) - elapsed)
                                 : per_pair * (target - k);
          eta = ", ~" + format_seconds(left) + " left";
          if (p.budget && per_pair > 0)
            planned_pairs_ =
                std::clamp(k + static_cast<int>(left / per_pair), p.min_pairs, p.max_pairs);
        }
        say(label + ": " + std::to_string(active().size()) + " benchmark(s), " +
            format_seconds(elapsed) + " elapsed" + eta);
        run_pair(pair_order_.next_a_first(), active(), label, samples);
        ++run.pairs;
      }
    }

    if (!once_meters_.empty()) {
      for (int side = 0; side < 2; ++side) {
        auto names = active();
        if (names.empty()) break;
        RunResults r = measure(side, once_meters_, names, side == 0 ? "A" : "B");
        for (const auto& b : r.benchmarks) {
          if (b.failed()) {
            mark_failed(b.name, std::string("the ") + (side == 0 ? "A" : "B") + " run of " +
                                    binary_[side] + ": " + b.error);
            continue;
          }
          detail_[side][b.name] = b;
          for (const auto& v : metric_values(b)) {
            if (v.kind != "callgrind") continue;
            auto& st = samples[b.name];
            SeriesKey key{v.kind, v.metric};
            if (!st.series.count(key)) st.order.push_back(key);
            (side == 0 ? st.series[key].a : st.series[key].b).push_back(v.value);
          }
        }
      }
    }
  } catch (const Interrupted& stop) {
    stopped_by = stop.signal();
  }

  auto inputs = samples_of(samples, active());
  auto outcomes = stats::analyze_run(inputs, o_.analysis);
  std::size_t next = 0;
  for (const auto& n : names_) {
    BenchmarkRun b;
    b.name = n;
    b.error = state_[n].error;
    if (detail_[0].count(n)) b.detail_a = detail_[0][n];
    if (detail_[1].count(n)) b.detail_b = detail_[1][n];
    if (!b.failed()) {
      const auto& st = samples[n];
      for (const auto& key : st.order) {
        MetricRun m;
        m.kind = key.first;
        m.metric = key.second;
        m.policy = o_.policies.policy(n, key.first, key.second);
        m.a = st.series.at(key).a;
        m.b = st.series.at(key).b;
        if (next < outcomes.size() && outcomes[next].benchmark == n &&
            outcomes[next].metric == key.first + "/" + key.second) {
          const auto& oc = outcomes[next++];
          m.comparison = oc.comparison;
          m.q_value = oc.q_value;
          m.first_decision = oc.decision;
          m.decision = oc.decision;
          if (run.aa && !m.policy.deterministic) m.noise = stats::summarize_noise(oc.comparison);
        } else {
          m.first_decision.verdict = stats::Verdict::kNoisy;
          m.first_decision.reason =
              stopped_by != 0 && m.a.size() != m.b.size()
                  ? "not compared: the run was interrupted before both sides were measured"
                  : "not compared: a pair read 0 on one side only (an event too rare to compare "
                    "as a ratio)";
          m.decision = m.first_decision;
        }
        b.metrics.push_back(std::move(m));
      }
    }
    run.benchmarks.push_back(std::move(b));
  }
  // An A/A goes through confirmation like an A/B: it measures the false
  // positives of the whole pipeline, and a first verdict alone is not one.
  if (stopped_by == 0) {
    try {
      confirm(run);
      if (!run.aa) add_explanation_details(run);
    } catch (const Interrupted& stop) {
      stopped_by = stop.signal();
    }
  }
  if (stopped_by != 0) {
    Incomplete inc;
    inc.signo = stopped_by;
    inc.completed = run.pairs;
    inc.planned = std::max(planned_pairs_, run.pairs);
    inc.unit = "pairs";
    run.incomplete = inc;
    say(inc.reason());
  }
  // A benchmark that failed during confirmation is failed, whatever the first verdict.
  for (auto& b : run.benchmarks)
    if (b.error.empty()) b.error = state_[b.name].error;
  run.order = order_;
  run.context_a = context_[0];
  run.context_b = context_[1];
  if (!run.order.empty()) run.order.pop_back();
  run.elapsed_seconds = seconds_since(start_);
  return run;
}

}  // namespace

AbRun run_ab(const std::string& binary_a, const std::string& binary_b,
             const AbRunOptions& options) {
  return Scheduler(binary_a, binary_b, options).run();
}

}  // namespace perfci
