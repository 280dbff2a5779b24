#include "stress/workload.hpp"

#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include <sstream>
#include <stdexcept>

namespace warpcheck {

OpMix parse_op_mix(const std::string& text) {
  OpMix mix{0, 0, 0};
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("op mix: expected name=weight, got \"" + item + "\"");
    const std::string name = item.substr(0, eq);
    uint32_t weight = 0;
    try {
      size_t used = 0;
      const unsigned long w = std::stoul(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1 || w > 1000000) throw std::invalid_argument("");
      weight = static_cast<uint32_t>(w);
    } catch (const std::exception&) {
      throw std::invalid_argument("op mix: weight of " + name + " must be a whole number up to 1,000,000");
    }
    if (name == "insert") mix.insert = weight;
    else if (name == "erase" || name == "delete") mix.erase = weight;
    else if (name == "contains" || name == "search") mix.contains = weight;
    else throw std::invalid_argument("op mix: unknown operation \"" + name + "\" (insert, erase/delete, contains/search)");
  }
  if (mix.insert + mix.erase + mix.contains == 0) throw std::invalid_argument("op mix: all weights are zero");
  return mix;
}

std::string format_op_mix(const OpMix& m) {
  return "insert=" + std::to_string(m.insert) + ",erase=" + std::to_string(m.erase) +
         ",contains=" + std::to_string(m.contains);
}

workload_generator make_generator(const WorkloadSpec& spec) {
  if (spec.keys <= 0) throw std::invalid_argument("workload: keys must be at least 1");
  if (spec.mix.insert + spec.mix.erase + spec.mix.contains == 0) throw std::invalid_argument("workload: empty op mix");
  return {spec.seed, spec.keys, spec.mix.insert, spec.mix.erase, spec.mix.contains, spec.kinds, spec.unique_values};
}

std::vector<core::workload_op> make_workload(const WorkloadSpec& spec) {
  std::vector<core::workload_op> ops(spec.operations);
  thrust::tabulate(thrust::device, ops.data(), ops.data() + ops.size(), [g = make_generator(spec)](uint64_t i) { return g(i); });
  return ops;
}

}  // namespace warpcheck
