// Wrong answers planted in a linearizable history (warpcheck gen --wrong N):
// each one makes the history not linearizable by real-time order alone,
// whatever the other operations' overlap, so a checker must refute it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "linearizability/history.hpp"

namespace warpcheck {

struct PlantedAnswer {
  size_t op = 0;     // history index of the operation now answering wrong
  std::string what;  // the wrong answer, and why no linearization allows it
};

// Plants `count` wrong answers spread over `h`, model by model (the list and
// why each is sure: planted_wrong.cpp), and returns them in the order
// planted. Throws std::runtime_error, saying how many spots it found, when
// the history has fewer places where a wrong answer is sure; `h` is then
// partly changed.
std::vector<PlantedAnswer> plant_wrong_answers(History& h, uint32_t count);

}  // namespace warpcheck
