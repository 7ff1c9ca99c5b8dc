// What a program sees of the CPU when it runs under valgrind: the facts that
// decide which code glibc's IFUNC resolvers and its memcpy/memset tuning
// pick for it, and so its callgrind instruction count. valgrind presents a
// CPU of its own (3.19 on an AVX-512 host shows a Haswell without AVX-512),
// so two hosts whose /proc/cpuinfo differ can give the measured program the
// same view, and equal Ir (issue 13); a host fact that cannot change what
// runs under valgrind must not stop callgrind from being compared.
//
// The view is read by running the binary's own dynamic loader under
// valgrind with --list-diagnostics (glibc >= 2.33), an argv, never a shell,
// and keeping the lines that describe the CPU glibc selected for:
// x86.cpu_features.* (usable feature bits, preferences, ISA level, cache
// sizes and copy thresholds), dl_hwcap*, dl_platform, and the environment
// variables that change the selection (GLIBC_TUNABLES, LD_BIND_NOW, ...).
// Raw cpuid words, auxv, paths and uname are left out: they vary without
// changing what runs.
#pragma once

#include <map>
#include <string>

namespace perfci::baseline {

struct ValgrindView {
  // "x86.cpu_features.isa_1" => "0x7"; empty when the probe could not run.
  std::map<std::string, std::string> facts;
  // Why there are no facts: "valgrind is not installed", the probe's error.
  std::string error;
  bool known() const { return error.empty() && !facts.empty(); }
  friend bool operator==(const ValgrindView&, const ValgrindView&) = default;
};

// The decisive facts of `ld.so --list-diagnostics` output.
std::map<std::string, std::string> parse_loader_diagnostics(const std::string& text);

// Runs `valgrind --tool=none -q <loader> --list-diagnostics`. Never throws:
// a machine without valgrind, a static binary or an old glibc gives a view
// with an error, which the profile shows and check treats as unknown.
ValgrindView probe_valgrind_view(const std::string& loader,
                                 const std::string& valgrind = "valgrind");

}  // namespace perfci::baseline
