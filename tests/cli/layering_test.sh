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
# Inside stress/, rooms: each includes only from itself and the rooms
# below it (stress/CMakeLists.txt says what each holds). A structure's
# room is its adapter folder (stress/<structure>/, the folders holding an
# adapter.cpp); run/ holds the registration list, which includes them.
mapfile -t adapters < <(cd stress && ls -d */ | tr -d / | while read -r d; do [ -f "$d/adapter.cpp" ] && echo "$d"; done)
declare -A rooms=(
  [recorder]="recorder"
  [seam]="seam"
  [litmus]="litmus"
  [gpu]="gpu seam litmus recorder"
  [harness]="harness gpu seam recorder"
  [run]="run harness gpu seam recorder ${adapters[*]}"
  [commands]="commands run harness gpu seam recorder litmus"
  [campaign]="campaign commands run harness gpu seam recorder"
)
for a in "${adapters[@]}"; do rooms[$a]="$a harness gpu seam recorder"; done
for f in $(find stress -mindepth 1 -maxdepth 1 -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \)); do
  echo "FAIL: $f is in no room of stress/ (stress/CMakeLists.txt names them)"
  bad=$((bad + 1))
done
while IFS= read -r line; do
  file=${line%%:*}
  room=$(cut -d/ -f2 <<<"$file")
  target=$(sed -n 's/.*#include "stress\/\([^/"]*\)\/.*/\1/p' <<<"$line")
  [ -n "$target" ] || continue
  if [ -z "${rooms[$room]+set}" ]; then
    echo "FAIL: $file is in stress/$room/, a room the layering test does not know: add it with the rooms it may include"
    bad=$((bad + 1))
  elif [[ " ${rooms[$room]} " != *" $target "* ]]; then
    echo "FAIL: $file (room $room) includes from stress/$target/, not below it: $line"
    bad=$((bad + 1))
  fi
done < <(grep -rn '#include "stress/' stress --include='*.hpp' --include='*.cpp' --include='*.cuh' --include='*.cu' --include='*.h')
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
[ $bad -eq 0 ] && echo "layering: models <- linearizability, structures <- stress <- tools, and stress/'s rooms: no include goes up; examples include the package's public headers"
exit $((bad > 0))
