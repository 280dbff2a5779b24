#!/usr/bin/env bash
# The layers form a one-way graph: each folder includes only from the
# folders below it.
#   models          -> models
#   linearizability -> linearizability, models
#   structures      -> structures, models
#   stress          -> stress, structures, linearizability, models
#   tools           -> anything
# Usage: layering_test.sh SOURCE_DIR
set -u
cd "$1" || exit 1
declare -A allowed=(
  [models]="models"
  [linearizability]="linearizability models"
  [structures]="structures models"
  [stress]="stress structures linearizability models"
)
bad=0
for layer in "${!allowed[@]}"; do
  while IFS= read -r line; do
    file=${line%%:*}
    target=$(sed -n 's/.*#include "\([^/"]*\)\/.*/\1/p' <<<"$line")
    [ -n "$target" ] || continue
    if [[ " ${allowed[$layer]} " != *" $target "* ]]; then
      echo "FAIL: $file includes from $target/, above $layer/: $line"
      bad=$((bad + 1))
    fi
  done < <(grep -rn '#include "' "$layer" --include='*.hpp' --include='*.cpp' --include='*.cuh' --include='*.cu' --include='*.h')
done
# The examples are users' projects: they include the installed package's
# public headers (<warpcheck/...>, tools/package/include) and their own.
if [ -d examples ]; then
  while IFS= read -r line; do
    header=$(sed -n 's/.*#include <warpcheck\/\([^>]*\)>.*/\1/p' <<<"$line")
    if [ -n "$header" ] && [ ! -f "tools/package/include/warpcheck/$header" ]; then
      echo "FAIL: ${line%%:*} includes <warpcheck/$header>, which the package does not install as public: $line"
      bad=$((bad + 1))
    fi
    if grep -q '#include "[^"]*/' <<<"$line"; then
      echo "FAIL: ${line%%:*} includes a project path instead of <warpcheck/...>: $line"
      bad=$((bad + 1))
    fi
  done < <(grep -rn '#include' examples --include='*.hpp' --include='*.cpp' --include='*.cuh' --include='*.cu' --include='*.h')
fi
[ $bad -eq 0 ] && echo "layering: models <- linearizability, structures <- stress <- tools: no include goes up; examples include the package's public headers"
exit $((bad > 0))
