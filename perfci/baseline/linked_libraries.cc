#include "perfci/baseline/linked_libraries.h"

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include "perfci/env/build_info.h"
#include "perfci/util/elf_file.h"
#include "perfci/util/error.h"
#include "perfci/util/strings.h"
#include "perfci/util/subprocess.h"

namespace perfci::baseline {
namespace {

namespace fs = std::filesystem;

struct DynamicInfo {
  std::string interpreter;
  std::vector<std::string> needed;
};

DynamicInfo read_dynamic(const std::string& binary) {
  DynamicInfo info;
  ElfFile file(binary);
  Elf* elf = file.get();
  std::size_t phnum = 0;
  elf_getphdrnum(elf, &phnum);
  for (std::size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(elf, static_cast<int>(i), &ph) || ph.p_type != PT_INTERP) continue;
    std::size_t size = 0;
    const char* raw = elf_rawfile(elf, &size);
    if (raw && ph.p_offset + ph.p_filesz <= size && ph.p_filesz > 0)
      info.interpreter.assign(raw + ph.p_offset, strnlen(raw + ph.p_offset, ph.p_filesz));
  }
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(elf, scn)) != nullptr) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data || sh.sh_entsize == 0) continue;
    for (std::size_t k = 0; k < sh.sh_size / sh.sh_entsize; ++k) {
      GElf_Dyn dyn;
      if (!gelf_getdyn(data, static_cast<int>(k), &dyn)) break;
      if (dyn.d_tag != DT_NEEDED) continue;
      if (const char* name = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val))
        info.needed.emplace_back(name);
    }
  }
  return info;
}

SubprocessResult run(std::vector<std::string> argv) {
  SubprocessOptions o;
  o.argv = std::move(argv);
  o.set_env = {{"LC_ALL", "C"}};
  o.timeout = std::chrono::seconds(30);
  return run_subprocess(o);
}

// dpkg records pre-merged-/usr paths (/lib/x86_64-linux-gnu/libc.so.6) while
// the loader may report either form: ask for every spelling at once.
void add_package(LinkedLibrary& lib, const std::string& loader_path) {
  std::vector<std::string> candidates{loader_path, lib.path};
  for (const std::string& p : std::vector<std::string>{loader_path, lib.path}) {
    if (p.rfind("/usr/", 0) == 0)
      candidates.push_back(p.substr(4));
    else
      candidates.push_back("/usr" + p);
  }
  std::vector<std::string> argv{"dpkg-query", "-S"};
  argv.insert(argv.end(), candidates.begin(), candidates.end());
  SubprocessResult r = run(argv);
  // Exit status 1 only says some spelling is unknown; the lines found stand.
  if (!r.spawn_error.empty() || r.out.empty()) return;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    auto sep = line.find(": ");
    if (sep == std::string::npos || line.find(", ") < sep) continue;  // diversions list several
    lib.package = line.substr(0, sep);
    break;
  }
  if (lib.package.empty()) return;
  SubprocessResult v = run({"dpkg-query", "-W", "-f=${Version}", lib.package});
  if (v.ok()) lib.package_version = trim(v.out);
}

}  // namespace

std::string dynamic_loader(const std::string& binary) { return read_dynamic(binary).interpreter; }

bool library_matches(const std::string& soname, const std::string& pattern) {
  return soname == pattern || soname.rfind(pattern + ".so", 0) == 0;
}

std::string upstream_version(const std::string& package_version) {
  std::string v = package_version;
  if (auto colon = v.find(':'); colon != std::string::npos) v = v.substr(colon + 1);
  if (auto dash = v.rfind('-'); dash != std::string::npos && dash > 0) v = v.substr(0, dash);
  return v;
}

std::vector<std::pair<std::string, std::string>> parse_loader_list(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto arrow = line.find(" => ");
    if (arrow == std::string::npos) continue;
    std::string name = trim(line.substr(0, arrow));
    std::string rest = trim(line.substr(arrow + 4));
    if (auto paren = rest.rfind(" ("); paren != std::string::npos) rest = rest.substr(0, paren);
    if (name.empty() || rest.empty() || rest == "not found") continue;
    out.emplace_back(name, rest);
  }
  return out;
}

std::vector<LinkedLibrary> linked_libraries(const std::string& binary) {
  DynamicInfo info = read_dynamic(binary);
  std::vector<LinkedLibrary> out;
  if (info.needed.empty()) return out;
  if (info.interpreter.empty())
    throw Error(binary + ": links shared libraries but names no dynamic loader (PT_INTERP)");
  SubprocessResult r = run({info.interpreter, "--list", binary});
  if (!r.ok())
    throw Error(binary + ": " + info.interpreter + " --list " + r.describe() + ": " +
                trim(r.err_tail));
  std::map<std::string, std::string> resolved;
  for (auto& [name, path] : parse_loader_list(r.out)) resolved.emplace(name, path);
  for (const auto& soname : info.needed) {
    LinkedLibrary lib;
    lib.soname = soname;
    auto it = resolved.find(soname);
    if (it == resolved.end()) throw Error(binary + ": the loader does not find " + soname);
    std::error_code ec;
    fs::path real = fs::canonical(it->second, ec);
    lib.path = ec ? it->second : real.string();
    add_package(lib, it->second);
    lib.version = lib.package_version.empty() ? fs::path(lib.path).filename().string()
                                              : upstream_version(lib.package_version);
    try {
      lib.build_id = read_build_info(lib.path).build_id;
    } catch (const Error&) {
      // Unreadable as ELF (a linker script?): the version still identifies it.
    }
    out.push_back(std::move(lib));
  }
  return out;
}

}  // namespace perfci::baseline
