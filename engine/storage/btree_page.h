// The layout of one B-tree page: its 8- or 12-byte header, the cell pointer
// array, and the leading fields of each cell. read_cell_ptr and
// parse_cell_header run inside the cursor's binary search, so they are small
// and inline; perfci's inline contracts name them, so keep their names.
//
// Every offset taken from a page is checked against the page before use:
// a corrupt file yields an error, never an out-of-bounds read.
#pragma once

#include <cstdint>
#include <span>

#include "engine/status.h"
#include "engine/util/coding.h"
#include "engine/util/varint.h"

namespace engine {

enum PageType : uint8_t {
  kIndexInterior = 2,
  kTableInterior = 5,
  kIndexLeaf = 10,
  kTableLeaf = 13,
};

constexpr uint32_t kPage1BtreeOffset = 100;  // page 1 starts with the database header
constexpr int kMaxBtreeDepth = 20;           // deeper means a cycle or a corrupt file

inline bool is_leaf_type(uint8_t t) { return (t & 8) != 0; }
inline bool is_table_type(uint8_t t) { return (t & 1) != 0; }
inline uint32_t page_header_size(uint8_t t) { return is_leaf_type(t) ? 8 : 12; }

// SQLite's bounds on the payload kept on the page (the rest overflows).
inline uint32_t max_local_payload(uint32_t usable, bool table_leaf) {
  return table_leaf ? usable - 35 : (usable - 12) * 64 / 255 - 23;
}
inline uint32_t min_local_payload(uint32_t usable) { return (usable - 12) * 32 / 255 - 23; }

// Bytes of a payload of `payload` bytes stored on the page itself.
ENGINE_ALWAYS_INLINE uint32_t local_payload_size(uint64_t payload, uint32_t usable,
                                                 uint32_t max_local, uint32_t min_local) {
  if (payload <= max_local) return static_cast<uint32_t>(payload);
  const uint32_t k = min_local + static_cast<uint32_t>((payload - min_local) % (usable - 4));
  return k <= max_local ? k : min_local;
}

// A page's header, parsed and checked once per visit.
struct PageInfo {
  uint32_t pgno = 0;
  uint32_t hdr_off = 0;        // offset of the B-tree header: 100 on page 1, else 0
  uint32_t ptrs_off = 0;       // offset of the cell pointer array
  uint32_t usable = 0;         // usable bytes of the page
  uint32_t content_start = 0;  // start of the cell content area (65536 stored as 0)
  uint32_t right_child = 0;    // interior pages only
  uint32_t max_local = 0;
  uint32_t min_local = 0;
  uint16_t ncell = 0;
  uint16_t first_freeblock = 0;
  uint8_t frag = 0;
  uint8_t type = 0;
  bool leaf = false;
  bool table = false;

  uint32_t ptrs_end() const { return ptrs_off + 2u * ncell; }
};

// Parses and checks the header of page `pgno` (hdr_off 100 for page 1).
Status parse_page_header(const uint8_t* page, uint32_t pgno, uint32_t usable, PageInfo* out);

// Offset of cell i: a 2-byte read from the cell pointer array at ptrs_off
// (the page header's offset plus its size). parse_page_header has checked
// that the array lies inside the page.
ENGINE_ALWAYS_INLINE uint16_t read_cell_ptr(const uint8_t* page, uint32_t ptrs_off, int i) {
  return get_u16(page + ptrs_off + 2 * static_cast<uint32_t>(i));
}

// The leading fields of one cell.
struct CellInfo {
  int64_t key = 0;            // rowid (table pages)
  uint64_t payload_size = 0;  // whole payload, local plus overflow (0 for table interior)
  uint32_t child = 0;         // left child (interior pages)
  uint32_t payload_off = 0;   // offset of the local payload in the page
  uint32_t local = 0;         // payload bytes on the page
  uint32_t overflow = 0;      // first overflow page, 0 when the payload is all local
  uint32_t size = 0;          // bytes the cell occupies on the page (at least 4)
};

// Decodes the cell at `off`: the left child (interior), payload size (all
// but table interior), rowid (table pages), the local part per SQLite's
// local-payload formula and the overflow pointer when the payload exceeds
// max_local. Returns false when the cell reaches outside the page.
ENGINE_ALWAYS_INLINE bool parse_cell_header(const uint8_t* page, const PageInfo& pg, uint32_t off,
                                            CellInfo* c) {
  if (off < pg.ptrs_end() || off + 4 > pg.usable) return false;
  const uint8_t* end = page + pg.usable;
  const uint8_t* p = page + off;
  if (!pg.leaf) {
    c->child = get_u32(p);
    p += 4;
    if (pg.table) {
      uint64_t k;
      const int n = get_varint_bounded(p, end, &k);
      if (n == 0) return false;
      c->key = static_cast<int64_t>(k);
      c->payload_size = 0;
      c->payload_off = off + 4 + static_cast<uint32_t>(n);
      c->local = 0;
      c->overflow = 0;
      c->size = 4 + static_cast<uint32_t>(n);
      return true;
    }
  }
  uint64_t psize;
  int n = get_varint_bounded(p, end, &psize);
  if (n == 0) return false;
  p += n;
  if (pg.table) {
    uint64_t k;
    n = get_varint_bounded(p, end, &k);
    if (n == 0) return false;
    p += n;
    c->key = static_cast<int64_t>(k);
  }
  c->payload_size = psize;
  c->payload_off = static_cast<uint32_t>(p - page);
  uint32_t sz;
  if (psize <= pg.max_local) {
    c->local = static_cast<uint32_t>(psize);
    c->overflow = 0;
    sz = c->payload_off - off + c->local;
    if (c->payload_off + uint64_t{c->local} > pg.usable) return false;
  } else {
    c->local = local_payload_size(psize, pg.usable, pg.max_local, pg.min_local);
    const uint64_t ovfl_at = uint64_t{c->payload_off} + c->local;
    if (ovfl_at + 4 > pg.usable) return false;
    c->overflow = get_u32(page + ovfl_at);
    sz = c->payload_off - off + c->local + 4;
  }
  c->size = sz < 4 ? 4 : sz;
  return true;
}

// Only the rowid of cell i of a table page (interior or leaf): what the
// binary search of a rowid seek reads, without the payload bookkeeping of
// parse_cell_header. False when the cell reaches outside the page.
ENGINE_ALWAYS_INLINE bool table_cell_key(const uint8_t* page, const PageInfo& pg, int i,
                                         int64_t* key) {
  const uint32_t off = read_cell_ptr(page, pg.ptrs_off, i);
  if (off < pg.ptrs_end() || off + 4 > pg.usable) return false;
  const uint8_t* p = page + off;
  uint64_t v;
  // Almost every cell starts 18 bytes or more before the end of the page:
  // room for the longest size varint and key varint, so neither needs a
  // bound per byte (this runs once per probe of every rowid seek).
  if (off + 2 * kMaxVarintLen <= pg.usable) [[likely]] {
    if (pg.leaf) {
      int n = 0;  // skip the payload size: at most 8 bytes with the high bit, then one more
      while (n < kMaxVarintLen - 1 && p[n] >= 0x80) ++n;
      p += n + 1;
    } else {
      p += 4;  // left child
    }
    get_varint(p, &v);
    *key = static_cast<int64_t>(v);
    return true;
  }
  const uint8_t* end = page + pg.usable;
  if (pg.leaf) {
    // Skip the payload size.
    const int n = get_varint_bounded(p, end, &v);
    if (n == 0) return false;
    p += n;
  } else {
    p += 4;  // left child
  }
  if (get_varint_bounded(p, end, &v) == 0) return false;
  *key = static_cast<int64_t>(v);
  return true;
}

// The number of overflow pages a payload needs beyond its local part.
inline uint64_t overflow_page_count(uint64_t payload, uint32_t local, uint32_t usable) {
  if (payload <= local) return 0;
  return (payload - local + usable - 5) / (usable - 4);
}

// ---- Page mutation (btree_page.cc). `page` is a writable page image. ----

// Writes an empty page of `type` with its header at hdr_off.
void page_init(uint8_t* page, uint32_t hdr_off, uint8_t type, uint32_t usable, PageInfo* pg,
               uint32_t pgno);

// Bytes available for new cells and their pointers; checks the freeblock
// list (ascending, inside the page, no overlaps) on the way.
Status page_free_space(const uint8_t* page, const PageInfo& pg, uint32_t* free_bytes);

// Inserts `cell` as cell idx when it fits (*fitted true); otherwise leaves
// the page untouched and sets *fitted false.
Status page_insert_cell(uint8_t* page, PageInfo* pg, int idx, std::span<const uint8_t> cell,
                        bool* fitted);

// Removes cell idx, returning its bytes to the freeblock list as SQLite does.
Status page_drop_cell(uint8_t* page, PageInfo* pg, int idx);

// Rewrites the page with these cells packed at its end and no free blocks.
// The caller has checked that they fit (page_capacity).
void page_build(uint8_t* page, uint32_t hdr_off, uint8_t type, uint32_t usable,
                std::span<const std::span<const uint8_t>> cells, uint32_t right_child, PageInfo* pg,
                uint32_t pgno);

// Bytes a page can hold in cells plus their 2-byte pointers.
inline uint32_t page_capacity(uint32_t hdr_off, uint8_t type, uint32_t usable) {
  return usable - hdr_off - page_header_size(type);
}

// Sets the left child of interior cell idx (or the right child when idx ==
// ncell).
void page_set_child(uint8_t* page, PageInfo* pg, int idx, uint32_t child);

}  // namespace engine
