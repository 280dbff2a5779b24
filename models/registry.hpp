// Every model by name, and dispatch from a runtime model id to the
// compile-time model type (the checker is a template over the model).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "models/kv.hpp"
#include "models/map.hpp"
#include "models/model_traits.hpp"
#include "models/multimap.hpp"
#include "models/priority_queue.hpp"
#include "models/queue.hpp"
#include "models/register.hpp"
#include "models/set.hpp"
#include "models/stack.hpp"

namespace warpcheck {

enum class ModelId : uint8_t { Set, Map, Multimap, PriorityQueue, Register, CasRegister, Kv, Queue, Stack };

struct ModelInfo {
  ModelId id;
  std::string_view name;
  bool partition_by_key;
  std::span<const OpSpec> ops;

  // The spec of `kind` in this model, or nullptr when the model lacks it.
  const OpSpec* spec(OpKind kind) const {
    for (const OpSpec& s : ops)
      if (s.kind == kind) return &s;
    return nullptr;
  }
};

template <class M>
constexpr ModelInfo model_info(ModelId id) {
  static_assert(SequentialModel<M>, "a model must meet the SequentialModel contract (models/model_concept.hpp)");
  return {id, M::name, ModelTraits<M>::partition_by_key, std::span<const OpSpec>(M::ops)};
}

inline constexpr ModelInfo kModels[] = {
    model_info<SetModel>(ModelId::Set),
    model_info<MapModel>(ModelId::Map),
    model_info<MultimapModel>(ModelId::Multimap),
    model_info<PriorityQueueModel>(ModelId::PriorityQueue),
    model_info<RegisterModel>(ModelId::Register),
    model_info<CasRegisterModel>(ModelId::CasRegister),
    model_info<KvModel>(ModelId::Kv),
    model_info<QueueModel>(ModelId::Queue),
    model_info<StackModel>(ModelId::Stack),
};

inline const ModelInfo* find_model(std::string_view name) {
  for (const ModelInfo& m : kModels)
    if (m.name == name) return &m;
  return nullptr;
}

// "set, map, ...": every model's name, for messages.
inline std::string model_names() {
  std::string out;
  for (const ModelInfo& m : kModels) out.append(out.empty() ? "" : ", ").append(m.name);
  return out;
}

inline const ModelInfo& model_info(ModelId id) { return kModels[static_cast<int>(id)]; }

// Calls f(M{}) with the model type behind `id`.
template <class F>
decltype(auto) visit_model(ModelId id, F&& f) {
  switch (id) {
    case ModelId::Set: return f(SetModel{});
    case ModelId::Map: return f(MapModel{});
    case ModelId::Multimap: return f(MultimapModel{});
    case ModelId::PriorityQueue: return f(PriorityQueueModel{});
    case ModelId::Register: return f(RegisterModel{});
    case ModelId::CasRegister: return f(CasRegisterModel{});
    case ModelId::Queue: return f(QueueModel{});
    case ModelId::Stack: return f(StackModel{});
    case ModelId::Kv: break;
  }
  return f(KvModel{});
}

}  // namespace warpcheck
