// The campaign's launchers without launching: the Slurm array's task ids
// and batch script, and which device each --gpus slot is given (tested
// here since no multi-GPU machine runs the suite); a child that dies with
// its launcher, and the stop signals that end a launcher's wait.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "tools/campaign/child_process.hpp"
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

// Whether process `pid` has exec'd sleep (its executable, from /proc).
bool runs_sleep(pid_t pid) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec);
  return !ec && exe.filename() == "sleep";
}

// How a `sleep 30` started by a launcher (a child of this test, killed
// with SIGKILL) ends within `seconds`: its wait status, or nullopt when it
// still runs then (and is killed here). This process is made the orphans'
// reaper, so that it can wait for the grandchild.
std::optional<int> sleeper_after_launcher_killed(bool die_with_parent, double seconds) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return std::nullopt;
  const std::string log = (std::filesystem::temp_directory_path() / ("warpcheck_launch_" + std::to_string(::getpid()) + ".log")).string();
  const pid_t launcher = ::fork();
  if (launcher == 0) {
    const pid_t sleeper = start_process({"/bin/sleep", "30"}, {}, log, die_with_parent);
    (void)!::write(pipe_fds[1], &sleeper, sizeof sleeper);
    ::pause();
    ::_exit(0);
  }
  pid_t sleeper = 0;
  if (::read(pipe_fds[0], &sleeper, sizeof sleeper) != sizeof sleeper) return std::nullopt;
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  // The launcher is killed once the sleeper runs `sleep` (its death signal
  // set before the exec): killed sooner, on a loaded machine, the child
  // finds its parent gone before it sets the signal and exits 127, which
  // is the same promise kept another way, not the path tested here.
  const auto exec_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < exec_deadline && !runs_sleep(sleeper))
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ::kill(launcher, SIGKILL);
  ::waitpid(launcher, nullptr, 0);
  std::optional<int> ended;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (int status = 0; std::chrono::steady_clock::now() < give_up; std::this_thread::sleep_for(std::chrono::milliseconds(20)))
    if (::waitpid(sleeper, &status, WNOHANG) == sleeper) {
      ended = status;
      break;
    }
  if (!ended) {
    ::kill(sleeper, SIGKILL);
    ::waitpid(sleeper, nullptr, 0);
  }
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
  std::filesystem::remove(log);
  return ended;
}

TEST(CampaignLaunch, AShardProcessDiesWithItsLauncherEvenWhenTheLauncherIsKilled) {
  const std::optional<int> ended = sleeper_after_launcher_killed(true, 5);
  ASSERT_TRUE(ended) << "the child outlived its killed launcher";
  EXPECT_TRUE(WIFSIGNALED(*ended) && WTERMSIG(*ended) == SIGKILL) << describe_wait_status(*ended);
  // Without the death signal it would live on: the test can tell.
  EXPECT_FALSE(sleeper_after_launcher_killed(false, 0.3));
}

TEST(CampaignLaunch, StopSignalsEndTheWaitNotTheLauncher) {
  {
    const StopSignals stop;
    EXPECT_EQ(stop_signal(), 0);
    ::raise(SIGTERM);
    EXPECT_EQ(stop_signal(), SIGTERM) << "noted, and this process lives on";
    EXPECT_EQ(signal_name(stop_signal()), "SIGTERM");
  }
  struct sigaction now = {};
  ::sigaction(SIGTERM, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL) << "the handler before it, back";
  const StopSignals again;
  EXPECT_EQ(stop_signal(), 0) << "a new wait starts without the old signal";
}

}  // namespace
}  // namespace warpcheck::cli
