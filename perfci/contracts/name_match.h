// Names in contracts are written as demangled C++ ("engine::BtCursor::seek",
// "ns::Box<int, 3>", "engine::*::decode"). The same entity is spelled
// differently by the demangler, by gcc's DWARF and by clang's DWARF
// ("long unsigned int" / "unsigned long", "3u" / "3", "char const*" /
// "const char *", "> >" / ">>"); everything is brought to one canonical
// spelling before it is compared.
#pragma once

#include <string>
#include <string_view>

namespace perfci::contracts {

// Removes gcc's clone and split markers: " [clone .constprop.0]" from
// demangled names and ".cold", ".part.1", ".isra.0", ".constprop.0",
// ".lto_priv.0", ".localalias" from plain symbols.
std::string strip_clone_suffixes(std::string_view name);

// True when the symbol is a clone or a split piece of another function.
bool is_clone_or_part(std::string_view symbol);

// The qualified name of a demangled function: no return type, no parameter
// list, no cv/ref qualifiers, no clone markers.
// "int ns::f<int>(int) const [clone .isra.0]" -> "ns::f<int>".
std::string function_base_name(std::string_view demangled);

// The canonical spelling described above.
std::string normalize_name(std::string_view name);

// `*` matches any run of characters, `::` included.
bool glob_match(std::string_view pattern, std::string_view text);

// A name pattern from a contract, normalised once.
class NamePattern {
 public:
  explicit NamePattern(std::string_view pattern);

  // `normalized_base` is a canonical qualified name; `normalized_signature`
  // the canonical full demangled name with parameters, or empty when
  // unknown. A pattern with a parameter list is compared with the signature.
  bool matches(std::string_view normalized_base, std::string_view normalized_signature = {}) const;

  const std::string& text() const { return text_; }
  const std::string& normalized() const { return normalized_; }
  bool has_parameters() const { return has_parameters_; }

 private:
  std::string text_;
  std::string normalized_;
  bool has_parameters_ = false;
};

}  // namespace perfci::contracts
