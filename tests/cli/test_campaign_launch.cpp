// The campaign's launchers without launching: the Slurm array's task ids
// and batch script, and which device each --gpus slot is given (tested
// here since no multi-GPU machine runs the suite).
#include <gtest/gtest.h>

#include "tools/campaign/local_launcher.hpp"
#include "tools/campaign/slurm_launcher.hpp"

namespace warpcheck::cli {
namespace {

TEST(CampaignLaunch, ArrayTaskIdsAreRunsOfShards) {
  EXPECT_EQ(array_spec({0, 1, 2, 3}, 0), "0-3");
  EXPECT_EQ(array_spec({0, 1, 2, 3}, 2), "0-3%2");
  EXPECT_EQ(array_spec({1, 4, 5, 6, 9}, 0), "1,4-6,9");
  EXPECT_EQ(array_spec({7}, 3), "7%3");
}

TEST(CampaignLaunch, TheBatchScriptRunsOneShardATaskAndNotesHowATaskEnded) {
  const std::string s = sbatch_script({"/shared/c"}, "/opt/warpcheck", {0, 1, 2}, {"--partition=gpu --gres=gpu:1", 2});
  EXPECT_NE(s.find("#SBATCH --array=0-2%2\n"), std::string::npos) << s;
  EXPECT_NE(s.find("#SBATCH --output=/shared/c/logs/shard-%4a.log\n"), std::string::npos) << s;
  EXPECT_NE(s.find("#SBATCH --partition=gpu --gres=gpu:1\n"), std::string::npos) << s;
  EXPECT_NE(s.find("'/opt/warpcheck' campaign --run-shard '/shared/c' \"$shard\"\n"), std::string::npos) << s;
  EXPECT_NE(s.find("/shards/$name.exit"), std::string::npos) << s;
  EXPECT_NE(sbatch_script({"/it's"}, "/w", {0}, {}).find("'/it'\\''s'"), std::string::npos) << "paths are quoted for the shell";
}

TEST(CampaignLaunch, EachGpuSlotSeesOneDeviceOfThoseThisProcessSees) {
  EXPECT_EQ(visible_devices(3, nullptr), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(visible_devices(2, ""), (std::vector<std::string>{"0", "1"}));
  // Already narrowed (a Slurm allocation, a user's choice): hand out those, by their names.
  EXPECT_EQ(visible_devices(2, "4,6"), (std::vector<std::string>{"4", "6"}));
  EXPECT_EQ(visible_devices(2, "GPU-1a2b,GPU-3c4d"), (std::vector<std::string>{"GPU-1a2b", "GPU-3c4d"}));
  const auto slots = gpu_slots({"4", "6"}, 16);
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_EQ(slots[1].env.at("CUDA_VISIBLE_DEVICES"), "6");
  EXPECT_EQ(slots[1].env.at("OMP_NUM_THREADS"), "8");
  EXPECT_EQ(slots[1].name, "GPU 6");
  EXPECT_EQ(process_slots(3, 2)[0].env.at("OMP_NUM_THREADS"), "1") << "at least one thread a process";
}

}  // namespace
}  // namespace warpcheck::cli
