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

  static std::string name(uint32_t shard);  // "shard-0007"
};

// Creates the folder and its shards/ and logs/ folders (throws std::invalid_argument).
void create_campaign_dir(const CampaignDir& dir);
// Removes what an earlier attempt at the shard left (its exit note and
// progress), before the shard runs again.
void forget_attempt(const CampaignDir& dir, uint32_t shard);

// Writes `text` to `path` whole: a temporary file beside it, then a rename.
void write_atomically(const std::string& path, const std::string& text);
// The file's text; nullopt when it does not exist. Throws std::invalid_argument when it cannot be read.
std::optional<std::string> read_if_present(const std::string& path);

}  // namespace warpcheck::campaign
