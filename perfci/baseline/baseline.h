// A stored baseline: one suite's results on one profile, with how and why it
// was made. Schema "perfci.baseline/1", one file per suite under
// baselines/<profile id>/<suite>.json (see baselines/README.md):
//
// {
//   "schema": "perfci.baseline/1",
//   "profile": { ... profile.h: id, build_id, toolchain, machine ... },
//   "provenance": {"commit": "<40 hex or empty>", "dirty": false,
//                  "created": "2024-05-01T12:00:00Z", "reason": "why it moved",
//                  "tool_version": "0.1.0"},
//   "settings": {"suite": "engine", "binary": "engine/bench/engine_bench",
//                "args": ["--scale=0.1"], "meters": ["callgrind", "wall"],
//                "filter": ".*", "callgrind_filter": "...", "callgrind_iterations": 3,
//                "min_time": null},
//   "contracts": { ... perfci.contracts/1 of the measured binary, or null ... },
//   "results": { ... perfci.results/1 ... }
// }
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/baseline/profile.h"
#include "perfci/contracts/contract_result.h"
#include "perfci/model/results.h"

namespace perfci::baseline {

struct Provenance {
  std::string commit;  // full hash; empty outside a git repository
  bool dirty = false;  // made from a working tree with uncommitted changes
  std::string created;
  std::string reason;
  std::string tool_version;
};

// What the suite was run with. `args` and `callgrind_iterations` change the
// numbers themselves, so `perfci check` refuses a baseline made with others.
struct SuiteSettings {
  std::string suite;
  std::string binary;
  std::vector<std::string> args;
  std::vector<std::string> meters;
  std::string filter = ".*";
  std::string callgrind_filter = ".*";
  int callgrind_iterations = 10;
  std::optional<double> min_time;
};

struct Baseline {
  Profile profile;
  Provenance provenance;
  SuiteSettings settings;
  std::optional<contracts::ContractReport> contracts;  // none when perfci.json declares none
  RunResults results;
};

nlohmann::json baseline_to_json(const Baseline& b);

// Throws perfci::Error "<origin>: <field>: <problem>" for anything that is
// not a complete, consistent baseline: not JSON (a truncated file), another
// schema, a missing field, a failed or duplicated benchmark.
Baseline parse_baseline(const std::string& text, const std::string& origin);

}  // namespace perfci::baseline
