// The process's resident memory (RSS), read from /proc/self/statm: what the
// --memory budget bounds. One pread on a descriptor kept open, about a
// microsecond, so budget checks can afford it.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>

namespace warpcheck::detail {

inline size_t resident_bytes() {
  static const int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  static const size_t page = size_t(sysconf(_SC_PAGESIZE));
  if (fd < 0) return 0;  // no /proc: the budget cannot be measured, and is not enforced
  char buf[128];
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return 0;
  buf[n] = '\0';
  char* rest = nullptr;
  std::strtoull(buf, &rest, 10);  // total program size; the second field is resident
  return size_t(std::strtoull(rest, nullptr, 10)) * page;
}

}  // namespace warpcheck::detail
