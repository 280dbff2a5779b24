#include "stress/campaign/campaign_dir.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace warpcheck::campaign {

std::string CampaignDir::name(uint32_t shard) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "shard-%04u", shard);
  return buf;
}

void create_campaign_dir(const CampaignDir& dir) {
  std::error_code e;
  for (const std::string& d : {dir.root, dir.shards(), dir.logs()})
    if (std::filesystem::create_directories(d, e); e) throw std::invalid_argument(d + ": cannot create: " + e.message());
}

void forget_attempt(const CampaignDir& dir, uint32_t shard) {
  std::error_code e;
  std::filesystem::remove(dir.exit_note(shard), e);
  std::filesystem::remove(dir.progress(shard), e);
}

namespace {

struct flock whole_file(short type) {
  struct flock l = {};
  l.l_type = type;
  l.l_whence = SEEK_SET;  // l_start 0, l_len 0: the whole file
  return l;
}

// Who holds a lock, in the holder's words ("pid 1234 on node7"); they are
// written just after the lock is taken, so for a moment there are none.
std::string holder_words(const std::string& path) {
  std::string words;
  try {
    words = read_if_present(path).value_or("");
  } catch (const std::invalid_argument&) {
  }
  while (!words.empty() && (words.back() == '\n' || words.back() == '\r')) words.pop_back();
  return words.empty() ? "a process just starting" : words;
}

}  // namespace

std::string host_name() {
  char buf[256] = {};
  return ::gethostname(buf, sizeof buf - 1) == 0 ? buf : "";
}

std::optional<ShardLock> ShardLock::take(const CampaignDir& dir, uint32_t shard, std::string* holder) {
  const std::string path = dir.lock(shard);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw std::invalid_argument(path + ": cannot open: " + std::strerror(errno));
  struct flock l = whole_file(F_WRLCK);
  if (::fcntl(fd, F_OFD_SETLK, &l) != 0) {
    const int e = errno;
    ::close(fd);
    if (e != EAGAIN && e != EACCES) throw std::invalid_argument(path + ": cannot lock: " + std::strerror(e));
    if (holder) *holder = holder_words(path);
    return std::nullopt;
  }
  const std::string me = "pid " + std::to_string(::getpid()) + " on " + host_name() + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.data(), me.size(), 0) != ssize_t(me.size())) {
    // The lock holds without the words; a reader then says "a process just starting".
  }
  return ShardLock(fd);
}

ShardLock::~ShardLock() {
  if (fd_ >= 0) ::close(fd_);  // drops the lock; the file stays for the next run
}

std::optional<std::string> shard_lock_holder(const CampaignDir& dir, uint32_t shard) {
  const std::string path = dir.lock(shard);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;  // never taken
  struct flock l = whole_file(F_WRLCK);
  const int asked = ::fcntl(fd, F_OFD_GETLK, &l);
  ::close(fd);
  if (asked != 0 || l.l_type == F_UNLCK) return std::nullopt;
  return holder_words(path);
}

void write_atomically(const std::string& path, const std::string& text) {
  // The process id keeps two writers (a resumed shard and a stale one) off each other's temporary file.
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::invalid_argument(path + ": cannot write (" + tmp + ")");
  }
  std::error_code e;
  std::filesystem::rename(tmp, path, e);
  if (e) {
    std::filesystem::remove(tmp);
    throw std::invalid_argument(path + ": cannot write: " + e.message());
  }
}

std::optional<std::string> read_if_present(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (!std::filesystem::exists(path)) return std::nullopt;
    throw std::invalid_argument(path + ": cannot read");
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace warpcheck::campaign
