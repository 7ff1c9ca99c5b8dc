// A cursor over one table or index B-tree: first / last / next / prev, and
// seeks by rowid or by index key, each a binary search over the cell pointer
// array of every page on the way down. A row's payload is read in place when
// it is all on the page, and gathered into a cursor-owned buffer only when it
// overflows.
//
// When the tree changes under a cursor (an insert, a delete, a commit), the
// cursor remembers its key and lets go of its pages; the next move finds its
// place again by that key.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/status.h"
#include "engine/storage/btree_page.h"
#include "engine/storage/pager.h"
#include "engine/storage/record.h"
#include "engine/value.h"

namespace engine {

class BTree;

// Where seek_index lands: the first entry >= / > the key, or the last entry
// <= / < it (comparing over the key's columns only, as SQLite does).
enum class SeekOp { kGE, kGT, kLE, kLT };

class BtCursor {
 public:
  // order[i] is index column i's direction and collation; the B-tree is
  // ordered by them.
  BtCursor(BTree* tree, uint32_t root, KeyOrder order = {});
  ~BtCursor();
  BtCursor(const BtCursor&) = delete;
  BtCursor& operator=(const BtCursor&) = delete;

  uint32_t root() const { return root_; }
  // Known once the cursor has visited its root page.
  bool is_table() const { return is_table_; }

  // Lets go of every page and forgets the position, but keeps the cursor
  // (and its buffers) for the next execution of a prepared statement:
  // re-creating one per execution costs more than the seek it serves.
  void close();
  // close(), then point the cursor at another tree.
  void rebind(uint32_t root, KeyOrder order = {});

  Status first();
  Status last();
  Status next();
  Status prev();
  // Table trees: positions at the entry with this rowid, else the first one
  // after it (or at the end). *found says whether the rowid exists. A seek
  // that lands in the leaf the cursor is already on searches that leaf
  // alone (joins and index-to-table lookups often probe nearby rowids).
  // A seek past the last entry remembers where the rowid would go, so that
  // BTree::Insert with this cursor as its hint appends without descending.
  Status seek(int64_t rowid, bool* found = nullptr);
  // Index trees: see SeekOp. *exact says whether the entry landed on equals
  // the key on its n columns.
  Status seek_index(const Value* key, int n, SeekOp op, bool* exact = nullptr);

  // True when positioned on an entry (false at the end, or before the
  // first move).
  bool valid() const { return state_ == State::kValid || state_ == State::kSaved; }
  bool eof() const { return !valid(); }

  int64_t rowid() const { return state_ == State::kSaved ? saved_rowid_ : cell_.key; }
  // On the row with this rowid, its page pinned (a table cursor).
  bool at_rowid(int64_t rowid) const {
    return state_ == State::kValid && is_table_ && cell_.key == rowid;
  }
  uint64_t payload_size() const { return cell_.payload_size; }
  // The current entry's payload (table row record, or index key record):
  // a view into the pinned page, or into the cursor's buffer when it
  // overflows. Valid until the cursor moves. Inline for an entry all on
  // its page, the case of nearly every row a scan reads (two calls per row
  // were 60 Ir of range_scan's ~880). Always inline: g++ kept it out of
  // line in LoadTableRow's copies.
  ENGINE_ALWAYS_INLINE Status payload(std::span<const uint8_t>* out) {
    if (state_ == State::kValid && cell_.overflow == 0 && cell_.payload_size == cell_.local &&
        (!is_table_ || stack_[depth_].info.leaf)) [[likely]] {
      *out = {stack_[depth_].page.data() + cell_.payload_off, cell_.local};
      return Status::OK();
    }
    return payload_slow(out);
  }

 private:
  friend class BTree;
  enum class State { kInvalid, kValid, kSaved };
  struct Level {
    PageRef page;
    PageInfo info;
    int idx = 0;
  };

  Status move_to_root();
  Status push_child(uint32_t child);
  // lv.info for the page just pinned at lv: the parse the pager keeps with
  // a clean page, else parse_page_header (stored for the next visit).
  Status load_page_info(Level& lv, uint32_t pgno);
  // seek() within the current leaf; false when the rowid may lie elsewhere.
  bool seek_in_leaf(int64_t rowid, Status* st);
  // BTree::Insert put a cell at `idx` of the leaf at level `leaf` of this
  // cursor's path, changing no other page: re-read the leaf and stand on it.
  Status land_after_insert(int leaf, int idx);
  Status move_to_leftmost();
  Status move_to_rightmost();
  Status load_cell();
  uint32_t child_at(const Level& lv, int idx) const;
  Status step_next();
  Status step_prev();
  // Descends to the leaf where the key belongs; idx is its lower bound
  // (possibly ncell). Leaves the cursor "between" entries.
  Status descend_table(int64_t rowid);  // the seek loop: inline, below
  Status descend_index(const Value* key, int n, bool strictly_greater);
  static Status corrupt_cell(uint32_t pgno, int idx);
  Status compare_cell(const Level& lv, int idx, const Value* key, int n, int* cmp);
  // compare_cell for a cell whose key is all on the page: no Status, no
  // copy. False when it cannot decide (an overflowing or malformed cell):
  // compare_cell then does, or reports the corruption.
  bool compare_cell_local(const uint8_t* page, const PageInfo& pg, int idx, const Value* key, int n,
                          int* cmp) const;
  // From a leaf lower bound, step onto the entry it denotes (or the end).
  Status settle_after_descend();
  Status payload_slow(std::span<const uint8_t>* out);
  Status read_payload(const uint8_t* page, const CellInfo& c, std::span<const uint8_t>* out,
                      std::vector<uint8_t>* buf);
  // Remember the key and let go of every page (the tree is about to change).
  Status save();
  // Re-find the saved key; *exact is false when it is gone and the cursor
  // sits on the entry after it (or at the end).
  Status restore(bool* exact);
  void release_pages();

  BTree* tree_;
  uint32_t root_;
  std::unique_ptr<KeyColumn[]> order_;
  size_t norder_ = 0;
  bool is_table_ = true;
  bool allow_empty_pages_ = false;  // BTree's own descents during a delete
  State state_ = State::kInvalid;
  int depth_ = -1;        // index of the deepest level in use
  int top_ = -1;          // deepest level that may still pin a page
  int active_slot_ = -1;  // place in BTree::active_ while pages are pinned
  // After a seek past the last entry: the rowid sought, with stack_[0..
  // append_depth_] still describing the path to the end of the last leaf.
  bool append_hint_ = false;
  int append_depth_ = -1;
  int64_t append_rowid_ = 0;
  // After descend_index (an index seek): the leaf level its path ends at,
  // so that BTree::InsertIndex can insert there; -1 once the cursor moves.
  int descend_leaf_ = -1;
  // seek()'s leaf-local search: misses in a row, seeks left to skip it,
  // and rounds of misses since the last hit (the skip doubles per round).
  uint8_t leaf_misses_ = 0;
  uint8_t leaf_skip_ = 0;
  uint8_t leaf_rounds_ = 0;
  std::array<Level, kMaxBtreeDepth> stack_;
  CellInfo cell_;
  std::vector<uint8_t> overflow_buf_;
  std::vector<uint8_t> key_buf_;  // index seeks over overflowing keys
  int64_t saved_rowid_ = 0;
  std::vector<uint8_t> saved_key_;
  RecordReader saved_reader_;
  std::vector<Value> saved_values_;
};

// descend_table's binary search of one page: the position of the first
// cell whose key is >= rowid, or -1 - i when cell i is malformed. One
// instance for leaves and one for interior pages (their cells differ):
// g++ kept the leaf test, and the flag on the stack, in every probe of a
// single loop for both (read_join -2.1% Ir with g++ 12).
template <bool kLeaf>
ENGINE_ALWAYS_INLINE int search_table_page(const uint8_t* page, PageInfo pg, int64_t rowid) {
  pg.leaf = kLeaf;
  int lo = 0;
  int hi = pg.ncell;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    int64_t key;
    if (!table_cell_key(page, pg, mid, &key)) return -1 - mid;
    if (key < rowid) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The binary search of seek(), kept in the header so that the cell decoders
// inline into it wherever it is used.
ENGINE_ALWAYS_INLINE Status BtCursor::descend_table(int64_t rowid) {
  state_ = State::kInvalid;
  ENGINE_RETURN_IF_ERROR(move_to_root());
  if (!is_table_) return Status::InvalidArgument("rowid seek on an index b-tree");
  for (;;) {
    Level& lv = stack_[depth_];
    const uint8_t* page = lv.page.data();
    // A copy, so that the compiler knows no store in the search changes it:
    // g++ reloaded ptrs_off and ncell from the cursor on every probe (~8 Ir
    // a probe; read_join -2.5% Ir with g++ 12, clang unchanged).
    const PageInfo pg = lv.info;
    const int lo = pg.leaf ? search_table_page<true>(page, pg, rowid)
                           : search_table_page<false>(page, pg, rowid);
    if (lo < 0) return corrupt_cell(pg.pgno, -1 - lo);
    lv.idx = lo;
    if (pg.leaf) return Status::OK();
    ENGINE_RETURN_IF_ERROR(push_child(child_at(lv, lo)));
  }
}

// The index seek's comparison, kept here so that it inlines into the
// binary search of descend_index.
ENGINE_ALWAYS_INLINE bool BtCursor::compare_cell_local(const uint8_t* page, const PageInfo& pg,
                                                       int idx, const Value* key, int n,
                                                       int* cmp) const {
  const uint32_t off = read_cell_ptr(page, pg.ptrs_off, idx);
  if (off < pg.ptrs_end() || off + 4 > pg.usable) return false;
  const uint8_t* end = page + pg.usable;
  const uint8_t* p = page + off + (pg.leaf ? 0 : 4);
  uint64_t size;
  const int k = get_varint_bounded(p, end, &size);
  if (k == 0 || size > pg.max_local) return false;
  p += k;
  if (size > static_cast<uint64_t>(end - p)) return false;
  return record_internal::compare_record_local(p, static_cast<size_t>(size), key, n, order_.get(),
                                               norder_, cmp);
}

}  // namespace engine
