#include "stress/campaign/campaign_dir.hpp"

#include <unistd.h>

#include <cstdio>
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
