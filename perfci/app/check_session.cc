#include "perfci/app/check_session.h"

#include <fmt/format.h>

#include <chrono>

#include "perfci/app/contract_run.h"
#include "perfci/baseline/baseline_store.h"
#include "perfci/baseline/compiler_info.h"
#include "perfci/env/build_info.h"
#include "perfci/env/fingerprint.h"
#include "perfci/meters/measure.h"
#include "perfci/runner/cmake_build.h"
#include "perfci/runner/revision.h"
#include "perfci/util/error.h"
#include "perfci/util/subprocess.h"

namespace perfci::app {
namespace {

namespace fs = std::filesystem;

// --baseline FILE.json names the file; any other path a folder: a
// profile's folder when it holds <suite>.json, else a baselines root with
// <profile>/<suite>.json below it (created by baseline update when needed).
fs::path baseline_file_for(const SuiteFlags& f, const PreparedSuite& p) {
  if (f.baseline.empty())
    return baseline::baseline_path(p.check.baselines, p.profile.id, p.suite.name);
  fs::path given = fs::absolute(f.baseline).lexically_normal();
  if (given.extension() == ".json") return given;
  if (given.filename().empty()) given = given.parent_path();
  std::error_code ec;
  if (fs::exists(given / (p.suite.name + ".json"), ec)) return given / (p.suite.name + ".json");
  return baseline::baseline_path(given, p.profile.id, p.suite.name);
}

}  // namespace

void say(const SuiteFlags& flags, const char* command, const std::string& text) {
  if (!flags.quiet) fmt::print(stderr, "perfci {}: {}\n", command, text);
}

void SuiteFlags::add_to(CLI::App* cmd) {
  add_common_flags(cmd, *this, kSuiteRunFlags);
  cmd->add_option("--baseline", baseline,
                  "Baseline file (*.json), or a folder of them (default: perfci.json's "
                  "check.baselines/<profile>/<suite>.json)");
  cmd->add_option("--preset", preset,
                  "CMake preset to build with, and to build an in-runner reference with "
                  "(default: perfci.json's build.preset)");
  cmd->add_option("--build-dir", build_dir,
                  "Build folder (default: build/<preset> beside perfci.json)");
  cmd->add_flag("--no-build", no_build, "Use what the build folder holds; do not build");
  cmd->add_option("--jobs", jobs, "Parallel build jobs (default: CMake's)")
      ->check(CLI::Range(0, 1024));
}

PreparedSuite prepare_suite(const SuiteFlags& f, const char* command) {
  PreparedSuite p;
  fs::path config_path = f.config_path.empty() ? fs::path("perfci.json") : fs::path(f.config_path);
  std::error_code ec;
  if (!fs::exists(config_path, ec))
    throw Error(
        config_path.string() + ": no such file (perfci " + command +
        " needs the project's perfci.json: run it in the project's folder or give --config)");
  p.config = load_config(fs::absolute(config_path).lexically_normal());
  p.root = p.config.path.parent_path();
  p.suite = p.config.suite(f.suite);
  p.check = check::check_config_from(p.config);
  // The A/B's thresholds too: one perfci.json means the same to every command.
  MetricPolicies::from_config(p.config.raw, p.config.path.string());
  p.preset = f.preset.empty() ? p.config.build.preset : f.preset;
  p.build_dir = f.build_dir.empty() ? p.root / "build" / p.preset
                                    : fs::absolute(f.build_dir).lexically_normal();

  // Bad meters are refused before anything is built.
  p.measure = measure_options(&p.suite, f, {p.check.meters, p.config.events});
  p.settings.meters = p.measure.meters;
  for (const auto& m : p.settings.meters)
    if (m == "profile")
      throw Error("perfci " + std::string(command) +
                  " compares wall, counters and callgrind; the profile meter has no baseline (use "
                  "perfci compare)");

  if (!f.no_build) {
    CMakeBuildOptions o;
    o.preset = p.preset;
    o.targets = p.config.build.targets;
    o.jobs = f.jobs;
    auto configure = configure_command(p.root, p.build_dir, o.preset);
    say(f, command,
        "building " +
            (o.targets.empty() ? std::string("the default target")
                               : fmt::format("{}", fmt::join(o.targets, ", "))) +
            " in " + p.build_dir.string() + " (" + format_command(configure) + ")");
    configure_and_build(p.root, p.build_dir, configure, o);
  }
  p.binary = (p.build_dir / p.suite.binary).string();
  check_binary(p.binary);

  baseline::ProfileOptions po;
  po.libraries = p.check.libraries;
  po.build_dir = p.build_dir;
  p.profile = baseline::collect_profile(p.binary, po);

  p.settings.suite = p.suite.name;
  p.settings.binary = p.suite.binary;
  p.settings.args = p.measure.conditions.args;
  p.settings.filter = p.measure.filter;
  p.settings.callgrind_filter = p.measure.callgrind_filter;
  p.settings.callgrind_iterations = p.measure.callgrind_iterations;
  p.settings.min_time = p.measure.min_time;

  // The commit is that of the tree the binary was built from, which is not
  // this checkout when --build-dir names another worktree's build. Outside a
  // git repository there is no commit to record, which is allowed.
  fs::path source = baseline::read_cmake_build_settings(p.build_dir).source_dir;
  if (source.empty()) source = p.root;
  try {
    fs::path top = git_toplevel(source);
    p.commit = resolve_commit(top, "HEAD");
    p.dirty = worktree_is_dirty(top);
  } catch (const Error&) {
    p.commit.clear();
  }
  p.baseline_file = baseline_file_for(f, p);
  return p;
}

MeasureOptions suite_measure_options(const PreparedSuite& p, const SuiteFlags& f,
                                     const char* command) {
  MeasureOptions m = p.measure;
  if (!f.quiet) m.progress = progress_printer(command);
  return m;
}

MeasuredSuite measure_suite(const PreparedSuite& p, const SuiteFlags& f, const char* command) {
  MeasureOptions m = suite_measure_options(p, f, command);
  auto start = std::chrono::steady_clock::now();
  MeasuredSuite out;
  out.results = measure_binary(p.binary, m);
  nlohmann::json env = collect_fingerprint();
  BuildInfo build;
  build.producer = p.profile.toolchain.producer;
  build.build_id = p.profile.build_id;
  env["build"] = build;  // with what the producer says of -O and sanitizers
  out.results.environment = env;
  out.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Stopped by a signal: what was measured is reported, nothing more is done.
  if (out.results.incomplete) return out;
  if (p.config.raw.contains("contracts")) say(f, command, "checking the contracts on " + p.binary);
  out.contracts = check_config_contracts(p.config, p.binary);
  add_measured_contracts(out.contracts, p.config, p.binary, out.results);
  out.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::string self_command() {
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) return "perfci";
  fs::path rel = exe.lexically_relative(fs::current_path(ec));
  return !rel.empty() && rel.begin()->string() != ".." ? rel.string() : exe.string();
}

std::string baseline_update_command(const PreparedSuite& p, const SuiteFlags& f,
                                    const std::string& reason) {
  std::string self = self_command();
  std::vector<std::string> argv{self, "baseline", "update"};
  if (!f.config_path.empty()) argv.insert(argv.end(), {"--config", p.config.path.string()});
  if (!f.suite.empty() || p.config.suites.size() > 1)
    argv.insert(argv.end(), {"--suite", p.suite.name});
  if (!f.baseline.empty()) argv.insert(argv.end(), {"--baseline", p.baseline_file.string()});
  if (!f.preset.empty()) argv.insert(argv.end(), {"--preset", p.preset});
  if (!f.build_dir.empty()) argv.insert(argv.end(), {"--build-dir", p.build_dir.string()});
  if (f.no_build) argv.push_back("--no-build");
  if (!f.meters.empty()) argv.insert(argv.end(), {"--meter", f.meters});
  argv.insert(argv.end(), {"--reason", reason});
  return format_command(argv);
}

}  // namespace perfci::app
