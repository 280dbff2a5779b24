#include "stress/run/stress_report.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "linearizability/formats.hpp"
#include "linearizability/html_report.hpp"
#include "linearizability/report.hpp"

namespace warpcheck {

std::string describe_target(const Target& t) {
  return std::to_string(t.shape.teams) + " teams of " + std::to_string(t.sim_lanes) + " lanes, " +
         std::to_string(t.shape.slots()) + " operation slots";
}

void print_summary(const StressSummary& sum, Backend backend, bool judge_points, std::ostream& out) {
  out << "| runs | operations | LINEARIZABLE | VIOLATION | UNKNOWN | faults | invariants broken | failing runs | run ops/s | check ops/s |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n"
      << "| " << sum.runs << " | " << sum.operations << " | " << sum.linearizable << " | " << sum.violations << " | "
      << sum.unknown << " | " << sum.faults << " | " << sum.invariant_failures << " | " << sum.failed_runs << " | "
      << uint64_t(sum.operations / std::max(sum.run_seconds, 1e-9)) << " | "
      << uint64_t(sum.operations / std::max(sum.check_seconds, 1e-9)) << " |\n";
  if (judge_points && sum.points_explained + sum.points_not_explained > 0) {
    // Structures that record a proof's linearization points: its three verdicts apart.
    const uint64_t checked = sum.runs - sum.faults;
    out << "\n| runs | proof's points hold | linearizable | invariants hold | faults |\n|---|---|---|---|---|\n| " << sum.runs
        << " | " << sum.points_explained << " of " << sum.points_explained + sum.points_not_explained << " | "
        << sum.linearizable << " of " << sum.runs << " | " << checked - std::min(checked, sum.invariant_failures) << " of "
        << checked << " | " << sum.faults << " |\n";
  }
  if (sum.first_unknown)
    out << "first UNKNOWN at seed " << sum.first_unknown->first << ": " << sum.first_unknown->second << "\n";
  if (backend == Backend::Sim)
    out << "simulator: " << sum.steps << " steps, " << uint64_t(sum.steps / std::max(sum.run_seconds, 1e-9))
        << " steps/s (runs and recording)\n";
}

std::string describe_failure(const SeedRun& run, const CheckResult& check) {
  if (run.fault) return run.fault_message;
  if (!run.invariant_violations.empty()) return "invariant broken: " + run.invariant_violations[0];
  if (check.verdict == Verdict::Violation) return std::string(verdict_name(check.verdict)) + ": " + check.reason;
  return "proof's points NOT explained (" + std::string(verdict_name(check.verdict)) + "): " +
         (check.hint_replay ? check.hint_replay->detail : std::string());
}

FailureOracle first_oracle(const SeedRun& run, const CheckResult& check) {
  if (run.fault) return oracle_of(run.fault_kind);
  if (!run.invariant_violations.empty()) return FailureOracle::Invariants;
  if (check.verdict == Verdict::Violation) return FailureOracle::Checker;
  return FailureOracle::Points;
}

namespace {

// Control bytes (a message's stray newline) as spaces: records hold plain text.
std::string plain(std::string s, bool lines) {
  for (char& c : s)
    if (forbidden_in_record(c, lines)) c = ' ';
  return s;
}

}  // namespace

FailureRecord failure_record(const SeedRun& run, const CheckResult& check, std::string reproduce) {
  FailureRecord f;
  f.oracle = first_oracle(run, check);
  f.message = plain(describe_failure(run, check), false);
  std::string details = run.fault_details;
  for (size_t i = run.fault ? 0 : 1; i < run.invariant_violations.size(); ++i)
    details += (details.empty() || details.back() == '\n' ? "" : "\n") + std::string("invariant broken: ") + run.invariant_violations[i];
  if (check.verdict == Verdict::Violation && f.oracle != FailureOracle::Checker)
    details += (details.empty() || details.back() == '\n' ? "" : "\n") + std::string("and the checker: VIOLATION: ") + check.reason;
  while (!details.empty() && details.back() == '\n') details.pop_back();
  f.details = plain(std::move(details), true);
  if (check.counterexample) {  // its operations, as far as they are the run's own
    std::vector<uint64_t> ids;
    for (const Operation& op : run.history.ops) ids.push_back(op.id);
    std::sort(ids.begin(), ids.end());
    for (const Operation& op : check.counterexample->history.ops)
      if (std::binary_search(ids.begin(), ids.end(), op.id)) f.evidence.push_back(op.id);
  }
  f.reproduce = plain(std::move(reproduce), false);
  return f;
}

History with_failure_record(const SeedRun& run, const CheckResult& check, std::string reproduce) {
  History h = run.history;
  h.meta.failure = failure_record(run, check, std::move(reproduce));
  return h;
}

int report_failures(const StressSummary& sum, const SeedFailure* shrunk, const FailureFiles& files, std::ostream& out) {
  if (sum.first_unexplained && (!sum.first_failure || sum.first_failure->seed != sum.first_unexplained->seed)) {
    const SeedFailure& u = *sum.first_unexplained;
    out << "\nproof's points NOT explained at seed " << u.seed << " (" << verdict_name(u.check.verdict)
        << "): " << u.check.hint_replay->detail << "\n"
        << "reproduce: warpcheck repro " << u.seed << " " << files.reproduce_flags << " --require-points\n";
  }
  if (!sum.first_failure) return sum.unknown ? 2 : 0;
  const SeedFailure& f = shrunk ? *shrunk : *sum.first_failure;
  out << "\nFAILED at seed " << f.seed << ": " << describe_failure(f.run, f.check) << "\n"
      << "caught by: " << failure_oracle_name(first_oracle(f.run, f.check)) << "\n";
  if (!f.run.fault_details.empty()) out << f.run.fault_details;
  for (size_t i = 1; i < f.run.invariant_violations.size(); ++i) out << "  also: " << f.run.invariant_violations[i] << "\n";
  if (f.check.verdict == Verdict::Violation) write_text_report(f.run.history, f.check, out);
  const std::string by_seed = "warpcheck repro " + std::to_string(f.seed) + " " + files.reproduce_flags;
  if (files.out_dir.empty()) {
    // Without files, a workload that is not the seed's own must come from where it is kept.
    if (!files.workload) out << "reproduce: " << by_seed << "\n";
    else if (!files.history_path.empty()) out << "reproduce: warpcheck repro " << files.history_path << "\n";
    else if (!files.workload_flag.empty()) out << "reproduce: " << by_seed << " " << files.workload_flag << "\n";
    else if (shrunk)
      out << "reproduce the run before shrinking: warpcheck repro " << sum.first_failure->seed << " " << files.reproduce_flags
          << "\n  (--out DIR keeps the shrunk workload)\n";
    return 1;
  }
  const std::string& dir = files.out_dir;
  std::filesystem::create_directories(dir);
  std::string replay;
  std::vector<std::string> written = {dir + "/history.bin", dir + "/report.html"};
  if (files.workload) {
    std::ofstream(dir + "/workload.txt") << format_workload(*files.workload);
    written.push_back(dir + "/workload.txt");
    replay += " --workload @" + dir + "/workload.txt";
  }
  if (!files.guide.empty()) {  // what the history alone needs to rerun: its folder holds it
    std::filesystem::copy_file(files.guide, dir + "/guide.bin", std::filesystem::copy_options::overwrite_existing);
    written.push_back(dir + "/guide.bin");
  }
  if (!f.run.schedule.empty()) {
    std::ofstream(dir + "/schedule.txt") << f.run.schedule << "\n";
    written.push_back(dir + "/schedule.txt");
    replay += " --schedule @" + dir + "/schedule.txt";
  }
  // The history carries its failure, and the command that runs it again from the history alone.
  const History kept = with_failure_record(f.run, f.check, "warpcheck repro " + dir + "/history.bin");
  save_history(kept, dir + "/history.bin", HistoryFormat::Binary);
  std::ofstream page(dir + "/report.html");
  write_html_report(kept, f.check, page);
  out << "wrote";
  for (size_t i = 0; i < written.size(); ++i) out << (i ? ", " : " ") << written[i];
  out << "\nreproduce: " << by_seed << replay << "\n"
      << "reproduce from the history alone: warpcheck repro " << dir << "/history.bin\n";
  return 1;
}

}  // namespace warpcheck
