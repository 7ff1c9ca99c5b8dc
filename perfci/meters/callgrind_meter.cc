#include "perfci/meters/callgrind_meter.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "perfci/meters/alloc_bytes.h"
#include "perfci/meters/callgrind_counts.h"
#include "perfci/meters/callgrind_output.h"
#include "perfci/meters/callgrind_process.h"
#include "perfci/util/elf_symbolizer.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/json_fields.h"
#include "perfci/util/strings.h"

namespace perfci {
namespace {

// hook_absent: the hook wrote no report or measured no region, so the
// benchmark does not use it and auto mode measures it hook-free.
BenchmarkResult run_hook_mode(const std::string& binary, const std::string& name,
                              const CallgrindOptions& o, bool* hook_absent) {
  BenchmarkResult b;
  b.name = name;
  // Same-length paths every run (mkdtemp), so the environment's size, and
  // with it the stack layout, does not vary between runs.
  TempDir dir("perfci-cg");
  std::string cg_out = (dir.path() / "callgrind.out").string();
  std::string hook_out = (dir.path() / "hook.json").string();
  std::vector<std::string> args{"--tool=callgrind",     "--instr-atstart=no",
                                "--collect-atstart=no", "--compress-strings=no",
                                "--compress-pos=no",    "--callgrind-out-file=" + cg_out};
  for (auto& a : cache_sim_args(o)) args.push_back(std::move(a));
  args.push_back(binary);
  // valgrind is the process here: the binary's own arguments follow it.
  args.insert(args.end(), o.conditions.args.begin(), o.conditions.args.end());
  args.insert(args.end(), {"--benchmark_filter=" + exact_filter(name),
                           // The first one-iteration run already exceeds a
                           // nanosecond, so each repetition is exactly
                           // one iteration, whatever valgrind's speed.
                           "--benchmark_min_time=0.000000001",
                           "--benchmark_repetitions=" + std::to_string(o.iterations),
                           "--benchmark_format=json"});
  ProcessConditions valgrind_conditions = o.conditions;
  valgrind_conditions.args.clear();
  auto opts = benchmark_process(o.valgrind, args, valgrind_conditions,
                                {{"PERFCI_CALLGRIND", "1"}, {"PERFCI_HOOK_OUT", hook_out}});
  auto r = run_subprocess(opts);
  if (!r.ok()) {
    b.error = failure_message("callgrind run of " + name + ":", r);
    return b;
  }
  if (!std::filesystem::exists(hook_out)) {
    *hook_absent = true;
    b.error = "callgrind run of " + name +
              ": the hook wrote no report; the benchmark must use perfci::BenchHook";
    return b;
  }
  try {
    auto hook = nlohmann::json::parse(read_file(hook_out));
    Fields report(hook, hook_out);
    Fields counts(report.object("callgrind"), report.where("callgrind"));
    std::uint64_t regions = counts.count("regions");
    std::uint64_t iterations = counts.count("iterations");
    if (regions == 0 || iterations == 0) {
      *hook_absent = true;
      b.error = "callgrind run of " + name +
                ": the hook measured no region; the benchmark must use perfci::BenchHook";
      return b;
    }
    CallgrindProfile profile = parse_callgrind_output(read_file(cg_out), cg_out);
    CallgrindResult c;
    set_per_iteration_counts(c, profile_counts(profile), nullptr, iterations);
    c.iterations = iterations;
    c.total_ir = profile.total_ir;
    c.ir_per_iteration = static_cast<double>(profile.total_ir) / static_cast<double>(iterations);
    profile.functions.resize(std::min(profile.functions.size(), o.top_functions));
    c.functions = std::move(profile.functions);
    c.mode = "hook";
    b.iterations = static_cast<std::int64_t>(iterations);
    b.callgrind = std::move(c);
  } catch (const Error& e) {
    b.error = "callgrind run of " + name + ": " + e.what();
  } catch (const nlohmann::json::exception& e) {
    b.error = "callgrind run of " + name + ": the hook's report " + hook_out +
              " is unreadable: " + e.what();
  }
  return b;
}

}  // namespace

const std::vector<std::string>& callgrind_modes() {
  static const std::vector<std::string> modes{"auto", "hook", "process"};
  return modes;
}

std::vector<std::string> cache_sim_args(const CallgrindOptions& o) {
  if (!o.cache_sim) return {};
  return {"--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"};
}

bool binary_has_hook(const std::string& binary) {
  try {
    return ElfSymbolizer(binary).find_symbol("_ZN6perfci9BenchHook5startEv").has_value();
  } catch (const Error&) {
    return false;  // not ELF: the run itself will say what is wrong
  }
}

BenchmarkResult run_callgrind_meter(const std::string& binary, const std::string& name,
                                    const CallgrindOptions& o) {
  if (std::find(callgrind_modes().begin(), callgrind_modes().end(), o.mode) ==
      callgrind_modes().end())
    throw Error("unknown callgrind mode '" + o.mode + "' (auto, hook or process)");
  BenchmarkResult b;
  bool hook_absent = false;
  if (o.mode == "process" || (o.mode == "auto" && !binary_has_hook(binary)))
    b = run_callgrind_process_mode(binary, name, o);
  else
    b = run_hook_mode(binary, name, o, &hook_absent);
  if (o.mode == "auto" && hook_absent) b = run_callgrind_process_mode(binary, name, o);
  if (!b.callgrind) return b;
  if (b.callgrind->mode == "hook") {
    measure_alloc_bytes(binary, name, o, *b.callgrind);
  } else if (b.callgrind->allocations) {
    b.callgrind->allocations->bytes_unmeasured =
        "bytes per iteration need perfci::BenchHook's region: hook-free, a native run shows "
        "no iteration's bounds";
  }
  return b;
}

}  // namespace perfci
