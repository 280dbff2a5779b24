// A fresh folder under the system's temporary one, for a test's files:
// named by the test's part and case and this process, emptied first.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace warpcheck::testing {

inline std::filesystem::path fresh_temp_dir(const std::string& part, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("warpcheck_" + part + "_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

}  // namespace warpcheck::testing
