#include "structures/core/sim/simulator.hpp"

#include <algorithm>
#include <cstring>
#include <boost/context/fiber.hpp>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <cstdio>
#include <cstdlib>

#include "models/base/splitmix.hpp"
#include "structures/core/sim/detail/fiber_stacks.hpp"
#include "structures/core/sim/detail/simulator_state.hpp"
#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/sim_team.hpp"

namespace warpcheck::sim {


std::string_view outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Completed: return "completed";
    case Outcome::SpinBound: return "spin bound (suspected deadlock or livelock)";
    case Outcome::Stuck: return "stuck (no lane can run)";
    case Outcome::Divergence: return "divergent collectives";
    case Outcome::ShadowViolation: return "shadow-state violation";
    case Outcome::StepLimit: return "step limit";
    case Outcome::LaneError: return "lane error";
    case Outcome::ReplayMismatch: return "replay mismatch";
    case Outcome::ZombieTraversal: return "zombie traversal";
  }
  return "?";
}

void validate(const SimConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("simulator: " + m); };
  if (c.teams == 0 || c.lanes == 0) fail("teams and lanes must be at least 1");
  if (uint64_t(c.teams) * c.lanes > 65536) fail("at most 65,536 lanes in all");
  if (c.max_steps == 0 || c.spin_bound == 0) fail("max_steps and spin_bound must be at least 1");
  if (!(c.delay_probability >= 0 && c.delay_probability <= 1)) fail("the delay probability must be in [0, 1]");
  if (c.delay_probability > 0 && c.delay_steps == 0) fail("delays of at least 1 step");
  if (c.stack_bytes < 16384) fail("stacks of at least 16 KiB");
  if (!(c.stale_chance >= 0 && c.stale_chance <= 1)) fail("the stale-read chance must be in [0, 1]");
  if (c.visibility_steps == 0 || c.teams_per_block == 0) fail("visibility steps and teams per block must be at least 1");
  if (c.host_teams > c.teams) fail("more host teams than teams");
  const SchedulerInfo& s = scheduler_named(c.scheduler.name);
  // A choice option kept by name (SimConfig::scheduler_options; one stored
  // in a typed field holds its value already) is one of its declared
  // choices, whichever scheduler declares it.
  for (const SchedulerOption& o : s.options) {
    if (o.type != SchedulerOption::Type::choice || o.store) continue;
    const std::string v = option_text(c, s, o.name);
    if (std::find(o.choices.begin(), o.choices.end(), v) == o.choices.end()) {
      std::string choices;
      for (std::string_view each : o.choices) choices += (choices.empty() ? "" : ", ") + std::string(each);
      fail("--" + std::string(o.name) + " must be one of " + choices + ", got '" + v + "'");
    }
  }
  if (s.validate) s.validate(c);
}

Simulator::Simulator(SimConfig config) : config_(std::move(config)) {
  validate(config_);
  const uint32_t n = config_.teams * config_.lanes;
  engine_ = std::make_unique<Engine>(n);
  lanes_.resize(n);
  for (uint32_t g = 0; g < n; ++g) {
    lanes_[g].team = g / config_.lanes;
    lanes_[g].lane = g % config_.lanes;
  }
  groups_.resize(config_.teams);
  for (Group& grp : groups_) {
    grp.in.resize(config_.lanes);
    grp.out.resize(config_.lanes);
    grp.src.resize(config_.lanes);
    grp.address.resize(config_.lanes);
    grp.loaded.resize(config_.lanes);
    grp.loaded_step.resize(config_.lanes);
    grp.leader.resize(config_.lanes);
    grp.bytes.resize(config_.lanes);
  }
  team_operation_.resize(config_.teams);
  delayed_until_.resize(config_.teams);
  delay_draws_ = config_.seed * 0x9e3779b97f4a7c15ull + 0xd1b54a32d192ed03ull;
  const SchedulerInfo& used = scheduler_for(config_);
  events_ = used.events;
  operation_points_ = scheduler_named(config_.scheduler.name).events & kOperationEvents;
  engine_->scheduler = used.make(config_, *this);
  if (config_.memory_model == MemoryModel::relaxed)
    relaxed_ = std::make_unique<RelaxedMemory>(
        RelaxedConfig{config_.teams, config_.teams_per_block, config_.host_teams, config_.seed, config_.stale_chance,
                      config_.visibility_steps});
}

Simulator::~Simulator() = default;

void Simulator::schedule(uint32_t lane) {
  if (delayed_until_[lanes_[lane].team]) {
    lanes_[lane].delayed = true;
    return;
  }
  engine_->runnable.add(lane);
  if (hears(kRunnableEvents)) engine_->scheduler->on_runnable(lane);
}

void Simulator::maybe_delay(uint32_t lane) {
  const uint32_t team = lanes_[lane].team;
  if (delayed_until_[team] || !config_.replay.empty()) return;  // a replayed schedule holds its delays
  if (double(detail::splitmix64(delay_draws_ += detail::kGoldenGamma) >> 11) * 0x1.0p-53 >= config_.delay_probability) return;
  delay(team, config_.delay_steps);
}

void Simulator::sit_out(uint32_t team, uint64_t steps) {
  ++preemptions_;
  delay(team, steps);
}

// The team's lanes leave the run queue for `steps` steps (the running one
// at its next scheduling point); lanes a collective releases meanwhile wait too.
void Simulator::delay(uint32_t team, uint64_t steps) {
  delayed_until_[team] = step_ + steps;
  ++delayed_teams_;
  for (uint32_t g = team * config_.lanes; g < (team + 1) * config_.lanes; ++g)
    if (engine_->runnable.contains(g)) {
      unschedule(g);
      lanes_[g].delayed = true;
    }
}

void Simulator::wake_delayed(bool earliest_now) {
  uint32_t earliest = UINT32_MAX;
  for (uint32_t t = 0; t < config_.teams; ++t)
    if (delayed_until_[t] && (earliest == UINT32_MAX || delayed_until_[t] < delayed_until_[earliest])) earliest = t;
  for (uint32_t t = 0; t < config_.teams; ++t) {
    if (!delayed_until_[t] || (delayed_until_[t] > step_ && !(earliest_now && t == earliest))) continue;
    delayed_until_[t] = 0;
    --delayed_teams_;
    if (hears(kAccessEvents)) engine_->scheduler->sit_out_ended(t);
    for (uint32_t g = t * config_.lanes; g < (t + 1) * config_.lanes; ++g)
      if (lanes_[g].delayed) {
        lanes_[g].delayed = false;
        schedule(g);
      }
  }
}

void Simulator::unschedule(uint32_t lane) {
  engine_->runnable.remove(lane);
  if (hears(kRunnableEvents)) engine_->scheduler->on_blocked(lane);
}

void Simulator::yield_to_scheduler() { engine_->main = std::move(engine_->main).resume(); }

// The lane's other fields (order, spins, ...) are set before: the scheduler reads them here.
void Simulator::stop_at(uint32_t lane, core::access a, const void* on, const void* spin_on) {
  Lane& l = lanes_[lane];
  l.waiting = a;
  l.on = on;
  l.spin_on = spin_on;
  if (hears(kPointEvents)) engine_->scheduler->next(lane, next(lane));
}

void Simulator::await_turn(uint32_t lane, core::access a, const void* on, const void* spin_on) {
  stop_at(lane, a, on, spin_on);
  yield_to_scheduler();
}

void Simulator::fault(uint32_t lane, Outcome o, std::string message) {
  if (!stopped_) {
    stopped_ = true;
    report_.outcome = o;
    report_.message = std::move(message);
    report_.team = lanes_[lane].team;
    report_.lane = lanes_[lane].lane;
  }
  unschedule(lane);
  yield_to_scheduler();  // never resumed: the run is over, the fiber is unwound
  throw std::logic_error("simulator: a faulted lane was resumed");
}

void Simulator::access(uint32_t lane, core::access a, const void* address, core::order o, core::scope s) {
  Lane& l = lanes_[lane];
  l.order = o;
  l.scope = s;
  // A spin loop's own re-reads keep it spinning.
  await_turn(lane, a, address, address == l.spin_on ? address : nullptr);
  if (a == core::access::load) {
    l.last_load_step = step_;
    if (config_.delay_after_loads && config_.delay_probability > 0) maybe_delay(lane);
  } else if (config_.delay_probability > 0 && (a == core::access::store || a == core::access::rmw)) {
    maybe_delay(lane);
  }
  if (address) {
    if (auto v = shadow_.check(address, a)) {
      const std::string m = unit_fault_message(lane, access_name(a), address, v->state);
      report_.violation = std::move(v);
      fault(lane, Outcome::ShadowViolation, m);
    }
  }
}

bool Simulator::spin(uint32_t lane, const void* waiting_on, uint64_t iteration) {
  lanes_[lane].spins = iteration;
  await_turn(lane, core::access::spin, waiting_on, waiting_on);
  if (iteration > config_.spin_bound) {
    std::ostringstream m;
    m << lane_name(lane) << " spun " << iteration << " times on " << describe(waiting_on)
      << " (bound " << config_.spin_bound << ") at step " << step_;
    fault(lane, Outcome::SpinBound, m.str());
  }
  return true;
}

uint64_t Simulator::collective(uint32_t lane, Collective op, uint64_t value, uint32_t src) {
  Lane& l = lanes_[lane];
  l.at = op;
  await_turn(lane, core::access::collective, nullptr, nullptr);
  Group& g = groups_[l.team];
  const uint32_t size = config_.lanes;
  if (op == Collective::Ballot && size > 32) fault(lane, Outcome::LaneError, "ballot on a team of more than 32 lanes");
  if (g.arrived == 0) {
    g.op = op;
    g.first = l.lane;
  } else if (g.op != op) {
    std::ostringstream m;
    m << team_name(l.team) << ": lane " << l.lane << " reached " << collective_name(op) << " while lane " << g.first
      << " waits at " << collective_name(g.op) << " (step " << step_ << ")";
    fault(lane, Outcome::Divergence, m.str());
  }
  g.in[l.lane] = value;
  g.src[l.lane] = src;
  if (++g.arrived < size) {
    l.state = Lane::State::Blocked;
    unschedule(lane);
    yield_to_scheduler();
    return g.out[l.lane];
  }
  // Last to arrive: compute every lane's result and release the team.
  uint64_t mask = 0, count = 0;
  for (uint32_t i = 0; i < size; ++i)
    if (g.in[i]) {
      mask |= uint64_t(1) << (i & 63);
      ++count;
    }
  for (uint32_t i = 0; i < size; ++i) {
    switch (op) {
      case Collective::Sync: g.out[i] = 0; break;
      case Collective::Ballot: g.out[i] = mask; break;
      case Collective::Shfl: g.out[i] = g.in[g.src[i] % size]; break;
      case Collective::Any: g.out[i] = count > 0; break;
      case Collective::All: g.out[i] = count == size; break;
      case Collective::Count: g.out[i] = count; break;
      case Collective::Coalesce: {  // in: the lanes' addresses; out: the leader (lowest lane) of each one's segment
        g.out[i] = i;
        const uint64_t segment = g.in[i] >> 7;
        for (uint32_t j = 0; j < i; ++j)
          if (g.in[j] && (g.in[j] >> 7) == segment) {
            g.out[i] = j;
            break;
          }
        break;
      }
    }
  }
  g.arrived = 0;
  if (hears(kAccessEvents)) engine_->scheduler->met(l.team);
  const uint32_t base = l.team * size;
  for (uint32_t i = 0; i < size; ++i) {
    Lane& other = lanes_[base + i];
    if (other.state == Lane::State::Blocked) {
      other.state = Lane::State::Runnable;
      schedule(base + i);
    }
  }
  return g.out[l.lane];
}

uint64_t Simulator::coalesced_load(uint32_t lane, const void* address, size_t bytes, core::order o, core::scope s) {
  Group& g = groups_[lanes_[lane].team];
  const uint32_t me = lanes_[lane].lane;
  // Every lane's address (and so each segment's leader) first; then each
  // leader loads its segment's words at one step; then all take theirs.
  const uint32_t leader = static_cast<uint32_t>(collective(lane, Collective::Coalesce, reinterpret_cast<uintptr_t>(address), 0));
  g.address[me] = reinterpret_cast<uintptr_t>(address);
  g.bytes[me] = static_cast<uint8_t>(bytes);
  g.leader[me] = address ? leader : UINT32_MAX;
  collective(lane, Collective::Sync, 0, 0);
  if (address && leader == me) {
    access(lane, core::access::load, address, o, s);
    const uint32_t base = lanes_[lane].team * config_.lanes;
    for (uint32_t m = me; m < config_.lanes; ++m) {
      if (g.leader[m] != me) continue;
      const void* a = reinterpret_cast<const void*>(g.address[m]);
      if (auto v = shadow_.check(a, core::access::load)) {
        const std::string message = unit_fault_message(base + m, "coalesced load", a, v->state);
        report_.violation = std::move(v);
        fault(base + m, Outcome::ShadowViolation, message);
      }
      lanes_[base + m].last_load_step = step_;
      g.loaded[m] = read(base + m, a, g.bytes[m], o, s);
      g.loaded_step[m] = lanes_[base + m].last_load_step;
    }
    if (config_.delay_probability > 0) maybe_delay(lane);  // the other segments' transactions may come late
  }
  collective(lane, Collective::Sync, 0, 0);
  if (!address) return 0;
  lanes_[lane].last_load_step = g.loaded_step[me];
  return g.loaded[me];
}

namespace {
const bool kTrace = std::getenv("WARPCHECK_TRACE") != nullptr;
const char* order_name(core::order o) {
  static const char* n[] = {"weak", "rlx", "acq", "rel", "acqrel", "sc"};
  return n[int(o)];
}
}  // namespace

uint64_t Simulator::read(uint32_t lane, const void* address, size_t bytes, core::order o, core::scope s) {
  accessed(lane, core::access::load, address, bytes, false, o, s);
  uint64_t word = 0;
  if (relaxed_) word = relaxed_->load(lanes_[lane].team, address, bytes, o, s, step_, lanes_[lane].last_load_step);
  else std::memcpy(&word, address, bytes);
  if (kTrace) {
    std::fprintf(stderr, "T %lu t%u l%u LD.%s %s = %016lx", (unsigned long)step_, lanes_[lane].team, lanes_[lane].lane,
                 order_name(o), describe(address).c_str(), (unsigned long)word);
    // In relaxed memory, which message the load read.
    const RelaxedMemory::LastLoad* l = relaxed_ ? &relaxed_->last_load : nullptr;
    if (l && l->tracked)
      std::fprintf(stderr, " msg#%lu/%lu floor%lu w@%lu by t%d%s%s readable%zu\n", (unsigned long)l->serial,
                   (unsigned long)l->newest, (unsigned long)l->floor, (unsigned long)l->written, (int)l->writer,
                   l->released ? " REL" : "", l->serial < l->newest ? " STALE" : "", l->readable);
    else
      std::fprintf(stderr, relaxed_ ? " untracked\n" : "\n");
  }
  return word;
}

void Simulator::write(uint32_t lane, void* address, size_t bytes, uint64_t value, core::order o, core::scope s) {
  if (kTrace)
    std::fprintf(stderr, "T %lu t%u l%u ST.%s %s = %016lx\n", (unsigned long)step_, lanes_[lane].team, lanes_[lane].lane,
                 order_name(o), describe(address).c_str(), (unsigned long)value);
  if (relaxed_) relaxed_->store(lanes_[lane].team, address, bytes, value, o, s, step_);
  std::memcpy(address, &value, bytes);
  accessed(lane, core::access::store, address, bytes, true, o, s);
}

void Simulator::read_modify_write(uint32_t lane, void* address, size_t bytes, uint64_t before, uint64_t after, core::order o,
                                  core::scope s) {
  if (kTrace)
    std::fprintf(stderr, "T %lu t%u l%u RMW.%s %s %016lx -> %016lx\n", (unsigned long)step_, lanes_[lane].team, lanes_[lane].lane,
                 order_name(o), describe(address).c_str(), (unsigned long)before, (unsigned long)after);
  if (relaxed_) relaxed_->rmw(lanes_[lane].team, address, bytes, before, after, o, s, step_);
  if (before == after) accessed(lane, core::access::rmw, address, bytes, false, o, s);  // one that changed its word: changed_by_rmw
}

void Simulator::accessed(uint32_t lane, core::access a, const void* address, size_t bytes, bool changed, core::order o,
                         core::scope s) {
  if (!hears(kAccessEvents)) return;
  Access e;
  e.kind = a;
  e.address = address;
  e.bytes = static_cast<uint32_t>(bytes);
  e.changed = changed;
  e.order = o;
  e.scope = s;
  engine_->scheduler->accessed(lane, e);
}

void Simulator::fenced(uint32_t lane, core::order o, core::scope s) {
  if (kTrace)
    std::fprintf(stderr, "T %lu t%u l%u FENCE.%s\n", (unsigned long)step_, lanes_[lane].team, lanes_[lane].lane, order_name(o));
  if (relaxed_) relaxed_->fence(lanes_[lane].team, o, s);
}

void Simulator::changed_by_rmw(uint32_t lane, const void* address, size_t bytes) {
  accessed(lane, core::access::rmw, address, bytes, true, lanes_[lane].order, lanes_[lane].scope);
  if (auto v = shadow_.check(address, core::access::store)) {
    const std::string m = unit_fault_message(lane, "read-modify-write", address, v->state);
    v->access = core::access::rmw;
    report_.violation = std::move(v);
    fault(lane, Outcome::ShadowViolation, m);
  }
}

uint64_t Simulator::last_load_step(uint32_t lane) const { return lanes_[lane].last_load_step; }

void Simulator::note_operation(uint32_t lane, std::string what) {
  if (kTrace && lanes_[lane].lane == 0)
    std::fprintf(stderr, "T %lu t%u OP %s\n", (unsigned long)step_, lanes_[lane].team, what.c_str());
  team_operation_[lanes_[lane].team] = std::move(what);
}

void Simulator::retire(uint32_t lane, const void* unit) {
  const auto base = shadow_.unit_base(unit);
  if (!base) throw std::logic_error("simulator: retire() outside every shadow pool");
  shadow_.mark(unit, core::unit_state::retired);
  const uint32_t team = lanes_[lane].team;
  retired_[*base] = {step_, team, team_operation_[team]};
}

void Simulator::act_on(uint32_t lane, const void* unit, uint64_t read_step, const char* what) {
  const auto base = shadow_.unit_base(unit);
  if (!base) return;
  const auto it = retired_.find(*base);
  if (it == retired_.end() || it->second.step >= read_step) return;
  const Lane& l = lanes_[lane];
  const Retirement& r = it->second;
  const std::string op = team_operation_[l.team].empty() ? "" : " (" + team_operation_[l.team] + ")";
  const std::string by = r.operation.empty() ? "" : " (" + r.operation + ")";
  std::ostringstream m;
  m << team_name(l.team) << op << " " << what << " " << describe(unit) << ", a zombie: read at step " << read_step << ", after "
    << team_name(r.team) << by << " had marked it a zombie at step " << r.step;
  report_.details = "  the read:      " + team_name(l.team) + op + " read " + describe(unit) + " at step " +
                    std::to_string(read_step) + "\n  the zombie:    " + team_name(r.team) + by + " marked it at step " +
                    std::to_string(r.step) + "\n  the decision:  " + what + ", at step " + std::to_string(step_) + "\n";
  fault(lane, Outcome::ZombieTraversal, m.str());
}

void Simulator::fail(uint32_t lane, const char* what, const void* address) {
  std::string m = lane_name(lane) + ": " + what;
  if (address) m += " at " + describe(address);
  fault(lane, Outcome::LaneError, m + " (step " + std::to_string(step_) + ")");
}

void Simulator::lock_acquired(uint32_t lane, const void* lock) {
  erase_owner(lock);
  lock_owner_.emplace_back(lock, lanes_[lane].team);
  if (hears(kAccessEvents)) engine_->scheduler->lock_acquired(lane, lock);
}

void Simulator::lock_released(uint32_t lane, const void* lock) {
  erase_owner(lock);
  if (hears(kAccessEvents)) engine_->scheduler->lock_released(lane, lock);
}

void Simulator::erase_owner(const void* lock) {
  auto it = std::find_if(lock_owner_.begin(), lock_owner_.end(), [&](auto& e) { return e.first == lock; });
  if (it != lock_owner_.end()) lock_owner_.erase(it);
}

// ---- operation points (guided runs) ----

void Simulator::operation_begins(uint32_t lane, const void* log, uint32_t stream, uint32_t slot, uint32_t job, OpKind kind) {
  if (!operation_points_) return;
  Lane& l = lanes_[lane];
  // A point of its own, touching no memory: the lane waits here, before
  // its invocation stamp, while the scheduler keeps it from beginning.
  l.beginning = true;
  stop_at(lane, core::access::fence, nullptr, nullptr);
  const OperationPoint op{.log = log, .stream = stream, .slot = slot, .job = job, .kind = kind};
  if (hears(kOperationEvents) && !engine_->scheduler->may_begin(lane, op)) {
    l.state = Lane::State::Gated;
    unschedule(lane);
  }
  yield_to_scheduler();
  l.beginning = false;
  if (hears(kOperationEvents)) engine_->scheduler->began(lane);
}

void Simulator::operation_ends(uint32_t lane, const void* log, uint32_t stream, uint32_t slot, ResultKind kind, int64_t result) {
  if (!hears(kOperationEvents)) return;
  const OperationPoint op{.log = log, .stream = stream, .slot = slot, .result_kind = kind, .result = result};
  engine_->scheduler->ended(lane, op);
}

void Simulator::guide_streams(const void* log, uint32_t base) {
  if (hears(kOperationEvents)) engine_->scheduler->streams_base(log, base);
}

void Simulator::guide_recorded(const void* log, uint32_t stream, uint32_t records) {
  if (hears(kOperationEvents)) engine_->scheduler->recorded_before(log, stream, records);
}

void Simulator::open_gate(uint32_t lane) {
  lanes_[lane].state = Lane::State::Runnable;
  schedule(lane);
}

// ---- what the scheduler may ask ----

const RunQueue& Simulator::runnable() const { return engine_->runnable; }

Access Simulator::next(uint32_t lane) const {
  const Lane& l = lanes_[lane];
  Access a;
  a.kind = l.waiting;
  a.address = l.on;
  a.order = l.order;
  a.scope = l.scope;
  return a;
}

bool Simulator::waiting(uint32_t lane) const { return lanes_[lane].state == Lane::State::Runnable; }

const void* Simulator::spinning_on(uint32_t lane) const { return lanes_[lane].spin_on; }

std::optional<uint32_t> Simulator::lock_owner(const void* lock) const {
  for (auto& [l, team] : lock_owner_)
    if (l == lock) return team;
  return std::nullopt;
}

uintptr_t Simulator::object_of(const void* address) const {
  // A pool unit of two words or more is what a structure reads as one (a
  // slab, a chunk, a node, a wide pair); elsewhere, the 128-byte line.
  if (shadow_.unit_bytes(address) >= 16) return *shadow_.unit_base(address);
  return reinterpret_cast<uintptr_t>(address) & ~uintptr_t(127);
}

RunReport Simulator::run(const std::function<void(sim_team&)>& body) {
  Engine& e = *engine_;
  if (!e.fibers.empty()) throw std::logic_error("simulator: one run per Simulator");
  const uint32_t n = config_.teams * config_.lanes;
  e.fibers.reserve(n);
  for (uint32_t g = 0; g < n; ++g) {
    e.fibers.emplace_back(std::allocator_arg, CachedStack{config_.stack_bytes}, [this, g, &body](ctx::fiber&& sink) {
      engine_->main = std::move(sink);
      sim_team team(this, g, lanes_[g].team, lanes_[g].lane, config_.lanes);
      try {
        body(team);
      } catch (const ctx::detail::forced_unwind&) {
        throw;
      } catch (const std::exception& ex) {
        if (!stopped_) {
          stopped_ = true;
          report_.outcome = Outcome::LaneError;
          report_.message = lane_name(g) + ": " + ex.what();
          report_.team = lanes_[g].team;
          report_.lane = lanes_[g].lane;
        }
      }
      lanes_[g].state = Lane::State::Done;
      lanes_[g].waiting = core::access::exit;
      lanes_[g].delayed = false;  // a lane that ends inside its team's delay is not woken again
      unschedule(g);
      return std::move(engine_->main);
    });
    schedule(g);
  }
  report_.schedule.reserve(1 << 16);
  while (!stopped_) {
    if (delayed_teams_) wake_delayed(false);
    // Nothing else to run: the earliest delay ends now (and the next, when
    // that team's lanes have all ended meanwhile).
    if (e.runnable.empty() && hears(kAccessEvents)) e.scheduler->end_a_sit_out();  // the scheduler's own first
    while (e.runnable.empty() && delayed_teams_) wake_delayed(true);
    // Nothing else to run in a guided run: the operations its gates wait
    // for will not come (a team gave up, or waits on one at a gate).
    while (e.runnable.empty() && hears(kOperationEvents) && e.scheduler->open_a_gate()) {
      while (e.runnable.empty() && delayed_teams_) wake_delayed(true);
    }
    if (e.runnable.empty()) {
      const bool all_done = std::all_of(lanes_.begin(), lanes_.end(), [](const Lane& l) { return l.state == Lane::State::Done; });
      if (!all_done) {
        stopped_ = true;
        report_.outcome = Outcome::Stuck;
        report_.message = "no lane can run: some lane of a team left or never reached the collective its team waits at";
      } else if (std::string why = e.scheduler->at_end(step_); !why.empty()) {
        stopped_ = true;
        report_.outcome = Outcome::ReplayMismatch;
        report_.message = std::move(why);
      }
      break;
    }
    if (step_ >= config_.max_steps) {
      stopped_ = true;
      report_.outcome = Outcome::StepLimit;
      report_.message = "the run reached its step limit of " + std::to_string(config_.max_steps);
      break;
    }
    const uint32_t g = e.scheduler->pick(e.runnable, step_);
    if (g == UINT32_MAX) {
      stopped_ = true;
      report_.outcome = Outcome::ReplayMismatch;
      report_.message = e.scheduler->why();
      break;
    }
    report_.schedule.push_back(g);
    ++step_;
    running_ = g;
    e.fibers[g] = std::move(e.fibers[g]).resume();
    if (hears(kStepEvents)) e.scheduler->stepped(g);
  }
  report_.steps = step_;
  e.scheduler->report(report_);
  if (!report_.ok()) describe_blocked(report_);
  e.fibers.clear();  // unwinds the lanes a fault left suspended
  return std::move(report_);
}

}  // namespace warpcheck::sim
