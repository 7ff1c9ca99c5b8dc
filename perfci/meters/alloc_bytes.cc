#include "perfci/meters/alloc_bytes.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/json_fields.h"

namespace perfci {
namespace fs = std::filesystem;

std::vector<std::string> alloc_counter_candidates() {
  if (const char* env = std::getenv("PERFCI_ALLOC_COUNTER")) return {env};
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (!ec)
    out.push_back((exe.parent_path().parent_path() / PERFCI_ALLOC_COUNTER_INSTALLED).string());
  out.push_back(PERFCI_ALLOC_COUNTER_BUILT);
  return out;
}

std::string find_alloc_counter() {
  for (const auto& p : alloc_counter_candidates()) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
  }
  return "";
}

void measure_alloc_bytes(const std::string& binary, const std::string& name,
                         const CallgrindOptions& o, CallgrindResult& c) {
  if (!c.allocations) c.allocations = Allocations{};
  Allocations& a = *c.allocations;
  auto unmeasured = [&](std::string why) { a.bytes_unmeasured = std::move(why); };
  if (o.alloc_counter.empty()) {
    std::string looked;
    for (const auto& p : alloc_counter_candidates()) looked += (looked.empty() ? "" : ", ") + p;
    return unmeasured(
        "the allocation counter libperfci_alloc_counter.so was not found (looked "
        "for " +
        looked + "; set PERFCI_ALLOC_COUNTER)");
  }
  TempDir dir("perfci-alloc");
  const std::string hook_out = (dir.path() / "hook.json").string();
  std::vector<std::string> args = o.conditions.args;
  args.insert(
      args.end(),
      {"--benchmark_filter=" + exact_filter(name), "--benchmark_min_time=0.000000001",
       "--benchmark_repetitions=" + std::to_string(o.iterations), "--benchmark_format=json"});
  auto r = run_subprocess(benchmark_process(
      binary, args, o.conditions,
      {{"PERFCI_ALLOC", "1"}, {"PERFCI_HOOK_OUT", hook_out}, {"LD_PRELOAD", o.alloc_counter}}));
  if (!r.ok())
    return unmeasured(
        failure_message("the bytes run (native, allocation counter "
                        "preloaded) failed:",
                        r));
  try {
    auto hook = nlohmann::json::parse(read_file(hook_out));
    Fields report(hook, hook_out);
    if (!report.has("allocations"))
      return unmeasured(
          "the hook's report of the bytes run has no allocations (a hook older "
          "than perfci's allocation counter?)");
    Fields counts(report.object("allocations"), report.where("allocations"));
    if (counts.has("error")) return unmeasured(counts.str("error"));
    const std::uint64_t iterations = counts.count("iterations");
    if (counts.count("regions") == 0 || iterations == 0)
      return unmeasured("the hook measured no region in the bytes run");
    const double calls =
        static_cast<double>(counts.count("calls")) / static_cast<double>(iterations);
    // The counter sees only allocations through the dynamic allocator: a
    // binary with its own malloc linked in would read 0 bytes, not a count.
    if (calls == 0 && a.per_iteration > 0)
      return unmeasured(
          fmt::format("the allocation counter saw none of the allocations callgrind counted ({:g} "
                      "per iteration): the binary's allocator does not go through the dynamic "
                      "malloc",
                      a.per_iteration));
    a.bytes_per_iteration =
        static_cast<double>(counts.count("bytes")) / static_cast<double>(iterations);
    a.counted_per_iteration = calls;
  } catch (const Error& e) {
    unmeasured(std::string("the bytes run's hook report is unreadable: ") + e.what());
  } catch (const nlohmann::json::exception& e) {
    unmeasured(std::string("the bytes run's hook report is unreadable: ") + e.what());
  }
}

}  // namespace perfci
