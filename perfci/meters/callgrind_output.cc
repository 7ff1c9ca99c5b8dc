#include "perfci/meters/callgrind_output.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>
#include <string_view>

#include "perfci/util/error.h"

namespace perfci {
namespace {

// Name compression: "(id) name" defines, "(id)" refers back. Objects,
// files and functions have separate tables.
class NameTable {
 public:
  std::string resolve(std::string_view text, const std::string& where) {
    if (text.empty() || text[0] != '(') return std::string(text);
    auto close = text.find(')');
    // "(below main)" is a name, not an id: ids are numbers.
    const bool numeric_id =
        close != std::string_view::npos && close > 1 &&
        std::all_of(text.begin() + 1, text.begin() + static_cast<long>(close),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!numeric_id) {
      if (close == std::string_view::npos && text.size() > 1 &&
          std::isdigit(static_cast<unsigned char>(text[1])))
        throw Error(where + ": unterminated name id");
      return std::string(text);
    }
    std::string id(text.substr(1, close - 1));
    std::string_view rest = text.substr(close + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (!rest.empty()) return names_[id] = std::string(rest);
    auto it = names_.find(id);
    if (it == names_.end()) throw Error(where + ": name id (" + id + ") used before definition");
    return it->second;
  }

 private:
  std::map<std::string, std::string> names_;
};

std::vector<std::string_view> split_ws(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::uint64_t to_u64(std::string_view s, const std::string& where) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size())
    throw Error(where + ": expected a cost, got '" + std::string(s) + "'");
  return v;
}

bool is_position(std::string_view tok) {
  if (tok == "*") return true;
  std::size_t i = (tok[0] == '+' || tok[0] == '-') ? 1 : 0;
  if (tok.size() > 2 && tok.substr(0, 2) == "0x") i = 2;
  if (i >= tok.size()) return false;
  return std::all_of(tok.begin() + static_cast<long>(i), tok.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

CallgrindProfile parse_callgrind_output(const std::string& text, const std::string& origin) {
  NameTable objects, files, functions;
  std::size_t positions = 1;  // "positions: line" is the default
  int ir_index = -1;
  bool saw_events = false;
  std::vector<std::string> event_names;
  std::vector<std::uint64_t> totals;
  bool saw_totals = false;
  // The cache simulation's miss events, by the level they count at.
  std::vector<bool> l1_event, ll_event;
  bool cache_events = false;

  struct Key {
    std::string object, name;
    bool operator<(const Key& o) const {
      return std::tie(object, name) < std::tie(o.object, o.name);
    }
  };
  std::map<Key, FunctionCost> costs;
  std::vector<std::uint64_t> self_sums;  // per event, over every cost line outside calls
  std::map<std::pair<std::string, std::string>, CallEdge> edges;
  std::string cur_object, cur_fn;
  std::string call_object, call_fn;
  std::uint64_t call_count = 0;
  bool have_fn = false;
  bool next_is_call = false;

  std::istringstream in(text);
  std::string line_buf;
  std::size_t line_no = 0;
  while (std::getline(in, line_buf)) {
    ++line_no;
    std::string where = origin + ":" + std::to_string(line_no);
    std::string_view line(line_buf);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;

    auto eq = line.find('=');
    auto colon = line.find(':');
    bool is_assignment = eq != std::string_view::npos && eq < line.find(' ') &&
                         (colon == std::string_view::npos || eq < colon);
    if (is_assignment) {
      std::string_view key = line.substr(0, eq);
      std::string_view value = line.substr(eq + 1);
      if (key == "ob") {
        cur_object = objects.resolve(value, where);
        call_object = cur_object;
      } else if (key == "fn") {
        cur_fn = functions.resolve(value, where);
        have_fn = true;
        call_object = cur_object;
        costs[{cur_object, cur_fn}].name = cur_fn;
        costs[{cur_object, cur_fn}].object = cur_object;
      } else if (key == "fl" || key == "fi" || key == "fe" || key == "cfi" || key == "cfl") {
        files.resolve(value, where);
      } else if (key == "cob") {
        call_object = objects.resolve(value, where);
      } else if (key == "cfn") {
        call_fn = functions.resolve(value, where);
      } else if (key == "calls") {
        auto toks = split_ws(value);
        if (toks.empty()) throw Error(where + ": calls= without a count");
        call_count = to_u64(toks[0], where);
        next_is_call = true;
      } else if (key == "jump" || key == "jcnd") {
        // Jump lines carry their own counts, not event costs.
      } else {
        throw Error(where + ": unknown specification '" + std::string(key) + "'");
      }
      continue;
    }
    if (colon != std::string_view::npos && !is_position(line.substr(0, colon)) &&
        line.substr(0, 1).find_first_of("0123456789+-*") == std::string_view::npos) {
      std::string_view key = line.substr(0, colon);
      std::string_view value = line.substr(colon + 1);
      if (key == "positions") {
        positions = split_ws(value).size();
        if (positions == 0) throw Error(where + ": empty positions line");
      } else if (key == "events") {
        auto evs = split_ws(value);
        saw_events = true;
        event_names.assign(evs.begin(), evs.end());
        self_sums.assign(evs.size(), 0);
        l1_event.assign(evs.size(), false);
        ll_event.assign(evs.size(), false);
        for (std::size_t i = 0; i < evs.size(); ++i) {
          if (evs[i] == "Ir") ir_index = static_cast<int>(i);
          l1_event[i] = evs[i] == "I1mr" || evs[i] == "D1mr" || evs[i] == "D1mw";
          ll_event[i] = evs[i] == "ILmr" || evs[i] == "DLmr" || evs[i] == "DLmw";
          cache_events |= l1_event[i] || ll_event[i];
        }
        if (ir_index < 0) throw Error(where + ": the events line has no Ir");
      } else if (key == "totals" || key == "summary") {
        if (key == "summary" && saw_totals) continue;  // totals: wins; they are the same
        if (ir_index < 0) throw Error(where + ": " + std::string(key) + " before the events line");
        auto vals = split_ws(value);
        if (vals.size() > event_names.size())
          throw Error(where + ": more costs than events on the " + std::string(key) + " line");
        // Trailing zero costs may be omitted.
        totals.assign(event_names.size(), 0);
        for (std::size_t i = 0; i < vals.size(); ++i) totals[i] = to_u64(vals[i], where);
        saw_totals = true;
      }
      // version, creator, pid, cmd, part, desc, thread, ... carry no costs.
      continue;
    }
    // A cost line: positions, then event costs.
    if (!saw_events)
      throw Error(where + ": not a callgrind output file (a cost line before the events line)");
    if (!have_fn) throw Error(where + ": cost line outside any function (no fn=)");
    auto toks = split_ws(line);
    if (toks.size() < positions) throw Error(where + ": too few position columns");
    for (std::size_t i = 0; i < positions; ++i)
      if (!is_position(toks[i]))
        throw Error(where + ": bad position '" + std::string(toks[i]) + "'");
    if (toks.size() - positions > event_names.size())
      throw Error(where + ": more costs than events");
    std::size_t idx = positions + static_cast<std::size_t>(ir_index);
    std::uint64_t ir = idx < toks.size() ? to_u64(toks[idx], where) : 0;
    std::uint64_t l1 = 0, ll = 0;
    for (std::size_t i = positions; i < toks.size(); ++i) {
      const std::uint64_t v = to_u64(toks[i], where);
      const std::size_t e = i - positions;
      if (next_is_call) continue;  // a call's cost is its callee's, inclusive
      self_sums[e] += v;
      if (l1_event[e]) l1 += v;
      if (ll_event[e]) ll += v;
    }
    FunctionCost& fc = costs[{cur_object, cur_fn}];
    if (next_is_call) {
      fc.inclusive_ir += ir;
      next_is_call = false;
      CallEdge& e = edges[{cur_fn, call_fn}];
      e.caller = cur_fn;
      e.callee = call_fn;
      e.callee_object = call_object;
      e.calls += call_count;
      e.inclusive_ir += ir;
      // cob= names the object of one call only.
      call_object = cur_object;
    } else {
      fc.self_ir += ir;
      fc.inclusive_ir += ir;
      if (cache_events) {
        fc.self_l1_misses = fc.self_l1_misses.value_or(0) + l1;
        fc.self_ll_misses = fc.self_ll_misses.value_or(0) + ll;
      }
    }
  }
  if (!saw_events) throw Error(origin + ": not a callgrind output file (no events line)");

  CallgrindProfile out;
  for (auto& [key, fc] : costs)
    if (fc.inclusive_ir > 0) out.functions.push_back(std::move(fc));
  const std::vector<std::uint64_t>& sums = saw_totals ? totals : self_sums;
  for (std::size_t i = 0; i < event_names.size(); ++i) out.totals[event_names[i]] = sums[i];
  out.total_ir = sums[static_cast<std::size_t>(ir_index)];
  for (auto& [key, e] : edges) out.calls.push_back(std::move(e));
  std::sort(out.functions.begin(), out.functions.end(),
            [](const FunctionCost& a, const FunctionCost& b) {
              return a.self_ir != b.self_ir ? a.self_ir > b.self_ir : a.name < b.name;
            });
  return out;
}

}  // namespace perfci
