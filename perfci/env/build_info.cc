#include "perfci/env/build_info.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include <cstring>
#include <map>

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

void to_json(nlohmann::json& j, const BuildInfo& b) {
  j = nlohmann::json{{"producer", b.producer}, {"build_id", b.build_id}};
}

}  // namespace perfci
