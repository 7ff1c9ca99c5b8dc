#include "perfci/config/config.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/json_fields.h"
#include "perfci/util/strings.h"

namespace perfci {
using nlohmann::json;

double threshold_from_json(const json& j, const std::string& field) {
  static const std::regex percent(R"(^\s*(\d+(\.\d*)?|\.\d+)\s*%\s*$)");
  const std::string expected = ": expected a number in [0, 10), the relative change (0.03 is 3%)";
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    std::smatch m;
    if (std::regex_match(s, m, percent)) {
      std::ostringstream number;
      number << std::strtod(m[1].str().c_str(), nullptr) / 100;
      throw Error(field + ": \"" + s + "\" is a string; thresholds are numbers: write " +
                  number.str() + " for " + m[1].str() + "%");
    }
    throw Error(field + expected + ", got " + j.dump());
  }
  if (!j.is_number() || !(j.get<double>() >= 0 && j.get<double>() < 10))
    throw Error(field + expected + ", got " + j.dump());
  return j.get<double>();
}

const std::vector<std::string>& known_meters() {
  static const std::vector<std::string> meters{"wall", "counters", "callgrind", "profile"};
  return meters;
}

const std::vector<std::string>& default_events() {
  static const std::vector<std::string> events{"instructions",   "cycles",     "branch-misses",
                                               "cache-misses",   "task-clock", "context-switches",
                                               "cpu-migrations", "page-faults"};
  return events;
}

std::vector<std::string> parse_meter_list(const std::string& list) {
  std::vector<std::string> out;
  for (const std::string& m : split_list(list)) {
    if (std::find(known_meters().begin(), known_meters().end(), m) == known_meters().end())
      throw Error("unknown meter '" + m + "' (known: wall, counters, callgrind, profile)");
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  if (out.empty()) throw Error("no meter given (known: wall, counters, callgrind, profile)");
  return out;
}

// An empty name picks the only suite; with several, the error names them and --suite.
const SuiteConfig& Config::suite(const std::string& name) const {
  if (name.empty() && suites.size() == 1) return suites.front();
  for (const auto& s : suites)
    if (!name.empty() && s.name == name) return s;
  std::string names;
  for (const auto& s : suites) names += (names.empty() ? "" : ", ") + s.name;
  if (name.empty())
    throw Error(path.string() + " has several suites; choose one with --suite (" + names + ")");
  throw Error("no suite named '" + name + "' in " + path.string() + " (suites: " + names + ")");
}

namespace {

HistoryConfig parse_history(const Fields& r) {
  Fields h(r.object("history"), r.where("history"));
  h.only({"database", "change_points"});
  HistoryConfig history;
  history.database = h.str("database", false);
  if (h.has("change_points")) {
    Fields cp(h.object("change_points"), h.where("change_points"));
    cp.only({"alpha", "permutations", "min_magnitude"});
    ChangePointConfig& c = history.change_points;
    if (cp.has("alpha")) {
      c.alpha = cp.num("alpha");
      if (!(c.alpha > 0 && c.alpha < 1)) cp.fail("alpha", "expected a number between 0 and 1");
    }
    if (cp.has("permutations"))
      c.permutations = static_cast<int>(cp.count("permutations", 1, 100000));
    if (cp.has("min_magnitude")) {
      c.min_magnitude = cp.num("min_magnitude");
      if (!(c.min_magnitude >= 0 && c.min_magnitude < 10))
        cp.fail("min_magnitude", "expected a relative change in [0, 10) (0.01 is 1%)");
    }
  }
  return history;
}

}  // namespace

Config parse_config(const std::string& text, const std::string& origin) {
  Config c;
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(origin + ": not valid JSON: " + e.what());
  }
  Fields r(doc, origin);
  if (!r.has("schema"))
    r.fail("schema", std::string("missing; expected \"") + kConfigSchema + "\"");
  if (std::string schema = r.str("schema", false); schema != kConfigSchema)
    r.fail("schema", "is \"" + schema + "\", this perfci reads \"" + kConfigSchema + "\"");
  c.raw = doc;

  if (r.has("build")) {
    Fields b(r.object("build"), r.where("build"));
    if (b.has("preset")) c.build.preset = b.str("preset", false);
    if (b.has("targets")) c.build.targets = b.strings("targets", false);
  }

  if (!r.has("suites")) r.fail("suites", "missing; at least one suite is needed");
  const json& suites = r.array("suites", false);
  for (std::size_t i = 0; i < suites.size(); ++i) {
    Fields s(suites[i], r.where("suites", i));
    s.only({"name", "binary", "filter", "min_time", "args", "callgrind"});
    SuiteConfig suite;
    suite.name = s.str("name", false);
    suite.binary = s.str("binary", false);
    if (std::filesystem::path(suite.binary).is_absolute())
      s.fail("binary", "must be relative to the build folder");
    if (s.has("filter")) suite.filter = s.str("filter", false);
    if (s.has("min_time")) suite.min_time = s.positive("min_time");
    if (s.has("args")) {
      suite.args = s.strings("args", false);
      // perfci chooses the benchmarks, the output and the timing itself.
      for (std::size_t k = 0; k < suite.args.size(); ++k)
        if (suite.args[k].rfind("--benchmark_", 0) == 0)
          s.fail("args[" + std::to_string(k) + "]", "'" + suite.args[k] +
                                                        "': --benchmark_* flags are perfci's; "
                                                        "use filter / min_time");
    }
    if (s.has("callgrind")) {
      Fields cg(s.object("callgrind"), s.where("callgrind"));
      cg.only({"iterations", "filter", "mode", "cache_sim"});
      if (cg.has("cache_sim")) suite.callgrind.cache_sim = cg.boolean("cache_sim");
      if (cg.has("iterations"))
        suite.callgrind.iterations = static_cast<int>(cg.count("iterations", 1, 1000000));
      if (cg.has("filter")) suite.callgrind.filter = cg.str("filter", false);
      if (cg.has("mode")) {
        suite.callgrind.mode = cg.str("mode");
        if (suite.callgrind.mode != "auto" && suite.callgrind.mode != "hook" &&
            suite.callgrind.mode != "process")
          cg.fail("mode", "expected auto, hook or process, got '" + suite.callgrind.mode + "'");
      }
    }
    for (const auto& other : c.suites)
      if (other.name == suite.name) s.fail("name", "duplicate suite name '" + suite.name + "'");
    c.suites.push_back(std::move(suite));
  }

  if (r.has("meters")) {
    c.meters = r.strings("meters", false);
    for (std::size_t i = 0; i < c.meters.size(); ++i)
      if (std::find(known_meters().begin(), known_meters().end(), c.meters[i]) ==
          known_meters().end())
        r.fail("meters[" + std::to_string(i) + "]",
               "unknown meter '" + c.meters[i] + "' (known: wall, counters, callgrind, profile)");
  }
  c.events = r.has("events") ? r.strings("events", false) : default_events();
  if (r.has("history")) c.history = parse_history(r);
  return c;
}

std::filesystem::path history_database(const Config& c) {
  if (!c.history) return {};
  const std::filesystem::path db(c.history->database);
  if (db.is_absolute() || c.path.empty()) return db;
  return c.path.parent_path() / db;
}

Config load_config(const std::filesystem::path& path) {
  Config c = parse_config(read_file(path), path.string());
  c.path = path;
  return c;
}

}  // namespace perfci
