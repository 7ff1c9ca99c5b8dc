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

// The wall meter's view of the same rows: each benchmark's repetitions
// merged, weighted by iterations; skipped by itself counts as failed, since
// perfci asked for it.
std::vector<GbenchRun> parse_gbench_json(const std::string& text, const std::string& origin) {
  std::vector<GbenchRun> runs;
  for (const GbenchSamples& s : parse_gbench_samples(text, origin).benchmarks) {
    GbenchRun run;
    run.name = s.name;
    run.error = !s.error.empty()     ? s.error
                : !s.skipped.empty() ? "skipped by the benchmark: " + s.skipped
                                     : "";
    if (run.error.empty()) {
      double total = 0;
      for (std::size_t i = 0; i < s.iterations.size(); ++i) {
        const auto n = static_cast<double>(s.iterations[i]);
        total += n;
        run.real_time_ns += s.real_time_ns[i] * n;
        run.cpu_time_ns += s.cpu_time_ns[i] * n;
        run.iterations += s.iterations[i];
      }
      if (total > 0) {
        run.real_time_ns /= total;
        run.cpu_time_ns /= total;
      }
      for (const auto& [key, values] : s.counters) {
        double sum = 0, weight = 0;
        for (std::size_t i = 0; i < values.size() && i < s.iterations.size(); ++i) {
          sum += values[i] * static_cast<double>(s.iterations[i]);
          weight += static_cast<double>(s.iterations[i]);
        }
        if (weight > 0) run.counters[key] = sum / weight;
      }
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace perfci
