// The registration list: adding a structure is one line here (and its
// adapter under stress/<structure>/).
#include "stress/registry.hpp"

#include "stress/gfsl/adapter.hpp"
#include "stress/heap/adapter.hpp"
#include "stress/slab_hash/adapter.hpp"
#include "stress/sorted_set/adapter.hpp"
#include "stress/stadium/adapter.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/gpu/device_info.hpp"
#endif

namespace warpcheck {

namespace {

GpuProbe probe_gpu() {
  GpuProbe p;
#if WARPCHECK_HAVE_CUDA
  const gpu::DeviceInfo info = gpu::device_info();
  p.present = info.present;
  p.devices = info.count;
  p.name = info.name;
  p.why_absent = info.why_absent;
#else
  p.why_absent = "this build has no CUDA back-end (nvcc was not found)";
#endif
  return p;
}

}  // namespace

const Registry& registry() {
  static const Registry r{{
                              make_structure<SlabHashAdapter>(),
                              make_structure<SortedSetAdapter>(),
                              make_structure<HeapAdapter>(),
                              make_structure<GfslAdapter>(),
                              make_structure<StadiumAdapter>(),
                          },
                          probe_gpu};
  return r;
}

}  // namespace warpcheck
