#include "perfci/contracts/name_match.h"

#include <gtest/gtest.h>

#include "perfci/util/demangle.h"

namespace perfci::contracts {
namespace {

TEST(NameMatch, StripsCloneMarkersFromDemangledAndPlainNames) {
  EXPECT_EQ(strip_clone_suffixes("fx::lookup(int*, int, int) [clone .part.0] [clone .constprop.0]"),
            "fx::lookup(int*, int, int)");
  EXPECT_EQ(strip_clone_suffixes("decode.cold"), "decode");
  EXPECT_EQ(strip_clone_suffixes("decode.part.3.cold"), "decode");
  EXPECT_EQ(strip_clone_suffixes("decode.isra.0"), "decode");
  EXPECT_EQ(strip_clone_suffixes("std::vector<int>::size"), "std::vector<int>::size");
  EXPECT_TRUE(is_clone_or_part("_ZN2fx4leafEi.cold"));
  EXPECT_FALSE(is_clone_or_part("_ZN2fx4leafEi"));
}

TEST(NameMatch, BaseNameDropsReturnTypeParametersAndQualifiers) {
  EXPECT_EQ(function_base_name("engine::BtCursor::seek(unsigned long) const"),
            "engine::BtCursor::seek");
  EXPECT_EQ(function_base_name("int fx::pick<int, 3u>(int) [clone .isra.0]"), "fx::pick<int, 3u>");
  EXPECT_EQ(function_base_name("std::vector<int, std::allocator<int> > fx::make()"), "fx::make");
  EXPECT_EQ(function_base_name("fx::Functor::operator()(int) const"), "fx::Functor::operator()");
  EXPECT_EQ(
      function_base_name("bool fx::operator< <int>(fx::Box<int> const&, fx::Box<int> const&)"),
      "fx::operator< <int>");
  EXPECT_EQ(function_base_name("fx::Conv::operator unsigned long() const"),
            "fx::Conv::operator unsigned long");
  EXPECT_EQ(function_base_name("(anonymous namespace)::helper(int)"),
            "(anonymous namespace)::helper");
  EXPECT_EQ(function_base_name("main"), "main");
}

TEST(NameMatch, GccAndClangTemplateSpellingsNormaliseAlike) {
  // gcc's DWARF, clang's DWARF and the demangler for the same entities.
  EXPECT_EQ(normalize_name("Box<long unsigned int, 3>"), normalize_name("Box<unsigned long, 3>"));
  EXPECT_EQ(normalize_name("Box<unsigned long, 3ul>"), normalize_name("Box<unsigned long, 3>"));
  EXPECT_EQ(normalize_name("Box<int, (unsigned char)3>"), normalize_name("Box<int, 3>"));
  EXPECT_EQ(normalize_name("Box<char const*>"), normalize_name("Box<const char *>"));
  EXPECT_EQ(normalize_name("std::vector<int, std::allocator<int> >"),
            normalize_name("std::vector<int, std::allocator<int>>"));
  EXPECT_EQ(normalize_name("Map<short int, long long int>"),
            normalize_name("Map<short, long long>"));
  EXPECT_EQ(normalize_name("f[abi:cxx11]"), "f");
  EXPECT_EQ(normalize_name("Box<unsigned int, 2>"), normalize_name("Box<unsigned, 2u>"));
  EXPECT_NE(normalize_name("Box<signed char>"), normalize_name("Box<char>"));
  EXPECT_NE(normalize_name("Box<int, 3>"), normalize_name("Box<int, 4>"));
  EXPECT_EQ(normalize_name("engine::(anonymous namespace)::helper"),
            "engine::(anonymous namespace)::helper");
}

TEST(NameMatch, GlobStarMatchesAnyRun) {
  EXPECT_TRUE(glob_match("engine::*::seek", "engine::BtCursor::seek"));
  EXPECT_TRUE(glob_match("engine::*", "engine::a::b::c"));
  EXPECT_TRUE(glob_match("*varint*", "engine::get_varint"));
  EXPECT_TRUE(glob_match("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(glob_match("engine::*::seek", "engine::BtCursor::seek2"));
  EXPECT_FALSE(glob_match("get_varint", "engine::get_varint"));
  EXPECT_TRUE(glob_match("", ""));
  EXPECT_FALSE(glob_match("", "x"));
}

TEST(NameMatch, PatternComparesBaseOrSignature) {
  NamePattern plain("fx::Box<int, 3u>::get");
  EXPECT_FALSE(plain.has_parameters());
  EXPECT_TRUE(plain.matches(normalize_name("fx::Box<int, 3>::get")));
  NamePattern call("fx::Functor::operator()");
  EXPECT_FALSE(call.has_parameters());
  EXPECT_TRUE(call.matches(normalize_name("fx::Functor::operator()")));
  NamePattern anon("fx::(anonymous namespace)::bias");
  EXPECT_FALSE(anon.has_parameters());
  NamePattern with_params("fx::get(int)");
  EXPECT_TRUE(with_params.has_parameters());
  EXPECT_TRUE(with_params.matches("fx::get", normalize_name("fx::get(int)")));
  EXPECT_FALSE(with_params.matches("fx::get", normalize_name("fx::get(long)")));
  EXPECT_FALSE(with_params.matches("fx::get"));
}

TEST(Demangle, DemanglesItaniumAndPassesOthersThrough) {
  EXPECT_EQ(demangle("_ZN2fx4leafEi"), "fx::leaf(int)");
  EXPECT_EQ(demangle("_ZN2fx9scale_allEPiii.constprop.0"),
            "fx::scale_all(int*, int, int) [clone .constprop.0]");
  EXPECT_EQ(demangle("main"), "main");
  EXPECT_EQ(demangle("_Zgarbage"), "_Zgarbage");
  EXPECT_EQ(demangle(""), "");
}

}  // namespace
}  // namespace perfci::contracts
