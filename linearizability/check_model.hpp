// Deciding a history against a model given as a type: one of models/ or a
// model of your own (models/model_concept.hpp says what one needs: a name,
// its operations, a state, initial() and step(); the rest is optional).
//
//   CheckResult r = check_against_model<MyModel>(h);   // h: its operations built or read
//
// It runs the general search (split by key where the model says it may be,
// the counterexample shrunk), as check_history does for a registered model
// when no faster procedure decides; the model's own fast procedures and the
// linearization-point replay are check_history's (options.algorithm and
// all_parts are not used here). h.meta.model is not read.
#pragma once

#include <chrono>

#include "linearizability/checker.hpp"
#include "linearizability/detail/search_parts.hpp"
#include "models/model_concept.hpp"

namespace warpcheck {

template <SequentialModel Model>
CheckResult check_against_model(const History& h, const CheckOptions& options = {}) {
  const auto started = std::chrono::steady_clock::now();
  CheckResult r = detail::search_parts<Model>(h, options);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (h.meta.incomplete) detail::mark_incomplete(r);
  return r;
}

}  // namespace warpcheck
