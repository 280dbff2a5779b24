// Paths of the checked-in test data and helpers to read it.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace warpcheck::testing {

inline std::filesystem::path test_data_dir() { return WARPCHECK_TEST_DATA; }

inline std::vector<std::filesystem::path> files_in(const std::string& sub) {
  std::vector<std::filesystem::path> out;
  const auto dir = test_data_dir() / sub;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace warpcheck::testing
