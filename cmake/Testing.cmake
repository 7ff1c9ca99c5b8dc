# add_gtest(NAME SOURCES src... [LIBS lib...] [LABELS label...])
# One GoogleTest binary, its cases registered one by one with ctest.
# Discovery runs before the tests (not at build time) so that a sanitizer
# build does not run every test binary while linking.
function(add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gmock GTest::gtest_main
                        project_warnings)
  # A list inside PROPERTIES would be split into property names: join it.
  string(REPLACE ";" "\\;" labels "${ARG_LABELS}")
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS "${labels}"
                       ENVIRONMENT "PERFCI_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()
