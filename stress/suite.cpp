#include "stress/suite.hpp"

#include <sstream>

#include "stress/stress_session.hpp"

namespace warpcheck {

namespace {

// A run that names a simulator-only option (a scheduler, delays) is about
// schedules that only the simulator controls: it runs there on any back-end.
bool names_simulator_option(const Structure& s, const std::string& flags) {
  const auto table = option_table(s);
  std::istringstream words(flags);
  for (std::string w; words >> w;)
    if (w.rfind("--", 0) == 0)
      for (const OptionSpec& o : *table)
        if (o.name == w.substr(2) && o.backends == std::vector<Backend>{Backend::Sim}) return true;
  return false;
}

}  // namespace

int run_suite(const Registry& r, const Structure* only, const SuiteOptions& o, std::ostream& out, std::ostream& err) {
  struct Row {
    std::string structure, what;
    int expect, got;
  };
  std::vector<Row> rows;
  const GpuProbe gpu = r.probe_gpu();
  for (const Structure& s : r.structures) {
    if (only && &s != only) continue;
    for (size_t i = 0; i < s.spec.suite.size(); ++i) {
      const SuiteRun& run = s.spec.suite[i];
      if (run.tag != o.tag) continue;
      out << "== " << s.spec.name << ": " << run.what << "\n" << std::flush;
      int got = 3;
      try {
        const bool pinned = run.run.find("--backend") != std::string::npos || names_simulator_option(s, run.run);
        if (pinned && o.backend && *o.backend != Backend::Sim) out << "(on the simulator: the run is about its schedules)\n";
        const Backend b = pinned ? Backend::Sim
                                 : resolve_backend(s, o.backend ? std::optional<std::string>(std::string(backend_name(*o.backend)))
                                                                 : std::nullopt, gpu);
        // Not --quiet: a long run's progress line (a plain line every 10 s in a log) says it is alive.
        std::string flags = run.run;
        if (!o.out_dir.empty()) flags += " --out " + o.out_dir + "/" + s.spec.name + "_" + std::to_string(i) + " --keep " + o.keep;
        got = run_stress_request(request_from_flags(s, b, flags), out, err);
      } catch (const std::invalid_argument& e) {
        out << "suite: " << e.what() << "\n";
      }
      if (got != run.expect) out << "suite: " << s.spec.name << ": " << run.what << ": exit " << got << ", expected " << run.expect << "\n";
      rows.push_back({s.spec.name, run.what, run.expect, got});
    }
  }
  int off = 0;
  out << "\n| structure | suite run | expected exit | exit |\n|---|---|---|---|\n";
  for (const Row& row : rows) {
    off += row.got != row.expect;
    out << "| " << row.structure << " | " << row.what << " | " << row.expect << " | " << row.got
        << (row.got != row.expect ? " (NOT as expected)" : "") << " |\n";
  }
  return off;
}

}  // namespace warpcheck
