#include "perfci/meters/gbench_output.h"

#include <nlohmann/json.hpp>
#include <set>

#include "perfci/util/error.h"

namespace perfci {

using nlohmann::json;

namespace {

double ns_per_unit(const std::string& unit, const std::string& where) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  throw Error(where + ": unknown time_unit '" + unit + "'");
}

const std::set<std::string>& standard_fields() {
  static const std::set<std::string> fields{
      "name",          "family_index",  "per_family_instance_index", "run_name", "run_type",
      "repetitions",   "repetition_index", "threads",                 "iterations", "real_time",
      "cpu_time",      "time_unit",     "aggregate_name",            "aggregate_unit",
      "error_occurred", "error_message", "label",                    "bytes_per_second",
      "items_per_second", "big_o",      "rms",                       "complexity_n"};
  return fields;
}

}  // namespace

std::vector<GbenchRun> parse_gbench_json(const std::string& text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(origin + ": Google Benchmark output is not valid JSON: " + e.what());
  }
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    throw Error(origin + ": Google Benchmark output has no \"benchmarks\" array");
  std::vector<GbenchRun> runs;
  std::map<std::string, std::size_t> index;
  const json& list = doc["benchmarks"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& b = list[i];
    std::string where = origin + ": benchmarks[" + std::to_string(i) + "]";
    if (!b.is_object() || !b.contains("name") || !b["name"].is_string())
      throw Error(where + ": no name");
    if (b.value("run_type", "iteration") == "aggregate") continue;
    std::string name = b.contains("run_name") && b["run_name"].is_string()
                           ? b["run_name"].get<std::string>()
                           : b["name"].get<std::string>();
    GbenchRun run;
    run.name = name;
    if (b.value("error_occurred", false)) {
      run.error = "the benchmark reported an error: " + b.value("error_message", std::string("(no message)"));
    } else {
      if (!b.contains("iterations") || !b["iterations"].is_number_integer())
        throw Error(where + ": no iterations");
      run.iterations = b["iterations"].get<std::int64_t>();
      double unit = ns_per_unit(b.value("time_unit", std::string("ns")), where);
      if (!b.contains("real_time") || !b["real_time"].is_number() || !b.contains("cpu_time") ||
          !b["cpu_time"].is_number())
        throw Error(where + ": no real_time / cpu_time");
      run.real_time_ns = b["real_time"].get<double>() * unit;
      run.cpu_time_ns = b["cpu_time"].get<double>() * unit;
    }
    for (const auto& [key, value] : b.items())
      if (value.is_number() && !standard_fields().count(key)) run.counters[key] = value.get<double>();

    auto it = index.find(name);
    if (it == index.end()) {
      index[name] = runs.size();
      runs.push_back(std::move(run));
      continue;
    }
    // Another repetition: merge weighted by iterations.
    GbenchRun& prev = runs[it->second];
    if (!run.error.empty()) prev.error = run.error;
    if (!prev.error.empty()) continue;
    double a = static_cast<double>(prev.iterations), bw = static_cast<double>(run.iterations);
    double total = a + bw;
    if (total <= 0) continue;
    prev.real_time_ns = (prev.real_time_ns * a + run.real_time_ns * bw) / total;
    prev.cpu_time_ns = (prev.cpu_time_ns * a + run.cpu_time_ns * bw) / total;
    for (auto& [k, v] : run.counters) {
      auto pc = prev.counters.find(k);
      prev.counters[k] = pc == prev.counters.end() ? v : (pc->second * a + v * bw) / total;
    }
    prev.iterations += run.iterations;
  }
  return runs;
}

std::vector<CounterResult> counters_from_gbench(const GbenchRun& run,
                                                const std::vector<std::string>& events) {
  bool any = false;
  for (const auto& [k, v] : run.counters)
    if (k.rfind("perf.", 0) == 0) any = true;
  if (!any) return {};
  std::vector<CounterResult> out;
  auto get = [&](const std::string& key) -> std::optional<double> {
    auto it = run.counters.find(key);
    if (it == run.counters.end()) return std::nullopt;
    return it->second;
  };
  for (const auto& e : events) {
    std::string base = "perf." + e;
    CounterResult c;
    c.event = e;
    if (auto v = get(base)) {
      c.per_iteration = *v;
      c.per_transaction = get(base + "/txn");
      auto scale = get(base + ".scale");
      c.status = scale ? EventStatus::kMultiplexed : EventStatus::kOk;
      c.scale = scale.value_or(1.0);
    } else if (auto err = get(base + ".unsupported")) {
      c.status = EventStatus::kUnsupported;
      c.error = static_cast<int>(*err);
    } else if (auto perm = get(base + ".no_permission")) {
      c.status = EventStatus::kNoPermission;
      c.error = static_cast<int>(*perm);
    } else if (get(base + ".unknown")) {
      c.status = EventStatus::kUnknown;
    } else {
      // Opened but never scheduled, or absent altogether: no value either way.
      c.status = EventStatus::kNotCounted;
    }
    out.push_back(c);
  }
  return out;
}

std::optional<double> transactions_from_gbench(const GbenchRun& run) {
  auto it = run.counters.find("perf.transactions");
  if (it == run.counters.end()) return std::nullopt;
  return it->second;
}

}  // namespace perfci
