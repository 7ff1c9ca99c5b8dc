// perfci check: build the project, run its suite, check the contracts and
// compare with the stored baseline of this profile; write
// reports/<commit>.json and reports/latest.{json,md,html}. Exit 0 (pass), 1
// (a gated regression or a broken contract), 2 (an error: no baseline, a
// corrupt one, a failed benchmark, bad input), 3 (not gated: nothing could
// be gated on this runner, so nothing was proven).
//
// When the stored baseline cannot gate callgrind Ir here (its toolchain or
// valgrind view differs: a CI runner of another CPU, issue 13), check
// builds a reference revision on this runner — --reference (a pull
// request's merge-base), else the baseline's commit — in compare's cached
// worktrees and gates Ir on that deterministic A/B instead.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <set>

#include "perfci/analysis/oracle_gap.h"
#include "perfci/app/check_session.h"
#include "perfci/app/history_recording.h"
#include "perfci/app/report_folder.h"
#include "perfci/baseline/baseline_store.h"
#include "perfci/check/baseline_comparison.h"
#include "perfci/check/comparability.h"
#include "perfci/cli/commands.h"
#include "perfci/env/build_info.h"
#include "perfci/env/fingerprint.h"
#include "perfci/runner/git_worktree.h"
#include "perfci/runner/revision.h"
#include "perfci/runner/shard_plan.h"
#include "perfci/util/error.h"

namespace perfci::cli {
namespace {

namespace fs = std::filesystem;
constexpr const char* kCommand = "check";

struct CheckArgs {
  SuiteFlags suite;
  std::string out;        // reports folder
  std::string reference;  // the in-runner reference revision; empty: the baseline's commit
  std::string shard;      // "K/N": measure only part K of N (perfci merge joins them)
  bool github = false;
};

bool measures(const PreparedSuite& p, const char* kind) {
  const auto& m = p.settings.meters;
  return std::find(m.begin(), m.end(), kind) != m.end();
}

// Builds the reference revision in a cached worktree and counts its
// callgrind Ir with the suite's settings. Whatever goes wrong is recorded
// in ref.error (callgrind then stays information only), never thrown: the
// stored baseline's other comparisons still stand.
RunResults measure_reference(const PreparedSuite& p, const CheckArgs& a,
                             const baseline::Baseline& base, perfci::CheckReference& ref) {
  const SuiteFlags& f = a.suite;
  ref.revision = !a.reference.empty() ? a.reference : base.provenance.commit;
  if (ref.revision.empty()) {
    ref.error = "the baseline records no commit to rebuild; give --reference REV";
    return {};
  }
  if (a.reference.empty() && base.provenance.dirty)
    ref.why += "; the baseline was taken with uncommitted changes on top of " +
               ref.revision.substr(0, 12) + ", and the reference is that commit as committed";
  try {
    RevisionBuildOptions o;
    o.repo = p.root;
    o.preset = p.preset;
    o.targets = p.config.build.targets;
    o.jobs = f.jobs;
    if (!f.quiet)
      o.progress = [](const std::string& s) { fmt::print(stderr, "perfci check: {}\n", s); };
    say(f, kCommand,
        "the stored baseline cannot gate callgrind here (" + ref.why + "): building " +
            ref.revision + " as the in-runner reference");
    RevisionBuild built = build_revision(ref.revision, o);
    ref.commit = built.commit;
    ref.build_dir = built.build_dir.string();
    ref.reused = built.reused;
    const std::string binary = (built.build_dir / p.suite.binary).string();
    check_binary(binary);
    // The A/B is only deterministic between builds of one toolchain.
    baseline::ProfileOptions po;
    po.libraries = p.check.libraries;
    po.build_dir = built.build_dir;
    auto profiles = baseline::compare_profiles(baseline::collect_profile(binary, po), p.profile);
    // Both builds run here under one valgrind: the view is the same by
    // construction (and an unknown one must not refuse every reference).
    std::erase_if(profiles.toolchain, [](const baseline::ProfileDifference& d) {
      return d.fact.rfind("valgrind view", 0) == 0;
    });
    if (!profiles.toolchain_matches()) {
      ref.error = "the reference build of " + ref.revision +
                  " has another toolchain than this run: " +
                  check::describe_differences(profiles.toolchain);
      return {};
    }
    MeasureOptions m = suite_measure_options(p, f, kCommand);
    m.meters = {"callgrind"};
    say(f, kCommand, "counting the reference " + ref.revision + " (" + binary + ")");
    return measure_binary(binary, m);
  } catch (const std::exception& e) {
    ref.error = std::string("could not build or measure ") + ref.revision + ": " + e.what();
    return {};
  }
}

// Exit 2 with the remedy: the exact command that makes the missing baseline.
[[noreturn]] void missing_baseline(const PreparedSuite& p, const SuiteFlags& f) {
  std::string msg = fmt::format("no baseline for profile {} (suite {}): {} does not exist.",
                                p.profile.id, p.suite.name, p.baseline_file.string());
  fs::path stored = baseline::baseline_path(p.check.baselines, p.profile.id, p.suite.name);
  std::error_code ec;
  if (stored != p.baseline_file && fs::exists(stored, ec))
    msg += "\n  perfci.json's baselines folder has one for this profile: " + stored.string() +
           " (drop --baseline to use it).";
  std::vector<std::string> others;
  for (const auto& o : baseline::stored_profiles(p.check.baselines, p.suite.name))
    if (o != p.profile.id) others.push_back(o);
  if (!others.empty()) {
    msg += "\n  Baselines of other profiles: " + fmt::format("{}", fmt::join(others, ", ")) +
           ".\n  Compare with one (its numbers then count only where the profiles agree):\n    " +
           self_command() + " check --baseline " +
           baseline::baseline_path(p.check.baselines, others.front(), p.suite.name).string();
  }
  msg += "\n  Create one for this profile with:\n    " +
         baseline_update_command(p, f, "first baseline for " + p.profile.id);
  throw Error(msg);
}

// A part's files are named for it, so that N parts land side by side and
// none overwrites the whole suite's latest.json.
std::string shard_suffix(const std::optional<ShardSpec>& shard) {
  return shard ? fmt::format(".shard-{}-of-{}", shard->index, shard->count) : "";
}

std::string report_stem(const PreparedSuite& p, const std::optional<ShardSpec>& shard) {
  std::string stem = commit_stem(p.commit, p.dirty);
  if (p.config.suites.size() > 1) stem += "-" + p.suite.name;
  return stem + shard_suffix(shard);
}

// --shard: this job's part of the plan every job computes alike (from the
// stored baseline's costs), and the baseline cut to that part. A baseline
// benchmark the binary no longer lists stays with shard 1, which reports it
// missing once.
ShardSection plan_shard(PreparedSuite& p, const ShardSpec& spec, baseline::Baseline& base) {
  auto names = list_benchmarks(p.binary, p.measure.filter, p.measure.conditions);
  ShardSection shard{
      spec, plan_shards(names, expected_costs(names, p.measure, &base.results), spec.count)};
  p.measure.names = shard.plan.names_of(spec.index);
  const std::set<std::string> all(names.begin(), names.end());
  const std::set<std::string> mine(p.measure.names.begin(), p.measure.names.end());
  std::erase_if(base.results.benchmarks, [&](const BenchmarkResult& b) {
    return !mine.count(b.name) && (all.count(b.name) || spec.index != 1);
  });
  return shard;
}

int run_check(const CheckArgs& a) {
  const SuiteFlags& f = a.suite;
  std::optional<ShardSpec> shard_spec;
  if (!a.shard.empty()) shard_spec = parse_shard(a.shard);  // before minutes of building
  PreparedSuite p = prepare_suite(f, kCommand);

  // The baseline is read before anything is measured: a missing or corrupt
  // one is an error that minutes of measuring cannot change.
  baseline::Baseline base;
  try {
    base = baseline::load_baseline(p.baseline_file);
  } catch (const baseline::MissingBaseline&) {
    missing_baseline(p, f);
  } catch (const baseline::CorruptBaseline& e) {
    throw Error(std::string("corrupt baseline: ") + e.what() +
                "\n  Nothing was compared. Restore the file (git checkout -- FILE) or replace it "
                "with:\n    " +
                baseline_update_command(p, f, "replace a corrupt baseline"));
  }
  auto mismatches = check::settings_mismatches(base.settings, p.settings);
  if (!mismatches.empty()) {
    std::string msg =
        "the baseline " + p.baseline_file.string() + " was measured with other suite settings:";
    for (const auto& m : mismatches) msg += "\n  " + m;
    msg += "\n  Its numbers are not comparable. Update it with:\n    " +
           baseline_update_command(p, f, "suite settings changed");
    throw Error(msg);
  }
  // So is --reference: a revision that cannot be one, or WORKTREE (this very
  // tree, which would be compared with itself), is refused now.
  if (!a.reference.empty()) {
    if (a.reference == kWorktreeRevision)
      throw Error("--reference WORKTREE would compare this tree with itself: name a commit");
    check_revision_syntax(a.reference);
    resolve_commit(git_toplevel(p.root), a.reference);
  }
  // Accepted entries are validated before measuring too: a typo costs seconds.
  auto entries = check::parse_accepted(p.config.raw, p.config.path.string());
  check::GitHistory git;
  git.resolve = [&p](const std::string& c) { return resolve_commit(git_toplevel(p.root), c); };
  git.is_ancestor = [&p](const std::string& x, const std::string& y) {
    return is_ancestor(git_toplevel(p.root), x, y);
  };
  auto accepted = check::resolve_accepted(entries, p.commit, base.provenance.commit, git,
                                          p.config.path.string());

  std::optional<ShardSection> shard;
  if (shard_spec) {
    shard = plan_shard(p, *shard_spec, base);
    auto seconds = shard->plan.shard_seconds();
    say(f, kCommand,
        fmt::format("shard {}: {} of {} benchmarks, expected {:.1f} s of {:.1f} s ({})",
                    format_shard(*shard_spec), p.measure.names.size(), shard->plan.entries.size(),
                    seconds[static_cast<std::size_t>(shard_spec->index - 1)],
                    std::accumulate(seconds.begin(), seconds.end(), 0.0),
                    fmt::join(p.measure.names, ", ")));
  }
  say(f, kCommand,
      fmt::format("measuring suite {} ({}) against {}", p.suite.name,
                  fmt::format("{}", fmt::join(p.settings.meters, ",")), p.baseline_file.string()));
  MeasuredSuite m = measure_suite(p, f, kCommand);

  check::CheckInputs in;
  // The fallback of issue 13: a baseline that cannot gate Ir on this runner
  // is replaced, for Ir alone, by a reference counted here.
  const auto profiles = baseline::compare_profiles(base.profile, p.profile);
  if (!m.results.incomplete && measures(p, "callgrind") &&
      !p.check.information_only_kind("callgrind") && !profiles.toolchain_matches()) {
    perfci::CheckReference ref;
    ref.why = "its " + check::describe_differences(profiles.toolchain);
    if (!p.check.fallback_compare)
      ref.error = "perfci.json's check.fallback is \"none\"";
    else
      in.reference_results = measure_reference(p, a, base, ref);
    if (!ref.error.empty()) say(f, kCommand, "no in-runner reference: " + ref.error);
    in.reference = std::move(ref);
  }
  in.baseline = std::move(base);
  in.baseline_file = p.baseline_file.lexically_relative(p.root).string();
  if (in.baseline_file.empty() || in.baseline_file.rfind("..", 0) == 0)
    in.baseline_file = p.baseline_file.string();
  in.profile = p.profile;
  in.settings = p.settings;
  in.current = std::move(m.results);
  if (in.current.context.contains("library_build_type"))
    in.profile.build_flavour["gbench_library_build_type"] =
        in.current.context["library_build_type"];
  in.contracts = m.contracts;
  in.commit = p.commit;
  in.dirty = p.dirty;
  in.accepted = std::move(accepted);
  in.oracle_pairs = analysis::oracle_pairs_from_config(p.config.raw, p.config.path.string());
  // The fingerprint measure_suite took, without the build facts (the report
  // keeps those per side): not a third collection.
  in.machine = in.current.environment;
  in.machine.erase("build");
  in.settings_json = settings_json(kCommand, p.config.path.string(), p.suite.name, p.measure);
  in.settings_json["build_dir"] = p.build_dir.string();
  in.settings_json["profile"] = p.profile;
  if (shard) in.settings_json["shard"] = format_shard(shard->spec);
  in.elapsed_seconds = m.elapsed_seconds;
  std::vector<std::string> warnings = provenance_warnings(
      "this run's binary", in.current.environment.value("build", nlohmann::json()),
      in.current.context);
  perfci::Report rep = check::compare_with_baseline(std::move(in), p.check);
  rep.shard = shard;
  rep.warnings = std::move(warnings);
  for (const auto& w : rep.warnings) fmt::print(stderr, "perfci check: warning: {}\n", w);

  fs::path out = a.out.empty() ? p.check.reports : fs::absolute(a.out);
  std::string latest =
      (p.config.suites.size() > 1 ? "latest-" + p.suite.name : "latest") + shard_suffix(shard_spec);
  const std::string stem = report_stem(p, shard_spec);
  const std::string md = write_report_folder(rep, out, stem, latest);
  const int rc =
      print_check_outcome(rep, kCommand, md, f.quiet, a.github,
                          fmt::format("reports in {}/{{{}.json, {}.json, {}.md, {}.html}}",
                                      out.string(), stem, latest, latest, latest));
  record_report(f, p.config, rep, kCommand, p.root);
  return rc;
}

}  // namespace

void add_check_command(CLI::App& app, CommandRunner* runner) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand(
      "check", "Build, run the suite, check the contracts and compare with the baseline");
  args->suite.add_to(cmd);
  add_common_flags(cmd, args->suite, kHistoryFlag);
  cmd->add_option("--out", args->out,
                  "Reports folder (default: perfci.json's check.reports, reports/)");
  cmd->add_option("--reference", args->reference,
                  "Revision to build and count here when the stored baseline cannot gate "
                  "callgrind on this runner, e.g. a pull request's merge-base (default: the "
                  "baseline's commit)");
  cmd->add_option("--shard", args->shard,
                  "Measure only part K of N (K/N, e.g. 2/3) of the suite, split by the "
                  "baseline's costs; each part writes a partial report, and `perfci merge` "
                  "joins them into one verdict");
  cmd->add_flag(
      "--github", args->github,
      "Print ::error annotations for GitHub Actions (on by default when GITHUB_ACTIONS=true)");
  cmd->callback([runner, args] { *runner = [args] { return run_check(*args); }; });
}

}  // namespace perfci::cli
