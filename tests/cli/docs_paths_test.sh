#!/usr/bin/env bash
# Every repository path named in the docs (docs/*.md, docs/*/*.md), the README and the
# sources (comments and code of the files under the source folders) exists,
# so that a moved or deleted file leaves no stale pointer behind.
# bench/RESULTS.md is a dated log and is not read.
#
# A path is a token that starts at a word boundary with one of the
# top-level folders (structures/ linearizability/ stress/ models/ tests/
# tools/ bench/ docs/ examples/ .ci/), or a relative link target in a
# Markdown file; it may name a folder, and may be followed by :LINE (then
# the file has that line) or #anchor. A path exists from the repository
# root or from the folder of the file that names it (CMakeLists.txt lists
# its sources relative to itself). Not checked: paths inside URLs or after
# another folder (build/bench/litmus is a build output), patterns
# (containing * < > { }), paths built at run time ($), and placeholders
# with a single upper-case letter (structures/X).
# Usage: docs_paths_test.sh SOURCE_DIR
set -u
cd "$1" || exit 1
folders='structures|linearizability|stress|models|tests|tools|bench|docs|examples|\.ci'
mapfile -t files < <(
  ls docs/*.md docs/*/*.md README.md
  find structures linearizability stress models tests tools bench examples -type f \
    \( -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' \
       -o -name '*.sh' -o -name '*.cmake' -o -name CMakeLists.txt \) | sort)

# FILE:LINE<TAB>PATH, one a path named.
named() {
  grep -noE "(^|[^A-Za-z0-9_./\$@:-])(${folders})/[A-Za-z0-9_./*<>{}\$+-]*(:[0-9]+)?" "${files[@]}" |
    sed -E 's/^([^:]*:[0-9]+):[^A-Za-z.]?/\1\t/'
  grep -noE '\]\([^) :]+\)' docs/*.md docs/*/*.md README.md |
    sed -E 's/^([^:]*:[0-9]+):\]\(/\1\t/; s/\)$//' | grep -v "$(printf '\t')#"
}

bad=0
checked=0
while IFS=$'\t' read -r where path; do
  path=${path%%#*}
  line=
  if [[ $path =~ ^(.*):([0-9]+)$ ]]; then
    path=${BASH_REMATCH[1]}
    line=${BASH_REMATCH[2]}
  fi
  while [[ $path == *[.,:] ]]; do path=${path%?}; done
  [[ -n $path && $path != *[\*\<\>\{\}\$]* ]] || continue
  [[ $path =~ (^|/)[A-Z](\.[a-z]+)?(/|$) ]] && continue
  checked=$((checked + 1))
  target=$path
  [ -e "$target" ] || target="$(dirname "${where%%:*}")/$path"
  if [ ! -e "$target" ]; then
    echo "FAIL: $where names $path, which does not exist"
    bad=$((bad + 1))
  elif [ -n "$line" ] && [ -f "$target" ] && [ "$(wc -l <"$target")" -lt "$line" ]; then
    echo "FAIL: $where names $path:$line, past the file's end"
    bad=$((bad + 1))
  fi
done < <(named)
[ $bad -eq 0 ] && echo "docs_paths: the $checked paths named in ${#files[@]} docs and sources exist"
exit $((bad > 0))
