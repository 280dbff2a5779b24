#include "stress/commands/suite.hpp"

#include <cstdio>
#include <sstream>

#include "stress/run/stress_session.hpp"

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

std::vector<SuiteEntry> suite_entries(const Registry& r, const Structure* only, const SuiteOptions& o) {
  std::vector<SuiteEntry> entries;
  const GpuProbe gpu = r.probe_gpu();
  for (const Structure& s : r.structures) {
    if (only && &s != only) continue;
    for (size_t i = 0; i < s.spec.suite.size(); ++i) {
      const SuiteRun& run = s.spec.suite[i];
      if (run.tag != o.tag) continue;
      SuiteEntry e{s.spec.name, run.what, run.expect, {"--structure", s.spec.name}, false, "", ""};
      try {
        const bool names_backend = run.run.find("--backend") != std::string::npos;
        const bool pinned = names_backend || names_simulator_option(s, run.run);
        if (pinned && o.backend && *o.backend != Backend::Sim) e.note = "(on the simulator: the run is about its schedules)";
        const Backend b = pinned ? Backend::Sim
                                 : resolve_backend(s, o.backend ? std::optional<std::string>(std::string(backend_name(*o.backend)))
                                                                 : std::nullopt, gpu);
        if (!names_backend) e.stress_args.insert(e.stress_args.end(), {"--backend", std::string(backend_name(b))});
        std::istringstream words(run.run);
        for (std::string w; words >> w;) e.stress_args.push_back(w);
        for (size_t k = 0; k + 1 < e.stress_args.size(); ++k)
          if (e.stress_args[k] == "--backend") e.on_gpu = parse_backend(e.stress_args[k + 1]) == Backend::Gpu;
        if (!o.out_dir.empty())
          e.stress_args.insert(e.stress_args.end(),
                               {"--out", o.out_dir + "/" + s.spec.name + "_" + std::to_string(i), "--keep", o.keep});
        request_from_flags(s, b, run.run);  // refused here, before any run starts
      } catch (const std::invalid_argument& ex) {
        e.refused = ex.what();
      }
      entries.push_back(std::move(e));
    }
  }
  return entries;
}

int print_suite_table(const std::vector<SuiteEntry>& entries, const std::vector<SuiteResult>& results, std::ostream& out) {
  int off = 0;
  out << "\n| structure | suite run | expected exit | exit | seconds |\n|---|---|---|---|---|\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    const SuiteEntry& e = entries[i];
    const SuiteResult& got = results[i];
    off += got.exit != e.expect;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", got.seconds);
    out << "| " << e.structure << " | " << e.what << " | " << e.expect << " | " << got.exit
        << (got.exit != e.expect ? " (NOT as expected)" : "") << " | " << seconds << " |\n";
  }
  return off;
}

}  // namespace warpcheck
