#include "linearizability/failure_record.hpp"

#include <algorithm>

#include "linearizability/detail/utf8.hpp"

namespace warpcheck {

namespace {

// Text a terminal shows as it is: no control bytes but the ones allowed.
bool plain_text(std::string_view s, bool lines) {
  if (!detail::valid_utf8(s)) return false;
  return std::none_of(s.begin(), s.end(), [&](char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b < 0x20 && !(lines && (c == '\n' || c == '\t'))) || b == 0x7f;
  });
}

}  // namespace

std::optional<std::string> failure_record_error(const FailureRecord& r, const std::vector<uint64_t>& sorted_ids) {
  if (r.message.empty()) return "the failure record has no message";
  if (!plain_text(r.message, false)) return "the failure record's message is not one line of UTF-8 text";
  if (!plain_text(r.details, true)) return "the failure record's details are not UTF-8 text";
  if (!plain_text(r.reproduce, false)) return "the failure record's reproduce line is not one line of UTF-8 text";
  for (uint64_t id : r.evidence)
    if (!std::binary_search(sorted_ids.begin(), sorted_ids.end(), id))
      return "the failure record names operation " + std::to_string(id) + ", which the history does not hold";
  return std::nullopt;
}

}  // namespace warpcheck
