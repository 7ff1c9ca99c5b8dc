#include "perfci/env/build_info.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>

#include "perfci/util/elf_file.h"

namespace perfci {

BuildInfo read_build_info(const std::string& binary) {
  BuildInfo info;
  ElfFile file(binary);
  Elf* elf = file.get();
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(elf, scn)) != nullptr && info.build_id.empty()) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    std::size_t offset = 0, name_off = 0, desc_off = 0;
    GElf_Nhdr nh;
    while (data && (offset = gelf_getnote(data, offset, &nh, &name_off, &desc_off)) > 0) {
      if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
          std::memcmp(static_cast<const char*>(data->d_buf) + name_off, "GNU", 4) != 0)
        continue;
      static const char* hex = "0123456789abcdef";
      const auto* p = static_cast<const unsigned char*>(data->d_buf) + desc_off;
      for (std::size_t i = 0; i < nh.n_descsz; ++i) {
        info.build_id += hex[p[i] >> 4];
        info.build_id += hex[p[i] & 15];
      }
      break;
    }
  }
  scn = nullptr;
  while ((scn = elf_nextscn(elf, scn)) != nullptr && !info.calls_assert_fail) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
        sh.sh_entsize == 0)
      continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    const std::size_t count = data ? sh.sh_size / sh.sh_entsize : 0;
    for (std::size_t i = 0; i < count; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym) || sym.st_shndx != SHN_UNDEF) continue;
      const char* name = elf_strptr(elf, sh.sh_link, sym.st_name);
      if (name && std::strcmp(name, "__assert_fail") == 0) {
        info.calls_assert_fail = true;
        break;
      }
    }
  }
  if (Dwarf* dwarf = dwarf_begin_elf(elf, DWARF_C_READ, nullptr)) {
    // Startup files from libc carry their own producer; the majority is
    // the project's compiler.
    std::map<std::string, int> producers;
    Dwarf_Off off = 0, next = 0;
    std::size_t header = 0;
    while (dwarf_nextcu(dwarf, off, &next, &header, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      Dwarf_Attribute attr;
      if (dwarf_offdie(dwarf, off + header, &cu) && dwarf_attr(&cu, DW_AT_producer, &attr))
        if (const char* s = dwarf_formstring(&attr)) ++producers[s];
      off = next;
    }
    int best = 0;
    for (const auto& [p, n] : producers)
      if (n > best) {
        best = n;
        info.producer = p;
      }
    dwarf_end(dwarf);
  }
  return info;
}

BuildFlavour build_flavour(const BuildInfo& info) {
  BuildFlavour f;
  f.assertions = info.calls_assert_fail ? "compiled-in" : "unknown";
  std::istringstream words(info.producer);
  std::vector<std::string> options;
  for (std::string w; words >> w;)
    if (w.rfind("-", 0) == 0) options.push_back(w);
  const bool gcc = info.producer.rfind("GNU ", 0) == 0;
  // Without recorded options nothing is known, except for GCC, which
  // records them all.
  if (options.empty() && !gcc) return f;
  f.optimization = gcc ? "-O0" : "";
  std::vector<std::string> sanitizers;
  for (const std::string& o : options) {
    if (o.rfind("-O", 0) == 0) f.optimization = o == "-O" ? "-O1" : o;
    if (o.rfind("-fsanitize=", 0) == 0) {
      std::istringstream list(o.substr(std::strlen("-fsanitize=")));
      for (std::string s; std::getline(list, s, ',');)
        if (!s.empty()) sanitizers.push_back(s);
    }
    if (o.rfind("-fno-sanitize=", 0) == 0) {
      std::istringstream list(o.substr(std::strlen("-fno-sanitize=")));
      for (std::string s; std::getline(list, s, ',');)
        sanitizers.erase(std::remove(sanitizers.begin(), sanitizers.end(), s), sanitizers.end());
    }
  }
  if (f.optimization.empty()) return f;
  f.optimized = f.optimization != "-O0";
  f.sanitizers = sanitizers;
  return f;
}

void to_json(nlohmann::json& j, const BuildInfo& b) {
  const BuildFlavour f = build_flavour(b);
  using nlohmann::json;
  j = json{{"producer", b.producer},
           {"build_id", b.build_id},
           {"optimization", f.optimization.empty() ? json(nullptr) : json(f.optimization)},
           {"optimized", f.optimized ? json(*f.optimized) : json(nullptr)},
           {"sanitizers", f.sanitizers ? json(*f.sanitizers) : json(nullptr)},
           {"assertions", f.assertions}};
}

std::vector<std::string> provenance_warnings(const std::string& what, const nlohmann::json& build,
                                             const nlohmann::json& context) {
  std::vector<std::string> out;
  if (context.is_object() && context.contains("library_build_type") &&
      context["library_build_type"] == "debug")
    out.push_back(what +
                  ": Google Benchmark's library was built as debug (library_build_type "
                  "\"debug\" in its context); its timing loop has a debug build's overhead, "
                  "which the times include");
  if (build.is_object()) {
    const std::string opt = build.contains("optimization") && build["optimization"].is_string()
                                ? build["optimization"].get<std::string>()
                                : "";
    if (build.contains("optimized") && build["optimized"] == false)
      out.push_back(what + " was compiled without optimisation (" + opt +
                    "): its times say little about an optimised build");
    if (build.contains("sanitizers") && build["sanitizers"].is_array() &&
        !build["sanitizers"].empty()) {
      std::string list;
      for (const auto& s : build["sanitizers"])
        if (s.is_string()) list += (list.empty() ? "" : ",") + s.get<std::string>();
      out.push_back(what + " was compiled with -fsanitize=" + list +
                    ": its times include the sanitizer's checks");
    }
  }
  return out;
}

}  // namespace perfci
