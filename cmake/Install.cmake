# What `cmake --install` and the Debian package (cpack -G DEB) ship: perfci
# itself, never engine/ (the engine is this tree's measured example, not part
# of the tool). Under the prefix:
#   bin/perfci                                   the command
#   include/perfci/bench.h, lib/.../libperfci_hook.a
#                                                the benchmark hook
#   lib/.../perfci/libperfci_alloc_counter.so    preloaded for bytes per
#                                                iteration (meters/alloc_bytes.h)
#   lib/.../cmake/perfci/                        find_package(perfci CONFIG) -> perfci::hook
#   lib/.../pkgconfig/perfci-hook.pc             the same for pkg-config users
#   share/doc/perfci/README.md
include(CMakePackageConfigHelpers)

# One version, perfci/version.h's kToolVersion (what every report carries):
# the package, the CMake package and the pkg-config file say the same.
file(STRINGS ${PROJECT_SOURCE_DIR}/perfci/version.h _perfci_version_line
     REGEX "kToolVersion = \"[0-9]+\\.[0-9]+\\.[0-9]+\"")
if(NOT _perfci_version_line MATCHES "\"([0-9]+\\.[0-9]+\\.[0-9]+)\"")
  message(FATAL_ERROR "cmake/Install.cmake: no kToolVersion \"X.Y.Z\" in perfci/version.h")
endif()
set(PERFCI_VERSION ${CMAKE_MATCH_1})

install(TARGETS perfci RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS perfci_alloc_counter LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/perfci)
install(TARGETS perfci_hook EXPORT perfciTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/perfci/bench.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/perfci)

set(_perfci_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/perfci)
install(EXPORT perfciTargets NAMESPACE perfci:: DESTINATION ${_perfci_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/package/perfciConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/package/perfciConfig.cmake
  INSTALL_DESTINATION ${_perfci_cmake_dir}
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/package/perfciConfigVersion.cmake
  VERSION ${PERFCI_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/package/perfciConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/package/perfciConfigVersion.cmake
        DESTINATION ${_perfci_cmake_dir})

# The prefix is the one given at install time (cmake --install --prefix P):
# the .pc file is written then, not at configure time.
install(CODE "
  set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PERFCI_VERSION \"${PERFCI_VERSION}\")
  set(CMAKE_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/cmake/package/perfci-hook.pc.in\"
                 \"${CMAKE_CURRENT_BINARY_DIR}/package/perfci-hook.pc\" @ONLY)
  file(INSTALL \"${CMAKE_CURRENT_BINARY_DIR}/package/perfci-hook.pc\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\")")

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# cpack -G DEB (in the build folder): perfci_<version>_<arch>.deb. The shared
# libraries perfci links are found by dpkg-shlibdeps; the tools it runs and
# what a benchmark linking the hook needs are named here.
set(CPACK_PACKAGE_NAME perfci)
set(CPACK_PACKAGE_VERSION ${PERFCI_VERSION})
set(CPACK_PACKAGE_CONTACT "perfci maintainers <perfci@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "performance-regression CI for CMake + Google Benchmark projects")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "valgrind, git, cmake, libbenchmark-dev, libpfm4-dev")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "linux-perf, build-essential")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The command without its 150 MB of DWARF (perfci reads the measured
# binaries' debug info, not its own); the hook archive keeps its symbols.
set(CPACK_STRIP_FILES ON)
include(CPack)
