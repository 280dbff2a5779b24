#!/usr/bin/env bash
# GFSL beside the public GPU B-Trees (issue 32), joined from the two
# programs' ROW lines (bench/gfsl_gpu_bench.cpp, bench/ext/btree_bench.cu):
#   bash bench/gfsl_vs_btree.sh GFSL_OUT... -- BTREE_OUT...
# A ratio is printed only where the contracts agree: the same launch shape
# (concurrent: one kernel of the mix; phases: its inserts, deletes and
# finds as three launches) and the same insert. GFSL and GpuBTree insert if
# absent; MVGpuBTree upserts, which does the same only when every insert's
# key is new (workload=fresh): its rows on the thesis' uniform keys are
# shown with no ratio. Rows meet only with the same operation count.
set -uo pipefail
gfsl=() btree=() side=gfsl
for f in "$@"; do
  if [ "$f" = -- ]; then side=btree; continue; fi
  if [ "$side" = gfsl ]; then gfsl+=("$f"); else btree+=("$f"); fi
done
[ ${#gfsl[@]} -gt 0 ] && [ ${#btree[@]} -gt 0 ] || { echo "usage: gfsl_vs_btree.sh GFSL_OUT... -- BTREE_OUT..." >&2; exit 2; }
cat "${gfsl[@]}" | grep '^ROW impl=gfsl ' > /tmp/gfsl_vs_btree.$$.g
cat "${btree[@]}" | grep '^ROW impl=' > /tmp/gfsl_vs_btree.$$.b
awk -v gfsl_file=/tmp/gfsl_vs_btree.$$.g '
  function field(line, name,    m) {
    if (match(line, " " name "=[^ ]*")) return substr(line, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
    return ""
  }
  BEGIN {
    while ((getline line < gfsl_file) > 0) {
      k = field(line, "contract") SUBSEP field(line, "workload") SUBSEP field(line, "mix") SUBSEP field(line, "range") SUBSEP field(line, "ops")
      G[k] = field(line, "mops")
    }
    print "| tree | contract | workload | mix [i,d,c] | key range | GFSL M ops/s | tree M ops/s | GFSL / tree | check |"
    print "|---|---|---|---|---|---|---|---|---|"
  }
  {
    impl = field($0, "impl"); c = field($0, "contract"); w = field($0, "workload"); m = field($0, "mix"); r = field($0, "range")
    k = c SUBSEP w SUBSEP m SUBSEP r SUBSEP field($0, "ops")  # the same operations, not only the same shape
    g = (k in G) ? G[k] : ""
    same = !(field($0, "insert") == "upsert" && w != "fresh")
    tree = field($0, "mops") + 0
    ratio = (g != "" && same && tree > 0) ? sprintf("%.2f", g / tree) : (same ? "-" : "- (upsert, not if-absent)")
    check = field($0, "bogus") == "0" ? "ok" : "bogus finds " field($0, "bogus")
    if (field($0, "mismatched") != "" && field($0, "mismatched") != "0") check = field($0, "mismatched") " finds answered otherwise than the phases fix"
    printf "| %s | %s | %s | [%s] | %s | %s | %s | %s | %s |\n", impl, c, w, m, r, g == "" ? "-" : g, field($0, "mops"), ratio, check
  }' /tmp/gfsl_vs_btree.$$.b
rm -f /tmp/gfsl_vs_btree.$$.g /tmp/gfsl_vs_btree.$$.b
