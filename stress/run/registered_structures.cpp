// The registration list, generated from the warpcheck_add_structure calls
// of the top-level CMakeLists.txt (one a structure; stress/CMakeLists.txt
// writes the two lists this file includes).
#include "stress/seam/registry.hpp"

#include "registered_adapter_headers.inc"
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
#include "registered_adapters.inc"
                          },
                          probe_gpu};
  return r;
}

}  // namespace warpcheck
