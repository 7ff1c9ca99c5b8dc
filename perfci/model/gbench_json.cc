#include "perfci/model/gbench_json.h"

#include "perfci/util/error.h"

namespace perfci {

using nlohmann::json;

json to_gbench_json(const RunResults& r) {
  json context = r.context.is_object() ? r.context : json::object();
  // compare.py refuses any other schema version; Google Benchmark has only
  // ever written 1.
  if (!context.contains("json_schema_version")) context["json_schema_version"] = 1;
  if (!context.contains("executable")) context["executable"] = r.binary;
  context["perfci"] = json{{"tool_version", r.tool_version},
                           {"binary", r.binary},
                           {"meters", r.meters},
                           {"events", r.events}};
  json list = json::array();
  for (std::size_t i = 0; i < r.benchmarks.size(); ++i) {
    const BenchmarkResult& b = r.benchmarks[i];
    if (!b.failed() && !(b.real_time_ns && b.cpu_time_ns))
      throw Error("benchmark " + b.name +
                  " has no wall time (the run did not use the wall meter); Google Benchmark's "
                  "format needs real_time and cpu_time: measure with --meters wall");
    json e{{"name", b.name},
           {"family_index", i},
           {"per_family_instance_index", 0},
           {"run_name", b.name},
           {"run_type", "iteration"},
           {"repetitions", 1},
           {"repetition_index", 0},
           {"threads", 1}};
    if (b.failed()) {
      e["error_occurred"] = true;
      e["error_message"] = b.error;
      e["iterations"] = 0;
      e["real_time"] = 0;
      e["cpu_time"] = 0;
      e["time_unit"] = "ns";
      list.push_back(std::move(e));
      continue;
    }
    e["iterations"] = b.iterations;
    e["real_time"] = *b.real_time_ns;
    e["cpu_time"] = *b.cpu_time_ns;
    e["time_unit"] = "ns";
    for (const CounterResult& c : b.counters) {
      if (!c.per_iteration) continue;
      e["perf." + c.event] = *c.per_iteration;
      if (c.per_transaction) e["perf." + c.event + "/txn"] = *c.per_transaction;
      if (c.status == EventStatus::kMultiplexed) e["perf." + c.event + ".scale"] = c.scale;
    }
    if (b.transactions_per_iteration) e["perf.transactions"] = *b.transactions_per_iteration;
    if (b.callgrind) e["ir_per_iteration"] = b.callgrind->ir_per_iteration;
    list.push_back(std::move(e));
  }
  return json{{"context", context}, {"benchmarks", list}};
}

}  // namespace perfci
