#include "perfci/baseline/baseline_fixtures.h"

#include "perfci/version.h"

namespace perfci::baseline::fixtures {

Profile sample_profile() {
  Profile p;
  p.build_id = "0123456789abcdef";
  Toolchain& t = p.toolchain;
  t.arch = "x86_64";
  t.os = "debian12";
  t.compiler = "gcc";
  t.compiler_version = "12.2.0";
  t.producer = "GNU C++20 12.2.0 -mtune=generic -march=x86-64 -g -O2 -std=c++20";
  t.build_type = "Release";
  t.libraries = {{"libsqlite3.so.0", "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6",
                  "libsqlite3-0:amd64", "3.40.1-2+deb12u1", "3.40.1", "aa"},
                 {"libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6", "libc6:amd64",
                  "2.36-9+deb12u7", "2.36", "bb"}};
  t.cpu_features = {"avx", "avx2", "erms", "sse2"};
  t.valgrind = "valgrind-3.19.0";
  t.valgrind_view.facts = {{"dl_platform", "haswell"},
                           {"x86.cpu_features.isa_1", "0x7"},
                           {"x86.cpu_features.preferred.Prefer_No_AVX512", "0x1"}};
  p.machine = {"AMD EPYC 9R14", 2, "vm", "Linux 6.1.0 x86_64"};
  p.id = profile_id(t);
  return p;
}

RunResults sample_results(const std::map<std::string, Values>& benchmarks) {
  RunResults r = make_run_results();
  r.binary = "/build/bench";
  r.meters = {"callgrind", "wall"};
  for (const auto& [name, v] : benchmarks) {
    BenchmarkResult b;
    b.name = name;
    b.iterations = 3;
    if (v.wall) {
      b.real_time_ns = *v.wall;
      b.cpu_time_ns = *v.wall;
    }
    if (v.ir) {
      CallgrindResult c;
      c.iterations = 3;
      c.ir_per_iteration = *v.ir;
      c.total_ir = static_cast<std::uint64_t>(*v.ir * 3);
      c.functions = {{"work(int)", "/build/bench", c.total_ir / 2, c.total_ir}};
      b.callgrind = c;
    }
    r.benchmarks.push_back(std::move(b));
  }
  return r;
}

Baseline sample_baseline(const std::map<std::string, Values>& benchmarks) {
  Baseline b;
  b.profile = sample_profile();
  b.provenance = {std::string(40, 'a'), false, "2024-05-01T12:00:00Z", "first baseline",
                  kToolVersion};
  b.settings.suite = "engine";
  b.settings.binary = "bench";
  b.settings.args = {"--scale=0.1"};
  b.settings.meters = {"callgrind", "wall"};
  b.settings.callgrind_iterations = 3;
  b.contracts.reset();
  b.results = sample_results(benchmarks);
  return b;
}

}  // namespace perfci::baseline::fixtures
