#include "perfci/baseline/profile.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>

#include "perfci/baseline/compiler_info.h"
#include "perfci/baseline/cpu_features.h"
#include "perfci/env/build_info.h"
#include "perfci/env/fingerprint.h"
#include "perfci/util/json_fields.h"

namespace perfci::baseline {
namespace {

using nlohmann::json;

std::string os_release_id() {
  std::ifstream in("/etc/os-release");
  std::string id, version;
  for (std::string line; std::getline(in, line);) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\''))
      value = value.substr(1, value.size() - 2);
    if (key == "ID") id = value;
    if (key == "VERSION_ID") version = value;
  }
  return id + version;
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '.' || c == '_' || c == '+' || c == '-')
      out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  return out;
}

void differ(std::vector<ProfileDifference>& out, const std::string& fact, const std::string& a,
            const std::string& b) {
  if (a != b) out.push_back({fact, a, b});
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string describe_view(const ValgrindView& v) {
  if (!v.error.empty()) return "(unknown: " + v.error + ")";
  if (v.facts.empty()) return "(not recorded)";
  return std::to_string(v.facts.size()) + " facts";
}

// An unknown view is never equal to anything, itself included: nothing
// proves the program saw the same CPU.
void compare_views(std::vector<ProfileDifference>& out, const ValgrindView& a,
                   const ValgrindView& b) {
  if (!a.known() || !b.known()) {
    out.push_back({"valgrind view", describe_view(a), describe_view(b)});
    return;
  }
  for (const auto& [key, value] : a.facts) {
    auto it = b.facts.find(key);
    differ(out, "valgrind view " + key, value, it == b.facts.end() ? "(absent)" : it->second);
  }
  for (const auto& [key, value] : b.facts)
    if (!a.facts.count(key)) differ(out, "valgrind view " + key, "(absent)", value);
}

}  // namespace

Profile collect_profile(const std::string& binary, const ProfileOptions& o) {
  Profile p;
  BuildInfo build = read_build_info(binary);
  p.build_id = build.build_id;
  CompilerInfo compiler = parse_producer(build.producer);
  MachineFingerprint f = collect_fingerprint();
  utsname u;
  std::string sysname;
  if (::uname(&u) == 0) {
    p.toolchain.arch = u.machine;
    sysname = u.sysname;
  }
  p.toolchain.os = os_release_id();
  if (p.toolchain.os.empty()) p.toolchain.os = sysname;
  p.toolchain.compiler = compiler.name;
  p.toolchain.compiler_version = compiler.version;
  p.toolchain.producer = build.producer;
  p.build_flavour = build;  // BuildInfo's JSON: what its producer and symbols say
  p.build_flavour.erase("producer");
  p.build_flavour.erase("build_id");
  if (!o.build_dir.empty()) {
    CMakeBuildSettings cmake = read_cmake_build_settings(o.build_dir);
    p.toolchain.build_type = cmake.build_type;
  }
  for (auto& lib : linked_libraries(binary)) {
    bool wanted = o.libraries.empty() || std::any_of(o.libraries.begin(), o.libraries.end(),
                                                     [&](const std::string& pattern) {
                                                       return library_matches(lib.soname, pattern);
                                                     });
    if (wanted) p.toolchain.libraries.push_back(std::move(lib));
  }
  p.toolchain.cpu_features = ifunc_cpu_features();
  p.toolchain.valgrind = f.valgrind;
  if (f.valgrind.empty())
    p.toolchain.valgrind_view.error = "valgrind is not installed";
  else
    p.toolchain.valgrind_view = probe_valgrind_view(dynamic_loader(binary));
  p.machine.cpu_model = f.cpu_model;
  p.machine.logical_cpus = f.logical_cpus;
  p.machine.hostname = f.hostname;
  p.machine.kernel = f.kernel;
  p.id = profile_id(p.toolchain);
  return p;
}

std::string profile_id(const Toolchain& t) {
  CompilerInfo c = parse_producer(t.producer);
  std::string compiler =
      (t.compiler.empty() ? "unknown" : t.compiler) + major_version(t.compiler_version);
  return sanitize(t.arch.empty() ? "unknown" : t.arch) + "-" +
         sanitize(t.os.empty() ? "unknown" : t.os) + "-" + sanitize(compiler) + "-" +
         sanitize(build_kind(t.build_type, c.flags));
}

ProfileComparison compare_profiles(const Profile& a, const Profile& b) {
  ProfileComparison c;
  const Toolchain& x = a.toolchain;
  const Toolchain& y = b.toolchain;
  differ(c.toolchain, "arch", x.arch, y.arch);
  differ(c.toolchain, "compiler", x.compiler, y.compiler);
  differ(c.toolchain, "compiler_version", x.compiler_version, y.compiler_version);
  // The producer holds the flags gcc records (-O2 -march=... -g).
  differ(c.toolchain, "producer", x.producer, y.producer);
  differ(c.toolchain, "build_type", x.build_type, y.build_type);
  std::map<std::string, std::string> la, lb;
  for (const auto& l : x.libraries) la[l.soname] = l.version;
  for (const auto& l : y.libraries) lb[l.soname] = l.version;
  for (const auto& [name, version] : la)
    differ(c.toolchain, "library " + name, version, lb.count(name) ? lb[name] : "(not linked)");
  for (const auto& [name, version] : lb)
    if (!la.count(name)) differ(c.toolchain, "library " + name, "(not linked)", version);
  differ(c.toolchain, "valgrind", x.valgrind, y.valgrind);
  compare_views(c.toolchain, x.valgrind_view, y.valgrind_view);
  differ(c.machine, "cpu_features (host)", join(x.cpu_features), join(y.cpu_features));
  differ(c.machine, "cpu_model", a.machine.cpu_model, b.machine.cpu_model);
  differ(c.machine, "logical_cpus", std::to_string(a.machine.logical_cpus),
         std::to_string(b.machine.logical_cpus));
  differ(c.machine, "hostname", a.machine.hostname, b.machine.hostname);
  return c;
}

static json view_json(const ValgrindView& v) {
  if (!v.error.empty()) return {{"error", v.error}};
  return {{"facts", v.facts}};
}

void to_json(json& j, const Profile& p) {
  json libs = json::array();
  for (const auto& l : p.toolchain.libraries)
    libs.push_back({{"soname", l.soname},
                    {"path", l.path},
                    {"package", l.package},
                    {"package_version", l.package_version},
                    {"version", l.version},
                    {"build_id", l.build_id}});
  const Toolchain& t = p.toolchain;
  j = json{{"id", p.id},
           {"build_id", p.build_id},
           {"toolchain",
            {{"arch", t.arch},
             {"os", t.os},
             {"compiler", t.compiler},
             {"compiler_version", t.compiler_version},
             {"producer", t.producer},
             {"build_type", t.build_type},
             {"libraries", libs},
             {"cpu_features", t.cpu_features},
             {"valgrind", t.valgrind},
             {"valgrind_view", view_json(t.valgrind_view)}}},
           {"machine",
            {{"cpu_model", p.machine.cpu_model},
             {"logical_cpus", p.machine.logical_cpus},
             {"hostname", p.machine.hostname},
             {"kernel", p.machine.kernel}}}};
  if (!p.build_flavour.empty()) j["build_flavour"] = p.build_flavour;
}

Profile profile_from_json(const json& j, const std::string& where) {
  Fields f(j, where);
  Profile p;
  p.id = f.str("id", false);
  p.build_id = f.str("build_id");
  if (f.has("build_flavour")) p.build_flavour = f.object("build_flavour");
  Fields t(f.object("toolchain"), f.where("toolchain"));
  p.toolchain.arch = t.str("arch", false);
  p.toolchain.os = t.str("os");
  p.toolchain.compiler = t.str("compiler");
  p.toolchain.compiler_version = t.str("compiler_version");
  p.toolchain.producer = t.str("producer");
  p.toolchain.build_type = t.str("build_type");
  const json& libs = t.array("libraries");
  for (std::size_t i = 0; i < libs.size(); ++i) {
    Fields l(libs[i], t.where("libraries", i));
    p.toolchain.libraries.push_back({l.str("soname", false), l.str("path"), l.str("package"),
                                     l.str("package_version"), l.str("version", false),
                                     l.str("build_id")});
  }
  p.toolchain.cpu_features = t.strings("cpu_features");
  p.toolchain.valgrind = t.str("valgrind");
  if (t.has("valgrind_view")) {
    Fields v(t.object("valgrind_view"), t.where("valgrind_view"));
    if (v.has("error")) p.toolchain.valgrind_view.error = v.str("error", false);
    if (v.has("facts")) {
      const json& facts = v.object("facts");
      Fields fact(facts, v.where("facts"));
      for (auto it = facts.begin(); it != facts.end(); ++it)
        p.toolchain.valgrind_view.facts[it.key()] = fact.str(it.key());
    }
  } else {
    p.toolchain.valgrind_view.error = "not recorded (a baseline older than perfci's valgrind view)";
  }
  Fields m(f.object("machine"), f.where("machine"));
  p.machine.cpu_model = m.str("cpu_model");
  p.machine.logical_cpus = static_cast<int>(m.count("logical_cpus"));
  p.machine.hostname = m.str("hostname");
  p.machine.kernel = m.str("kernel");
  return p;
}

}  // namespace perfci::baseline
