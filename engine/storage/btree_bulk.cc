// Bottom-up loading of an index tree from keys in order (CREATE INDEX and
// REINDEX after KeySorter). Each level fills one page at a time, left to
// right, as full as its cells allow; the first key that does not fit goes
// up to the parent level as the divider and the next page starts after it.
// That is how SQLite's bulk-load balance (balance_nonroot with
// BTREE_BULKLOAD, which leaves the left siblings packed) fills an index
// built from its sorter, so the page counts match sqlite3's; and no key is
// compared or descended to, where one InsertIndex per key did both.
//
// The last page of a level must not be empty: when the stream ends right
// after a divider, the full page before it gives up its last cell as the
// divider and the pending one starts the last page.
#include <cstring>

#include "engine/storage/btree.h"
#include "engine/util/varint.h"

namespace engine {

namespace {

// The cells of one page being filled.
struct PageCells {
  std::vector<uint8_t> bytes;  // the cells, back to back
  std::vector<uint32_t> ends;  // where each cell ends in bytes
  uint32_t used = 0;           // bytes the cells and their pointers take on the page

  static uint32_t cost(size_t cell) { return static_cast<uint32_t>(cell < 4 ? 4 : cell) + 2; }
  size_t count() const { return ends.size(); }
  std::span<const uint8_t> cell(size_t i) const {
    const uint32_t begin = i == 0 ? 0 : ends[i - 1];
    return {bytes.data() + begin, ends[i] - begin};
  }
  bool fits(size_t cell, uint32_t capacity) const { return used + cost(cell) <= capacity; }
  void add(std::span<const uint8_t> prefix, std::span<const uint8_t> cell) {
    bytes.insert(bytes.end(), prefix.begin(), prefix.end());
    bytes.insert(bytes.end(), cell.begin(), cell.end());
    ends.push_back(static_cast<uint32_t>(bytes.size()));
    used += cost(prefix.size() + cell.size());
  }
  void pop_back() {
    used -= cost(cell(count() - 1).size());
    ends.pop_back();
    bytes.resize(ends.empty() ? 0 : ends.back());
  }
  void clear() {
    bytes.clear();
    ends.clear();
    used = 0;
  }
};

}  // namespace

class BTree::BulkLoader {
 public:
  BulkLoader(BTree* tree, uint32_t root) : tree_(tree), root_(root) {}

  // Adds the next key's leaf cell at level 0.
  Status AddKey(std::span<const uint8_t> cell) { return Add(0, 0, cell); }
  Status Finish() {
    if (levels_.empty()) return Status::OK();  // no key: the root stays the empty leaf it is
    return Close(0, 0);
  }

 private:
  struct Level {
    PageCells cur;
    // cur is complete: `over` (with `over_child` on an interior level) came
    // after it and did not fit. It goes up once a later cell starts the
    // next page.
    bool full = false;
    uint32_t over_child = 0;
    std::vector<uint8_t> over;
  };

  static uint8_t type_of(size_t level) { return level == 0 ? kIndexLeaf : kIndexInterior; }
  Level& level(size_t l) {
    if (levels_.size() <= l) levels_.resize(l + 1);
    return levels_[l];
  }

  // `key`: a leaf-format cell (payload size, local payload, overflow
  // page); on an interior level it follows the 4-byte left child `child`.
  Status Add(size_t l, uint32_t child, std::span<const uint8_t> key) {
    uint8_t prefix[4];
    put_u32(prefix, child);
    const std::span<const uint8_t> pre(prefix, l == 0 ? 0 : 4);
    const uint32_t capacity = page_capacity(0, type_of(l), tree_->usable_size());
    Level* lv = &level(l);
    if (!lv->full) {
      if (lv->cur.fits(pre.size() + key.size(), capacity)) {
        lv->cur.add(pre, key);
        return Status::OK();
      }
      if (lv->cur.count() == 0) return Status::Corruption("bulk load: a cell larger than a page");
      lv->full = true;
      lv->over.assign(key.begin(), key.end());
      lv->over_child = child;
      return Status::OK();
    }
    // A cell after a full page: the page is written and `over` goes up.
    ENGINE_ASSIGN_OR_RETURN(uint32_t pgno, Write(l, lv->over_child));
    std::vector<uint8_t> up = std::move(lv->over);
    lv->cur.clear();
    lv->full = false;
    lv->cur.add(pre, key);
    return Add(l + 1, pgno, up);  // may grow levels_: lv is not used past here
  }

  // Ends level l, whose last child (interior) is `last_child`.
  Status Close(size_t l, uint32_t last_child) {
    Level* lv = &level(l);
    if (lv->full) {
      // Nothing came after `over`: the page's last cell goes up instead,
      // and `over` starts the last page.
      if (lv->cur.count() < 2) return Status::Corruption("bulk load: a page of one cell");
      const std::span<const uint8_t> last = lv->cur.cell(lv->cur.count() - 1);
      std::vector<uint8_t> up;
      uint32_t right = 0;
      if (l == 0) {
        up.assign(last.begin(), last.end());
      } else {
        right = get_u32(last.data());
        up.assign(last.begin() + 4, last.end());
      }
      lv->cur.pop_back();
      ENGINE_ASSIGN_OR_RETURN(uint32_t pgno, Write(l, right));
      std::vector<uint8_t> over = std::move(lv->over);
      uint8_t prefix[4];
      put_u32(prefix, lv->over_child);
      lv->cur.clear();
      lv->full = false;
      lv->cur.add(std::span<const uint8_t>(prefix, l == 0 ? 0 : 4), over);
      ENGINE_RETURN_IF_ERROR(Add(l + 1, pgno, up));
      lv = &levels_[l];
    }
    if (levels_.size() == l + 1) return WriteRoot(l, last_child);
    ENGINE_ASSIGN_OR_RETURN(uint32_t pgno, Write(l, last_child));
    return Close(l + 1, pgno);
  }

  void Build(size_t l, uint8_t* data, uint32_t hdr_off, uint32_t right, uint32_t pgno) {
    const PageCells& cells = levels_[l].cur;
    spans_.clear();
    for (size_t i = 0; i < cells.count(); ++i) spans_.push_back(cells.cell(i));
    PageInfo pg;
    page_build(data, hdr_off, type_of(l), tree_->usable_size(), spans_, right, &pg, pgno);
  }

  // Writes level l's current page to a new page; returns its number.
  Result<uint32_t> Write(size_t l, uint32_t right) {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, tree_->pager_->Allocate());
    Build(l, p.mutable_data(), 0, right, p.pgno());
    return p.pgno();
  }

  Status WriteRoot(size_t l, uint32_t right) {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, tree_->GetWritable(root_));
    Build(l, p.mutable_data(), 0, right, root_);
    return Status::OK();
  }

  BTree* tree_;
  uint32_t root_;
  std::vector<Level> levels_;
  std::vector<std::span<const uint8_t>> spans_;
};

Status BTree::BulkLoadIndex(uint32_t root, const KeyStream& next) {
  ENGINE_RETURN_IF_ERROR(RequireWrite());
  if (root < 2 || root > pager_->page_count())
    return Status::InvalidArgument("bulk load: no index root at page " + std::to_string(root));
  {
    ENGINE_ASSIGN_OR_RETURN(PageRef p, pager_->Get(root));
    PageInfo pg;
    ENGINE_RETURN_IF_ERROR(parse_page_header(p.data(), root, pager_->usable_size(), &pg));
    if (pg.type != kIndexLeaf || pg.ncell != 0)
      return Status::InvalidArgument("bulk load: page " + std::to_string(root) +
                                     " is not an empty index leaf");
  }
  ENGINE_RETURN_IF_ERROR(SaveCursors(root, nullptr));
  BulkLoader loader(this, root);
  std::vector<uint8_t> cell;
  std::span<const uint8_t> key;
  for (;;) {
    ENGINE_ASSIGN_OR_RETURN(bool more, next(&key));
    if (!more) break;
    uint8_t size[kMaxVarintLen];
    const int n = put_varint(size, key.size());
    ENGINE_RETURN_IF_ERROR(BuildCell(kIndexLeaf, size, static_cast<size_t>(n), key, &cell));
    ENGINE_RETURN_IF_ERROR(loader.AddKey(cell));
  }
  return loader.Finish();
}

}  // namespace engine
