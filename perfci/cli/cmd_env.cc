// perfci env: the machine fingerprint and the status of every configured
// perf event on this machine.
#include <fmt/core.h>

#include <iostream>
#include <memory>

#include "perfci/app/run_settings.h"
#include "perfci/cli/commands.h"
#include "perfci/env/build_info.h"
#include "perfci/env/event_probe.h"
#include "perfci/env/fingerprint.h"
#include "perfci/util/error.h"
#include "perfci/util/strings.h"

namespace perfci::cli {
namespace {

struct EnvArgs {
  CommonFlags flags;
  TargetOptions target;
  bool json = false;
};

std::string opt_text(const nlohmann::json& v) {
  if (v.is_null()) return "not readable";
  if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

int run(const EnvArgs& a) {
  auto config = load_optional_config(a.flags);
  const std::vector<std::string> events =
      !a.flags.events.empty() ? split_list(a.flags.events) : measure_defaults(config).events;
  MachineFingerprint f = collect_fingerprint();
  nlohmann::json j = f;
  // The measured build, when one can be named.
  std::optional<BuildInfo> build;
  std::string binary;
  if (!a.target.binary.empty() || !a.target.build_dir.empty()) {
    binary = a.target.resolve_binary(a.flags, config);
    build = read_build_info(binary);
    j["build"] = *build;
    j["build"]["binary"] = binary;
  }
  auto probes = probe_events(events);
  j["events"] = probes;

  if (a.json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  fmt::print("cpu                  {} ({} logical CPUs, {} cores, SMT {})\n", f.cpu_model,
             f.logical_cpus, f.physical_cores, opt_text(j["smt_active"]));
  fmt::print("kernel               {}\n", f.kernel);
  fmt::print("hardware PMU         {}\n",
             f.hardware_pmu() ? "present (" + j["hardware_pmus"][0].get<std::string>() + ")"
                              : std::string("absent (/sys/bus/event_source/devices/cpu missing)"));
  fmt::print("perf_event_paranoid  {}\n", opt_text(j["perf_event_paranoid"]));
  fmt::print("ASLR                 {}\n", opt_text(j["aslr"]));
  fmt::print("cpufreq governor     {}\n", opt_text(j["cpufreq_governor"]));
  fmt::print("turbo                {}\n", opt_text(j["turbo"]));
  fmt::print("load average         {:.2f} {:.2f} {:.2f}\n", f.load_average[0], f.load_average[1],
             f.load_average[2]);
  fmt::print("valgrind             {}\n", f.valgrind.empty() ? "not found" : f.valgrind);
  fmt::print("libc                 {}\n", f.libc);
  if (build) {
    fmt::print("measured build       {}\n", binary);
    fmt::print("  compiler, flags    {}\n",
               build->producer.empty() ? "(no DWARF)" : build->producer);
    fmt::print("  build-id           {}\n", build->build_id.empty() ? "(none)" : build->build_id);
  }
  fmt::print("\n{:<24} {:<14} {}\n", "event", "status", "detail");
  for (const auto& p : probes)
    fmt::print("{:<24} {:<14} {}\n", p.name, to_string(p.reading.status), p.explanation);
  return 0;
}

}  // namespace

void add_env_command(CLI::App& app, CommandRunner* runner) {
  auto args = std::make_shared<EnvArgs>();
  auto* cmd =
      app.add_subcommand("env", "Show the machine fingerprint and which perf events work here");
  add_common_flags(cmd, args->flags, kEnvFlags);
  args->target.add_to(cmd);
  cmd->add_flag("--json", args->json, "Print the same facts as JSON");
  cmd->callback([runner, args] { *runner = [args] { return run(*args); }; });
}

}  // namespace perfci::cli
