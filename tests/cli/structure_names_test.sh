#!/usr/bin/env bash
# No file outside a structure's own places names it (issue 31): adding a
# structure is its folders plus one registration line, and it has one
# spelling everywhere.
#
# The structures: the warpcheck_add_structure(<n> ...) lines of the top-level
# CMakeLists.txt. A structure's own places: structures/<n>/, stress/<n>/,
# tests/structures/<n>/, bench/<n>_* and bench/ext/<n>_* (its benchmarks and
# comparisons), docs/papers/<n>.md, and its registration line. There it may
# spell itself as it likes (its declaration keeps its former names).
#
# Its spellings: the name, the name with - or no separator between its
# parts, in any case (for a_b: a-b, ab, AB, Ab, A_B, AB...), and each former
# name its declaration lists (former_names in stress/<n>/*.cpp), likewise.
# A spelling counts as a word: not inside a longer one (heaps, cheap), where
# a word also starts at a lower-to-upper step (kAbVariants) and ends at _ or
# an upper-case letter (a_b_sim, AbAdapter). The files git tracks or would
# track (git ls-files, as they are in the working tree) are read, and their
# paths.
#
# Two scopes:
# - The framework: structures/, stress/, linearizability/, models/,
#   tools/, .ci/, every CMake file, and any other file not named below.
#   It names no structure, in code or comments: it takes them from the
#   registry and the declarations (the CLI, the GPU scripts), and what is
#   one structure's lives in its own places.
# - Users' words: tests/ (outside tests/structures/<n>/), docs/, README.md,
#   examples/ and the rest of bench/. They may name a structure, as the
#   example a tutorial shows or the concrete subject an end-to-end test or a
#   measurement runs, but by its name only: a_b, or as code spells it, A_B
#   or AB (camel case); no other spelling and no former name. Exempt:
#   bench/RESULTS.md (a dated log: its entries keep their commands as run,
#   which still run through the former names) and the test of the former
#   names (tests/cli/former_names_test.sh, tests/data/former_names/).
#
# A name that is an ordinary word of programs (`ordinary` below: the memory
# heap, a binary heap) is read in the framework only where code names a
# structure: as a folder of a path (structures/<n>/), a whole string
# ('<n>', "<n>"), --structure <n>, an identifier made from it (<n>_..., or
# its camel case before an upper-case letter: <N>Adapter, k<N>Variants)
# other than the ordinary ones listed with it (heap_bytes), and in shell
# scripts and text files a whole word of a line that is not a comment.
# Prose is not read for it (comments, help sentences): "the heap" there
# may be either.
# Usage: structure_names_test.sh SOURCE_DIR
set -u
cd "$1" || exit 1
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "not a git checkout: no tracked files to read (skipped)"; exit 77; }

# Ordinary words, and the identifiers where they mean the ordinary thing.
declare -A ordinary=([heap]='heap_bytes')
mapfile -t structures < <(sed -n 's/^warpcheck_add_structure(\([A-Za-z0-9_]*\) .*/\1/p' CMakeLists.txt)
[ ${#structures[@]} -gt 0 ] || { echo "FAIL: no warpcheck_add_structure( line in CMakeLists.txt"; exit 1; }
# Tracked files and those git would track (a new file is read before its commit).
mapfile -t files < <(git ls-files --cached --others --exclude-standard | sort -u | while IFS= read -r f; do [ -f "$f" ] && echo "$f"; done)

scope() {  # scope FILE: framework or users
  case $1 in
    CMakeLists.txt | */CMakeLists.txt | *.cmake | *.cmake.in) echo framework ;;
    tests/* | docs/* | README.md | examples/* | bench/*) echo users ;;
    *) echo framework ;;
  esac
}
framework=() users=() framework_shell=()
for f in "${files[@]}"; do
  if [ "$(scope "$f")" = users ]; then
    users+=("$f")
  else
    framework+=("$f")
    [[ $f == *.sh || $f == *.txt || $f == .ci/* ]] && framework_shell+=("$f")
  fi
done
exempt() { [[ $1 == bench/RESULTS.md || $1 == tests/cli/former_names_test.sh || $1 == tests/data/former_names/* ]]; }

# The variants of a spelling as a word (PCRE).
variants() {
  local parts
  parts=$(sed 's/[-_]/[-_]?/g' <<<"$1")
  printf '(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))(?i:%s)(?![a-z])' "$parts"
}
camel() { sed -E 's/(^|_)([a-z])/\U\2/g' <<<"$1"; }

bad=0
report() {  # report WHERE WHAT
  echo "FAIL: $1: $2"
  bad=$((bad + 1))
}
for n in "${structures[@]}"; do
  own="^(structures/$n/|stress/$n/|tests/structures/$n/|bench/(ext/)?${n}_|docs/papers/$n\.md(:|$))"
  registration="^CMakeLists\.txt:[0-9]+:warpcheck_add_structure\($n "
  mapfile -t former < <(cat stress/"$n"/*.cpp 2>/dev/null | grep -o 'former_names = {[^}]*}' | grep -o '"[^"]*"' | tr -d '"')
  every=$(variants "$n")
  for f in "${former[@]}"; do every="$every|$(variants "$f")"; done
  # In the framework: every spelling, or for an ordinary word the places code names a structure.
  framework_re=$every shell_re='(?!)'
  if [ -n "${ordinary[$n]+set}" ]; then
    framework_re="(?<![A-Za-z0-9_.-])$n/|[\"']$n[\"']|--structure[= ]$n(?![A-Za-z0-9_-])"
    framework_re+="|(?<![A-Za-z0-9_])(?!(?:${ordinary[$n]})(?![A-Za-z0-9_]))${n}_[A-Za-z0-9]|(?:(?<![A-Za-z0-9_])|(?<=[a-z0-9]))$(camel "$n")[A-Z]"
    for f in "${former[@]}"; do framework_re+="|$(variants "$f")"; done
    shell_re="^(?!\s*#).*(?<![^\s\"'=|])$n(?![^\s\";|&)])"
  fi
  while IFS= read -r hit; do
    [[ $hit =~ $own || $hit =~ $registration ]] && continue
    report "$(cut -d: -f1-2 <<<"$hit")" "names $n in the framework (take it from the registry or its declaration, or move this into its own places): $(cut -d: -f3- <<<"$hit" | cut -c1-140)"
  done < <({ grep -P -n -I -H -e "$framework_re" -- /dev/null "${framework[@]}"
             grep -P -n -I -H -e "$shell_re" -- /dev/null "${framework_shell[@]}"; } 2>/dev/null | sort -u -t: -k1,1 -k2,2n)
  # In users' words: only its name, as code spells it.
  allowed=" $n ${n^^} $(camel "$n") "
  while IFS= read -r hit; do
    file=${hit%%:*}
    [[ $hit =~ $own ]] || exempt "$file" && continue
    said=${hit##*:}
    [[ $allowed == *" $said "* ]] && continue
    report "$(cut -d: -f1-2 <<<"$hit")" "spells $n as '$said' (its name is $n; former names only in bench/RESULTS.md and the former names' test)"
  done < <(grep -P -n -I -H -o -e "$every" -- /dev/null "${users[@]}" 2>/dev/null)
  # Paths: a file named after a structure sits in its own places (or in users' words, with its name).
  while IFS= read -r path; do
    [[ $path =~ $own ]] || exempt "$path" && continue
    if [ "$(scope "$path")" = framework ]; then
      grep -qP -e "$framework_re" <<<"$path" && report "$path" "a framework file named after $n: move it into its own places"
    else
      while IFS= read -r said; do
        [[ $allowed == *" $said "* ]] || report "$path" "its path spells $n as '$said'"
      done < <(grep -oP -e "$every" <<<"$path")
    fi
  done < <(printf '%s\n' "${files[@]}" | grep -P -e "$every")
done
[ $bad -eq 0 ] && echo "structure names: ${structures[*]} named only in their own places and registration lines, and elsewhere by their names in users' words (${#files[@]} files)"
exit $((bad > 0))
