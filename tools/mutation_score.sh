#!/usr/bin/env bash
# The mutation score on the simulator, from the structures' declarations:
# for every planted bug, how many of SEEDS seeds catch it (default: each
# declaration's own), which oracle caught the first (against the one
# declared), and how small the shrunk workload and counterexample are.
# Prints a markdown table. Usage: tools/mutation_score.sh [SEEDS] [WARPCHECK=build/tools/warpcheck]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
warpcheck=${2:-build/tools/warpcheck}
exec "$warpcheck" score ${1:+--seeds "$1"}
