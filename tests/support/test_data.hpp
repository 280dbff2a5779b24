// Paths of the checked-in test data and helpers to read it.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "models/registry.hpp"

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

// The model an EDN file's name gives (EDN names none): "_cas_register_",
// "_register_", "_kv_", "_queue_" or "_stack_" in it, else `otherwise`.
inline std::optional<ModelId> model_in_name(const std::filesystem::path& p, std::optional<ModelId> otherwise = std::nullopt) {
  const std::string name = p.filename().string();
  for (const char* m : {"cas_register", "register", "kv", "queue", "stack"})
    if (name.find(std::string("_") + m + "_") != std::string::npos) {
      std::string model = m;
      std::replace(model.begin(), model.end(), '_', '-');
      return find_model(model)->id;
    }
  return otherwise;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace warpcheck::testing
