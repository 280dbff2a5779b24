// RapidCheck properties as Google Tests, each with the number of cases it
// needs (RapidCheck's own default is one count for all). RC_PARAMS still
// sets the seed; a max_success there overrides every count (a deeper run
// by hand: RC_PARAMS="max_success=100000" ctest -R Oracle).
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace warpcheck::testing {

template <class Testable>
void check_property(Testable&& testable, int cases) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  const char* env = std::getenv("RC_PARAMS");
  if (!env || !std::strstr(env, "max_success")) params.maxSuccess = cases;
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream s;
    rc::detail::printResultMessage(result, s);
    FAIL() << s.str();
  }
  ::testing::Test::RecordProperty("cases", params.maxSuccess);
}

}  // namespace warpcheck::testing

// WC_PROP(Suite, Name, cases, (args)) { body }: a property of `cases` cases.
#define WC_PROP(Suite, Name, Cases, ArgList)                                                   \
  void wc_prop_##Suite##_##Name ArgList;                                                      \
  TEST(Suite, Name) { ::warpcheck::testing::check_property(&wc_prop_##Suite##_##Name, Cases); } \
  void wc_prop_##Suite##_##Name ArgList
