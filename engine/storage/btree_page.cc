#include "engine/storage/btree_page.h"

#include <cstring>
#include <string>
#include <vector>

namespace engine {

namespace {

Status page_corrupt(uint32_t pgno, const std::string& what) {
  return Status::Corruption("page " + std::to_string(pgno) + ": " + what);
}

void write_header(uint8_t* page, PageInfo* pg) {
  uint8_t* h = page + pg->hdr_off;
  h[0] = pg->type;
  put_u16(h + 1, pg->first_freeblock);
  put_u16(h + 3, pg->ncell);
  put_u16(h + 5, static_cast<uint16_t>(pg->content_start));  // 65536 wraps to 0
  h[7] = pg->frag;
  if (!pg->leaf) put_u32(h + 8, pg->right_child);
}

void set_info(PageInfo* pg, uint32_t pgno, uint32_t hdr_off, uint8_t type, uint32_t usable) {
  pg->pgno = pgno;
  pg->hdr_off = hdr_off;
  pg->type = type;
  pg->leaf = is_leaf_type(type);
  pg->table = is_table_type(type);
  pg->ptrs_off = hdr_off + page_header_size(type);
  pg->usable = usable;
  pg->max_local = max_local_payload(usable, pg->table && pg->leaf);
  pg->min_local = min_local_payload(usable);
}

// Moves every cell to the end of the page so the free space is one gap.
Status defragment(uint8_t* page, PageInfo* pg) {
  std::vector<uint8_t> copy(page, page + pg->usable);
  uint32_t top = pg->usable;
  for (int i = 0; i < pg->ncell; ++i) {
    const uint16_t off = read_cell_ptr(copy.data(), pg->ptrs_off, i);
    CellInfo c;
    if (!parse_cell_header(copy.data(), *pg, off, &c)) {
      return page_corrupt(pg->pgno, "cell " + std::to_string(i) + " outside the page");
    }
    if (c.size > top - pg->ptrs_end()) return page_corrupt(pg->pgno, "cells overflow the page");
    top -= c.size;
    std::memcpy(page + top, copy.data() + off, c.size);
    put_u16(page + pg->ptrs_off + 2 * i, static_cast<uint16_t>(top));
  }
  std::memset(page + pg->ptrs_end(), 0, top - pg->ptrs_end());
  pg->content_start = top;
  pg->first_freeblock = 0;
  pg->frag = 0;
  write_header(page, pg);
  return Status::OK();
}

// SQLite's pageFindSlot: first fit in the freeblock list. A remainder under
// 4 bytes becomes fragment bytes; otherwise the block shrinks from its end.
Status find_slot(uint8_t* page, PageInfo* pg, uint32_t size, uint32_t* slot) {
  *slot = 0;
  uint32_t prev = pg->hdr_off + 1;
  uint32_t pc = pg->first_freeblock;
  while (pc != 0) {
    if (pc + 4 > pg->usable) return page_corrupt(pg->pgno, "freeblock outside the page");
    const uint32_t bsize = get_u16(page + pc + 2);
    if (pc + bsize > pg->usable) return page_corrupt(pg->pgno, "freeblock past the page end");
    if (bsize >= size) {
      const uint32_t x = bsize - size;
      if (x < 4) {
        if (pg->frag > 57) return Status::OK();
        std::memcpy(page + prev, page + pc, 2);
        if (prev == pg->hdr_off + 1) pg->first_freeblock = get_u16(page + pc);
        pg->frag = static_cast<uint8_t>(pg->frag + x);
        *slot = pc;
      } else {
        put_u16(page + pc + 2, static_cast<uint16_t>(x));
        *slot = pc + x;
      }
      return Status::OK();
    }
    const uint32_t next = get_u16(page + pc);
    if (next != 0 && next <= pc + bsize) return page_corrupt(pg->pgno, "freeblocks out of order");
    prev = pc;
    pc = next;
  }
  return Status::OK();
}

// SQLite's freeSpace: returns [start, start+size) to the sorted freeblock
// list, merging with neighbours closer than 4 bytes (their gap was counted
// as fragment bytes), or extends the content area when it borders it.
Status free_space(uint8_t* page, PageInfo* pg, uint32_t start, uint32_t size) {
  uint32_t end = start + size;
  uint32_t ptr = pg->hdr_off + 1;
  uint32_t blk = pg->first_freeblock;
  while (blk != 0 && blk < start) {
    if (blk + 4 > pg->usable) return page_corrupt(pg->pgno, "freeblock outside the page");
    const uint32_t next = get_u16(page + blk);
    if (next != 0 && next <= blk) return page_corrupt(pg->pgno, "freeblocks out of order");
    ptr = blk;
    blk = next;
  }
  if (blk != 0 && blk < end) return page_corrupt(pg->pgno, "freed cell overlaps a freeblock");
  uint32_t nfrag = 0;
  if (blk != 0 && end + 3 >= blk) {
    if (blk + 4 > pg->usable) return page_corrupt(pg->pgno, "freeblock outside the page");
    nfrag = blk - end;
    end = blk + get_u16(page + blk + 2);
    if (end > pg->usable) return page_corrupt(pg->pgno, "freeblock past the page end");
    blk = get_u16(page + blk);
  }
  if (ptr > pg->hdr_off + 1) {
    const uint32_t ptr_end = ptr + get_u16(page + ptr + 2);
    if (ptr_end > start) return page_corrupt(pg->pgno, "freeblock overlaps a cell");
    if (ptr_end + 3 >= start) {
      nfrag += start - ptr_end;
      start = ptr;
    }
  }
  if (nfrag > pg->frag) return page_corrupt(pg->pgno, "fragment count too small");
  pg->frag = static_cast<uint8_t>(pg->frag - nfrag);
  if (start <= pg->content_start) {
    if (start < pg->content_start || ptr != pg->hdr_off + 1) {
      return page_corrupt(pg->pgno, "freed space below the content area");
    }
    pg->first_freeblock = static_cast<uint16_t>(blk);
    pg->content_start = end;
  } else {
    if (ptr == pg->hdr_off + 1) {
      pg->first_freeblock = static_cast<uint16_t>(start);
    } else {
      put_u16(page + ptr, static_cast<uint16_t>(start));
    }
    put_u16(page + start, static_cast<uint16_t>(blk));
    put_u16(page + start + 2, static_cast<uint16_t>(end - start));
  }
  return Status::OK();
}

}  // namespace

Status parse_page_header(const uint8_t* page, uint32_t pgno, uint32_t usable, PageInfo* out) {
  const uint32_t hdr_off = pgno == 1 ? kPage1BtreeOffset : 0;
  const uint8_t type = page[hdr_off];
  if (type != kIndexInterior && type != kTableInterior && type != kIndexLeaf &&
      type != kTableLeaf) {
    return page_corrupt(pgno, "not a b-tree page (type byte " + std::to_string(type) + ")");
  }
  set_info(out, pgno, hdr_off, type, usable);
  const uint8_t* h = page + hdr_off;
  out->first_freeblock = get_u16(h + 1);
  out->ncell = get_u16(h + 3);
  const uint32_t cs = get_u16(h + 5);
  out->content_start = cs == 0 ? 65536 : cs;
  out->frag = h[7];
  out->right_child = out->leaf ? 0 : get_u32(h + 8);
  if (out->ptrs_end() > usable || out->content_start > usable ||
      out->content_start < out->ptrs_end()) {
    return page_corrupt(pgno, "cell pointer array (" + std::to_string(out->ncell) +
                                  " cells) overlaps the cell content area");
  }
  if (!out->leaf && out->right_child == 0) return page_corrupt(pgno, "right child is 0");
  if (out->first_freeblock != 0 &&
      (out->first_freeblock < out->content_start || out->first_freeblock + 4u > usable)) {
    return page_corrupt(pgno, "first freeblock outside the cell content area");
  }
  return Status::OK();
}

void page_init(uint8_t* page, uint32_t hdr_off, uint8_t type, uint32_t usable, PageInfo* pg,
               uint32_t pgno) {
  set_info(pg, pgno, hdr_off, type, usable);
  pg->ncell = 0;
  pg->first_freeblock = 0;
  pg->frag = 0;
  pg->right_child = 0;
  pg->content_start = usable;
  std::memset(page + hdr_off, 0, usable - hdr_off);
  write_header(page, pg);
}

Status page_free_space(const uint8_t* page, const PageInfo& pg, uint32_t* free_bytes) {
  uint32_t total = pg.frag + (pg.content_start - pg.ptrs_end());
  uint32_t pc = pg.first_freeblock;
  while (pc != 0) {
    if (pc < pg.content_start || pc + 4 > pg.usable) {
      return page_corrupt(pg.pgno, "freeblock outside the cell content area");
    }
    const uint32_t next = get_u16(page + pc);
    const uint32_t size = get_u16(page + pc + 2);
    if (pc + size > pg.usable) return page_corrupt(pg.pgno, "freeblock past the page end");
    if (next != 0 && next <= pc + size + 3) {
      return page_corrupt(pg.pgno, "freeblocks out of order");
    }
    total += size;
    pc = next;
  }
  if (total > pg.usable) return page_corrupt(pg.pgno, "free space larger than the page");
  *free_bytes = total;
  return Status::OK();
}

Status page_insert_cell(uint8_t* page, PageInfo* pg, int idx, std::span<const uint8_t> cell,
                        bool* fitted) {
  *fitted = false;
  uint32_t size = static_cast<uint32_t>(cell.size());
  if (size < 4) size = 4;  // every cell can later become a freeblock
  uint32_t free_bytes;
  ENGINE_RETURN_IF_ERROR(page_free_space(page, *pg, &free_bytes));
  if (size + 2 > free_bytes) return Status::OK();
  uint32_t slot = 0;
  const uint32_t gap = pg->ptrs_end();
  if ((pg->first_freeblock != 0 || pg->frag != 0) && gap + 2 <= pg->content_start) {
    ENGINE_RETURN_IF_ERROR(find_slot(page, pg, size, &slot));
  }
  if (slot == 0) {
    if (gap + 2 + size > pg->content_start) ENGINE_RETURN_IF_ERROR(defragment(page, pg));
    pg->content_start -= size;
    slot = pg->content_start;
  }
  std::memcpy(page + slot, cell.data(), cell.size());
  uint8_t* ptr = page + pg->ptrs_off + 2 * idx;
  std::memmove(ptr + 2, ptr, 2u * (pg->ncell - static_cast<uint32_t>(idx)));
  put_u16(ptr, static_cast<uint16_t>(slot));
  ++pg->ncell;
  write_header(page, pg);
  *fitted = true;
  return Status::OK();
}

Status page_drop_cell(uint8_t* page, PageInfo* pg, int idx) {
  const uint16_t off = read_cell_ptr(page, pg->ptrs_off, idx);
  CellInfo c;
  if (!parse_cell_header(page, *pg, off, &c)) {
    return page_corrupt(pg->pgno, "cell " + std::to_string(idx) + " outside the page");
  }
  if (pg->ncell == 1) {
    // The last cell: start the page afresh, as SQLite does.
    const uint32_t right = pg->right_child;
    page_init(page, pg->hdr_off, pg->type, pg->usable, pg, pg->pgno);
    pg->right_child = right;
    write_header(page, pg);
    return Status::OK();
  }
  ENGINE_RETURN_IF_ERROR(free_space(page, pg, off, c.size));
  uint8_t* ptr = page + pg->ptrs_off + 2 * idx;
  std::memmove(ptr, ptr + 2, 2u * (pg->ncell - static_cast<uint32_t>(idx) - 1));
  --pg->ncell;
  put_u16(page + pg->ptrs_end(), 0);
  write_header(page, pg);
  return Status::OK();
}

void page_build(uint8_t* page, uint32_t hdr_off, uint8_t type, uint32_t usable,
                std::span<const std::span<const uint8_t>> cells, uint32_t right_child, PageInfo* pg,
                uint32_t pgno) {
  // page_init's result, without zeroing bytes the cells overwrite next:
  // only the gap between the pointer array and the content is cleared.
  set_info(pg, pgno, hdr_off, type, usable);
  pg->first_freeblock = 0;
  pg->frag = 0;
  uint32_t top = usable;
  for (size_t i = 0; i < cells.size(); ++i) {
    const uint32_t size = static_cast<uint32_t>(cells[i].size());
    const uint32_t slot = size < 4 ? 4 : size;
    top -= slot;
    std::memcpy(page + top, cells[i].data(), size);
    if (slot > size) std::memset(page + top + size, 0, slot - size);
    put_u16(page + pg->ptrs_off + 2 * i, static_cast<uint16_t>(top));
  }
  pg->ncell = static_cast<uint16_t>(cells.size());
  std::memset(page + pg->ptrs_end(), 0, top - pg->ptrs_end());
  pg->content_start = top;
  pg->right_child = right_child;
  write_header(page, pg);
}

void page_set_child(uint8_t* page, PageInfo* pg, int idx, uint32_t child) {
  if (idx == pg->ncell) {
    pg->right_child = child;
    write_header(page, pg);
  } else {
    put_u32(page + read_cell_ptr(page, pg->ptrs_off, idx), child);
  }
}

}  // namespace engine
