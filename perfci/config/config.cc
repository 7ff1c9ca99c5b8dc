#include "perfci/config/config.h"

#include <algorithm>
#include <sstream>

#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/strings.h"

namespace perfci {
namespace {

using nlohmann::json;

class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw Error(origin_ + ": " + field + ": " + problem);
  }

  std::string string(const json& j, const std::string& field, bool allow_empty = false) const {
    if (!j.is_string() || (!allow_empty && j.get_ref<const std::string&>().empty()))
      fail(field, "expected a non-empty string");
    return j.get<std::string>();
  }

  std::vector<std::string> strings(const json& j, const std::string& field) const {
    if (!j.is_array()) fail(field, "expected an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i)
      out.push_back(string(j[i], field + "[" + std::to_string(i) + "]"));
    return out;
  }

  double positive(const json& j, const std::string& field) const {
    if (!j.is_number() || j.get<double>() <= 0) fail(field, "expected a positive number");
    return j.get<double>();
  }

  void only_keys(const json& obj, const std::string& field,
                 std::initializer_list<const char*> keys) const {
    for (const auto& item : obj.items()) {
      const std::string& name = item.key();
      if (std::find_if(keys.begin(), keys.end(), [&](const char* key) { return name == key; }) ==
          keys.end())
        fail(field.empty() ? name : field + "." + name, "unknown field");
    }
  }

 private:
  std::string origin_;
};

}  // namespace

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

Config parse_config(const std::string& text, const std::string& origin) {
  Reader r(origin);
  Config c;
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(origin + ": not valid JSON: " + e.what());
  }
  if (!doc.is_object()) r.fail("(top level)", "expected an object");
  if (!doc.contains("schema"))
    r.fail("schema", std::string("missing; expected \"") + kConfigSchema + "\"");
  if (r.string(doc["schema"], "schema") != kConfigSchema)
    r.fail("schema", "is \"" + doc["schema"].get<std::string>() + "\", this perfci reads \"" +
                         kConfigSchema + "\"");
  c.raw = doc;

  if (doc.contains("build")) {
    const json& b = doc["build"];
    if (!b.is_object()) r.fail("build", "expected an object");
    if (b.contains("preset")) c.build.preset = r.string(b["preset"], "build.preset");
    if (b.contains("targets")) c.build.targets = r.strings(b["targets"], "build.targets");
  }

  if (!doc.contains("suites")) r.fail("suites", "missing; at least one suite is needed");
  const json& suites = doc["suites"];
  if (!suites.is_array() || suites.empty()) r.fail("suites", "expected a non-empty array");
  for (std::size_t i = 0; i < suites.size(); ++i) {
    std::string f = "suites[" + std::to_string(i) + "]";
    const json& s = suites[i];
    if (!s.is_object()) r.fail(f, "expected an object");
    r.only_keys(s, f, {"name", "binary", "filter", "min_time", "args", "callgrind"});
    SuiteConfig suite;
    if (!s.contains("name")) r.fail(f + ".name", "missing");
    suite.name = r.string(s["name"], f + ".name");
    if (!s.contains("binary")) r.fail(f + ".binary", "missing");
    suite.binary = r.string(s["binary"], f + ".binary");
    if (std::filesystem::path(suite.binary).is_absolute())
      r.fail(f + ".binary", "must be relative to the build folder");
    if (s.contains("filter")) suite.filter = r.string(s["filter"], f + ".filter");
    if (s.contains("min_time")) suite.min_time = r.positive(s["min_time"], f + ".min_time");
    if (s.contains("args")) {
      suite.args = r.strings(s["args"], f + ".args");
      // perfci chooses the benchmarks, the output and the timing itself.
      for (std::size_t k = 0; k < suite.args.size(); ++k)
        if (suite.args[k].rfind("--benchmark_", 0) == 0)
          r.fail(f + ".args[" + std::to_string(k) + "]", "'" + suite.args[k] +
                                                             "': --benchmark_* flags are perfci's; "
                                                             "use filter / min_time");
    }
    if (s.contains("callgrind")) {
      const json& cg = s["callgrind"];
      std::string cf = f + ".callgrind";
      if (!cg.is_object()) r.fail(cf, "expected an object");
      r.only_keys(cg, cf, {"iterations", "filter"});
      if (cg.contains("iterations")) {
        if (!cg["iterations"].is_number_integer() || cg["iterations"].get<long long>() < 1 ||
            cg["iterations"].get<long long>() > 1000000)
          r.fail(cf + ".iterations", "expected an integer between 1 and 1000000");
        suite.callgrind.iterations = cg["iterations"].get<int>();
      }
      if (cg.contains("filter")) suite.callgrind.filter = r.string(cg["filter"], cf + ".filter");
    }
    for (const auto& other : c.suites)
      if (other.name == suite.name)
        r.fail(f + ".name", "duplicate suite name '" + suite.name + "'");
    c.suites.push_back(std::move(suite));
  }

  if (doc.contains("meters")) {
    c.meters = r.strings(doc["meters"], "meters");
    for (std::size_t i = 0; i < c.meters.size(); ++i)
      if (std::find(known_meters().begin(), known_meters().end(), c.meters[i]) ==
          known_meters().end())
        r.fail("meters[" + std::to_string(i) + "]",
               "unknown meter '" + c.meters[i] + "' (known: wall, counters, callgrind, profile)");
  }
  c.events = doc.contains("events") ? r.strings(doc["events"], "events") : default_events();
  return c;
}

Config load_config(const std::filesystem::path& path) {
  Config c = parse_config(read_file(path), path.string());
  c.path = path;
  return c;
}

}  // namespace perfci
