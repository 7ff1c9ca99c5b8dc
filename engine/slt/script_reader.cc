#include "engine/slt/script_reader.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace engine::slt {
namespace {

bool IsBlank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f' && c != '\v') return false;
  }
  return true;
}

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

bool ParseCount(std::string_view text, long long& out) {
  if (text.empty() || text.size() > 18) return false;
  long long v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

class Reader {
 public:
  explicit Reader(std::string_view text) {
    size_t pos = 0;
    while (pos < text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      lines_.push_back(line);
      pos = end + 1;
    }
  }

  Result<std::vector<Record>> ReadAll() {
    std::vector<Record> records;
    for (;;) {
      SkipBlankAndComments();
      if (at_ >= lines_.size()) return records;
      Record rec;
      ENGINE_RETURN_IF_ERROR(ReadRecord(rec));
      records.push_back(std::move(rec));
    }
  }

 private:
  Status Error(size_t index, const std::string& what) const {
    return Status::InvalidArgument("line " + std::to_string(index + 1) + ": " + what);
  }

  static bool IsComment(std::string_view line) { return !line.empty() && line[0] == '#'; }

  void SkipBlankAndComments() {
    while (at_ < lines_.size() && (IsBlank(lines_[at_]) || IsComment(lines_[at_]))) ++at_;
  }

  // Lines up to (not including) the next blank line or `stop`.
  std::vector<std::string_view> Block(std::string_view stop, bool* stopped) {
    std::vector<std::string_view> out;
    if (stopped != nullptr) *stopped = false;
    while (at_ < lines_.size() && !IsBlank(lines_[at_])) {
      if (!stop.empty() && lines_[at_] == stop) {
        ++at_;
        if (stopped != nullptr) *stopped = true;
        return out;
      }
      out.push_back(lines_[at_++]);
    }
    return out;
  }

  static std::string Join(const std::vector<std::string_view>& lines) {
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (i > 0) out += '\n';
      out += lines[i];
    }
    return out;
  }

  Status ReadSql(Record& rec, std::string_view stop, bool* stopped) {
    rec.sql_line = static_cast<int>(at_ + 1);
    std::vector<std::string_view> sql = Block(stop, stopped);
    if (sql.empty()) return Error(at_, "record without SQL");
    rec.sql = Join(sql);
    return Status::OK();
  }

  Status ReadRecord(Record& rec) {
    rec.line = static_cast<int>(at_ + 1);
    // Conditions come first, possibly with comments between them.
    for (;;) {
      if (at_ >= lines_.size() || IsBlank(lines_[at_])) {
        return Error(at_ > 0 ? at_ - 1 : 0, "skipif/onlyif without a record");
      }
      if (IsComment(lines_[at_])) {
        ++at_;
        continue;
      }
      std::vector<std::string_view> w = Words(lines_[at_]);
      if (w[0] != "skipif" && w[0] != "onlyif") break;
      if (w.size() < 2) return Error(at_, std::string(w[0]) + " without an engine name");
      rec.conditions.push_back(Condition{w[0] == "onlyif", std::string(w[1])});
      ++at_;
    }
    const size_t header = at_;
    std::vector<std::string_view> w = Words(lines_[at_++]);
    if (w[0] == "statement") {
      rec.kind = RecordKind::kStatement;
      if (w.size() < 2 || (w[1] != "ok" && w[1] != "error")) {
        return Error(header, "expected 'statement ok' or 'statement error'");
      }
      rec.expect_ok = w[1] == "ok";
      return ReadSql(rec, "", nullptr);
    }
    if (w[0] == "query") return ReadQuery(rec, w, header);
    if (w[0] == "hash-threshold") {
      long long n = 0;
      if (w.size() != 2 || !ParseCount(w[1], n) || n > 1'000'000'000) {
        return Error(header, "hash-threshold needs a count");
      }
      rec.kind = RecordKind::kHashThreshold;
      rec.threshold = static_cast<int>(n);
      return Status::OK();
    }
    if (w[0] == "halt") {
      rec.kind = RecordKind::kHalt;
      return Status::OK();
    }
    return Error(header, "unknown record type: " + std::string(w[0]));
  }

  Status ReadQuery(Record& rec, const std::vector<std::string_view>& w, size_t header) {
    rec.kind = RecordKind::kQuery;
    if (w.size() < 2 || w.size() > 4)
      return Error(header, "expected 'query <types> [sort] [label]'");
    for (char c : w[1]) {
      if (c != 'I' && c != 'T' && c != 'R')
        return Error(header, "bad column type in query: " + std::string(w[1]));
    }
    rec.types = std::string(w[1]);
    if (w.size() >= 3) {
      if (w[2] == "nosort") {
        rec.sort = SortMode::kNoSort;
      } else if (w[2] == "rowsort") {
        rec.sort = SortMode::kRowSort;
      } else if (w[2] == "valuesort") {
        rec.sort = SortMode::kValueSort;
      } else {
        return Error(header, "unknown sort mode: " + std::string(w[2]));
      }
    }
    if (w.size() == 4) rec.label = std::string(w[3]);
    bool separated = false;
    ENGINE_RETURN_IF_ERROR(ReadSql(rec, "----", &separated));
    if (!separated) return Status::OK();  // no expected results: only checks that it runs
    std::vector<std::string_view> results = Block("", nullptr);
    for (std::string_view line : results) rec.expected.emplace_back(line);
    if (results.size() == 1) {
      std::vector<std::string_view> h = Words(results[0]);
      long long n = 0;
      if (h.size() == 5 && (h[1] == "values" || h[1] == "value") && h[2] == "hashing" &&
          h[3] == "to" && ParseCount(h[0], n)) {
        if (h[4].size() != 32) return Error(header, "malformed hash: " + std::string(h[4]));
        rec.expects_hash = true;
        rec.hash_count = static_cast<size_t>(n);
        rec.hash = std::string(h[4]);
      }
    }
    return Status::OK();
  }

  std::vector<std::string_view> lines_;
  size_t at_ = 0;
};

}  // namespace

Result<std::vector<Record>> ReadScript(std::string_view text) { return Reader(text).ReadAll(); }

Result<std::vector<Record>> ReadScriptFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot open " + path);
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return Status::IOError("cannot read " + path);
  std::string text = buf.str();
  auto records = ReadScript(text);
  if (!records.ok()) return Status::InvalidArgument(path + ": " + records.status().message());
  return records;
}

}  // namespace engine::slt
