#include "perfci/bench/hook_state.h"

#include <dlfcn.h>
#include <valgrind/valgrind.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace perfci {
namespace {

HookSettings read_settings() {
  HookSettings s;
  if (const char* events = std::getenv("PERFCI_EVENTS")) {
    std::stringstream list(events);
    std::string name;
    while (std::getline(list, name, ',')) {
      if (name.empty()) continue;
      std::string error;
      if (auto ev = try_resolve_event(name, &error))
        s.events.push_back(*ev);
      else
        s.unknown_events.emplace_back(name, error);
    }
  }
  const char* cg = std::getenv("PERFCI_CALLGRIND");
  s.callgrind = cg && std::string(cg) == "1" && RUNNING_ON_VALGRIND;
  if (const char* p = std::getenv("PERFCI_PROFILE"))
    s.profile_period_ns = std::strtoull(p, nullptr, 10);
  if (const char* out = std::getenv("PERFCI_HOOK_OUT")) s.out_path = out;
  const char* alloc = std::getenv("PERFCI_ALLOC");
  s.alloc = alloc && std::string(alloc) == "1";
  if (s.alloc) {
    s.alloc_totals = reinterpret_cast<decltype(s.alloc_totals)>(
        dlsym(RTLD_DEFAULT, "perfci_alloc_counter_totals"));
    if (!s.alloc_totals)
      s.alloc_error =
          "PERFCI_ALLOC=1 but the allocation counter is not loaded (LD_PRELOAD="
          "libperfci_alloc_counter.so), or the binary's own allocator comes before it";
  }
  return s;
}

std::string read_self_maps() {
  std::ifstream in("/proc/self/maps");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

const HookSettings& hook_settings() {
  static const HookSettings settings = read_settings();
  return settings;
}

HookState& HookState::get() {
  // Constructed on first use from a benchmark, destroyed after main returns:
  // that is when the report is complete.
  static HookState state;
  return state;
}

HookState::~HookState() { write_report(); }

void HookState::add_callgrind_region(std::uint64_t iterations) {
  std::lock_guard lock(mu_);
  ++callgrind_regions_;
  callgrind_iterations_ += iterations;
}

void HookState::add_alloc_region(std::uint64_t iterations, std::uint64_t calls,
                                 std::uint64_t bytes) {
  std::lock_guard lock(mu_);
  ++alloc_regions_;
  alloc_iterations_ += iterations;
  alloc_calls_ += calls;
  alloc_bytes_ += bytes;
}

CpuClockRing* HookState::sampler() {
  std::lock_guard lock(mu_);
  if (!sampler_tried_ && hook_settings().profile_period_ns > 0) {
    sampler_tried_ = true;
    sampler_ = std::make_unique<CpuClockRing>(hook_settings().profile_period_ns);
    sampler_->open(0);  // this thread, off until a timed region starts
    if (!sampler_->error().empty()) errors_.push_back(sampler_->error());
  }
  return sampler_ && sampler_->error().empty() ? sampler_.get() : nullptr;
}

void HookState::write_report() {
  const auto& settings = hook_settings();
  if (settings.out_path.empty()) return;
  std::lock_guard lock(mu_);
  nlohmann::json j;
  j["schema"] = "perfci.hook/1";
  j["callgrind"] = {{"regions", callgrind_regions_}, {"iterations", callgrind_iterations_}};
  if (settings.alloc) {
    j["allocations"] = {{"regions", alloc_regions_},
                        {"iterations", alloc_iterations_},
                        {"calls", alloc_calls_},
                        {"bytes", alloc_bytes_}};
    if (!settings.alloc_totals) j["allocations"]["error"] = settings.alloc_error;
  }
  if (settings.profile_period_ns > 0) {
    nlohmann::json profile;
    profile["period_ns"] = settings.profile_period_ns;
    profile["samples"] = sampler_ ? sampler_->samples() : 0;
    profile["lost"] = sampler_ ? sampler_->lost() : 0;
    nlohmann::json ips = nlohmann::json::array();
    if (sampler_)
      for (const auto& [ip, n] : sampler_->histogram()) ips.push_back({ip, n});
    profile["ips"] = std::move(ips);
    // Addresses are only meaningful with the layout of this very process.
    profile["maps"] = read_self_maps();
    j["profile"] = std::move(profile);
  }
  j["errors"] = errors_;
  std::ofstream out(settings.out_path, std::ios::trunc);
  out << j.dump() << "\n";
  if (!out) std::fprintf(stderr, "perfci hook: cannot write %s\n", settings.out_path.c_str());
}

}  // namespace perfci
