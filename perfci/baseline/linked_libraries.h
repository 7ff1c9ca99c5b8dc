// The shared libraries a binary links directly (DT_NEEDED) and which files
// and versions the dynamic loader picks for them here: the libraries that
// run inside measured regions (libsqlite3, libc, libstdc++) change the
// instruction count of the same binary when their version changes.
#pragma once

#include <string>
#include <vector>

namespace perfci::baseline {

struct LinkedLibrary {
  std::string soname;           // "libsqlite3.so.0", as DT_NEEDED names it
  std::string path;             // the file the loader resolves it to (real path)
  std::string package;          // "libsqlite3-0:amd64" when dpkg knows the file
  std::string package_version;  // "3.40.1-2+deb12u1"
  // What a profile compares: the upstream version of the package
  // ("3.40.1"), else the resolved file's name ("libsqlite3.so.0.8.6"), so
  // a Debian security rebuild of the same release still compares.
  std::string version;
  std::string build_id;  // GNU build-id of the file, recorded for provenance
};

// Reads DT_NEEDED and PT_INTERP with libelf and asks the binary's own
// dynamic loader (`<interp> --list BINARY`, an argv, never a shell) where
// each library resolves. Throws perfci::Error when the binary is not ELF
// or the loader fails; a statically linked binary yields an empty list.
std::vector<LinkedLibrary> linked_libraries(const std::string& binary);

// The dynamic loader a binary names (PT_INTERP), "" for a static binary.
// Throws perfci::Error when the binary is not ELF.
std::string dynamic_loader(const std::string& binary);

// True when `soname` is selected by `pattern`: equal to it, or `pattern`
// followed by ".so" ("libc" selects "libc.so.6", not "libcap.so.2").
bool library_matches(const std::string& soname, const std::string& pattern);

// "3.40.1" of "3.40.1-2+deb12u1", "2.36" of "2.36-9+deb12u7", "1.2" of "1:1.2-3".
std::string upstream_version(const std::string& package_version);

// Parses the loader's --list output: soname => path pairs.
std::vector<std::pair<std::string, std::string>> parse_loader_list(const std::string& text);

}  // namespace perfci::baseline
