#include "perfci/app/bisect_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <map>

#include "perfci/analysis/explanation.h"
#include "perfci/app/contract_run.h"
#include "perfci/app/history_recording.h"
#include "perfci/check/check_config.h"
#include "perfci/env/fingerprint.h"
#include "perfci/meters/benchmark_process.h"
#include "perfci/meters/measure.h"
#include "perfci/model/number_format.h"
#include "perfci/report/bisect_render.h"
#include "perfci/runner/ab_runner.h"
#include "perfci/runner/bisect_search.h"
#include "perfci/runner/git_history.h"
#include "perfci/runner/git_worktree.h"
#include "perfci/runner/metric_policy.h"
#include "perfci/runner/revision.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/interrupt.h"
#include "perfci/util/strings.h"
#include "perfci/util/timestamp.h"
#include "perfci/version.h"

namespace perfci::app {
namespace {

namespace fs = std::filesystem;
constexpr const char* kCommand = "bisect";

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// A build's error is the tail of a compiler's output: the report keeps its
// end (where the error is), the terminal one line.
std::string tail(const std::string& text, std::size_t n = 600) {
  return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

std::string first_line(const std::string& text) {
  std::string t = trim(text);
  auto nl = t.find('\n');
  return nl == std::string::npos ? t : t.substr(0, nl) + " ...";
}

// A commit as built: its binary, or why there is none.
struct Built {
  std::string binary;
  std::string error;  // the build's (or the binary check's) message
  bool reused = false;
  std::string build_dir;
};

// One step's measurement, before it becomes a BisectCommit.
struct Measured {
  BisectStep step = BisectStep::kSkip;
  std::string reason;
  std::optional<double> value;
  std::optional<double> change;
  std::optional<BenchmarkResult> result;  // callgrind
  std::optional<BenchmarkRun> ab;         // wall: the A/B against GOOD
  int pairs = 0;
};

class Bisector {
 public:
  explicit Bisector(const BisectFlags& f) : f_(f) {}

  int run() {
    start_ = std::chrono::steady_clock::now();
    prepare();
    measure_good();
    try {
      auto found = bisect_search(range_.size(), [this](std::size_t i) { return probe(i); });
      conclude(found);
    } catch (const Interrupted& stop) {
      Incomplete inc;
      inc.signo = stop.signal();
      inc.completed = report_.builds;
      inc.planned = std::max(report_.max_builds, report_.builds);
      inc.unit = "builds";
      report_.incomplete = inc;
      report_.outcome = "interrupted";
      report_.summary =
          "Stopped by " + inc.signal_name() + " before the bisect ended: " + inc.reason() + ".";
    } catch (const Error& e) {
      // A failure after GOOD was measured (git, a contract check, an A/B)
      // still leaves the report of every commit measured so far (exit 2).
      report_.outcome = "error";
      report_.summary = std::string("The bisect stopped on an error: ") + e.what();
      fmt::print(stderr, "perfci {}: error: {}\n", kCommand, e.what());
    }
    return write();
  }

 private:
  // Everything that can be refused is refused here, before anything is built.
  void prepare() {
    check_revision_syntax(f_.good);
    check_revision_syntax(f_.bad);
    if (f_.good == kWorktreeRevision || f_.bad == kWorktreeRevision)
      throw Error("perfci bisect walks commits: WORKTREE (the uncommitted tree) is not one");
    if (f_.benchmark.empty()) throw Error("--benchmark: name the benchmark to bisect");
    config_ = load_optional_config(f_);
    if (!config_)
      throw Error("perfci bisect needs a perfci.json (here or --config) naming the suite's binary");
    suite_ = *pick_suite(f_, config_);
    const check::CheckConfig check = check::check_config_from(*config_);
    auto [kind, metric] = bisect_metric(
        f_.metric, contains(config_->meters, "callgrind") || contains(check.meters, "callgrind"));
    report_.kind = kind;
    report_.metric = metric;
    report_.benchmark = f_.benchmark;
    report_.suite = suite_.name;
    if (f_.threshold) {
      if (!(*f_.threshold >= 0 && *f_.threshold < 10))
        throw Error(fmt::format(
            "--threshold: {} is not a relative threshold in [0, 10) (0.03 is 3%)", *f_.threshold));
      report_.threshold = *f_.threshold;
      report_.threshold_source = "--threshold";
    } else {
      auto policies = MetricPolicies::from_config(config_->raw, config_->path.string());
      report_.threshold = policies.policy(f_.benchmark, kind, metric).threshold;
      report_.threshold_source = config_->raw.contains("metrics") &&
                                         config_->raw["metrics"].is_object() &&
                                         config_->raw["metrics"].contains(kind)
                                     ? "perfci.json metrics." + kind
                                     : "perfci's default for " + kind;
    }
    reports_ = check.reports;

    top_ = git_toplevel(f_.repo.empty() ? fs::current_path() : fs::path(f_.repo));
    report_.good_revision = f_.good;
    report_.bad_revision = f_.bad;
    report_.good_commit = resolve_commit(top_, f_.good);
    report_.bad_commit = resolve_commit(top_, f_.bad);
    if (report_.good_commit == report_.bad_commit)
      throw Error("GOOD (" + f_.good + ") and BAD (" + f_.bad + ") are the same commit " +
                  short_hash(report_.good_commit) + ": there is nothing between them to bisect");
    if (!is_ancestor(top_, report_.good_commit, report_.bad_commit))
      throw Error("GOOD (" + f_.good + ", " + short_hash(report_.good_commit) +
                  ") is not an ancestor of BAD (" + f_.bad + ", " + short_hash(report_.bad_commit) +
                  "): bisect searches BAD's history after GOOD (are they swapped?)");
    range_ = first_parent_range(top_, report_.good_commit, report_.bad_commit);
    if (range_.empty() || range_.back().commit != report_.bad_commit)
      throw Error("git rev-list --first-parent --ancestry-path " + short_hash(report_.good_commit) +
                  ".." + short_hash(report_.bad_commit) + " does not end at BAD");
    report_.candidates = static_cast<int>(range_.size());
    report_.max_builds = static_cast<int>(max_bisect_probes(range_.size())) + 1;

    build_.repo = top_;
    build_.cache_dir = f_.cache;
    build_.preset = config_->build.preset;
    build_.targets = config_->build.targets;
    build_.jobs = f_.jobs;
    if (!f_.quiet) build_.progress = progress_printer(kCommand);

    measure_ = measure_options(&suite_, f_, measure_defaults(config_));
    measure_.names = {f_.benchmark};
    measure_.filter = exact_filter(f_.benchmark);
    measure_.callgrind_filter = ".*";
    if (show_progress(f_.quiet)) measure_.progress = progress_printer(kCommand);

    // GOOD is position 0, the candidates 1..n.
    report_.commits.resize(range_.size() + 1);
    for (std::size_t i = 0; i <= range_.size(); ++i) {
      BisectCommit& c = report_.commits[i];
      c.commit = i == 0 ? report_.good_commit : range_[i - 1].commit;
      c.subject = i == 0 ? commit_subject(top_, c.commit) : range_[i - 1].subject;
      c.position = static_cast<int>(i);
      c.status = i == 0 ? "reference" : "not measured";
    }
    report_.settings = settings_json(kCommand, config_->path.string(), suite_.name, measure_);
    report_.settings["pairs"] = f_.pairs;
    report_.settings["seed"] = f_.seed;
    report_.settings["preset"] = build_.preset;
    report_.settings["targets"] = build_.targets;
  }

  void say(const std::string& s) const {
    if (!f_.quiet) fmt::print(stderr, "perfci {}: {}\n", kCommand, s);
  }

  BisectCommit& entry(std::size_t position) { return report_.commits[position]; }

  Built build(std::size_t position) {
    BisectCommit& c = entry(position);
    Built b;
    ++report_.builds;
    c.built = true;
    try {
      RevisionBuild rb = build_revision(c.commit, build_);
      b.reused = rb.reused;
      b.build_dir = rb.build_dir.string();
      b.binary = (rb.build_dir / suite_.binary).string();
      check_binary(b.binary);
    } catch (const Error& e) {
      b.error = e.what();
      b.binary.clear();
    }
    if (!b.reused) ++report_.fresh_builds;
    c.reused = b.reused;
    c.build_dir = b.build_dir;
    if (b.error.empty()) binaries_[position] = b.binary;
    return b;
  }

  // Empty when the binary lists the benchmark; else why not.
  std::string missing_benchmark(const std::string& binary) const {
    try {
      list_benchmarks(binary, exact_filter(f_.benchmark), measure_.conditions);
      return "";
    } catch (const Error& e) {
      std::string known;
      try {
        auto all = list_benchmarks(binary, ".*", measure_.conditions);
        if (all.size() > 20) all.resize(20);
        known = fmt::format("; it has {}", fmt::join(all, ", "));
      } catch (const Error&) {
        // The first error says it.
      }
      return "no benchmark named '" + f_.benchmark + "' (" + first_line(e.what()) + ")" + known;
    }
  }

  // One callgrind run of the benchmark; the error when it gave no count.
  std::optional<BenchmarkResult> callgrind_run(const std::string& binary, std::string& error) {
    MeasureOptions m = measure_;
    m.meters = {"callgrind"};
    RunResults r = measure_binary(binary, m);
    if (r.incomplete) throw Interrupted(r.incomplete->signo);
    const BenchmarkResult* b = r.find(f_.benchmark);
    if (!b)
      error = "callgrind gave no result for " + f_.benchmark;
    else if (b->failed())
      error = "the benchmark failed under callgrind: " + b->error;
    else if (!b->callgrind || b->callgrind->iterations == 0)
      error = "callgrind counted nothing (is the perfci hook linked?)";
    if (!error.empty()) return std::nullopt;
    return *b;
  }

  AbRunOptions ab_options(int pairs, std::uint64_t seed) const {
    AbRunOptions o;
    o.measure = measure_;
    o.measure.meters = {"wall"};
    o.measure.names.clear();
    o.plan.pairs = pairs;
    o.plan.confirm_pairs = std::min(pairs, 30);
    o.plan.seed = seed;
    o.analysis.comparison.bootstrap.seed = seed;
    o.explain_with_callgrind = false;
    // The one threshold of this bisect, whatever perfci.json says of others.
    o.policies = MetricPolicies::from_config(
        {{"metrics", {{report_.kind, {{"threshold", report_.threshold}}}}}}, "--threshold");
    if (show_progress(f_.quiet)) o.progress = progress_printer(kCommand);
    return o;
  }

  // The A/B of two binaries on the benchmark; its run of B, or the error.
  std::optional<BenchmarkRun> wall_ab(const std::string& a, const std::string& b, int pairs,
                                      std::uint64_t seed, std::string& error) {
    AbRun run = run_ab(a, b, ab_options(pairs, seed));
    if (run.incomplete) throw Interrupted(run.incomplete->signo);
    for (auto& br : run.benchmarks) {
      if (br.name != f_.benchmark) continue;
      if (br.failed()) {
        error = "the benchmark failed: " + br.error;
        return std::nullopt;
      }
      return br;
    }
    error = "the A/B has no result for " + f_.benchmark;
    return std::nullopt;
  }

  const MetricRun* metric_of(const BenchmarkRun& run) const {
    for (const auto& m : run.metrics)
      if (m.kind == report_.kind && m.metric == report_.metric) return &m;
    return nullptr;
  }

  void measure_good() {
    say(fmt::format("GOOD {} ({}): building; {} commits after it, at most {} builds", f_.good,
                    short_hash(report_.good_commit), range_.size(), report_.max_builds));
    Built b = build(0);
    BisectCommit& good = entry(0);
    good.probe = ++probes_;
    if (!b.error.empty())
      throw Error("GOOD (" + f_.good + ", " + short_hash(report_.good_commit) +
                  ") does not build: " + tail(b.error) +
                  "\n  A bisect needs GOOD measured: name a GOOD that builds.");
    if (std::string why = missing_benchmark(b.binary); !why.empty())
      throw Error("GOOD (" + f_.good + ", " + short_hash(report_.good_commit) + ") has " + why);
    if (report_.kind == "callgrind") {
      std::string error;
      good.result = callgrind_run(b.binary, error);
      if (!good.result)
        throw Error("GOOD (" + f_.good + ", " + short_hash(report_.good_commit) + "): " + error);
      good.value = good.result->callgrind->ir_per_iteration;
      good.change = 0.0;
      good.reason = "the reference every step is compared with";
      say(fmt::format("GOOD {}: {} Ir per iteration", short_hash(good.commit),
                      format_value("ir", *good.value)));
    } else {
      good.reason = "the A side of every step's A/B";
    }
  }

  Measured measure_step(std::size_t position, const Built& b) {
    Measured out;
    if (!b.error.empty()) {
      out.reason = "does not build: " + tail(b.error);
      return out;
    }
    if (std::string why = missing_benchmark(b.binary); !why.empty()) {
      out.reason = why;
      return out;
    }
    stats::MetricPolicy policy;
    policy.threshold = report_.threshold;
    if (report_.kind == "callgrind") {
      std::string error;
      out.result = callgrind_run(b.binary, error);
      if (!out.result) {
        out.reason = error;
        return out;
      }
      out.value = out.result->callgrind->ir_per_iteration;
      out.change = *out.value / *entry(0).value - 1;
      policy.deterministic = true;
      auto d = stats::decide_by_threshold(*out.change, policy,
                                          format_change_precise(*out.change) + " against GOOD");
      out.step = d.verdict == stats::Verdict::kRegressed ? BisectStep::kBad : BisectStep::kGood;
      out.reason = d.reason;
      return out;
    }
    // Wall: an A/B against GOOD; a step it cannot decide is measured once
    // more with twice the pairs, then left undecided rather than guessed.
    const std::string& good = binaries_.at(0);
    int pairs = f_.pairs;
    for (int attempt = 0; attempt < 2; ++attempt, pairs *= 2) {
      std::string error;
      auto run = wall_ab(good, b.binary, pairs, f_.seed + position + 1000 * attempt, error);
      if (!run) {
        out.reason = error;
        return out;
      }
      const MetricRun* m = metric_of(*run);
      if (!m) {
        out.reason = "the wall meter gave no " + report_.metric + " for " + f_.benchmark;
        return out;
      }
      out.ab = *run;
      out.pairs += static_cast<int>(m->a.size()) +
                   (m->confirmation ? static_cast<int>(m->confirmation->a.size()) : 0);
      out.value = m->comparison.b.median;
      out.change = m->comparison.change();
      out.reason = m->decision.reason;
      if (!entry(0).value) entry(0).value = m->comparison.a.median;
      switch (m->decision.verdict) {
        case stats::Verdict::kRegressed:
          out.step = BisectStep::kBad;
          return out;
        case stats::Verdict::kImproved:
        case stats::Verdict::kUnchanged:
          out.step = BisectStep::kGood;
          return out;
        case stats::Verdict::kNoisy:
          out.step = BisectStep::kUndecided;
          break;
      }
      if (attempt == 0)
        say(fmt::format("{}: undecided at {} pairs ({}); measuring again with {}",
                        short_hash(entry(position).commit), pairs, m->decision.reason, pairs * 2));
    }
    return out;
  }

  BisectStep probe(std::size_t index) {
    const std::size_t position = index + 1;
    BisectCommit& c = entry(position);
    say(fmt::format("step {} (at most {} without skips): {} {} \"{}\"", probes_ + 1,
                    report_.max_builds, position == range_.size() ? "BAD" : "commit",
                    short_hash(c.commit), c.subject));
    Built b = build(position);
    Measured m = measure_step(position, b);
    c.probe = ++probes_;
    c.status = std::string(to_string(m.step));
    c.reason = m.reason;
    c.value = m.value;
    c.change = m.change;
    c.result = std::move(m.result);
    c.pairs = m.pairs;
    if (m.ab) {
      if (const MetricRun* mr = metric_of(*m.ab)) {
        c.samples = mr->b;
        c.good_samples = mr->a;
      }
      ab_runs_[position] = std::move(*m.ab);
    }
    say(fmt::format("{}: {}{}", short_hash(c.commit), c.status,
                    c.reason.empty() ? "" : " (" + first_line(c.reason) + ")"));
    return m.step;
  }

  void conclude(const BisectSearchResult& found) {
    switch (found.outcome) {
      case BisectOutcome::kFound:
        explain_culprit(found.first_bad + 1);
        break;
      case BisectOutcome::kNoRegression:
        report_.outcome = "no_regression";
        report_.summary = fmt::format(
            "No commit in {}..{} regressed {} beyond {} ({} {}): BAD itself is within it.",
            short_hash(report_.good_commit), short_hash(report_.bad_commit), f_.benchmark,
            format_threshold(report_.threshold), report_.kind, report_.metric);
        break;
      case BisectOutcome::kSkippedRange:
      case BisectOutcome::kUndecided: {
        const bool skipped = found.outcome == BisectOutcome::kSkippedRange;
        report_.outcome = std::string(to_string(found.outcome));
        for (std::size_t i = found.lo; i <= found.hi; ++i)
          report_.range.push_back(range_[i].commit);
        report_.range_may_be_none = found.may_be_none;
        report_.summary = fmt::format(
            "The first commit that regressed {} could not be pinned: {}; it is one of the {} "
            "commit(s) {}..{}{}.",
            f_.benchmark,
            skipped ? "the commits left to try could not be measured (skipped)"
                    : "a wall-time step stayed undecided (noisy) after a second measurement",
            report_.range.size(), short_hash(report_.range.front()),
            short_hash(report_.range.back()), found.may_be_none ? ", or none of them" : "");
        break;
      }
    }
  }

  // The first bad commit against the one before it: the values, the
  // callgrind per-symbol diff and the contracts of both binaries.
  void explain_culprit(std::size_t position) {
    report_.outcome = "found";
    BisectCulprit c;
    const BisectCommit& bad = entry(position);
    const BisectCommit& parent = entry(position - 1);
    c.commit = bad.commit;
    c.subject = bad.subject;
    c.merge = commit_parents(top_, bad.commit).size() > 1;
    c.parent = parent.commit;
    c.parent_subject = parent.subject;
    const std::string& binary = binaries_.at(position);
    const std::string& parent_binary = binaries_.at(position - 1);

    BenchmarkRun run;
    run.name = f_.benchmark;
    std::optional<BenchmarkResult> cg_parent, cg_bad;
    if (report_.kind == "callgrind") {
      cg_parent = parent.result;
      cg_bad = bad.result;
      c.value_parent = *parent.value;
      c.value = *bad.value;
      c.method = "callgrind, one deterministic count each";
      MetricRun m;
      m.kind = "callgrind";
      m.metric = "ir";
      m.policy.threshold = report_.threshold;
      m.policy.deterministic = true;
      m.a = {c.value_parent};
      m.b = {c.value};
      m.comparison = stats::compare_deterministic(m.a, m.b);
      m.decision = stats::decide_by_threshold(
          m.comparison.change(), m.policy,
          format_change_precise(m.comparison.change()) + " (deterministic)");
      m.first_decision = m.decision;
      run.metrics.push_back(std::move(m));
    } else {
      // Against its parent directly: the steps compared each commit with GOOD.
      std::string error;
      std::optional<BenchmarkRun> ab =
          position == 1 ? std::optional<BenchmarkRun>(ab_runs_.at(position))
                        : wall_ab(parent_binary, binary, f_.pairs, f_.seed, error);
      const MetricRun* m = ab ? metric_of(*ab) : nullptr;
      if (m) {
        run = *ab;
        c.value_parent = m->comparison.a.median;
        c.value = m->comparison.b.median;
        c.method = fmt::format("wall A/B of the parent against it, {} pairs: {}", m->a.size(),
                               m->decision.reason);
      } else {
        c.value_parent = parent.value.value_or(0);
        c.value = bad.value.value_or(0);
        c.method =
            "the steps' A/Bs against GOOD (the A/B against the parent failed: " + error + ")";
      }
      std::string e1, e2;
      cg_parent = callgrind_run(parent_binary, e1);
      if (cg_parent) cg_bad = callgrind_run(binary, e2);
      if (!cg_parent || !cg_bad)
        c.explanation_error = "no callgrind run for the per-symbol diff: " + e1 + e2;
    }
    c.ratio = c.value_parent != 0 ? c.value / c.value_parent : 1;
    run.detail_a = cg_parent;
    run.detail_b = cg_bad;
    auto contracts_parent = check_config_contracts(config_, parent_binary);
    auto contracts_bad = check_config_contracts(config_, binary);
    c.explanation = analysis::explain(run, contracts_parent, contracts_bad);
    report_.summary = fmt::format(
        "The first commit that made {} slower than GOOD beyond {} ({} {}) is {} \"{}\": {} -> {} "
        "against its parent {} ({}).",
        f_.benchmark, format_threshold(report_.threshold), report_.kind, report_.metric,
        short_hash(c.commit), c.subject, format_value(report_.metric, c.value_parent),
        format_value(report_.metric, c.value), short_hash(c.parent),
        format_change_precise(c.ratio - 1));
    report_.first_bad = std::move(c);
  }

  int write() {
    report_.tool_version = tool_version();
    report_.created = utc_timestamp();
    report_.machine = collect_fingerprint();
    report_.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    fs::path json_path;
    if (!f_.out.empty()) {
      json_path = fs::absolute(f_.out);
    } else {
      std::string bench;
      for (char ch : f_.benchmark) bench += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      json_path = reports_ / fmt::format("bisect-{}-{}-{}.json", short_hash(report_.good_commit),
                                         short_hash(report_.bad_commit), bench);
    }
    fs::path md_path = json_path;
    md_path.replace_extension(".md");
    std::error_code ec;
    fs::create_directories(json_path.parent_path(), ec);
    if (ec)
      throw Error("cannot create the reports folder " + json_path.parent_path().string() + ": " +
                  ec.message());
    write_file_atomic(json_path, nlohmann::json(report_).dump(2) + "\n");
    const std::string md = report::render_bisect_markdown(report_);
    write_file_atomic(md_path, md);
    if (!f_.quiet) fmt::print("{}", md);
    fmt::print(stderr, "perfci {}: {} {}; {} builds ({} fresh); report in {} and {}\n", kCommand,
               report_.outcome, report_.first_bad ? short_hash(report_.first_bad->commit) : "",
               report_.builds, report_.fresh_builds, json_path.string(), md_path.string());
    // Every measured commit goes into the results database, after the report exists.
    std::map<std::string, std::string> binaries;
    for (const auto& [position, binary] : binaries_)
      binaries[report_.commits.at(position).commit] = binary;
    record_bisect(f_, config_, report_, binaries, top_);
    return report_.exit_code();
  }

  const BisectFlags& f_;
  std::chrono::steady_clock::time_point start_;
  std::optional<Config> config_;
  SuiteConfig suite_;
  fs::path reports_;
  fs::path top_;
  std::vector<CommitSubject>
      range_;  // the candidates: GOOD..BAD with subjects, oldest first, BAD last
  RevisionBuildOptions build_;
  MeasureOptions measure_;
  std::map<std::size_t, std::string> binaries_;  // by position, the commits that built
  std::map<std::size_t, BenchmarkRun> ab_runs_;  // wall: each step's A/B against GOOD
  int probes_ = 0;
  BisectReport report_;
};

}  // namespace

std::pair<std::string, std::string> bisect_metric(const std::string& flag, bool has_callgrind) {
  if (flag.empty())
    return has_callgrind ? std::pair<std::string, std::string>{"callgrind", "ir"}
                         : std::pair<std::string, std::string>{"wall", "real_time_ns"};
  if (flag == "callgrind" || flag == "callgrind/ir") return {"callgrind", "ir"};
  if (flag == "wall" || flag == "wall/real_time_ns") return {"wall", "real_time_ns"};
  if (flag == "wall/cpu_time_ns") return {"wall", "cpu_time_ns"};
  throw Error("--metric: '" + flag +
              "' is not a metric bisect measures: callgrind/ir (deterministic counts), "
              "wall/real_time_ns or wall/cpu_time_ns (an interleaved A/B per step)");
}

int run_bisect_session(const BisectFlags& flags) { return Bisector(flags).run(); }

}  // namespace perfci::app
