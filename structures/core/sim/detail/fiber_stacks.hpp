// The lanes' fiber stacks: guarded (an overflow faults instead of
// corrupting a neighbour), kept per OS thread and reused across runs: a run
// of 128 lanes would otherwise map and unmap 128 stacks.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/stack_context.hpp>
#include <map>
#include <new>
#include <vector>

namespace warpcheck::sim {

namespace ctx = boost::context;

class StackCache {
 public:
  ~StackCache() {
    for (auto& [size, stacks] : free_)
      for (void* base : stacks) munmap(base, size + page());
  }
  ctx::stack_context allocate(size_t size) {
    void* base;
    auto& list = free_[size];
    if (!list.empty()) {
      base = list.back();
      list.pop_back();
    } else {
      base = mmap(nullptr, size + page(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      mprotect(base, page(), PROT_NONE);  // overflow faults instead of corrupting a neighbour
    }
    ctx::stack_context sc;
    sc.size = size;
    sc.sp = static_cast<char*>(base) + page() + size;
    return sc;
  }
  void deallocate(ctx::stack_context& sc) {
    free_[sc.size].push_back(static_cast<char*>(sc.sp) - sc.size - page());
  }
  static size_t page() {
    static const size_t p = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return p;
  }

 private:
  std::map<size_t, std::vector<void*>> free_;
};

inline thread_local StackCache stack_cache;

struct CachedStack {
  size_t size;
  ctx::stack_context allocate() { return stack_cache.allocate(size); }
  void deallocate(ctx::stack_context& sc) noexcept { stack_cache.deallocate(sc); }
};

}  // namespace warpcheck::sim
