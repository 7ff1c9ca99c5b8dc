// The integrity check walks the file page by page, as sqlite3's
// checkTreePage does (the same checks in the same order, so that a damaged
// file gets the same report from both), then the rows and index entries.
#include "engine/exec/integrity_check.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <memory>
#include <span>
#include <utility>

#include "engine/exec/exec_context.h"
#include "engine/func/date_time.h"
#include "engine/planner/planner.h"
#include "engine/storage/btree_cursor.h"
#include "engine/storage/btree_page.h"
#include "engine/storage/record.h"
#include "engine/util/coding.h"

namespace engine::exec {
namespace {

std::string Format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

class PageChecker {
 public:
  PageChecker(Pager& pager, int max_errors)
      : pager_(pager), errors_left_(max_errors), referenced_(pager.page_count() + 1, false) {}

  // The page-level problems found so far.
  const std::vector<std::string>& messages() const { return messages_; }
  int errors_left() const { return errors_left_; }

  void CheckFreelist() {
    prefix_ = "Main freelist: ";
    CheckList(true, pager_.header_u32(hdr::kFreelistTrunk), pager_.freelist_count());
    prefix_.clear();
  }

  // One tree from its root; `table` is what the catalog says the root is.
  void CheckTree(uint32_t root, bool table) {
    int64_t unused;
    expect_table_ = table;
    CheckTreePage(root, &unused, std::numeric_limits<int64_t>::max());
  }

  void CheckUnused() {
    const uint32_t lock_page = pager_.lock_byte_page();
    for (uint32_t p = 1; p <= pager_.page_count() && errors_left_ > 0; ++p) {
      if (!referenced_[p] && p != lock_page) Append(Format("Page %u is never used", p));
    }
  }

 private:
  void Append(std::string msg) {
    if (errors_left_ <= 0) return;
    --errors_left_;
    messages_.push_back(prefix_ + msg);
  }

  // Counts a reference to pgno; true when it must not be followed (out of
  // range or already seen).
  bool CheckRef(uint32_t pgno) {
    if (pgno == 0 || pgno > pager_.page_count()) {
      Append(Format("invalid page number %u", pgno));
      return true;
    }
    if (referenced_[pgno]) {
      Append(Format("2nd reference to page %u", pgno));
      return true;
    }
    referenced_[pgno] = true;
    return false;
  }

  // An overflow chain of `expected` pages, or the freelist (trunk pages
  // and their leaves, `expected` pages in all).
  void CheckList(bool freelist, uint32_t pgno, uint32_t expected) {
    uint32_t left = expected;
    const size_t errors_at_start = messages_.size();
    const uint32_t usable = pager_.usable_size();
    while (pgno != 0 && errors_left_ > 0) {
      if (CheckRef(pgno)) break;
      --left;
      auto page = pager_.Get(pgno);
      if (!page.ok()) {
        Append(Format("failed to get page %u", pgno));
        break;
      }
      const uint8_t* d = page->data();
      if (freelist) {
        const uint32_t n = get_u32(d + 4);
        if (n > usable / 4 - 2) {
          Append(Format("freelist leaf count too big on page %u", pgno));
          --left;
        } else {
          for (uint32_t i = 0; i < n; ++i) CheckRef(get_u32(d + 8 + 4 * i));
          left -= n;
        }
      }
      pgno = get_u32(d);
    }
    if (left != 0 && messages_.size() == errors_at_start) {
      Append(Format("%s is %u but should be %u", freelist ? "size" : "overflow list length",
                    expected - left, expected));
    }
  }

  // sqlite3's checkTreePage: returns the subtree's depth (a leaf is 0, its
  // parent 1, ...); *min_key receives its smallest rowid (table trees).
  int CheckTreePage(uint32_t pgno, int64_t* min_key, int64_t max_key) {
    if (errors_left_ <= 0 || pgno == 0) return 0;
    if (CheckRef(pgno)) return 0;
    const std::string saved_prefix = prefix_;
    int depth = -1;
    prefix_ = Format("Page %u: ", pgno);
    auto ref = pager_.Get(pgno);
    if (!ref.ok()) {
      Append("unable to get the page. error code=11");
      prefix_ = saved_prefix;
      return 0;
    }
    const uint8_t* data = ref->data();
    const uint32_t usable = pager_.usable_size();
    PageInfo pg;
    uint32_t free_bytes = 0;
    if (!parse_page_header(data, pgno, usable, &pg).ok() || pg.table != expect_table_) {
      Append("btreeInitPage() returns error code 11");
      prefix_ = saved_prefix;
      return 0;
    }
    if (!page_free_space(data, pg, &free_bytes).ok()) {
      Append("free space corruption");
      prefix_ = saved_prefix;
      return 0;
    }
    std::vector<std::pair<uint32_t, uint32_t>> spans;  // [first, last] bytes in use
    bool coverage = true;
    bool key_can_be_equal = true;
    if (!pg.leaf) {
      // sqlite3 has set its cell prefix by now, still with the caller's
      // cell number.
      prefix_ = Format("On tree page %u cell %d: ", pgno, cell_);
      depth = CheckTreePage(pg.right_child, &max_key, max_key);
      key_can_be_equal = false;
    }
    const int saved_cell = cell_;
    for (int i = pg.ncell - 1; i >= 0 && errors_left_ > 0; --i) {
      cell_ = i;
      prefix_ = Format("On tree page %u cell %d: ", pgno, i);
      const uint32_t pc = read_cell_ptr(data, pg.ptrs_off, i);
      if (pc < pg.content_start || pc > usable - 4) {
        Append(Format("Offset %u out of range %u..%u", pc, pg.content_start, usable - 4));
        coverage = false;
        continue;
      }
      CellInfo c;
      if (!parse_cell_header(data, pg, pc, &c) || pc + c.size > usable) {
        Append("Extends off end of page");
        coverage = false;
        continue;
      }
      if (pg.table) {
        if (key_can_be_equal ? c.key > max_key : c.key >= max_key) {
          Append(Format("Rowid %" PRId64 " out of order", c.key));
        }
        max_key = c.key;
        key_can_be_equal = false;
      }
      if (c.payload_size > c.local) {
        CheckList(false, c.overflow,
                  static_cast<uint32_t>(overflow_page_count(c.payload_size, c.local, usable)));
      }
      if (!pg.leaf) {
        const int d2 = CheckTreePage(c.child, &max_key, max_key);
        cell_ = i;
        prefix_ = Format("On tree page %u cell %d: ", pgno, i);
        key_can_be_equal = false;
        if (d2 != depth) {
          Append("Child page depth differs");
          depth = d2;
        }
      }
      spans.emplace_back(pc, pc + c.size - 1);
    }
    *min_key = max_key;
    cell_ = saved_cell;
    prefix_.clear();
    if (coverage && errors_left_ > 0) {
      for (uint32_t fb = pg.first_freeblock; fb != 0; fb = get_u16(data + fb)) {
        // page_free_space has checked the chain: ascending, inside the page.
        spans.emplace_back(fb, fb + get_u16(data + fb + 2) - 1);
      }
      std::sort(spans.begin(), spans.end());
      uint32_t prev_end = pg.content_start - 1;
      uint32_t frag = 0;
      bool overlap = false;
      for (const auto& [first, last] : spans) {
        if (prev_end >= first) {
          Append(Format("Multiple uses for byte %u of page %u", first, pgno));
          overlap = true;
          break;
        }
        frag += first - prev_end - 1;
        prev_end = last;
      }
      frag += usable - prev_end - 1;
      if (!overlap && frag != pg.frag) {
        Append(Format("Fragmentation of %u bytes reported as %u on page %u", frag,
                      static_cast<unsigned>(pg.frag), pgno));
      }
    }
    prefix_ = saved_prefix;
    return depth + 1;
  }

  Pager& pager_;
  int errors_left_;
  std::vector<bool> referenced_;
  std::vector<std::string> messages_;
  std::string prefix_;
  bool expect_table_ = true;
  int cell_ = 0;  // the cell being checked on the page being checked
};

// The CHECK constraints of one table, evaluated on its rows as sqlite3's
// integrity_check does: a row breaks them when any is false (NULL passes).
class RowChecks {
 public:
  Status Prepare(BTree& tree, const catalog::Schema& schema, const catalog::TableInfo& t) {
    plan::Planner planner(schema, &prog_);
    src_ = planner.NewSource();
    ENGINE_RETURN_IF_ERROR(planner.CompileChecks(t, src_, &checks_));
    // Every table checked is of `tree`'s database, whichever it is.
    ctx_ = std::make_unique<ExecContext>(Trees{&tree, &tree}, &prog_);
    ctx_->sources()[static_cast<size_t>(src_)].reader.set_absent(t.absent);
    return Status::OK();
  }
  bool active() const { return ctx_ != nullptr; }
  Result<bool> Broken(std::span<const uint8_t> payload, int64_t rowid) {
    SourceRow& row = ctx_->sources()[static_cast<size_t>(src_)];
    row.null_row = false;
    row.values = nullptr;
    row.rowid = rowid;
    ENGINE_RETURN_IF_ERROR(row.reader.Parse(payload));
    ctx_->arena().Reset();
    const func::PureContext pure("a CHECK constraint");  // sqlite3 fails the check on 'now' too
    for (const plan::CheckPlan& c : checks_) {
      ENGINE_ASSIGN_OR_RETURN(int truth, ctx_->Truth(c.node));
      if (truth == 0) return true;
    }
    return false;
  }

 private:
  plan::Program prog_;
  int src_ = -1;
  std::vector<plan::CheckPlan> checks_;
  std::unique_ptr<ExecContext> ctx_;
};

// The content checks of one table: NOT NULL, CHECK, each row's entry in each
// index, each index's entry count, key order and uniqueness.
class ContentChecker {
 public:
  ContentChecker(BTree& tree, const catalog::Schema& schema, int max_errors)
      : tree_(tree), schema_(schema), errors_left_(max_errors) {}

  const std::vector<std::string>& messages() const { return messages_; }

  Status CheckTable(const catalog::TableInfo& t, bool quick, bool check_constraints) {
    // sqlite3 3.40 evaluates them in quick_check too.
    RowChecks checks;
    if (check_constraints && !t.checks.empty()) {
      ENGINE_RETURN_IF_ERROR(checks.Prepare(tree_, schema_, t));
    }
    std::vector<const catalog::IndexInfo*> indexes;
    if (!quick) {
      for (auto it = t.indexes.rbegin(); it != t.indexes.rend(); ++it) {
        const catalog::IndexInfo* ix = *it;
        // A partial index holds only the rows its WHERE admits, and the
        // engine does not evaluate it here; its entries are still walked.
        if (!ix->partial) indexes.push_back(ix);
      }
    }
    std::vector<std::unique_ptr<BtCursor>> seekers;
    for (const catalog::IndexInfo* ix : indexes) {
      seekers.push_back(std::make_unique<BtCursor>(&tree_, ix->root, ix->key_order()));
    }
    BtCursor rows(&tree_, t.root);
    RecordReader reader;
    reader.set_absent(t.absent);  // index entries hold a missing column's DEFAULT
    std::vector<Value> key;
    int64_t nrow = 0;
    // Like sqlite3, read a row only when a check needs its columns: a
    // table without indexes or NOT NULL columns is only counted.
    bool read_rows = !indexes.empty() || checks.active();
    for (const catalog::ColumnInfo& c : t.columns) read_rows |= c.not_null;
    Status st = rows.first();
    for (; st.ok() && rows.valid() && errors_left_ > 0; st = rows.next()) {
      ++nrow;
      if (!read_rows) continue;
      std::span<const uint8_t> payload;
      ENGINE_RETURN_IF_ERROR(rows.payload(&payload));
      ENGINE_RETURN_IF_ERROR(reader.Parse(payload));
      const int64_t rowid = rows.rowid();
      for (size_t c = 0; c < t.columns.size(); ++c) {
        if (!t.columns[c].not_null || static_cast<int>(c) == t.rowid_alias) continue;
        if (reader.column(static_cast<int>(c)).is_null()) {
          Append("NULL value in " + t.name + "." + t.columns[c].name);
        }
      }
      if (checks.active()) {
        ENGINE_ASSIGN_OR_RETURN(bool broken, checks.Broken(payload, rowid));
        if (broken) Append("CHECK constraint failed in " + t.name);
      }
      for (size_t i = 0; i < indexes.size(); ++i) {
        const catalog::IndexInfo& ix = *indexes[i];
        key.clear();
        for (int col : ix.columns) {
          key.push_back(col == t.rowid_alias ? Value::Integer(rowid) : reader.column(col));
        }
        key.push_back(Value::Integer(rowid));
        bool exact = false;
        ENGINE_RETURN_IF_ERROR(
            seekers[i]->seek_index(key.data(), static_cast<int>(key.size()), SeekOp::kGE, &exact));
        if (!exact) {
          Append("row " + std::to_string(nrow) + " missing from index " + ix.name);
        }
      }
    }
    ENGINE_RETURN_IF_ERROR(st);
    for (auto& s : seekers) s->close();
    rows.close();
    for (const catalog::IndexInfo* ix : indexes) {
      if (errors_left_ <= 0) break;
      ENGINE_RETURN_IF_ERROR(CheckIndex(*ix, nrow));
    }
    return Status::OK();
  }

 private:
  void Append(std::string msg) {
    if (errors_left_ <= 0) return;
    --errors_left_;
    messages_.push_back(std::move(msg));
  }

  // Counts the entries and checks that each follows the one before.
  Status CheckIndex(const catalog::IndexInfo& ix, int64_t nrow) {
    const KeyOrder order = ix.key_order();
    BtCursor c(&tree_, ix.root, order);
    const int ncols = static_cast<int>(ix.columns.size());
    std::vector<uint8_t> prev;
    RecordReader prev_reader;
    std::vector<Value> prev_key;
    int64_t n = 0;
    bool order_reported = false;
    bool unique_reported = false;
    Status st = c.first();
    for (; st.ok() && c.valid(); st = c.next()) {
      std::span<const uint8_t> payload;
      ENGINE_RETURN_IF_ERROR(c.payload(&payload));
      if (n > 0) {
        int cmp = 0;
        ENGINE_RETURN_IF_ERROR(compare_record(payload.data(), payload.size(), prev_key.data(),
                                              static_cast<int>(prev_key.size()), order, &cmp));
        if (cmp <= 0 && !order_reported) {
          Append("index " + ix.name + " entry " + std::to_string(n + 1) + " out of order");
          order_reported = true;
        }
        if (ix.unique && !unique_reported) {
          bool has_null = false;
          for (int i = 0; i < ncols && i < static_cast<int>(prev_key.size()); ++i) {
            has_null |= prev_key[static_cast<size_t>(i)].is_null();
          }
          ENGINE_RETURN_IF_ERROR(compare_record(payload.data(), payload.size(), prev_key.data(),
                                                std::min(ncols, static_cast<int>(prev_key.size())),
                                                order, &cmp));
          if (cmp == 0 && !has_null) {
            Append("non-unique entry in index " + ix.name);
            unique_reported = true;
          }
        }
      }
      ++n;
      prev.assign(payload.begin(), payload.end());
      ENGINE_RETURN_IF_ERROR(prev_reader.Parse(prev.data(), prev.size()));
      prev_key.clear();
      for (int i = 0; i < prev_reader.column_count(); ++i)
        prev_key.push_back(prev_reader.column(i));
    }
    ENGINE_RETURN_IF_ERROR(st);
    c.close();
    if (n != nrow && !ix.partial) Append("wrong # of entries in index " + ix.name);
    return Status::OK();
  }

  BTree& tree_;
  const catalog::Schema& schema_;
  int errors_left_;
  std::vector<std::string> messages_;
};

}  // namespace

Result<std::vector<std::string>> CheckIntegrity(BTree& tree, const catalog::Schema& schema,
                                                const IntegrityOptions& options, Status* stopped) {
  *stopped = Status::OK();
  PageChecker pages(tree.pager(), options.max_errors);
  if (options.only == nullptr) pages.CheckFreelist();
  // sqlite3 walks its table hash, which for a small schema lists the
  // newest table first, and each table's indexes newest first.
  std::vector<const catalog::TableInfo*> tables;
  const auto& order = schema.tables_in_order();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const catalog::TableInfo* t = *it;
    // sqlite_schema (and its alias sqlite_master) is page 1, checked first.
    if (t->root == 1) continue;
    if (options.only == nullptr || options.only == t) tables.push_back(t);
  }
  pages.CheckTree(1, true);
  for (const catalog::TableInfo* t : tables) {
    pages.CheckTree(t->root, !t->without_rowid);
    for (auto ix = t->indexes.rbegin(); ix != t->indexes.rend(); ++ix) {
      pages.CheckTree((*ix)->root, false);
    }
  }
  if (options.only == nullptr) pages.CheckUnused();

  std::vector<std::string> out;
  if (!pages.messages().empty()) {
    std::string joined = "*** in database main ***\n";
    for (size_t i = 0; i < pages.messages().size(); ++i) {
      if (i > 0) joined += '\n';
      joined += pages.messages()[i];
    }
    out.push_back(std::move(joined));
  }
  // sqlite3 reads the rows and index entries even of a damaged file; the
  // cursors check every page they visit, so the worst a damaged tree does
  // is stop the walk with a corruption error.
  ContentChecker content(tree, schema, pages.errors_left());
  for (const catalog::TableInfo* t : tables) {
    if (t->without_rowid) continue;
    Status st = content.CheckTable(*t, options.quick, options.check_constraints);
    if (st.IsCorruption()) {
      out.insert(out.end(), content.messages().begin(), content.messages().end());
      *stopped = std::move(st);
      return out;
    }
    ENGINE_RETURN_IF_ERROR(st);
  }
  out.insert(out.end(), content.messages().begin(), content.messages().end());
  if (out.empty()) out.push_back("ok");
  return out;
}

}  // namespace engine::exec
