# The perfci benchmark hook (perfci/bench.h) for another CMake project:
#
#   include(/path/to/perfci/cmake/PerfciHook.cmake)
#   target_link_libraries(my_bench PRIVATE perfci::hook benchmark::benchmark)
#
# and in each benchmark, around the timed loop: perfci::BenchHook hook(state);
# An installed perfci (`cmake --install`, the Debian package) gives the same
# target without a checkout: find_package(perfci CONFIG REQUIRED).
# Builds the hook from this checkout's sources (perfci/bench and
# perfci/counters: nothing else of perfci) against the Debian packages
# libbenchmark-dev, libpfm4-dev, nlohmann-json3-dev and valgrind (its
# client-request header). The hook is optional: without it perfci measures
# hook-free (callgrind inside the function Google Benchmark runs, with setup
# fitted out; counters and profiles on the whole process). The hook is the
# precise mode: its timed region only, setup and Google Benchmark excluded.
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

include(${_perfci_root}/perfci/bench/hook_sources.cmake)
list(TRANSFORM PERFCI_HOOK_SOURCES PREPEND ${_perfci_root}/perfci/)
add_library(perfci_hook STATIC ${PERFCI_HOOK_SOURCES})
add_library(perfci::hook ALIAS perfci_hook)
target_compile_features(perfci_hook PUBLIC cxx_std_20)
target_include_directories(perfci_hook PUBLIC ${_perfci_root} ${PERFCI_LIBPFM_INCLUDE_DIR}
                           PRIVATE ${PERFCI_VALGRIND_INCLUDE_DIR})
target_link_libraries(perfci_hook PUBLIC benchmark::benchmark ${PERFCI_LIBPFM_LIBRARY} Threads::Threads ${CMAKE_DL_LIBS}
                      PRIVATE nlohmann_json::nlohmann_json)
