# gcc --coverage (gcov arcs + notes) for the coverage preset, which inherits
# the debug preset: CI's sanitizer pass is also its coverage pass, so CI
# builds the tree twice, not three times (scripts/test.sh,
# scripts/coverage.sh). gcov and ASan/UBSan coexist with gcc 12. Counters
# from test binaries that ctest runs at once are merged safely: libgcov locks
# each .gcda file while it merges at exit.
option(PERFCI_COVERAGE "Instrument for gcov branch and line coverage (gcc only)" OFF)
if(PERFCI_COVERAGE)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "PERFCI_COVERAGE needs g++ (gcov); this build uses ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(--coverage)
  add_link_options(--coverage)
endif()

# perfci_no_coverage(target): fixture programs that run under valgrind and
# whose instruction counts the tests compare are built without gcov's counter
# updates, like they are built without sanitizers: their Ir must be the
# product's, and they are not the code measured (tests/ is excluded anyway).
function(perfci_no_coverage target)
  if(PERFCI_COVERAGE)
    target_compile_options(${target} PRIVATE -fno-profile-arcs -fno-test-coverage)
  endif()
endfunction()
