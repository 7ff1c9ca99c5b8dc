// A baseline profile: the facts that decide whether two measurements of a
// suite can be compared. Two groups, because the metrics need different ones:
//
// - toolchain: architecture, compiler and version, build flags, the versions
//   of the linked libraries that run inside measured regions, valgrind's
//   version, and the CPU as the program sees it under valgrind (the
//   valgrind view: what glibc's IFUNC selection and copy tuning read there).
//   Callgrind Ir is deterministic: equal toolchains give equal counts on
//   any machine, so Ir is compared (and gated) whenever these match.
// - machine: CPU model, logical CPUs, host name and the host's CPU features
//   (/proc/cpuinfo). Wall time and hardware counters also need the same
//   machine; the host's features are shown for callgrind, never decisive,
//   since valgrind presents a CPU of its own (issue 13).
//
// The profile id ("x86_64-debian12-gcc12-release") names the baselines/
// folder; the facts themselves, not the id, decide what is comparable.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/baseline/linked_libraries.h"
#include "perfci/baseline/valgrind_view.h"

namespace perfci::baseline {

struct Toolchain {
  std::string arch;                      // uname machine: "x86_64"
  std::string os;                        // /etc/os-release ID + VERSION_ID: "debian12"
  std::string compiler;                  // "gcc", "clang"
  std::string compiler_version;          // "12.2.0"
  std::string producer;                  // the DWARF producer, whole
  std::string build_type;                // CMAKE_BUILD_TYPE of the build folder, when known
  std::vector<LinkedLibrary> libraries;  // those perfci.json selects (all by default)
  // The host's, from /proc/cpuinfo. Kept in the toolchain's JSON where
  // baselines have always had it, but compared as a machine fact.
  std::vector<std::string> cpu_features;
  std::string valgrind;  // "valgrind-3.19.0"; empty when absent
  // Absent from baselines taken before issue 13: then unknown, never equal.
  ValgrindView valgrind_view;
};

struct Machine {
  std::string cpu_model;
  int logical_cpus = 0;
  std::string hostname;
  std::string kernel;  // recorded, not compared: it does not run in the measured code
};

struct Profile {
  std::string id;
  std::string build_id;  // of the measured binary: provenance only
  Toolchain toolchain;
  Machine machine;
  // How the measured binary and its Google Benchmark library were built
  // (issue 17): "optimization", "optimized", "sanitizers", "assertions" from
  // env's build_flavour, and "gbench_library_build_type" from the run's
  // Google Benchmark context once measured. Information only: never part of
  // the id nor of compare_profiles, so every stored baseline still matches
  // (the producer, which holds the flags, is compared already). Written only
  // when non-empty.
  nlohmann::json build_flavour = nlohmann::json::object();
};

struct ProfileOptions {
  // Library patterns (library_matches): empty selects every DT_NEEDED library.
  std::vector<std::string> libraries;
  // The build folder, for CMakeCache.txt; empty when unknown.
  std::filesystem::path build_dir;
};

// Throws perfci::Error when the binary cannot be read.
Profile collect_profile(const std::string& binary, const ProfileOptions& options);

// "<arch>-<os>-<compiler><major>-<build kind>", lower case, [a-z0-9._+-] only.
std::string profile_id(const Toolchain& toolchain);

struct ProfileDifference {
  std::string fact;  // "compiler_version", "library libsqlite3.so.0", "hostname", ...
  std::string baseline;
  std::string current;
};

struct ProfileComparison {
  std::vector<ProfileDifference> toolchain;
  std::vector<ProfileDifference> machine;
  bool toolchain_matches() const { return toolchain.empty(); }
  bool machine_matches() const { return machine.empty(); }
};

ProfileComparison compare_profiles(const Profile& baseline, const Profile& current);

void to_json(nlohmann::json& j, const Profile& p);
// Throws perfci::Error "<where>.<field>: <problem>".
Profile profile_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace perfci::baseline
