// Typed choices at the seam: a table's values looked up by name (never by
// position), numeric choices read as numbers, fix bits from --variant and
// --fixes by name, and a finding's run named from the same table.
#include <gtest/gtest.h>

#include "stress/seam/fix_bits.hpp"
#include "stress/seam/named_values.hpp"

namespace warpcheck {
namespace {

enum class Colour : uint8_t { red, green, blue };
constexpr Named<Colour> kColours[] = {WC_NAMED(Colour::red), WC_NAMED(Colour::green), WC_NAMED(Colour::blue)};
static_assert(in_enum_order(kColours));
static_assert(kColours[1].name == "green");
// Out of order, or a value left out: refused at compile time.
constexpr Named<Colour> kSwapped[] = {{Colour::green, "green"}, {Colour::red, "red"}};
static_assert(!in_enum_order(kSwapped));

namespace bits {
inline constexpr uint32_t first = 1, second = 2, third = 4;
}
constexpr Named<uint32_t> kFixes[] = {WC_NAMED(bits::first), WC_NAMED(bits::second), WC_NAMED(bits::third)};
static_assert(one_bit_each(kFixes));
static_assert(all_fix_bits(kFixes) == 7);
constexpr Named<uint32_t> kGap[] = {{1, "first"}, {4, "third"}};
static_assert(!one_bit_each(kGap));

Options parsed(const std::map<std::string, std::string>& values) {
  // The choices listed in another order than the enum's: looked up by name all the same.
  constexpr Named<Colour> reordered[] = {{Colour::blue, "blue"}, {Colour::red, "red"}, {Colour::green, "green"}};
  auto table = std::make_shared<OptionTable>(OptionTable{
      choice_option("colour", "colour", "green", reordered),
      choice_option("chunk", "chunk", "32", {"32", "16"}),
      choice_option("variant", "variant", "fixed", kPaperVariants),
      names_option("fixes", "fixes", names_of(kFixes)),
  });
  return parse_options(table, Backend::Sim, values, {});
}

TEST(NamedValues, AChoiceIsLookedUpByName) {
  EXPECT_EQ(parsed({}).choice("colour", kColours), Colour::green);
  EXPECT_EQ(parsed({{"colour", "blue"}}).choice("colour", kColours), Colour::blue);
  EXPECT_EQ(names_of(kColours), (std::vector<std::string>{"red", "green", "blue"}));
  EXPECT_EQ(name_of(kColours, Colour::blue), "blue");
  // A table that lacks the parsed name is a bug in the declaration.
  constexpr Named<Colour> without_blue[] = {WC_NAMED(Colour::red), WC_NAMED(Colour::green)};
  EXPECT_THROW(parsed({{"colour", "blue"}}).choice("colour", without_blue), std::logic_error);
}

TEST(NamedValues, ANumericChoiceIsANumber) {
  EXPECT_EQ(parsed({}).integer("chunk"), 32u);
  EXPECT_EQ(parsed({{"chunk", "16"}}).integer("chunk"), 16u);
  EXPECT_THROW(parsed({}).integer("colour"), std::logic_error);
}

TEST(NamedValues, FixBitsComeFromTheVariantAndTheFixesByName) {
  EXPECT_EQ(chosen_fix_bits(parsed({}), kFixes), 7u);
  EXPECT_EQ(chosen_fix_bits(parsed({{"variant", "paper"}}), kFixes), 0u);
  EXPECT_EQ(chosen_fix_bits(parsed({{"variant", "paper"}, {"fixes", "third,first"}}), kFixes), 5u);
  EXPECT_EQ(fix_names(kFixes, 6), "second,third");
  EXPECT_EQ(paper_without(kFixes, bits::second), "--variant paper --fixes first,third");
}

}  // namespace
}  // namespace warpcheck
