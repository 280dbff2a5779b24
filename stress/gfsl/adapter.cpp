#include "stress/gfsl/adapter.hpp"

#include "stress/harness/seed_runs.hpp"
#include "stress/seam/fix_bits.hpp"
#include "stress/seam/workload_options.hpp"
#include "structures/gfsl/gfsl_invariants.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/gfsl/gpu.hpp"
#endif

namespace warpcheck {

namespace {
namespace gfsl_fix = structures::gfsl_fix;

static_assert(all_fix_bits(GfslAdapter::fixes) == gfsl_fix::kAll);
}  // namespace

StructureSpec GfslAdapter::declare() {
  StructureSpec s;
  s.name = "gfsl";
  s.description = "the GPU-friendly skiplist (Moscovici, Cohen, Petrank, PACT 2017; thesis Alg. 4.1-4.12): chunks, zombies";
  s.model = "map: insert (if absent) -> bool, erase -> bool, find -> value or absent";
  s.options = {
      choice_option("variant", "fixed: with every fix of its findings (every structure's default); paper: the pseudocode as printed",
                    "fixed", kPaperVariants),
      choice_option("chunk", "entries a chunk (and levels): 32, or 16 with half the warp idle", "32", {"32", "16"}),
      integer_option("pool-chunks", "chunks in the pool (0: enough for the workload; no reclamation)", "0", 0, 1u << 30),
      real_option("p-chunk", "the chance a split raises a key to the level above", "1", 0, 1),
  };
  const OptionTable workload = warp_workload_options("insert=40,erase=30,contains=30", uint64_t(structures::gfsl_layout::kMaxKey) + 1);
  s.options.insert(s.options.end(), workload.begin(), workload.end());
  for (OptionSpec& o : s.options) {
    if (o.name == "keys") o.defaults = Defaults("64");
    // Real threads: a GFSL operation is hundreds of team-wide collectives,
    // each a barrier of 32 OS threads; more than one team crawls on few cores.
    if (o.name == "teams") o.defaults = Defaults{"3", "1", "64"};
  }
  // Shapes where chunks split and merge every few operations. Chunks of 16
  // entries are one 128-byte transaction: read whole, so the torn reads of
  // finding G4 do not mix with the mutants' effects.
  const std::string small = " --chunk 16 --keys 40 --ops-per-lane 4";
  const std::string churn = " --chunk 16 --keys 30 --ops-per-lane 4 --teams 4 --mix insert=40,erase=30,contains=30";
  const std::string growth = " --chunk 16 --keys 40 --ops-per-lane 4 --teams 4 --mix insert=50,erase=0,contains=50";
  // Delays at writes open the windows between a split's or merge's writes.
  const std::string delays = " --delays 0.05 --delay-steps 3000";
  // The printed pseudocode with every fix but `fix`.
  auto without = [](uint32_t fix) { return paper_without(fixes, fix); };
  // Without its deadlocks and lost keys, and without the validated absent
  // answer (G4), which masks the ordering mutants of splits and merges: an
  // absent answer from a chunk someone holds is not believed, and every
  // chunk a split or merge writes is held.
  const std::string printed = without(gfsl_fix::validated_absent);
  s.mutants = {
      {.name = "no_zombie_skip",
       .breaks = "searchLateral takes a zombie's contents as a live chunk's (no lateral step past it)",
       .caught_by = kOracleZombie | kOracleChecker,
       .applies = {},
       .runs = {printed + churn}},
      {.name = "zombie_before_copy",
       .breaks = "a merge marks its chunk a zombie before copying the keys into the next chunk: they vanish meanwhile",
       .caught_by = kOracleChecker,
       .applies = {},
       .runs = {printed + churn + delays}},
      {.name = "unlock_erases_zombie",
       .breaks = "unlocking the chunk a merge just marked a zombie stores over the mark",
       .caught_by = kOracleShadow,
       .applies = {},
       .runs = {"--variant fixed" + small}},
      {.name = "link_before_copy",
       .breaks = "a split links the new chunk before copying into it: its keys are missing from the level meanwhile",
       .caught_by = kOracleChecker,
       .applies = {},
       .runs = {printed + growth + delays}},
      {.name = "empty_before_link",
       .breaks = "a split empties the moved entries before the NEXT write that links the new chunk",
       .caught_by = kOracleChecker,
       .applies = {},
       .runs = {printed + growth + delays}},
      {.name = "unlock_without_release",
       .breaks = "an unlock is a relaxed store: the chunk's writes may become visible after it",
       .caught_by = kOracleChecker | kOracleInvariants,
       .applies = {},
       .runs = {"--variant fixed" + small + " --memory-model relaxed"}},
      {.name = "skip_down_ptr_update",
       .breaks = "no updateDownPtrs after a merge: down pointers keep leading to the zombie",
       .caught_by = 0,
       .applies = {},
       .runs = {"--variant fixed" + churn},
       .seeds = 50,
       .benign = "a down pointer needs only to reach its key laterally, and a zombie's NEXT leads to the chunk that took its keys; "
                 "merges leave down pointers on zombies anyway (finding G5)"},
  };
  const std::vector<Applies> paper{{"variant", {"paper"}}};
  s.fixes = {
      {"unlock_next_after_split", "G1: preSplit locks the next chunk and Algorithm 4.9 never releases it: a deadlock", paper},
      {"unlock_on_vanished_key", "G2: Delete returns false with its bottom chunk locked when k vanished (Alg. 4.11, lines 9-10)", paper},
      {"reread_next_after_split", "G3: a merge writes back the next chunk as read before splitting it (Alg. 4.12, line 21)", paper},
      {"validated_absent", "G4: an absent answer from a chunk read that a concurrent shift tore (two transactions; in relaxed "
                           "memory, lanes' loads of different ages); "
                           "the chunk is read again between two equal, free loads of its LOCK word, and a team that takes a "
                           "chunk's lock fences before writing it (G4d: the sequence lock's writer side)", paper},
      {"raise_locked_key", "G6: a bottom split raises the new chunk's smallest key, which it does not hold locked", paper},
      {"zombie_stays_locked", "G8: Alg. 4.12 line 26 unlocks the chunk line 22 marked a zombie, writing 'unlocked' over the mark", paper},
      {"sync_lanes_between_writes", "G9: shifts, splits, merges and unlocks order one lane's write after another's by warp lockstep "
                                    "alone (Alg. 4.7 lines 7-10, 4.9 lines 27-32, 4.12); ours: __syncwarp between them", paper, "",
       "a scheduler that holds one lane of a writing warp back while other warps read (--delays and the targeted "
       "scheduler stop whole teams, and every collective is a barrier in the simulator, so two lanes' writes out of order "
       "leave a window of a few steps): not caught in 700 seeds of six shapes (docs/papers/gfsl.md)"},
      {"acquire_reads", "G7: chunk reads, head loads and the lock CAS are plain (Alg. 4.2-4.8): a team that follows a new link "
                        "may read the chunk as it was before the writes the link publishes; ours: acquire", paper},
      {"release_writes", "G10: unlocks, the split's link (Alg. 4.9 line 30), zombie marks and unlinks, head updates are plain "
                         "writes: what they publish may become visible after them; ours: release", paper},
      {"down_ptr_to_found_chunk", "Alg. 4.10 line 11 points the raised key at lowerMovedCh; ours at the enclosing chunk "
                                  "line 10 found (section 4.3's reading)", paper,
       "both chunks reach the key laterally (lowerMovedCh is where the key moved, the found chunk its enclosing chunk "
       "at or right of it; the down-pointer invariant holds either way); without it, clean over 100 seeds each: "
       "16-entry splits and merges in sc and in relaxed memory, the delete-heavy churn under PCT"},
      {"unlock_last_chunk", "G11: removeFromChunk returns with the last chunk of a level locked (Alg. 4.12 lines 10-12)", paper},
  };
  s.audit = "docs/papers/gfsl.md";
  s.findings = {
      {"G1_next_chunk_never_unlocked", without(gfsl_fix::unlock_next_after_split) + small, kOracleDeadlock, 50, "unlock_next_after_split"},
      {"G2_delete_keeps_bottom_lock", without(gfsl_fix::unlock_on_vanished_key) + small, kOracleDeadlock, 50, "unlock_on_vanished_key"},
      {"G3_merge_with_stale_next", without(gfsl_fix::reread_next_after_split) + small,
       kOracleStructureCheck | kOracleInvariants | kOracleChecker, 100, "reread_next_after_split"},
      // In relaxed memory every lane's load may be stale: a 16-entry read
      // tears too, at once (seed 1). In sc memory only a 32-entry read's two
      // transactions tear: --chunk 32 --scheduler pct --delays 0.02
      // --delay-steps 500 shows it at seed 210 (docs/papers/gfsl.md).
      {"G4_torn_chunk_read_misses_key",
       without(gfsl_fix::validated_absent) + " --chunk 16 --keys 40 --ops-per-lane 4 --teams 3 --mix insert=50,erase=0,contains=50"
                                     " --memory-model relaxed",
       kOracleChecker, 5, "validated_absent"},
      // Two teams of inserts and deletes on 20 keys: a Delete of the raised
      // key must fall in the window between the split's unlock and the raise.
      {"G6_raised_key_deleted_meanwhile",
       without(gfsl_fix::raise_locked_key) + " --chunk 16 --keys 20 --ops-per-lane 6 --teams 2 --mix insert=50,erase=50,contains=0",
       kOracleInvariants, 400, "raise_locked_key"},
      // Relaxed memory: a team reads a chunk as it was before what the link
      // or unlock it followed published (G4 no longer hides it); first
      // caught as a key in two live chunks.
      {"G7_read_path_without_acquire", without(gfsl_fix::acquire_reads) + small + " --memory-model relaxed",
       kOracleChecker | kOracleInvariants | kOracleStructureCheck, 5, "acquire_reads"},
      // The unlock stores "unlocked" over the mark: the chunk is live again
      // and the next team writes into what the zombie detector retired.
      {"G8_unlock_revives_zombie", without(gfsl_fix::zombie_stays_locked) + small, kOracleShadow | kOracleZombie | kOracleChecker, 5,
       "zombie_stays_locked"},
      {"G10_plain_unlock_publishes_nothing", without(gfsl_fix::release_writes) + small + " --memory-model relaxed",
       kOracleChecker | kOracleInvariants | kOracleStructureCheck, 5, "release_writes"},
      // A lower spin bound: the lock is held for good, the run ends 10x sooner.
      {"G11_last_chunk_stays_locked", without(gfsl_fix::unlock_last_chunk) + small + " --spin-bound 2000", kOracleDeadlock, 5,
       "unlock_last_chunk"},
  };
  s.suite = {
      // Our points are a claim too: the runs pinned to the simulator (by a
      // scheduler or delays) require them.
      {"fixed, splits and merges (16-entry chunks), 200 seeds", "--variant fixed" + small + " --seeds 200"},
      {"fixed, delete-heavy churn under PCT, 200 seeds", "--variant fixed" + churn + " --scheduler pct --require-points --seeds 200"},
      {"fixed, 32-entry chunks (torn reads), delays at writes, 100 seeds",
       "--variant fixed --keys 100 --ops-per-lane 4 --teams 4 --delays 0.05 --delay-steps 2000 --require-points --seeds 100"},
      // A lower spin bound: G1 leaves a lock held for good, so a deadlocked
      // run ends 10x sooner (its shrink too) with the same wait-for report.
      {"the printed pseudocode (its next-chunk lock G1 expected to be caught)",
       "--variant paper" + small + " --backend sim --spin-bound 2000 --seeds 50", 1},
      {"fixed, 512 warps", "--variant fixed --teams 512 --keys 10000 --ops-per-lane 4 --seeds 50", 0, "gpu"},
      {"fixed, 16-entry chunks, hot keys", "--variant fixed --chunk 16 --teams 256 --keys 2000 --hot-keys 8 --seeds 50", 0, "gpu"},
      {"fixed, 64 warps on 4 keys", "--variant fixed --teams 64 --keys 4 --ops-per-lane 4 --seeds 50", 0, "contended"},
      // A map history (GFSL keeps a value a key) of 262,144 operations on 4
      // keys at GFSL's overlap: beyond the map checker's search (memory),
      // decided by its greedy order with finds of kept values (issue 27).
      {"fixed, 2048 warps on 4 keys", "--variant fixed --teams 2048 --keys 4 --ops-per-lane 4 --seeds 20 --timeout 60", 0, "contended"},
      {"fixed, 2048 warps on 4 keys, per warp batch",
       "--variant fixed --teams 2048 --keys 4 --ops-per-lane 4 --seeds 20 --timeout 60 --record batch", 0, "contended"},
      {"the printed pseudocode on the GPU (expected to fail)", "--variant paper --teams 64 --keys 500 --seeds 20 --keep-going", 1, "gpu"},
  };
  s.points_only_in_simulator =
      "the points of contains and of absent answers are loads: hardware stamps a load only with a clock read after it, "
      "and in relaxed memory a load may return an older store";
  s.invariants = {"each level's live chunks sorted, packed, within their max, no key in two",
                  "the last chunk of a level live, max and next infinity",
                  "every allocated chunk on one level, reachable unless a zombie",
                  "no lock held",
                  "every down pointer reaches laterally the chunk holding its key below (a zombie on the way: finding G5)",
                  "a level's counter zero exactly when it holds no key"};
  return s;
}

GfslConfig GfslAdapter::configure(const Options& o) {
  GfslConfig c;
  static_cast<WarpWorkload&>(c) = warp_workload(o);
  c.chunk = uint32_t(o.integer("chunk"));
  c.pool_chunks = uint32_t(o.integer("pool-chunks"));
  c.p_chunk = o.real("p-chunk");
  c.fixes = chosen_fix_bits(o, fixes);
  c.mutant = o.choice("mutant", mutants);
  validate(c);
  return c;
}

SeedRun GfslAdapter::run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops) {
  return seed_run_from_sim(run_gfsl_sim(c, s, ops));
}

SeedRun GfslAdapter::run_threads(const Config& c, uint64_t seed, const Ops& ops) {
  HostMemory memory(gfsl_layout(c));
  gfsl_initialize(c, memory);
  const structures::gfsl s = gfsl_view(c, memory.pointers());
  HistoryMeta meta;
  meta.model = ModelId::Map;
  meta.seed = seed;
  SeedRun r = seed_run_from_threads(run_in_threads(s, ops, c.teams, c.ops_per_lane, 32 * c.ops_per_lane, meta,
                                                                 prefill_ops(c, OpKind::Insert)));
  if (!r.fault) r.invariant_violations = structures::gfsl_invariants(s);
  return r;
}

SeedRun GfslAdapter::run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops) {
#if WARPCHECK_HAVE_CUDA
  const gpu::GpuRun run = gpu::run_gfsl(c, ops, g.spin_bound, {g.recipe, g.seed});
  SeedRun r = seed_run_from_gpu(run, ModelId::Map, g);
  if (!r.fault) r.invariant_violations = structures::gfsl_invariants(gfsl_view(c, run.memory->pointers()));
  return r;
#else
  (void)c, (void)g, (void)ops;
  no_cuda_back_end();
#endif
}

}  // namespace warpcheck
