// The examples' one command-line number: a whole decimal in [low, high],
// or an error that names the option and its range.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

inline uint32_t option_number(const std::string& option, const std::string& text, uint32_t low, uint32_t high) {
  size_t used = 0;
  unsigned long n = 0;
  try {
    n = std::stoul(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || n < low || n > high)
    throw std::invalid_argument(option + " takes " + std::to_string(low) + " to " + std::to_string(high) + ", not " + text);
  return static_cast<uint32_t>(n);
}
