# Every dependency is a Debian package found through CMake or pkg-config;
# nothing is vendored or downloaded.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(benchmark REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
if(PERFCI_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

pkg_check_modules(LIBDW REQUIRED IMPORTED_TARGET libdw)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
pkg_check_modules(CAPSTONE REQUIRED IMPORTED_TARGET capstone)

# libpfm4 ships neither a pkg-config file nor a CMake package.
find_path(LIBPFM_INCLUDE_DIR perfmon/pfmlib_perf_event.h REQUIRED)
find_library(LIBPFM_LIBRARY pfm REQUIRED)
add_library(libpfm::libpfm UNKNOWN IMPORTED)
set_target_properties(libpfm::libpfm PROPERTIES
  IMPORTED_LOCATION "${LIBPFM_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${LIBPFM_INCLUDE_DIR}")

# valgrind's client-request headers (callgrind.h) are header-only.
find_path(VALGRIND_INCLUDE_DIR valgrind/callgrind.h REQUIRED)
find_program(VALGRIND_EXECUTABLE valgrind)

# libmd: MD5 for sqllogictest result hashes (engine/slt).
if(PERFCI_BUILD_ENGINE)
  pkg_check_modules(LIBMD REQUIRED IMPORTED_TARGET libmd)
endif()
