#include "stress/stadium/adapter.hpp"

#include "stress/harness/seed_runs.hpp"
#include "stress/seam/fix_bits.hpp"
#include "stress/seam/workload_options.hpp"
#if WARPCHECK_HAVE_CUDA
#include "stress/stadium/gpu.hpp"
#endif

namespace warpcheck {

namespace {

namespace stadium_fix = structures::stadium_fix;
using structures::stadium_access;
using structures::stadium_kernel;

static_assert(all_fix_bits(StadiumAdapter::fixes) == stadium_fix::kAll);

constexpr Named<stadium_kernel> kStadiumKernels[] = {
    WC_NAMED(stadium_kernel::stash), WC_NAMED(stadium_kernel::clstash), WC_NAMED(stadium_kernel::hybrid)};
static_assert(in_enum_order(kStadiumKernels));
// Where the buckets are: is the table in host memory?
constexpr Named<bool> kStadiumTables[] = {{false, "device"}, {true, "host"}};
static_assert(in_enum_order(kStadiumTables));
constexpr Named<stadium_access> kStadiumAccesses[] = {WC_NAMED(stadium_access::ignore), WC_NAMED(stadium_access::wait)};
static_assert(in_enum_order(kStadiumAccesses));

// The printed algorithm with every fix but `fix`.
std::string without(uint32_t fix) { return paper_without(StadiumAdapter::fixes, fix); }

}  // namespace

StructureSpec StadiumAdapter::declare() {
  StructureSpec s;
  s.name = "stadium";
  s.description = "Stadium hashing (Khorasani et al., PACT 2015): ticket board, double hashing, Stash, clStash and hybrid";
  s.model = "multimap: insert (duplicates allowed) -> nothing, erase -> the value of the pair it removed or absent, "
            "find -> a value of the key or absent";
  s.options = {
      choice_option("variant", "fixed: with every fix of its findings (every structure's default); paper: the pseudocode and text as printed", "fixed",
                    kPaperVariants),
      choice_option("kernel", "stash: a thread an operation; clstash: a warp's collaborative lanes; hybrid: Stash, then clStash",
                    "stash", kStadiumKernels),
      choice_option("ticket-bits", "bits a ticket: the availability bit and info bits (the access bit comes beside them)", "4",
                    {"1", "2", "4", "8"}),
      choice_option("table", "where the buckets are: GPU memory, or pinned mapped host memory (out of core)", "device",
                    kStadiumTables),
      choice_option("access", "at a ticket whose insert is still writing: ignore it, or wait for its access bit", "wait",
                    kStadiumAccesses),
      choice_option("key-bytes", "bytes a key", "4", {"4", "8"}),
      choice_option("value-bytes", "bytes a value", "4", {"4", "8", "16", "32"}),
      real_option("load", "the table's load factor before the run (filler pairs on keys the workload never uses)", "0.8", 0, 0.99),
      integer_option("buckets", "buckets at least (rounded up to a prime; 0: room for every insert at --load)", "0", 0, 1u << 30),
      // No default value: a run of another kernel stores none, so its history reruns (a stored value counts as given).
      real_option("switch-at", "hybrid: the fraction of each lane's operations Stash runs before the warp turns to clStash "
                               "(default 0.5)",
                  Defaults{}, 0, 1),
      only_on({Backend::Sim}, integer_option("host-readers",
                                             "CPU threads that run Stash retrievals (--ops-per-lane each) on the host table while "
                                             "the warps run: only system-scope fences and releases reach them (--table host --kernel stash)",
                                             "0", 0, 64)),
  };
  const OptionTable workload = warp_workload_options("insert=40,erase=30,contains=30", uint64_t(1) << 31);
  s.options.insert(s.options.end(), workload.begin(), workload.end());
  const std::vector<Applies> paper{{"variant", {"paper"}}};
  const std::vector<Applies> queue{{"kernel", {"clstash", "hybrid"}}};
  s.mutants = {
      {.name = "plain_ticket_stores",
       .breaks = "the info bits and the access bit are written by a load and a store, putting back a neighbour ticket's bits",
       .caught_by = kOracleChecker | kOracleInvariants | kOracleDeadlock | kOracleStructureCheck,
       .runs = {"--variant fixed"}},
      {.name = "pair_before_reserve",
       .breaks = "an insert writes its pair into the bucket before reserving the ticket, over the pair that holds it",
       .caught_by = kOracleChecker | kOracleInvariants,
       .runs = {"--variant fixed"}},
      {.name = "missing_fence_device_table",
       .breaks = "no __threadfence() between the pair's stores and the access bit: readers may see the bit before the pair",
       .caught_by = kOracleChecker | kOracleInvariants,
       .applies = {{"table", {"device"}}},
       .runs = {"--variant fixed --table device --memory-model relaxed"}},
      {.name = "missing_fence_host_table",
       .breaks = "no __threadfence_system() between the pair's stores (host memory) and the access bit",
       .caught_by = kOracleChecker | kOracleInvariants,
       .applies = {{"table", {"host"}}},
       .runs = {"--variant fixed --table host --memory-model relaxed"}},
      {.name = "torn_wide_pair",
       .breaks = "a 16-byte pair is two 8-byte stores, and retrievals read it without looking at the access bit",
       .caught_by = kOracleChecker,
       .applies = {{"key-bytes", {"8"}}, {"value-bytes", {"8"}}},
       .runs = {"--variant fixed --key-bytes 8 --value-bytes 8"}},
      {.name = "delete_without_recheck",
       .breaks = "a delete frees the ticket it claimed without reading the key again: a double delete frees a live bucket",
       .caught_by = kOracleChecker | kOracleInvariants,
       // 1-bit tickets: the bucket's next pair has the same (no) info bits.
       .runs = {"--variant fixed --ticket-bits 1 --keys 4 --churn 0.5"}},
      {.name = "queue_wrap_loses_job",
       .breaks = "clStash's full-queue test lets a 33rd job in: its index wraps onto the oldest queued job, which is lost",
       .caught_by = kOracleInvariants | kOracleChecker | kOracleStructureCheck,
       .applies = queue,
       .runs = {"--variant fixed --kernel clstash"}},
      // Only a CPU thread tells the two fences apart: the GPU's readers are
      // inside gpu scope either way (docs/relaxed-memory.md, host teams).
      {.name = "gpu_fence_for_host_table",
       .breaks = "__threadfence() where the host table needs __threadfence_system(): a CPU thread may see the access bit before the pair",
       .caught_by = kOracleChecker,
       .applies = {{"table", {"host"}}},
       .runs = {"--variant fixed --table host --host-readers 2 --memory-model relaxed --mix insert=60,erase=0,contains=40"}},
  };
  s.fixes = {
      {"reserve_by_cas", "S1: reserving by an atomic AND of the availability and access bits clears the access bit of a "
                         "ticket that is taken (a live pair then looks half-written for good); reserve by a CAS of the slot", paper},
      {"tombstones", "S2: with deletions in the mix the text's retrievals go on past available tickets to N probes; deletes "
                     "leave tombstones and lookups stop at never-used tickets", paper,
       "the text's further iterations (section III-B) find every pair Figure 10 alone would miss: only slower, never wrong; "
       "`--variant paper --fixes <all but tombstones>` is clean over 300 seeds of Stash, 100 of clStash, 100 relaxed "
       "(docs/papers/stadium.md, S2)"},
      {"claim_before_free", "S3: a delete frees the ticket it found, not one it holds: two deletes of one pair both succeed, "
                            "a late one frees a bucket taken since; claim the ticket, read the key again, then free", paper},
      {"claim_to_read", "S4: a retrieval reads the pair while its bucket is freed and taken by another: a value never paired "
                        "with the key, or a torn one; claim the ticket while reading", paper},
      {"push_above_queue", "S5: clStash pushes unfinished jobs at accumulated - scan - 1 (Figure 12, line 25), over queued "
                           "jobs; push at accumulated + scan - 1", paper},
      {"acquire_ticket_load", "S6: Figure 10, line 4 reads the ticket with a plain load: a retrieval that sees the access bit "
                              "set may read the bucket as it was before the pair; load the ticket with an acquire", paper},
      {"release_free_acquire_reserve", "S7: the free (atomicOr) and the reservation (atomicAnd, Figure 7, line 3) are relaxed: "
                                       "a delete's reads of the bucket are not ordered before the next insert's stores; "
                                       "release the free, acquire the reservation, at the table's scope", paper, "",
       "load buffering: the simulator's relaxed memory never lets a load read a store that has not happened yet "
       "(docs/relaxed-memory.md), and only that lets the delete's read see the next insert's pair"},
      {"relaxed_table_accesses", "S8: the bucket's key and value are plain loads and stores (Figure 10, line 12; Figure 6, "
                                 "line 11) on words others write concurrently; relaxed atomics at the table's scope", paper, "",
       "a model of plain (weak) accesses: the simulator runs them as relaxed ones, so nothing it checks tells them apart"},
      {"syncwarp_around_queue", "S9: Figure 12 orders a lane's pops before other lanes' pushes (lines 15, 26) and pushes "
                                "before the next pops by lockstep alone; a __syncwarp at both (clStash and hybrid only)", paper, "",
       "weak behaviour between lanes of one team: the simulator gives a warp's lanes one view of memory and runs its "
       "collectives as barriers (docs/relaxed-memory.md), so a ballot that orders no memory cannot be told from a __syncwarp"},
      {"rehash_in_64_bits", "S10: Figure 5, line 13 sums in a 32-bit uint, which wraps once the table passes 2^31 buckets "
                            "(its chain then skips buckets); the sum in 64 bits", paper, "",
       "a table of more than 2^31 buckets (16 GiB of 4-byte pairs): below that the two sums agree, and no stress run can hold "
       "one (--buckets stops at 2^30); test StadiumHashing.RehashStepsModuloTablesPastTwoToTheThirtyOneBuckets checks the fix"},
  };
  // Each found again by the printed algorithm with every other fix.
  s.findings = {
      // No deletes: nothing but the reservation can go wrong. With the
      // claims of S4 the AND also breaks a retrieval's claim (structure check).
      {"S1_failed_reservation_clears_access_bit", without(stadium_fix::reserve_by_cas) + " --mix insert=50,erase=0,contains=50",
       kOracleDeadlock | kOracleInvariants | kOracleChecker | kOracleStructureCheck, 5, "reserve_by_cas"},
      // No retrievals: their claims would meet the unclaimed free first.
      {"S3_delete_frees_a_ticket_it_does_not_hold", without(stadium_fix::claim_before_free) + " --mix insert=50,erase=50,contains=0",
       kOracleChecker | kOracleInvariants, 5, "claim_before_free"},
      {"S4_retrieval_reads_a_reused_bucket", without(stadium_fix::claim_to_read) + " --churn 0.5 --value-bytes 32", kOracleChecker, 15, "claim_to_read"},
      {"S5_clstash_push_overwrites_queued_jobs", without(stadium_fix::push_above_queue) + " --kernel clstash",
       kOracleInvariants | kOracleStructureCheck | kOracleChecker, 5, "push_above_queue"},
      // Relaxed memory only: in sc every load reads the newest pair.
      {"S6_retrieval_reads_the_bucket_before_the_pair", without(stadium_fix::acquire_ticket_load) + " --memory-model relaxed",
       kOracleChecker | kOracleInvariants, 25, "acquire_ticket_load"},
  };
  s.suite = {
      {"fixed, Stash, 300 seeds", "--variant fixed --seeds 300"},
      {"fixed, clStash at load 0.9, 2-bit tickets, ignore, 100 seeds",
       "--variant fixed --kernel clstash --load 0.9 --ticket-bits 2 --access ignore --seeds 100"},
      {"fixed, hybrid, host table, 8-byte keys, 16-byte values, churn, 100 seeds",
       "--variant fixed --kernel hybrid --table host --key-bytes 8 --value-bytes 16 --churn 0.5 --seeds 100"},
      {"fixed, Stash under PCT, 1-bit tickets, load 0.95, prefilled, 200 seeds",
       "--variant fixed --scheduler pct --ticket-bits 1 --load 0.95 --prefill 4 --seeds 200"},
      {"the printed algorithm (its reservation S1 expected to be caught)", "--variant paper --backend sim --seeds 20", 1},
      {"fixed, Stash, 256 warps", "--variant fixed --teams 256 --keys 1000 --ops-per-lane 4 --seeds 50", 0, "gpu"},
      // 20 seeds: a clStash history of 32,768 operations takes the checker
      // about 2.5 s (warp records widen the intervals).
      {"fixed, clStash, host table, 256 warps", "--variant fixed --kernel clstash --table host --teams 256 --keys 1000 --ops-per-lane 4 --seeds 20",
       0, "gpu"},
      // Churn on few keys, not hot keys: a GPU batch overlaps so many
      // operations on a hot key that the multimap search gives up.
      {"fixed, hybrid, churn at load 0.95, 64 warps",
       "--variant fixed --kernel hybrid --load 0.95 --teams 64 --keys 256 --churn 0.5 --ops-per-lane 4 --seeds 30 --timeout 20", 0, "gpu"},
      {"the printed algorithm on the GPU (expected to fail)", "--variant paper --teams 64 --keys 256 --seeds 10 --keep-going", 1, "gpu"},
      {"fixed, clStash's shared-memory queue", "--variant fixed --kernel clstash --teams 16 --keys 256 --seeds 2", 0, "sanitize"},
  };
  s.audit = "docs/papers/stadium.md";
  s.invariants = {"no ticket left held (inserting or claimed)", "every live ticket's info bits those of its bucket's key",
                  "every live value whole", "live pairs = fillers + inserts - successful deletes, pair for pair",
                  "every live pair reachable along its key's chain", "every operation completed"};
  return s;
}

StadiumConfig StadiumAdapter::configure(const Options& o) {
  StadiumConfig c;
  static_cast<WarpWorkload&>(c) = warp_workload(o);
  c.fixes = chosen_fix_bits(o, fixes);
  c.kernel = o.choice("kernel", kStadiumKernels);
  if (o.has_value("switch-at") && c.kernel != stadium_kernel::hybrid)
    throw std::invalid_argument("stadium: --switch-at is the hybrid kernel's (--kernel hybrid)");
  c.ticket_bits = uint32_t(o.integer("ticket-bits"));
  c.host_table = o.choice("table", kStadiumTables);
  c.access = o.choice("access", kStadiumAccesses);
  c.key_bytes = uint32_t(o.integer("key-bytes"));
  c.value_bytes = uint32_t(o.integer("value-bytes"));
  c.load = o.real("load");
  c.buckets = uint32_t(o.integer("buckets"));
  if (o.has_value("switch-at")) c.switch_at = o.real("switch-at");  // else StadiumConfig's default
  if (o.has_value("host-readers")) c.host_readers = uint32_t(o.integer("host-readers"));  // the simulator's only
  c.mutant = o.choice("mutant", mutants);
  validate(c);
  return c;
}

SeedRun StadiumAdapter::run_sim(const Config& c, const sim::SimConfig& s, const Ops& ops) {
  return seed_run_from_sim(run_stadium_sim(c, s, ops));
}

SeedRun StadiumAdapter::run_gpu(const Config& c, const GpuRunSettings& g, const Ops& ops) {
#if WARPCHECK_HAVE_CUDA
  gpu::StadiumGpuRun run = gpu::run_stadium(c, ops, g.spin_bound, {g.recipe, g.seed});
  SeedRun r = seed_run_from_gpu(run.run, ModelId::Multimap, g);  // the faults
  r.history = std::move(run.history);
  r.history.meta.seed = g.seed;
  if (!r.fault) r.invariant_violations = check_stadium_invariants(c, stadium_view(c, run.run.memory->pointers()), r.history);
  return r;
#else
  (void)c, (void)g, (void)ops;
  no_cuda_back_end();
#endif
}

}  // namespace warpcheck
