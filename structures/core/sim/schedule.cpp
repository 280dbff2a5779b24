#include "structures/core/sim/schedule.hpp"

#include <charconv>
#include <stdexcept>

namespace warpcheck::sim {

namespace {
constexpr std::string_view kPrefix = "wcs1:";
}

std::string encode_schedule(const Schedule& s) {
  std::string out(kPrefix);
  for (size_t i = 0; i < s.size();) {
    size_t j = i;
    while (j < s.size() && s[j] == s[i]) ++j;
    if (i) out += ',';
    out += std::to_string(s[i]);
    if (j - i > 1) out += '*' + std::to_string(j - i);
    i = j;
  }
  return out;
}

Schedule decode_schedule(std::string_view text) {
  if (text.substr(0, kPrefix.size()) != kPrefix)
    throw std::invalid_argument("schedule: expected it to start with \"wcs1:\"");
  Schedule out;
  const char* p = text.data() + kPrefix.size();
  const char* end = text.data() + text.size();
  auto number = [&](const char* what) {
    uint64_t v = 0;
    auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || v > UINT32_MAX)
      throw std::invalid_argument("schedule: expected a " + std::string(what) + " at character " +
                                  std::to_string(p - text.data()));
    p = next;
    return static_cast<uint32_t>(v);
  };
  while (p < end) {
    const uint32_t lane = number("lane number");
    uint32_t count = 1;
    if (p < end && *p == '*') {
      ++p;
      count = number("repeat count");
      if (count == 0) throw std::invalid_argument("schedule: a repeat count of 0");
    }
    if (out.size() + count > (size_t(1) << 31)) throw std::invalid_argument("schedule: longer than 2^31 steps");
    out.insert(out.end(), count, lane);
    if (p < end) {
      if (*p != ',') throw std::invalid_argument("schedule: expected ',' at character " + std::to_string(p - text.data()));
      if (++p == end) throw std::invalid_argument("schedule: ends with ','");
    }
  }
  return out;
}

}  // namespace warpcheck::sim
