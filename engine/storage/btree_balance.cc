// Balancing, after SQLite's balance_deeper / balance_nonroot /
// balance_shallower: an overfull or underfull page is redistributed together
// with up to two siblings into as many pages as the cells need, and the
// dividers in the parent are rewritten; that may in turn overfill or empty
// the parent, so balancing walks up the path. The root keeps its page
// number: when it overflows its content moves one level down.
#include <algorithm>
#include <cstring>
#include <string>

#include "engine/storage/btree.h"
#include "engine/util/varint.h"

namespace engine {

namespace {

struct CellRef {
  size_t off;  // into the arena
  uint32_t len;
};

struct Range {
  int begin;
  int end;  // cells [begin, end) go to one page
};

uint32_t cell_length(const CellInfo& c, uint32_t off) {
  return c.payload_off - off + c.local + (c.payload_size > c.local ? 4 : 0);
}

uint32_t slot_size(uint32_t len) { return (len < 4 ? 4 : len) + 2; }

// The length of the leaf cell at `off` when its payload is all on the page
// (the common case, read with two varints instead of parse_cell_header's
// bookkeeping); 0 when it overflows or reaches outside the page, for
// parse_cell_header to decide.
inline uint32_t local_cell_length(const uint8_t* page, const PageInfo& pg, uint32_t off) {
  if (!pg.leaf || off < pg.ptrs_end() || off + 4 > pg.usable) return 0;
  const uint8_t* end = page + pg.usable;
  const uint8_t* p = page + off;
  uint64_t size;
  int n = get_varint_bounded(p, end, &size);
  if (n == 0 || size > pg.max_local) return 0;
  p += n;
  if (pg.table) {
    uint64_t rowid;
    n = get_varint_bounded(p, end, &rowid);
    if (n == 0) return 0;
    p += n;
  }
  if (size > static_cast<uint64_t>(end - p)) return 0;
  return static_cast<uint32_t>(p - (page + off) + size);
}

Status corrupt(uint32_t pgno, const std::string& what) {
  return Status::Corruption("page " + std::to_string(pgno) + ": " + what);
}

// Fills pages left to right. With dividers (promote), the cell after each
// page moves up to the parent; the last page must not come out empty.
bool partition_greedy(const std::vector<uint32_t>& sz, uint32_t cap, bool promote,
                      std::vector<Range>* out) {
  out->clear();
  const int n = static_cast<int>(sz.size());
  if (n == 0) {
    out->push_back({0, 0});
    return true;
  }
  int i = 0;
  while (i < n) {
    const int b = i;
    uint32_t acc = 0;
    while (i < n && acc + sz[i] <= cap) acc += sz[i++];
    if (i == b) return false;
    if (promote && i < n) {
      if (i == n - 1) {
        if (i - b < 2) return false;
        --i;
      }
      out->push_back({b, i});
      ++i;
    } else {
      out->push_back({b, i});
    }
  }
  return true;
}

// Spreads the cells evenly over k pages.
bool partition_even(const std::vector<uint32_t>& sz, uint32_t cap, bool promote, int k,
                    std::vector<Range>* out) {
  out->clear();
  const int n = static_cast<int>(sz.size());
  uint64_t total = 0;
  for (uint32_t s : sz) total += s;
  const uint64_t target = (total + static_cast<uint64_t>(k) - 1) / static_cast<uint64_t>(k);
  int pos = 0;
  for (int j = 0; j < k; ++j) {
    const int b = pos;
    if (j == k - 1) {
      uint64_t acc = 0;
      for (int i = b; i < n; ++i) acc += sz[i];
      if (acc > cap || (n - b == 0 && n > 0)) return false;
      out->push_back({b, n});
      return true;
    }
    const int after = k - 1 - j;
    const int need_after = promote ? 2 * after : after;
    uint64_t acc = 0;
    while (pos < n && n - (pos + 1) >= need_after && acc + sz[pos] <= cap &&
           (acc < target || pos == b)) {
      acc += sz[pos++];
    }
    if (pos == b) return false;
    out->push_back({b, pos});
    if (promote) ++pos;
  }
  return false;
}

}  // namespace

Status BTree::Balance(std::vector<PathEntry>* path, int level, std::vector<Pending>* pending) {
  for (;;) {
    if (level == 0) {
      if (!pending->empty()) {
        ENGINE_RETURN_IF_ERROR(BalanceDeeper(path, pending));
        level = 1;
        continue;
      }
      return BalanceShallower((*path)[0].pgno);
    }
    ENGINE_RETURN_IF_ERROR(BalanceNonRoot(path, level, pending));
    --level;  // any pending cells now belong to the parent
    if (!pending->empty()) continue;
    if (level == 0) return BalanceShallower((*path)[0].pgno);
    bool underfull;
    {
      ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Get((*path)[level].pgno));
      PageInfo pg;
      ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), p.pgno(), pager_->usable_size(), &pg));
      ENGINE_ASSIGN_OR_RETURN(underfull, Underfull(p, pg));
    }
    if (!underfull) return Status::OK();
  }
}

Status BTree::BalanceDeeper(std::vector<PathEntry>* path, std::vector<Pending>* pending) {
  (void)pending;  // they stay as they are: the child takes the root's cells in order
  const uint32_t usable = pager_->usable_size();
  const uint32_t root = (*path)[0].pgno;
  ENGINE_ASSIGN_OR_RETURN(PageRef rp, GetWritable(root));
  PageInfo rpg;
  ENGINE_RETURN_IF_ERROR(parse_page_header(rp.data(), root, usable, &rpg));
  std::vector<uint8_t> copy(rp.data(), rp.data() + usable);
  std::vector<std::span<const uint8_t>> cells;
  for (int i = 0; i < rpg.ncell; ++i) {
    const uint16_t off = read_cell_ptr(copy.data(), rpg.ptrs_off, i);
    CellInfo c;
    if (!parse_cell_header(copy.data(), rpg, off, &c))
      return corrupt(root, "cell outside the page");
    cells.emplace_back(copy.data() + off, cell_length(c, off));
  }
  ENGINE_ASSIGN_OR_RETURN(PageRef cp, pager_->Allocate());
  PageInfo cpg;
  page_build(cp.mutable_data(), 0, rpg.type, usable, cells, rpg.right_child, &cpg, cp.pgno());
  const uint8_t interior = rpg.table ? kTableInterior : kIndexInterior;
  page_build(rp.mutable_data(), rpg.hdr_off, interior, usable, {}, cp.pgno(), &rpg, root);
  path->insert(path->begin() + 1, PathEntry{cp.pgno(), (*path)[0].idx});
  (*path)[0].idx = 0;
  return Status::OK();
}

Status BTree::BalanceShallower(uint32_t root) {
  const uint32_t usable = pager_->usable_size();
  ENGINE_ASSIGN_OR_RETURN(PageRef rp, pager_->Get(root));
  PageInfo rpg;
  ENGINE_RETURN_IF_ERROR(parse_page_header(rp.data(), root, usable, &rpg));
  if (rpg.leaf || rpg.ncell > 0) return Status::OK();
  const uint32_t child = rpg.right_child;
  if (child < 2 || child > pager_->page_count()) return corrupt(root, "bad right child");
  std::vector<uint8_t> copy;
  std::vector<std::span<const uint8_t>> cells;
  PageInfo cpg;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef cp, pager_->Get(child));
    ENGINE_RETURN_IF_ERROR(parse_page_header(cp.data(), child, usable, &cpg));
    if (cpg.table != rpg.table) return corrupt(child, "table and index pages mixed");
    copy.assign(cp.data(), cp.data() + usable);
  }
  uint64_t need = 0;
  for (int i = 0; i < cpg.ncell; ++i) {
    const uint16_t off = read_cell_ptr(copy.data(), cpg.ptrs_off, i);
    CellInfo c;
    if (!parse_cell_header(copy.data(), cpg, off, &c))
      return corrupt(child, "cell outside the page");
    cells.emplace_back(copy.data() + off, cell_length(c, off));
    need += slot_size(cells.back().size());
  }
  // Page 1 has 100 bytes less room; when the child does not fit, the root
  // stays an interior page with a single child, as SQLite leaves it.
  if (need > page_capacity(rpg.hdr_off, cpg.type, usable)) return Status::OK();
  ENGINE_RETURN_IF_ERROR(pager_->MakeWritable(rp));
  page_build(rp.mutable_data(), rpg.hdr_off, cpg.type, usable, cells, cpg.right_child, &rpg, root);
  rp.Release();
  return pager_->Free(child);
}

Status BTree::BalanceNonRoot(std::vector<PathEntry>* path, int level,
                             std::vector<Pending>* pending) {
  const uint32_t usable = pager_->usable_size();
  const PathEntry me = (*path)[level];
  const PathEntry par = (*path)[level - 1];
  ENGINE_ASSIGN_OR_RETURN(PageRef pp, GetWritable(par.pgno));
  PageInfo ppg;
  ENGINE_RETURN_IF_ERROR(parse_page_header(pp.data(), par.pgno, usable, &ppg));
  if (ppg.leaf || par.idx > ppg.ncell) return corrupt(par.pgno, "bad path through the parent");
  auto parent_child = [&](int i) -> uint32_t {
    if (i >= ppg.ncell) return ppg.right_child;
    return get_u32(pp.data() + read_cell_ptr(pp.data(), ppg.ptrs_off, i));
  };
  if (parent_child(par.idx) != me.pgno) return corrupt(par.pgno, "path does not match the tree");

  // The window of siblings. A leaf that overflows by a cell added at its end
  // (rowid-order inserts at the end of the tree, and the ascending runs
  // inside a key range that TPC-C's orders and order lines make in their
  // indexes) splits off a fresh page for that cell and leaves the full one
  // alone: the next inserts of the run fill the new page with no balancing
  // at all, where spreading three full siblings evenly would overflow again
  // a few inserts later (SQLite's balance_quick does this for the rightmost
  // leaf of a parent only).
  const int nchild = ppg.ncell + 1;
  bool append = false;
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef mp, pager_->Get(me.pgno));
    PageInfo mpg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(mp.data(), me.pgno, usable, &mpg));
    append = mpg.leaf && pending->size() == 1 && pending->front().idx == mpg.ncell;
  }
  int nold = std::min(3, nchild);
  int first = std::clamp(par.idx - 1, 0, nchild - nold);
  if (append) {
    nold = 1;
    first = par.idx;
  }
  std::vector<uint32_t> old(static_cast<size_t>(nold));
  for (int i = 0; i < nold; ++i) {
    old[i] = parent_child(first + i);
    if (old[i] < 2 || old[i] > pager_->page_count()) {
      return corrupt(par.pgno, "child pointer to page " + std::to_string(old[i]));
    }
    for (int j = 0; j < i; ++j) {
      if (old[j] == old[i]) return corrupt(par.pgno, "two child pointers to one page");
    }
  }

  // Gather every cell of the window in order, dividers included (converted
  // to the children's cell format) except for table leaves, whose dividers
  // are mere copies of keys.
  // Each old page is copied whole, its cells referenced in place: one
  // memcpy per page instead of one copy per cell. Pending cells and
  // dividers are appended after them.
  std::vector<uint8_t> arena;
  std::vector<CellRef> refs;
  arena.reserve(static_cast<size_t>(nold) * usable + 1024);
  // A cell takes at least 6 bytes of a page (4 of content, 2 of pointer).
  refs.reserve(static_cast<size_t>(nold) * (usable / 6 + 1) + pending->size());
  auto add = [&](const uint8_t* prefix, size_t plen, const uint8_t* p, size_t n) {
    refs.push_back({arena.size(), static_cast<uint32_t>(plen + n)});
    arena.insert(arena.end(), prefix, prefix + plen);
    arena.insert(arena.end(), p, p + n);
  };
  uint8_t type = 0;
  uint32_t final_right = 0;
  for (int i = 0; i < nold; ++i) {
    ENGINE_ASSIGN_OR_RETURN(PageRef sp, pager_->Get(old[i]));
    PageInfo spg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(sp.data(), old[i], usable, &spg));
    if (i == 0) {
      type = spg.type;
    } else if (spg.type != type) {
      return corrupt(old[i], "sibling pages of different types");
    }
    if (spg.table != ppg.table) return corrupt(old[i], "table and index pages mixed");
    const bool mine = old[i] == me.pgno;
    if (spg.ncell == 0 && !mine) return corrupt(old[i], "empty non-root page");
    const int total = spg.ncell + (mine ? static_cast<int>(pending->size()) : 0);
    const size_t base = arena.size();
    arena.insert(arena.end(), sp.data(), sp.data() + usable);
    size_t pk = 0;
    int real = 0;
    for (int pos = 0; pos < total; ++pos) {
      if (mine && pk < pending->size() && (*pending)[pk].idx == pos) {
        const auto& cell = (*pending)[pk++].cell;
        add(nullptr, 0, cell.data(), cell.size());
        continue;
      }
      if (real >= spg.ncell) return Status::Corruption("pending cell index out of order");
      const uint16_t off = read_cell_ptr(sp.data(), spg.ptrs_off, real);
      uint32_t len = local_cell_length(sp.data(), spg, off);
      if (len == 0) {
        CellInfo c;
        if (!parse_cell_header(sp.data(), spg, off, &c)) {
          return corrupt(old[i], "cell " + std::to_string(real) + " outside the page");
        }
        len = cell_length(c, off);
      }
      refs.push_back({base + off, len});
      ++real;
    }
    if (i + 1 < nold) {
      const uint16_t off = read_cell_ptr(pp.data(), ppg.ptrs_off, first + i);
      CellInfo c;
      if (!parse_cell_header(pp.data(), ppg, off, &c))
        return corrupt(par.pgno, "cell outside the page");
      const uint8_t* body = pp.data() + off + 4;
      const size_t blen = cell_length(c, off) - 4;
      if (type == kIndexLeaf) {
        add(nullptr, 0, body, blen);
      } else if (type != kTableLeaf) {
        uint8_t child[4];
        put_u32(child, spg.right_child);
        add(child, 4, body, blen);
      }
    } else {
      final_right = spg.right_child;
    }
  }
  if (pending->size() > 0 && std::find(old.begin(), old.end(), me.pgno) == old.end()) {
    return Status::Corruption("balancing lost track of its page");
  }
  pending->clear();
  for (int i = 0; i + 1 < nold; ++i)
    ENGINE_RETURN_IF_ERROR(page_drop_cell(pp.mutable_data(), &ppg, first));

  // Partition into pages.
  const bool promote = type != kTableLeaf;
  const uint32_t cap = page_capacity(0, type, usable);
  std::vector<uint32_t> sz;
  sz.reserve(refs.size());
  for (const CellRef& r : refs) sz.push_back(slot_size(r.len));
  std::vector<Range> ranges;
  if (!partition_greedy(sz, cap, promote, &ranges)) {
    return Status::Corruption("cells too large to fit a page while balancing page " +
                              std::to_string(me.pgno));
  }
  if (!append) {
    std::vector<Range> even;
    if (partition_even(sz, cap, promote, static_cast<int>(ranges.size()), &even)) ranges = even;
  }
  const int nnew = static_cast<int>(ranges.size());

  // Pages: reuse the old ones in order, allocate or free the difference.
  std::vector<PageRef> pages;
  for (int j = 0; j < nnew; ++j) {
    if (j < nold) {
      ENGINE_ASSIGN_OR_RETURN(PageRef p, GetWritable(old[j]));
      pages.push_back(std::move(p));
    } else {
      ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Allocate());
      pages.push_back(std::move(p));
    }
  }
  for (int j = nnew; j < nold; ++j) ENGINE_RETURN_IF_ERROR(pager_->Free(old[j]));

  std::vector<std::span<const uint8_t>> spans;
  spans.reserve(refs.size());
  std::vector<std::vector<uint8_t>> dividers;
  for (int j = 0; j < nnew; ++j) {
    spans.clear();
    for (int i = ranges[j].begin; i < ranges[j].end; ++i) {
      spans.emplace_back(arena.data() + refs[i].off, refs[i].len);
    }
    uint32_t right = 0;
    const bool last = j + 1 == nnew;
    const CellRef* div = (!last && promote) ? &refs[ranges[j].end] : nullptr;
    if (!is_leaf_type(type)) right = last ? final_right : get_u32(arena.data() + div->off);
    PageInfo npg;
    page_build(pages[j].mutable_data(), 0, type, usable, spans, right, &npg, pages[j].pgno());
    if (last) break;
    std::vector<uint8_t> cell(4);
    put_u32(cell.data(), pages[j].pgno());
    if (type == kTableLeaf) {
      // The divider is the largest rowid on the left page.
      const CellRef& lc = refs[ranges[j].end - 1];
      const uint8_t* p = arena.data() + lc.off;
      const uint8_t* end = p + lc.len;
      uint64_t v;
      int n = get_varint_bounded(p, end, &v);
      const int m = n == 0 ? 0 : get_varint_bounded(p + n, end, &v);
      if (m == 0) return Status::Corruption("table leaf cell too short while balancing");
      cell.insert(cell.end(), p + n, p + n + m);
    } else {
      const uint8_t* p = arena.data() + div->off;
      const size_t skip = type == kIndexLeaf ? 0 : 4;
      cell.insert(cell.end(), p + skip, p + div->len);
    }
    dividers.push_back(std::move(cell));
  }
  page_set_child(pp.mutable_data(), &ppg, first, pages[nnew - 1].pgno());
  for (size_t j = 0; j < dividers.size(); ++j) {
    const int idx = first + static_cast<int>(j);
    if (pending->empty()) {
      bool fitted;
      ENGINE_RETURN_IF_ERROR(page_insert_cell(pp.mutable_data(), &ppg, idx, dividers[j], &fitted));
      if (fitted) continue;
    }
    pending->push_back(Pending{idx, std::move(dividers[j])});
  }
  return Status::OK();
}

}  // namespace engine
