// A campaign's folder: where its plan, each shard's result, exit note,
// progress and log, the Slurm script and the merged report live. Every
// file a shard or a launcher writes is written whole (a temporary file,
// then a rename), so a reader never sees half of one, also on a shared
// file system read from another node.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace warpcheck::campaign {

struct CampaignDir {
  std::string root;

  std::string plan() const { return root + "/plan.json"; }
  std::string report() const { return root + "/report.md"; }
  std::string summary() const { return root + "/summary.json"; }
  std::string sbatch_script() const { return root + "/campaign.sbatch"; }
  std::string slurm_jobs() const { return root + "/slurm-jobs.txt"; }  // one submitted job id a line
  std::string shards() const { return root + "/shards"; }
  std::string logs() const { return root + "/logs"; }
  std::string histories() const { return root + "/histories"; }  // kept runs' histories (--keep)
  // Shard I's files: its result (written when it finished), a note saying
  // why it ended without one, its progress while it runs, its output.
  std::string result(uint32_t shard) const { return shards() + "/" + name(shard) + ".json"; }
  std::string exit_note(uint32_t shard) const { return shards() + "/" + name(shard) + ".exit"; }
  std::string progress(uint32_t shard) const { return shards() + "/" + name(shard) + ".progress"; }
  std::string log(uint32_t shard) const { return logs() + "/" + name(shard) + ".log"; }
  std::string lock(uint32_t shard) const { return shards() + "/" + name(shard) + ".lock"; }  // held while it runs

  static std::string name(uint32_t shard);  // "shard-0007"
};

// Creates the folder and its shards/ and logs/ folders (throws std::invalid_argument).
void create_campaign_dir(const CampaignDir& dir);
// Removes what an earlier attempt at the shard left (its exit note and
// progress), before the shard runs again.
void forget_attempt(const CampaignDir& dir, uint32_t shard);

// A shard's lock: held by the process that runs the shard, from before it
// looks for its result until it ends. It is an open file description's
// lock (fcntl F_OFD_SETLK) on DIR/shards/shard-NNNN.lock, which the kernel
// drops when that process ends however it ends (SIGKILL included), so a
// lock held means a live shard, which no one may start a second time.
class ShardLock {
 public:
  // Takes the shard's lock and writes this process's pid and host into the
  // file; nullopt when a live process holds it (*holder then says which).
  // Throws std::invalid_argument when the file cannot be opened.
  static std::optional<ShardLock> take(const CampaignDir& dir, uint32_t shard, std::string* holder);
  ShardLock(ShardLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  ShardLock& operator=(ShardLock&&) = delete;
  ~ShardLock();

 private:
  explicit ShardLock(int fd) : fd_(fd) {}
  int fd_;
};

// Who holds the shard's lock ("pid 1234 on node7"); nullopt when no live
// process does. Only looks: a shard starting meanwhile is not kept out.
std::optional<std::string> shard_lock_holder(const CampaignDir& dir, uint32_t shard);

// This machine's name, as a shard records where it ran.
std::string host_name();

// Writes `text` to `path` whole: a temporary file beside it, then a rename.
void write_atomically(const std::string& path, const std::string& text);
// The file's text; nullopt when it does not exist. Throws std::invalid_argument when it cannot be read.
std::optional<std::string> read_if_present(const std::string& path);

}  // namespace warpcheck::campaign
