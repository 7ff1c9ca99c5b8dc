#include "perfci/meters/gbench_output.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "perfci/util/error.h"
#include "perfci/util/json_fields.h"

namespace perfci {

using nlohmann::json;

namespace {

std::optional<double> ns_per_unit(const std::string& unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return std::nullopt;
}

const std::set<std::string>& standard_fields() {
  static const std::set<std::string> fields{"name",
                                            "family_index",
                                            "per_family_instance_index",
                                            "run_name",
                                            "run_type",
                                            "repetitions",
                                            "repetition_index",
                                            "threads",
                                            "iterations",
                                            "real_time",
                                            "cpu_time",
                                            "time_unit",
                                            "aggregate_name",
                                            "aggregate_unit",
                                            "error_occurred",
                                            "error_message",
                                            "skipped",
                                            "skip_message",
                                            "label",
                                            "bytes_per_second",
                                            "items_per_second",
                                            "big_o",
                                            "rms",
                                            "complexity_n"};
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
  Fields top(doc, origin);
  std::vector<GbenchRun> runs;
  std::map<std::string, std::size_t> index;
  const json& list = top.array("benchmarks");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& b = list[i];
    Fields f(b, top.where("benchmarks", i));
    std::string name = f.str("name");
    if ((f.has("run_type") ? f.str("run_type") : "iteration") == "aggregate") continue;
    if (f.has("run_name") && b["run_name"].is_string()) name = f.str("run_name");
    GbenchRun run;
    run.name = name;
    if (f.has("skipped") && f.boolean("skipped") &&
        !(f.has("error_occurred") && f.boolean("error_occurred"))) {
      run.error = "skipped by the benchmark: " +
                  (f.has("skip_message") ? f.str("skip_message") : std::string("(no message)"));
    } else if (f.has("error_occurred") && f.boolean("error_occurred")) {
      run.error = "the benchmark reported an error: " +
                  (f.has("error_message") ? f.str("error_message") : std::string("(no message)"));
    } else {
      run.iterations = static_cast<std::int64_t>(f.count("iterations"));
      double unit = 1;
      if (f.has("time_unit")) {
        std::string u = f.str("time_unit");
        auto known = ns_per_unit(u);
        if (!known) f.fail("time_unit", "unknown time unit '" + u + "' (ns, us, ms or s)");
        unit = *known;
      }
      run.real_time_ns = f.num("real_time") * unit;
      run.cpu_time_ns = f.num("cpu_time") * unit;
    }
    for (const auto& [key, value] : b.items())
      if (value.is_number() && !standard_fields().count(key))
        run.counters[key] = value.get<double>();

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

namespace {

json parse_document(const std::string& text, const std::string& origin) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(origin + ": Google Benchmark output is not valid JSON: " + e.what());
  }
}

}  // namespace

json parse_gbench_context(const std::string& text, const std::string& origin) {
  const json doc = parse_document(text, origin);
  Fields top(doc, origin);
  if (!top.has("context")) return json::object();
  if (!top.at("context").is_object()) top.fail("context", "expected an object");
  return top.at("context");
}

bool is_gbench_document(const json& doc) {
  return doc.is_object() && !doc.contains("schema") && doc.contains("benchmarks") &&
         doc["benchmarks"].is_array() && doc.contains("context") && doc["context"].is_object();
}

GbenchFile parse_gbench_samples(const std::string& text, const std::string& origin) {
  const json doc = parse_document(text, origin);
  Fields top(doc, origin);
  GbenchFile file;
  if (top.has("context")) {
    if (!top.at("context").is_object()) top.fail("context", "expected an object");
    file.context = top.at("context");
  }
  std::map<std::string, std::size_t> index;
  const json& list = top.array("benchmarks");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& b = list[i];
    Fields f(b, top.where("benchmarks", i));
    std::string name = f.str("name");
    if (f.has("run_name")) name = f.str("run_name");
    if (name.empty()) f.fail("name", "empty");
    auto [it, added] = index.try_emplace(name, file.benchmarks.size());
    if (added) {
      file.benchmarks.emplace_back();
      file.benchmarks.back().name = name;
    }
    GbenchSamples& s = file.benchmarks[it->second];
    const std::string type = f.has("run_type") ? f.str("run_type") : "iteration";
    if (type == "aggregate") {
      ++s.aggregates;
      continue;
    }
    if (type != "iteration") f.fail("run_type", "expected \"iteration\" or \"aggregate\"");
    if (f.has("error")) {  // a perfci results file's failed benchmark
      s.error = f.str("error");
      continue;
    }
    const bool error = f.has("error_occurred") && f.boolean("error_occurred");
    if (error) {
      s.error = "the benchmark reported an error: " +
                (f.has("error_message") ? f.str("error_message") : std::string("(no message)"));
      continue;
    }
    if (f.has("skipped") && f.boolean("skipped")) {
      s.skipped = f.has("skip_message")    ? f.str("skip_message")
                  : f.has("error_message") ? f.str("error_message")
                                           : std::string("(no message)");
      continue;
    }
    double unit = 1;
    if (f.has("time_unit")) {
      std::string u = f.str("time_unit");
      auto known = ns_per_unit(u);
      if (!known) f.fail("time_unit", "unknown time unit '" + u + "' (ns, us, ms or s)");
      unit = *known;
    }
    if (!f.has("real_time"))
      f.fail("real_time",
             "missing: the benchmark has no wall time (measured without the wall "
             "meter?)");
    s.iterations.push_back(static_cast<std::int64_t>(f.count("iterations")));
    s.real_time_ns.push_back(f.num("real_time") * unit);
    s.cpu_time_ns.push_back(f.num("cpu_time") * unit);
    for (const auto& [key, value] : b.items())
      if (value.is_number() && !standard_fields().count(key))
        s.counters[key].push_back(value.get<double>());
  }
  for (const GbenchSamples& s : file.benchmarks) {
    if (s.real_time_ns.empty() && s.error.empty() && s.skipped.empty() && s.aggregates > 0)
      throw Error(origin + ": benchmark " + s.name +
                  " has aggregate rows (mean, median, ...) only, no repetitions: run it "
                  "without --benchmark_report_aggregates_only so that each repetition is a "
                  "sample");
  }
  return file;
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
