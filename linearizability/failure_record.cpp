#include "linearizability/failure_record.hpp"

#include <algorithm>

#include "linearizability/detail/utf8.hpp"
#include "linearizability/json_string.hpp"

namespace warpcheck {

namespace {

// Text a terminal shows as it is: no control bytes but the ones allowed.
bool plain_text(std::string_view s, bool lines) {
  return detail::valid_utf8(s) && std::none_of(s.begin(), s.end(), [&](char c) { return forbidden_in_record(c, lines); });
}

}  // namespace

std::string failure_record_json(const FailureRecord& r, bool inside_script) {
  std::string s = "{\"oracle\":" + json_string(failure_oracle_name(r.oracle), inside_script) +
                  ",\"message\":" + json_string(r.message, inside_script) + ",\"details\":" + json_string(r.details, inside_script) +
                  ",\"reproduce\":" + json_string(r.reproduce, inside_script) + ",\"evidence\":[";
  for (size_t i = 0; i < r.evidence.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(r.evidence[i]);
  }
  return s + "]}";
}

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
