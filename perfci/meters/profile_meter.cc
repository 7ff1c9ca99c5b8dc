#include "perfci/meters/profile_meter.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>

#include "perfci/meters/callgrind_meter.h"
#include "perfci/meters/profile_process.h"
#include "perfci/util/elf_symbolizer.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/json_fields.h"
#include "perfci/util/process_maps.h"

namespace perfci {
namespace {

void keep_top(ProfileResult& p, std::size_t top) {
  std::sort(p.symbols.begin(), p.symbols.end(), [](const SymbolShare& a, const SymbolShare& b) {
    return a.samples != b.samples ? a.samples > b.samples : a.symbol < b.symbol;
  });
  if (p.symbols.size() > top) p.symbols.resize(top);
}

}  // namespace

ProfileResult symbolize_hook_profile(const nlohmann::json& profile, std::size_t top_symbols) {
  ProfileResult out;
  out.source = "cpu-clock";
  {
    Fields f(profile, "the hook's report", "profile");
    out.lost = f.count("lost");
    auto maps = parse_process_maps(f.str("maps"));
    std::map<std::string, std::unique_ptr<ElfSymbolizer>> files;
    std::map<std::pair<std::string, std::string>, std::uint64_t>
        counts;  // (function, inlined_into)
    const nlohmann::json& ips = f.array("ips");
    for (std::size_t i = 0; i < ips.size(); ++i) {
      const nlohmann::json& entry = ips[i];
      auto count = [](const nlohmann::json& v) {
        return v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0);
      };
      if (!entry.is_array() || entry.size() != 2 || !count(entry[0]) || !count(entry[1]))
        throw Error(f.where("ips", i) + ": expected [address, samples]");
      auto ip = entry[0].get<std::uint64_t>();
      auto n = entry[1].get<std::uint64_t>();
      out.samples += n;
      std::pair<std::string, std::string> key{"[unknown]", ""};
      if (auto where = locate_address(maps, ip)) {
        key.first = "[unknown in " + std::filesystem::path(where->path).filename().string() + "]";
        auto& sym = files[where->path];
        if (!sym) {
          try {
            sym = std::make_unique<ElfSymbolizer>(where->path);
          } catch (const Error&) {
            // A file deleted or replaced since the run: its samples stay unnamed.
          }
        }
        if (sym) {
          if (auto vaddr = sym->vaddr_for_offset(where->file_offset)) {
            if (auto s = sym->symbolize(*vaddr)) {
              key.first = s->function;
              if (s->inlined) key.second = s->symbol;
            }
          }
        }
      }
      counts[key] += n;
    }
    for (const auto& [key, n] : counts)
      out.symbols.push_back(
          {key.first, out.samples ? static_cast<double>(n) / static_cast<double>(out.samples) : 0,
           n, key.second});
  }
  keep_top(out, top_symbols);
  return out;
}

ProfileResult profile_from_callgrind(const CallgrindResult& callgrind, std::size_t top_symbols) {
  ProfileResult out;
  out.source = "callgrind";
  for (const auto& f : callgrind.functions) out.samples += f.self_ir;
  // Shares of the whole region: functions cut from the top list still count.
  std::uint64_t total = std::max(out.samples, callgrind.total_ir);
  out.samples = total;
  for (const auto& f : callgrind.functions)
    if (f.self_ir > 0)
      out.symbols.push_back(
          {f.name, total ? static_cast<double>(f.self_ir) / static_cast<double>(total) : 0,
           f.self_ir, ""});
  keep_top(out, top_symbols);
  return out;
}

BenchmarkResult run_profile_meter(const std::string& binary, const std::string& name,
                                  const ProfileOptions& o) {
  // Without the hook (its symbol, or its report) the process is sampled
  // from outside.
  if (!binary_has_hook(binary)) return run_profile_process_mode(binary, name, o);
  BenchmarkResult b;
  b.name = name;
  TempDir dir("perfci-prof");
  std::string hook_out = (dir.path() / "hook.json").string();
  std::vector<std::string> args{"--benchmark_filter=" + exact_filter(name),
                                "--benchmark_format=json"};
  if (o.min_time) {
    std::ostringstream t;
    t << *o.min_time;
    args.push_back("--benchmark_min_time=" + t.str());
  }
  auto r = run_subprocess(benchmark_process(
      binary, args, o.conditions,
      {{"PERFCI_PROFILE", std::to_string(o.period_ns)}, {"PERFCI_HOOK_OUT", hook_out}}));
  if (!r.ok()) {
    b.error = failure_message("profile run of " + name + ":", r);
    return b;
  }
  if (!std::filesystem::exists(hook_out)) return run_profile_process_mode(binary, name, o);
  try {
    auto hook = nlohmann::json::parse(read_file(hook_out));
    if (!hook.contains("profile")) throw Error("the hook's report has no profile");
    b.profile = symbolize_hook_profile(hook["profile"], o.top_symbols);
    if (b.profile->samples == 0) {
      std::string why = hook.contains("errors") && !hook["errors"].empty()
                            ? hook["errors"].dump()
                            : "the region ran for less than one sampling period";
      b.profile.reset();
      b.error = "profile run of " + name + ": no samples (" + why + ")";
    }
  } catch (const Error& e) {
    b.error = "profile run of " + name + ": " + e.what();
  } catch (const nlohmann::json::exception& e) {
    b.error = "profile run of " + name + ": unreadable hook report: " + e.what();
  }
  return b;
}

}  // namespace perfci
