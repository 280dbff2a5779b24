#include "stress/stress_report.hpp"

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

int report_failures(const StressSummary& sum, const SeedFailure* shrunk, const FailureFiles& files, std::ostream& out) {
  if (sum.first_unexplained && (!sum.first_failure || sum.first_failure->seed != sum.first_unexplained->seed)) {
    const SeedFailure& u = *sum.first_unexplained;
    out << "\nproof's points NOT explained at seed " << u.seed << " (" << verdict_name(u.check.verdict)
        << "): " << u.check.hint_replay->detail << "\n"
        << "reproduce: warpcheck repro " << u.seed << " " << files.reproduce_flags << " --require-points\n";
  }
  if (!sum.first_failure) return sum.unknown ? 2 : 0;
  const SeedFailure& f = shrunk ? *shrunk : *sum.first_failure;
  out << "\nFAILED at seed " << f.seed << ": " << describe_failure(f.run, f.check) << "\n";
  if (!f.run.fault_details.empty()) out << f.run.fault_details;
  for (size_t i = 1; i < f.run.invariant_violations.size(); ++i) out << "  also: " << f.run.invariant_violations[i] << "\n";
  if (f.check.verdict == Verdict::Violation) write_text_report(f.run.history, f.check, out);
  std::string replay;
  if (!files.out_dir.empty()) {
    const std::string& dir = files.out_dir;
    std::filesystem::create_directories(dir);
    save_history(f.run.history, dir + "/history.bin", HistoryFormat::Binary);
    std::ofstream page(dir + "/report.html");
    write_html_report(f.run.history, f.check, page);
    out << "wrote " << dir << "/history.bin, " << dir << "/report.html";
    if (files.workload) {
      std::ofstream(dir + "/workload.txt") << format_workload(*files.workload);
      out << ", " << dir << "/workload.txt";
      replay += " --workload @" + dir + "/workload.txt";
    }
    if (!f.run.schedule.empty()) {
      std::ofstream(dir + "/schedule.txt") << f.run.schedule << "\n";
      out << ", " << dir << "/schedule.txt";
      replay += " --schedule @" + dir + "/schedule.txt";
    }
    out << "\n";
  }
  out << "reproduce: warpcheck repro " << f.seed << " " << files.reproduce_flags << replay << "\n";
  if (!files.out_dir.empty()) out << "reproduce from the history alone: warpcheck repro " << files.out_dir << "/history.bin\n";
  return 1;
}

}  // namespace warpcheck
