// A recording's History in the same process (warpcheck::recorder): to check
// it there (warpcheck/checker.hpp) instead of writing a file.
//
//   History h = record::recorded_history(host_recorder);   // or (log, settings, unrecorded)
//   CheckResult r = check_history(h);
//
// history_from_log() turns the team layer's own log buffers (HostLog) into
// a History the same way.
#pragma once
#include "stress/recorder/recorded_history.hpp"
