#include "perfci/contracts/name_match.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace perfci::contracts {
namespace {

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

constexpr std::array<std::string_view, 7> kCloneMarkers = {
    ".constprop", ".isra", ".part", ".cold", ".lto_priv", ".localalias", ".clone"};

// Removes every " [tag...]" group whose tag starts with `tag`.
std::string remove_bracket_groups(std::string_view in, std::string_view tag) {
  std::string out;
  out.reserve(in.size());
  size_t i = 0;
  while (i < in.size()) {
    if (in.compare(i, tag.size(), tag) == 0) {
      size_t close = in.find(']', i);
      if (close != std::string_view::npos) {
        while (!out.empty() && out.back() == ' ') out.pop_back();
        i = close + 1;
        continue;
      }
    }
    out.push_back(in[i++]);
  }
  return out;
}

// Cuts ".cold", ".part.3" etc. from the end of a plain (unmangled) name.
std::string strip_dot_suffixes(std::string s) {
  for (bool changed = true; changed;) {
    changed = false;
    for (std::string_view marker : kCloneMarkers) {
      size_t pos = s.rfind(marker);
      if (pos == std::string::npos || pos == 0) continue;
      size_t end = pos + marker.size();
      while (end < s.size() && (s[end] == '.' || std::isdigit(static_cast<unsigned char>(s[end]))))
        ++end;
      if (end == s.size()) {
        s.resize(pos);
        changed = true;
      }
    }
  }
  return s;
}

// Length of the operator spelling that starts at `i` when `s` has the
// keyword "operator" there ("operator<<", "operator()", "operator new[]"),
// so that its punctuation is not read as brackets. 0 when there is none.
size_t operator_length(std::string_view s, size_t i) {
  constexpr std::string_view kw = "operator";
  if (s.compare(i, kw.size(), kw) != 0) return 0;
  if (i > 0 && is_ident(s[i - 1])) return 0;
  size_t j = i + kw.size();
  if (j < s.size() && is_ident(s[j])) return 0;
  while (j < s.size() && s[j] == ' ') ++j;
  if (j >= s.size()) return j - i;
  if (s.compare(j, 2, "()") == 0 || s.compare(j, 2, "[]") == 0) return j + 2 - i;
  if (is_ident(s[j])) return j - i;  // new, delete, conversions: words follow
  while (j < s.size() && std::string_view("<>=!+-*/%^&|~,").find(s[j]) != std::string_view::npos &&
         s[j] != '(')
    ++j;
  return j - i;
}

// Calls f(index, depth_before) for each character outside operator names.
template <typename F>
void scan_depth(std::string_view s, F&& f) {
  int depth = 0;
  for (size_t i = 0; i < s.size();) {
    if (size_t op = operator_length(s, i); op > 0) {
      i += op;
      continue;
    }
    char c = s[i];
    f(i, depth);
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
    ++i;
  }
}

// Space-separated words, each trimmed.
std::vector<std::string> words_of(std::string_view seg) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < seg.size()) {
    while (i < seg.size() && seg[i] == ' ') ++i;
    size_t start = i;
    while (i < seg.size() && seg[i] != ' ') ++i;
    if (i > start) words.emplace_back(seg.substr(start, i - start));
  }
  return words;
}

// "long unsigned int" -> "unsigned long", "char const" -> "const char".
std::string canonical_segment(std::string_view seg) {
  std::vector<std::string> words = words_of(seg);
  if (words.size() == 1 && words[0] == "unsigned") return "unsigned int";
  if (words.size() == 1 && words[0] == "signed") return "int";
  if (words.size() < 2) return std::string(seg);
  bool has_const = false, has_volatile = false;
  std::vector<std::string> rest;
  for (auto& w : words) {
    if (w == "const")
      has_const = true;
    else if (w == "volatile")
      has_volatile = true;
    else
      rest.push_back(w);
  }
  std::string core;
  bool all_builtin = !rest.empty();
  int longs = 0;
  bool is_unsigned = false, is_signed = false, is_short = false, is_char = false, is_int = false;
  for (auto& w : rest) {
    if (w == "long")
      ++longs;
    else if (w == "unsigned")
      is_unsigned = true;
    else if (w == "signed")
      is_signed = true;
    else if (w == "short")
      is_short = true;
    else if (w == "char")
      is_char = true;
    else if (w == "int")
      is_int = true;
    else
      all_builtin = false;
  }
  if (all_builtin) {
    if (is_unsigned) core += "unsigned ";
    if (is_signed && is_char) core += "signed ";
    if (is_short)
      core += "short";
    else if (longs == 1)
      core += "long";
    else if (longs >= 2)
      core += "long long";
    else if (is_char)
      core += "char";
    else if (is_int || is_unsigned || is_signed)
      core += "int";
  } else {
    for (auto& w : rest) {
      if (!core.empty()) core += ' ';
      core += w;
    }
  }
  std::string out;
  if (has_const) out += "const ";
  if (has_volatile) out += "volatile ";
  out += core;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string strip_clone_suffixes(std::string_view name) {
  return strip_dot_suffixes(remove_bracket_groups(name, " [clone "));
}

bool is_clone_or_part(std::string_view symbol) {
  for (std::string_view marker : kCloneMarkers)
    if (symbol.find(marker) != std::string_view::npos) return true;
  return false;
}

std::string function_base_name(std::string_view demangled) {
  std::string s = strip_clone_suffixes(demangled);
  // Trailing qualifiers after the parameter list.
  for (bool changed = true; changed;) {
    changed = false;
    while (!s.empty() && s.back() == ' ') s.pop_back();
    for (std::string_view q : {" const", " volatile", " &&", " &", " noexcept"}) {
      if (s.size() > q.size() && s.compare(s.size() - q.size(), q.size(), q) == 0) {
        s.resize(s.size() - q.size());
        changed = true;
      }
    }
  }
  if (s.empty() || s.back() != ')') return s;
  // Find the '(' that opens the final parameter list.
  size_t open = std::string::npos;
  scan_depth(s, [&](size_t i, int depth) {
    if (s[i] == '(' && depth == 0) open = i;
  });
  if (open == std::string::npos || open == 0) return s;
  std::string head = s.substr(0, open);
  // A return type (templates only) is separated by a space at depth 0.
  // Spaces after the keyword "operator" belong to the name
  // ("operator< <int>", "operator unsigned long").
  size_t keyword = std::string::npos;
  for (size_t i = 0; i < head.size() && keyword == std::string::npos; ++i)
    if (operator_length(head, i) > 0) keyword = i;
  size_t cut = std::string::npos;
  scan_depth(head, [&](size_t i, int depth) {
    if (head[i] == ' ' && depth == 0 && i < keyword) cut = i;
  });
  if (cut != std::string::npos) head = head.substr(cut + 1);
  return head;
}

std::string normalize_name(std::string_view name) {
  std::string s = remove_bracket_groups(strip_clone_suffixes(name), "[abi:");

  // Casts on integer template arguments: "(unsigned char)3" -> "3".
  std::string no_casts;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') {
      size_t close = s.find(')', i);
      if (close != std::string::npos && close + 1 < s.size()) {
        std::string_view inner(s.data() + i + 1, close - i - 1);
        char next = s[close + 1];
        bool words = !inner.empty() && std::all_of(inner.begin(), inner.end(), [](char c) {
          return std::islower(static_cast<unsigned char>(c)) || c == ' ';
        });
        if (words && inner != "anonymous namespace" &&
            (std::isdigit(static_cast<unsigned char>(next)) || next == '-')) {
          i = close;
          continue;
        }
      }
    }
    no_casts.push_back(s[i]);
  }

  // Integer literal suffixes: "3u", "3ul", "3UL" -> "3".
  std::string no_suffix;
  for (size_t i = 0; i < no_casts.size();) {
    if (std::isdigit(static_cast<unsigned char>(no_casts[i])) &&
        (i == 0 || !is_ident(no_casts[i - 1]))) {
      size_t j = i;
      while (j < no_casts.size() && std::isdigit(static_cast<unsigned char>(no_casts[j]))) ++j;
      size_t k = j;
      while (k < no_casts.size() &&
             std::string_view("uUlL").find(no_casts[k]) != std::string_view::npos)
        ++k;
      no_suffix.append(no_casts, i, j - i);
      i = (k < no_casts.size() && is_ident(no_casts[k])) ? j : k;
      continue;
    }
    no_suffix.push_back(no_casts[i++]);
  }

  // Segments between punctuation get canonical word order; spaces survive
  // only between two words.
  std::string out;
  std::string seg;
  auto flush = [&] {
    std::string canon = canonical_segment(seg);
    size_t b = canon.find_first_not_of(' ');
    size_t e = canon.find_last_not_of(' ');
    if (b != std::string::npos) out.append(canon, b, e - b + 1);
    seg.clear();
  };
  for (size_t i = 0; i < no_suffix.size(); ++i) {
    char c = no_suffix[i];
    if (size_t op = operator_length(no_suffix, i); op > 0) {
      seg.append(no_suffix, i, op);
      i += op - 1;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n') {
      seg.push_back(' ');
    } else if (is_ident(c) || c == ':' || c == '~' || c == '.' || c == '#' || c == '$') {
      seg.push_back(c);
    } else {
      flush();
      out.push_back(c);
    }
  }
  flush();
  // Collapse runs of spaces left inside segments.
  std::string collapsed;
  for (char c : out) {
    if (c == ' ' && !collapsed.empty() && collapsed.back() == ' ') continue;
    collapsed.push_back(c);
  }
  return collapsed;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

NamePattern::NamePattern(std::string_view pattern)
    : text_(pattern), normalized_(normalize_name(pattern)) {
  // "operator()" alone is a name, not a parameter list.
  std::string_view n = normalized_;
  size_t pos = 0;
  while ((pos = n.find('(', pos)) != std::string_view::npos) {
    bool is_call_operator = pos >= 8 && n.substr(pos - 8, 8) == "operator" &&
                            n.substr(pos, 2) == "()" && (pos + 2 >= n.size() || n[pos + 2] != '(');
    bool is_anon = n.substr(pos, 20) == "(anonymous namespace";
    if (!is_call_operator && !is_anon) {
      has_parameters_ = true;
      break;
    }
    pos += 1;
  }
}

bool NamePattern::matches(std::string_view normalized_base,
                          std::string_view normalized_signature) const {
  if (has_parameters_)
    return !normalized_signature.empty() && glob_match(normalized_, normalized_signature);
  return glob_match(normalized_, normalized_base);
}

}  // namespace perfci::contracts
