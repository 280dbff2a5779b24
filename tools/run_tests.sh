#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash tools/setup.sh
# A fresh build has no timings for ctest to start the longest tests first
# (without them the slowest starts last and the cores idle at the end):
# seed them from tests/ctest_costs.txt (tests of a second or more, measured
# on the 2-core machine); ctest keeps its own from then on.
costs=build/Testing/Temporary/CTestCostData.txt
[ -s "$costs" ] || { mkdir -p "$(dirname "$costs")" && cp tests/ctest_costs.txt "$costs"; }
ctest --test-dir build --output-on-failure -j"$(nproc)"
