// The benchmark programs' numeric flags (bench/bench_args.hpp): digits
// only, within the bound, lists with no empty item.
#include <gtest/gtest.h>

#include "bench/bench_args.hpp"

namespace warpcheck::bench {
namespace {

TEST(BenchArgs, AWholeNumberIsDigitsWithinItsBound) {
  EXPECT_EQ(whole_number("0"), 0u);
  EXPECT_EQ(whole_number("16777216", 1u << 24), 1u << 24);
  EXPECT_EQ(whole_number("18446744073709551615"), UINT64_MAX);
  for (const char* bad : {"", "-1", "+1", "12x", " 1", "1.5", "0x10"}) EXPECT_FALSE(whole_number(bad)) << "'" << bad << "'";
  EXPECT_FALSE(whole_number("16777217", 1u << 24));
  EXPECT_FALSE(whole_number("18446744073709551616"));  // 2^64
}

TEST(BenchArgs, AListHasNoEmptyOrBadItem) {
  EXPECT_EQ(whole_numbers("10000,100000", ','), (std::vector<uint64_t>{10000, 100000}));
  EXPECT_EQ(whole_numbers("68-74", '-'), (std::vector<uint64_t>{68, 74}));
  EXPECT_EQ(whole_numbers("5", ','), (std::vector<uint64_t>{5}));
  for (const char* bad : {"", ",", "1,", ",1", "1,,2", "1,x", "1-2"}) EXPECT_TRUE(whole_numbers(bad, ',').empty()) << "'" << bad << "'";
  EXPECT_TRUE(whole_numbers("1,300", ',', 255).empty());
}

}  // namespace
}  // namespace warpcheck::bench
