#include "perfci/model/results.h"

#include <algorithm>
#include <csignal>

#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/interrupt.h"
#include "perfci/util/json_fields.h"
#include "perfci/version.h"

namespace perfci {

using nlohmann::json;

const CounterResult* BenchmarkResult::counter(std::string_view event) const {
  for (const auto& c : counters)
    if (c.event == event) return &c;
  return nullptr;
}

const BenchmarkResult* RunResults::find(std::string_view name) const {
  for (const auto& b : benchmarks)
    if (b.name == name) return &b;
  return nullptr;
}

bool RunResults::any_failed() const {
  return std::any_of(benchmarks.begin(), benchmarks.end(),
                     [](const BenchmarkResult& b) { return b.failed(); });
}

RunResults make_run_results() {
  RunResults r;
  r.schema = kResultsSchema;
  r.tool_version = kToolVersion;
  return r;
}

const std::vector<std::string>& callgrind_metrics() {
  static const std::vector<std::string> names{"ir",        "allocations", "allocated_bytes",
                                              "l1_misses", "ll_misses",   "estimated_cycles"};
  return names;
}

std::vector<MetricValue> metric_values(const BenchmarkResult& b) {
  std::vector<MetricValue> out;
  if (b.failed()) return out;
  if (b.real_time_ns) out.push_back({"wall", "real_time_ns", *b.real_time_ns, false});
  if (b.cpu_time_ns) out.push_back({"wall", "cpu_time_ns", *b.cpu_time_ns, false});
  for (const auto& c : b.counters)
    if (c.per_iteration) out.push_back({"counters", c.event, *c.per_iteration, false});
  if (b.callgrind) {
    const CallgrindResult& c = *b.callgrind;
    out.push_back({"callgrind", "ir", c.ir_per_iteration, true});
    if (c.allocations) {
      out.push_back({"callgrind", "allocations", c.allocations->per_iteration, true});
      if (c.allocations->bytes_per_iteration)
        out.push_back({"callgrind", "allocated_bytes", *c.allocations->bytes_per_iteration, true});
    }
    if (c.cache) {
      out.push_back({"callgrind", "l1_misses", c.cache->l1_misses(), true});
      out.push_back({"callgrind", "ll_misses", c.cache->ll_misses(), true});
      out.push_back(
          {"callgrind", "estimated_cycles", c.cache->estimated_cycles(c.ir_per_iteration), true});
    }
  }
  return out;
}

void to_json(json& j, const CounterResult& v) {
  j = json{{"event", v.event}, {"status", std::string(to_string(v.status))}};
  if (v.per_iteration) j["per_iteration"] = *v.per_iteration;
  if (v.per_transaction) j["per_transaction"] = *v.per_transaction;
  if (has_value(v.status)) j["scale"] = v.scale;
  if (v.error != 0) j["errno"] = v.error;
  if (v.mode != "hook") j["mode"] = v.mode;
  if (v.process_fixed) j["process_fixed"] = *v.process_fixed;
}

void to_json(json& j, const FunctionCost& v) {
  j = json{{"name", v.name},
           {"object", v.object},
           {"self_ir", v.self_ir},
           {"inclusive_ir", v.inclusive_ir}};
  if (v.self_l1_misses) j["self_l1_misses"] = *v.self_l1_misses;
  if (v.self_ll_misses) j["self_ll_misses"] = *v.self_ll_misses;
}

void to_json(json& j, const CallgrindResult& v) {
  j = json{{"iterations", v.iterations},
           {"total_ir", v.total_ir},
           {"ir_per_iteration", v.ir_per_iteration},
           {"functions", v.functions},
           {"mode", v.mode}};
  if (!v.entry.empty()) j["entry"] = v.entry;
  if (v.setup_ir) j["setup_ir"] = *v.setup_ir;
  if (!v.fit_iterations.empty()) j["fit_iterations"] = v.fit_iterations;
  if (v.allocations) {
    json sites = json::array();
    for (const auto& s : v.allocations->sites)
      sites.push_back({{"function", s.function}, {"per_iteration", s.per_iteration}});
    j["allocations"] = {{"per_iteration", v.allocations->per_iteration}, {"sites", sites}};
    if (v.allocations->bytes_per_iteration)
      j["allocations"]["bytes_per_iteration"] = *v.allocations->bytes_per_iteration;
    if (v.allocations->counted_per_iteration)
      j["allocations"]["counted_per_iteration"] = *v.allocations->counted_per_iteration;
    if (!v.allocations->bytes_unmeasured.empty())
      j["allocations"]["bytes_unmeasured"] = v.allocations->bytes_unmeasured;
  }
  if (v.cache)
    j["cache"] = {{"l1i_misses", v.cache->l1i_misses},
                  {"l1d_misses", v.cache->l1d_misses},
                  {"lli_misses", v.cache->lli_misses},
                  {"lld_misses", v.cache->lld_misses},
                  {"estimated_cycles", v.cache->estimated_cycles(v.ir_per_iteration)}};
}

void to_json(json& j, const SymbolShare& v) {
  j = json{{"symbol", v.symbol}, {"share", v.share}, {"samples", v.samples}};
  if (!v.inlined_into.empty()) j["inlined_into"] = v.inlined_into;
}

void to_json(json& j, const ProfileResult& v) {
  j = json{{"source", v.source}, {"samples", v.samples}, {"lost", v.lost}, {"symbols", v.symbols}};
  if (v.mode != "hook") j["mode"] = v.mode;
}

void to_json(json& j, const BenchmarkResult& v) {
  j = json{{"name", v.name}, {"iterations", v.iterations}};
  if (!v.error.empty()) j["error"] = v.error;
  if (v.real_time_ns) j["real_time_ns"] = *v.real_time_ns;
  if (v.cpu_time_ns) j["cpu_time_ns"] = *v.cpu_time_ns;
  if (v.real_time_ns && v.cpu_time_ns && v.error.empty()) {
    // Google Benchmark's names for the same numbers (see results.h).
    j["run_name"] = v.name;
    j["run_type"] = "iteration";
    j["real_time"] = *v.real_time_ns;
    j["cpu_time"] = *v.cpu_time_ns;
    j["time_unit"] = "ns";
  }
  if (v.transactions_per_iteration) j["transactions_per_iteration"] = *v.transactions_per_iteration;
  if (!v.counters.empty()) j["counters"] = v.counters;
  if (v.callgrind) j["callgrind"] = *v.callgrind;
  if (v.profile) j["profile"] = *v.profile;
  if (!v.cost_s.empty()) j["cost_s"] = v.cost_s;
}

std::string Incomplete::signal_name() const { return perfci::signal_name(signo); }

std::string Incomplete::reason() const {
  return "interrupted by " + signal_name() + " after " + std::to_string(completed) + " of " +
         std::to_string(planned) + " " + unit;
}

void to_json(json& j, const Incomplete& v) {
  j = json{{"signal", v.signal_name()},
           {"exit_code", v.exit_code()},
           {"completed", v.completed},
           {"planned", v.planned},
           {"unit", v.unit},
           {"reason", v.reason()}};
}

Incomplete incomplete_from_json(const json& j, const std::string& where) {
  Fields f(j, where);
  Incomplete v;
  const std::string sig = f.str("signal");
  if (sig == "SIGINT")
    v.signo = SIGINT;
  else if (sig == "SIGTERM")
    v.signo = SIGTERM;
  else
    f.fail("signal", "expected SIGINT or SIGTERM, got \"" + sig + "\"");
  v.completed = static_cast<int>(f.count("completed", 0, 1000000));
  v.planned = static_cast<int>(f.count("planned", 0, 1000000));
  v.unit = f.str("unit");
  if (v.unit != "benchmarks" && v.unit != "pairs") f.fail("unit", "expected benchmarks or pairs");
  return v;
}

void to_json(json& j, const RunResults& v) {
  j = json{{"schema", v.schema},        {"tool_version", v.tool_version},
           {"binary", v.binary},        {"meters", v.meters},
           {"events", v.events},        {"environment", v.environment},
           {"benchmarks", v.benchmarks}};
  if (!v.context.empty()) j["context"] = v.context;
  if (v.incomplete) j["incomplete"] = *v.incomplete;
}

namespace {

CounterResult counter_from_json(const json& j, const std::string& where) {
  Fields f(j, where);
  CounterResult c;
  c.event = f.str("event");
  auto status = event_status_from_string(f.str("status"));
  if (!status) f.fail("status", "unknown status '" + f.str("status") + "'");
  c.status = *status;
  if (f.has("per_iteration")) c.per_iteration = f.num("per_iteration");
  if (f.has("per_transaction")) c.per_transaction = f.num("per_transaction");
  if (has_value(c.status) != c.per_iteration.has_value())
    f.fail("per_iteration", has_value(c.status) ? "missing for a counted event"
                                                : "present although the event has no value");
  if (f.has("scale")) c.scale = f.num("scale");
  if (f.has("errno")) c.error = static_cast<int>(f.count("errno"));
  if (f.has("mode")) {
    c.mode = f.str("mode");
    if (c.mode != "hook" && c.mode != "process") f.fail("mode", "expected hook or process");
  }
  if (f.has("process_fixed")) c.process_fixed = f.num("process_fixed");
  return c;
}

CallgrindResult callgrind_from_json(const json& j, const std::string& where) {
  Fields f(j, where);
  CallgrindResult c;
  c.iterations = f.count("iterations");
  c.total_ir = f.count("total_ir");
  c.ir_per_iteration = f.num("ir_per_iteration");
  const json& fns = f.array("functions");
  for (std::size_t i = 0; i < fns.size(); ++i) {
    Fields g(fns[i], f.where("functions", i));
    FunctionCost fc{g.str("name"), g.str("object"), g.count("self_ir"), g.count("inclusive_ir")};
    if (g.has("self_l1_misses")) fc.self_l1_misses = g.count("self_l1_misses");
    if (g.has("self_ll_misses")) fc.self_ll_misses = g.count("self_ll_misses");
    c.functions.push_back(std::move(fc));
  }
  // Files written before issue 21 measured with the hook only.
  c.mode = f.has("mode") ? f.str("mode") : "hook";
  if (c.mode != "hook" && c.mode != "process")
    f.fail("mode", "expected \"hook\" or \"process\", got \"" + c.mode + "\"");
  if (f.has("entry")) c.entry = f.str("entry");
  if (f.has("setup_ir")) c.setup_ir = f.num("setup_ir");
  if (f.has("fit_iterations"))
    for (std::size_t i = 0; i < f.array("fit_iterations").size(); ++i) {
      const json& n = f.array("fit_iterations")[i];
      if (!n.is_number_unsigned() || n.get<std::uint64_t>() == 0)
        f.fail("fit_iterations", "expected iteration counts >= 1");
      c.fit_iterations.push_back(n.get<std::uint64_t>());
    }
  auto count = [](const Fields& g, const char* key) {
    const double v = g.num(key);
    if (!(v >= 0)) g.fail(key, "expected a count >= 0");
    return v;
  };
  if (f.has("allocations")) {
    Fields a(f.object("allocations"), f.where("allocations"));
    Allocations al;
    al.per_iteration = count(a, "per_iteration");
    const json& sites = a.array("sites");
    for (std::size_t i = 0; i < sites.size(); ++i) {
      Fields s(sites[i], a.where("sites", i));
      al.sites.push_back({s.str("function", false), count(s, "per_iteration")});
    }
    if (a.has("bytes_per_iteration")) al.bytes_per_iteration = count(a, "bytes_per_iteration");
    if (a.has("counted_per_iteration"))
      al.counted_per_iteration = count(a, "counted_per_iteration");
    if (a.has("bytes_unmeasured")) al.bytes_unmeasured = a.str("bytes_unmeasured");
    // Neither: a file written before bytes were measured.
    if (al.bytes_per_iteration && !al.bytes_unmeasured.empty())
      a.fail("bytes_unmeasured", "a figure and the reason there is none, both");
    c.allocations = std::move(al);
  }
  if (f.has("cache")) {
    Fields k(f.object("cache"), f.where("cache"));
    c.cache = CacheCounts{count(k, "l1i_misses"), count(k, "l1d_misses"), count(k, "lli_misses"),
                          count(k, "lld_misses")};
  }
  return c;
}

ProfileResult profile_from_json(const json& j, const std::string& where) {
  Fields f(j, where);
  ProfileResult p;
  p.source = f.str("source");
  if (p.source != "cpu-clock" && p.source != "callgrind")
    f.fail("source", "expected \"cpu-clock\" or \"callgrind\"");
  p.samples = f.count("samples");
  p.lost = f.has("lost") ? f.count("lost") : 0;
  if (f.has("mode")) {
    p.mode = f.str("mode");
    if (p.mode != "hook" && p.mode != "process") f.fail("mode", "expected hook or process");
  }
  const json& syms = f.array("symbols");
  for (std::size_t i = 0; i < syms.size(); ++i) {
    Fields g(syms[i], f.where("symbols", i));
    SymbolShare s{g.str("symbol"), g.num("share"), g.count("samples"), {}};
    if (g.has("inlined_into")) s.inlined_into = g.str("inlined_into");
    p.symbols.push_back(std::move(s));
  }
  return p;
}

}  // namespace

BenchmarkResult benchmark_result_from_json(const json& j, const std::string& where) {
  Fields f(j, where);
  BenchmarkResult b;
  b.name = f.str("name");
  if (b.name.empty()) f.fail("name", "empty");
  b.iterations = static_cast<std::int64_t>(f.count("iterations"));
  if (f.has("error")) b.error = f.str("error");
  if (f.has("real_time_ns")) b.real_time_ns = f.num("real_time_ns");
  if (f.has("cpu_time_ns")) b.cpu_time_ns = f.num("cpu_time_ns");
  if (f.has("transactions_per_iteration"))
    b.transactions_per_iteration = f.num("transactions_per_iteration");
  if (f.has("counters")) {
    const json& cs = f.array("counters");
    for (std::size_t i = 0; i < cs.size(); ++i)
      b.counters.push_back(counter_from_json(cs[i], f.where("counters", i)));
  }
  if (f.has("callgrind"))
    b.callgrind = callgrind_from_json(f.at("callgrind"), f.where("callgrind"));
  if (f.has("profile")) b.profile = profile_from_json(f.at("profile"), f.where("profile"));
  if (f.has("cost_s")) {
    const json& costs = f.at("cost_s");
    if (!costs.is_object()) f.fail("cost_s", "expected an object of seconds per meter");
    for (const auto& [meter, seconds] : costs.items()) {
      if (!seconds.is_number() || !(seconds.get<double>() >= 0))
        f.fail("cost_s", "'" + meter + "' is not a number of seconds >= 0");
      b.cost_s[meter] = seconds.get<double>();
    }
  }
  return b;
}

RunResults run_results_from_json(const json& j, const std::string& origin) {
  Fields f(j, origin);
  RunResults r;
  r.schema = f.str("schema");
  if (r.schema != kResultsSchema)
    f.fail("schema", "is \"" + r.schema + "\", this perfci reads \"" + kResultsSchema + "\"");
  r.tool_version = f.has("tool_version") ? f.str("tool_version") : "";
  r.binary = f.str("binary");
  for (const auto& m : f.array("meters")) {
    if (!m.is_string()) f.fail("meters", "expected strings");
    r.meters.push_back(m.get<std::string>());
  }
  if (f.has("events"))
    for (const auto& e : f.array("events")) {
      if (!e.is_string()) f.fail("events", "expected strings");
      r.events.push_back(e.get<std::string>());
    }
  if (f.has("environment")) r.environment = f.at("environment");
  if (f.has("context")) {
    if (!f.at("context").is_object()) f.fail("context", "expected an object");
    r.context = f.at("context");
  }
  const json& bs = f.array("benchmarks");
  for (std::size_t i = 0; i < bs.size(); ++i)
    r.benchmarks.push_back(benchmark_result_from_json(bs[i], f.where("benchmarks", i)));
  if (f.has("incomplete"))
    r.incomplete = incomplete_from_json(f.at("incomplete"), f.where("incomplete"));
  return r;
}

RunResults load_run_results(const std::string& path) {
  json j;
  try {
    j = json::parse(read_file(path));
  } catch (const json::parse_error& e) {
    throw Error(path + ": not valid JSON: " + e.what());
  }
  return run_results_from_json(j, path);
}

void save_run_results(const RunResults& results, const std::string& path) {
  write_file_atomic(path, json(results).dump(2) + "\n");
}

}  // namespace perfci
