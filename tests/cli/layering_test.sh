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
# --- The base and detail/ folders (issue 31) ---
# models/base/ is the base layer: the shared helpers (splitmix64, median,
# quoting, long-step polling, string values) that every layer may include,
# as models is below every layer. It includes only itself and the standard
# library, so that including it drags in nothing else.
quoted_include='#include "([^"]*)"'
angle_include='#include <([^>]*)>'
while IFS= read -r line; do
  file=${line%%:*}
  if [[ $line =~ $quoted_include ]]; then
    [[ ${BASH_REMATCH[1]} == models/base/* ]] && continue
    echo "FAIL: $file is the base and includes ${BASH_REMATCH[1]}, outside models/base/: $line"
    bad=$((bad + 1))
  elif [[ $line =~ $angle_include ]]; then
    header=${BASH_REMATCH[1]}
    [[ $header =~ ^[a-z_]+$ ]] && continue  # <vector>, <cstdint>: no folder, no .h
    echo "FAIL: $file is the base and includes <$header>, not the standard library: $line"
    bad=$((bad + 1))
  fi
done < <(grep -rn '#include' models/base --include='*.hpp' --include='*.cpp' --include='*.h')
# A detail/ folder is private to its owner: the top-level folder, or for
# structures/X/ the structure's folder (structures/heap/detail/ is
# structures/heap/'s, one anywhere below structures/core/ is core's). What
# another folder needs is a public header (or the base). The one exception:
# tests/X/ may include X's detail/ to test its internals
# (tests/linearizability/prop_shrink.cpp -> linearizability/detail/shrink.hpp,
# tests/structures/heap/test_heap.cpp -> structures/heap/detail/block_merge.hpp).
owner_of() {
  case $1 in
    structures/*/*) cut -d/ -f1-2 <<<"$1" ;;
    *) cut -d/ -f1 <<<"$1" ;;
  esac
}
while IFS= read -r line; do
  file=${line%%:*}
  target=$(sed -n 's/.*#include "\([^"]*\/detail\/[^"]*\)".*/\1/p' <<<"$line")
  [ -n "$target" ] || continue
  owner=$(owner_of "${target%%/detail/*}/")
  [ "$(owner_of "$file")" = "$owner" ] && continue
  [[ $file == tests/* ]] && [ "$(owner_of "${file#tests/}")" = "$owner" ] && continue
  echo "FAIL: $file includes $target, inside $owner/'s detail/: $line"
  bad=$((bad + 1))
done < <(grep -rn '#include "[^"]*/detail/' structures models linearizability stress tools tests bench examples \
           --include='*.hpp' --include='*.cpp' --include='*.cuh' --include='*.cu' --include='*.h' 2>/dev/null)
# --- end of the base and detail/ folders ---

# --- No cycles between modules ---
# A module is a header with its sources (x.hpp, x.cpp, x.cu, x.cuh: one
# path without its extension); it depends on the modules whose headers it
# includes. Those dependencies form no cycle, inside a folder as across
# folders, so each module can be read, tested and replaced from below. A
# detail/ file may include its owner's headers: it is their implementation
# (cuCollections' detail/*.inl pattern). One pair is one concept split in
# two, and allowed: the simulator makes its teams' handles (sim_team) and
# the handles call the simulator back.
allowed_pairs=" structures/core/sim/sim_team>structures/core/sim/simulator structures/core/sim/simulator>structures/core/sim/sim_team "
edges=$(grep -rn '#include "' models linearizability structures stress tools \
          --include='*.hpp' --include='*.cpp' --include='*.cuh' --include='*.cu' --include='*.h' |
        sed -n 's/^\([^:]*\)\.[a-z]*:[0-9]*:#include "\([^"]*\)\.[a-z]*".*/\1 \2/p' |
        while read -r from to; do
          [ "$from" = "$to" ] && continue
          [[ $from == */detail/* ]] && [ "$(owner_of "${from%%/detail/*}/")" = "$(owner_of "$to")" ] && [[ $to != */detail/* ]] && continue
          [[ $allowed_pairs == *" $from>$to "* ]] && continue
          echo "$from $to"
        done)
loops=$(tsort <<<"$edges" 2>&1 >/dev/null)
if [ -n "$loops" ]; then
  echo "FAIL: modules that depend on each other (each loop's members; tsort's words):"
  echo "$loops"
  bad=$((bad + 1))
fi
# --- end of the cycles ---

[ $bad -eq 0 ] && echo "layering: models <- linearizability, structures <- stress <- tools, and stress/'s rooms: no include goes up; examples include the package's public headers; models/base/ includes only itself and the standard library; no folder reaches into another's detail/; no two modules depend on each other"
exit $((bad > 0))
