#!/usr/bin/env bash
# The quick build (WARPCHECK_QUICK_BUILD, the main job's) is a unity build:
# CMake pastes a library's sources into batches, so two files' anonymous
# namespaces become one, and a name each defines there is defined twice (it
# broke the main job's build twice while every file-by-file build passed).
# This test finds those names without building: a file-scope name in an
# anonymous namespace (a function, variable, constant, type) defined by two
# files of one top-level folder (a folder's libraries are batched apart, so
# this is stricter than the build; rename one). A type alias repeated word
# for word is legal and allowed.
# Usage: unity_names_test.sh SOURCE_DIR
set -u
cd "$1" || exit 1
names() {  # FILE: "NAME<TAB>KIND<TAB>LINE" for each definition at file scope in its anonymous namespaces
  awk '
    /^namespace \{/ { anon = 1; next }
    /^\}  \/\/ namespace$/ && anon { anon = 0; next }
    !anon || /^(template|return|namespace|using namespace|static_assert)/ { next }
    /^(struct|class|enum class|enum|union) [A-Za-z_]/ {
      n = $0; sub(/^(struct|class|enum class|enum|union) /, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
      print n "\tdefinition\t" $0; next
    }
    /^using [A-Za-z_][A-Za-z0-9_]* =/ { print $2 "\talias\t" $0; next }
    /^[A-Za-z_]/ && match($0, /[A-Za-z_][A-Za-z0-9_]*[ ]*[\(=\{\[]/) {
      n = substr($0, RSTART, RLENGTH); sub(/[ ]*[\(=\{\[]$/, "", n)
      print n "\tdefinition\t" $0
    }' "$1" | sort -u -t$'\t' -k1,1
}
bad=0
report=$(
  for f in $(git ls-files 'models/*.cpp' 'linearizability/*.cpp' 'structures/*.cpp' 'stress/*.cpp' 'tools/*.cpp' 2>/dev/null ||
             find models linearizability structures stress tools -name '*.cpp'); do
    names "$f" | while IFS=$'\t' read -r name kind line; do printf '%s\t%s\t%s\t%s\t%s\n' "${f%%/*}" "$name" "$kind" "$f" "$line"; done
  done | sort -t$'\t' -k1,2 |
  awk -F'\t' '
    { key = $1 "\t" $2 }
    key == last && ($3 == "definition" || $5 != lastline) { print "FAIL: " $2 " is defined in the anonymous namespaces of " lastfile " and " $4 " (one unity batch would define it twice): rename one" }
    { last = key; lastfile = $4; lastline = $5 }')
if [ -n "$report" ]; then
  echo "$report"
  bad=1
fi
[ $bad -eq 0 ] && echo "unity names: no file-scope name in an anonymous namespace is defined by two files of one folder"
exit $bad
