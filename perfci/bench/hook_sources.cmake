# The sources of the benchmark hook, relative to perfci/: the hook and the
# counters stage it opens events with, nothing else of perfci. One list for
# the two libraries built from it: perfci_hook in this tree (installed as
# perfci::hook, perfci/bench/CMakeLists.txt) and the one cmake/PerfciHook.cmake
# builds inside another project from a checkout.
set(PERFCI_HOOK_SOURCES
  bench/hook.cc bench/hook_counters.cc bench/hook_state.cc
  counters/counter_set.cc counters/cpu_clock_ring.cc counters/event_resolver.cc counters/event_status.cc
  counters/pmu_info.cc counters/syscall_perf_backend.cc)
