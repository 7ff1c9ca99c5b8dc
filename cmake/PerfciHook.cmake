# The perfci benchmark hook (perfci/bench.h) for another CMake project:
#
#   include(/path/to/perfci/cmake/PerfciHook.cmake)
#   target_link_libraries(my_bench PRIVATE perfci::hook benchmark::benchmark)
#
# and in each benchmark, around the timed loop: perfci::BenchHook hook(state);
# Builds the hook from this checkout's sources (perfci/bench and
# perfci/counters: nothing else of perfci) against the Debian packages
# libbenchmark-dev, libpfm4-dev, nlohmann-json3-dev and valgrind (its
# client-request header). Without the hook a suite still gets wall time;
# callgrind Ir, per-iteration perf counters and sampled profiles need it.
if(TARGET perfci::hook)
  return()
endif()
get_filename_component(_perfci_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
find_package(benchmark REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(Threads REQUIRED)
# libpfm4 ships neither a pkg-config file nor a CMake package.
find_path(PERFCI_LIBPFM_INCLUDE_DIR perfmon/pfmlib_perf_event.h REQUIRED)
find_library(PERFCI_LIBPFM_LIBRARY pfm REQUIRED)
find_path(PERFCI_VALGRIND_INCLUDE_DIR valgrind/callgrind.h REQUIRED)

add_library(perfci_hook STATIC
  ${_perfci_root}/perfci/bench/hook.cc
  ${_perfci_root}/perfci/bench/hook_counters.cc
  ${_perfci_root}/perfci/bench/hook_state.cc
  ${_perfci_root}/perfci/bench/sampler.cc
  ${_perfci_root}/perfci/counters/counter_set.cc
  ${_perfci_root}/perfci/counters/event_resolver.cc
  ${_perfci_root}/perfci/counters/event_status.cc
  ${_perfci_root}/perfci/counters/pmu_info.cc
  ${_perfci_root}/perfci/counters/syscall_perf_backend.cc)
add_library(perfci::hook ALIAS perfci_hook)
target_compile_features(perfci_hook PUBLIC cxx_std_20)
target_include_directories(perfci_hook PUBLIC ${_perfci_root} ${PERFCI_LIBPFM_INCLUDE_DIR}
                           PRIVATE ${PERFCI_VALGRIND_INCLUDE_DIR})
target_link_libraries(perfci_hook PUBLIC benchmark::benchmark ${PERFCI_LIBPFM_LIBRARY} Threads::Threads
                      PRIVATE nlohmann_json::nlohmann_json)
