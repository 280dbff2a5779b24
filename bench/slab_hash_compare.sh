#!/usr/bin/env bash
# This project's slab hash beside the public SlabHash (owensgroup/SlabHash,
# a fetched copy: never committed here), on the same keys and operations
# (stress/slab_hash/bench_ops.hpp), in one run, with the ratios.
#
#   bash bench/slab_hash_compare.sh SLAB_HASH_DIR [-- OURS_ARGS...]
#       builds bench/ext/slab_hash_public_bench.cu against SLAB_HASH_DIR (nvcc,
#       sm_90) and slab_hash_gpu_bench (cmake, build/), runs both at the same
#       utilizations and prints the joined tables.
#   bash bench/slab_hash_compare.sh --run OURS_BIN PUBLIC_BIN [-- OURS_ARGS...]
#       the same with programs already built (the GPU bundle).
#   bash bench/slab_hash_compare.sh --join OURS_OUT PUBLIC_OUT [BASE_OUT]
#       joins saved outputs (BASE_OUT: an earlier slab_hash_gpu_bench's
#       table, shown as driver "base").
#
# Defaults for ours: --drivers generic,bulk --modes map,multimap
# --records off,batch; betas 0.2,0.5,1.0,2.0 (SLAB_HASH_BETAS) for both;
# 2^22 keys (SLAB_HASH_ELEMENTS); 5 tables after a warm-up.
# Table 1: M ops/s with recording off, ours / public per row, each of
# ours against its own contract: the multimap (INSERT) against the public
# insertPair (no uniqueness check), the map (REPLACE) against its
# insertPairUnique, in the build and the mixes; searches against its per-thread
# searchKey and its bulk searchKeyBulk. Table 2: recording on / off, time
# per phase, each recorded configuration against its own run with
# recording off (<= 1.5 is the target). Then the checks of the recorded
# histories (verdict, operations, seconds).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

join_outputs() {
  local ours=$1 public=$2 base=${3:-/dev/null}
  awk -v ours_file="$ours" -v public_file="$public" -v base_file="$base" '
  function field(line, name,    m) {
    if (match(line, " " name "=[^ ]*")) return substr(line, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
    return ""
  }
  function add(cfg, beta, phase, mops, ms, util, buckets) {
    key = cfg SUBSEP beta SUBSEP phase
    M[key] = mops; T[key] = ms
    if (!(cfg in seen_cfg)) { seen_cfg[cfg] = 1; cfgs[++ncfg] = cfg }
    if (!(beta in seen_beta)) { seen_beta[beta] = 1; betas[++nbeta] = beta }
    if (util != "") U[cfg SUBSEP beta] = util
    if (buckets != "") B[cfg SUBSEP beta] = buckets
  }
  BEGIN {
    while ((getline line < ours_file) > 0) {
      if (line ~ /^ROW impl=ours /) {
        cfg = field(line, "driver") "/" field(line, "mode") "/k" field(line, "per_lane")
        if (field(line, "regs") != "") cfg = cfg "/regs-" field(line, "regs")
        if (field(line, "fixed") != "") cfg = cfg "/fixed-" field(line, "fixed")
        if (field(line, "block") != "") cfg = cfg "/block-" field(line, "block")
        if (field(line, "kernels") != "") cfg = cfg "/kernels-" field(line, "kernels")
        if (field(line, "tile") != "") cfg = cfg "/tile-" field(line, "tile")
        if (field(line, "guard") != "") cfg = cfg "/guard-" field(line, "guard")
        if (field(line, "guard-order") != "") cfg = cfg "/guard-order-" field(line, "guard-order")
        cfg = cfg "/" field(line, "record")
        add(cfg, field(line, "beta"), field(line, "phase"), field(line, "mops"), field(line, "ms"), field(line, "util"), field(line, "buckets"))
      } else if (line ~ /^CHECK impl=ours /) {
        checks[++nchecks] = line
      } else if (line ~ /^device: /) {
        device = line
      }
    }
    while ((getline line < public_file) > 0) {
      if (line ~ /^ROW impl=public /) add("public", field(line, "beta"), field(line, "phase"), field(line, "mops"), field(line, "ms"), field(line, "util"), field(line, "buckets"))
      else if (line ~ /^device: /) public_device = line
    }
    # An earlier slab_hash_gpu_bench (before issue 16): its markdown table
    # | beta | buckets | utilization | rec | build | sp | sa | m1 | m2 | m3 | check |
    split("build search_present search_absent mix_50_50_0_0 mix_20_20_30_30 mix_10_10_40_40", ph, " ")
    while ((getline line < base_file) > 0) {
      n = split(line, c, "|")
      if (n < 12 || c[2] !~ /^ *[0-9.]+ *$/ || c[5] !~ /(off|on)/) continue
      for (i = 1; i <= n; ++i) gsub(/^ +| +$/, "", c[i])
      beta = sprintf("%.2f", c[2] + 0)
      cfg = "base/map/k1/" (c[5] == "on" ? "op" : "off")
      u = c[4]; sub(/%/, "", u)
      for (p = 1; p <= 6; ++p) add(cfg, beta, ph[p], c[5 + p], "", u / 100, c[3])
      if (c[5] == "on") checks[++nchecks] = "CHECK base (earlier binary) beta=" beta " " c[12]
    }
    nphase = split("build search_present search_absent mix_50_50_0_0 mix_20_20_30_30 mix_10_10_40_40", phases, " ")
    # Each of ours against the public row of its own contract: the
    # multimap (INSERT, duplicates allowed) against insertPair (buildBulk,
    # batched_operations), the map (REPLACE, unique keys) against
    # insertPairUnique (buildBulkWithUniqueKeys, its kernel with
    # insertPairUnique: rows *_unique); the searches are the same.
    pub["build"] = "build_insert"; pub["search_present"] = "search_present"; pub["search_absent"] = "search_absent"
    for (p = 4; p <= 6; ++p) pub[phases[p]] = phases[p]
    for (p = 1; p <= nphase; ++p) pubu[phases[p]] = pub[phases[p]]
    pubu["build"] = "build_unique"
    for (p = 4; p <= 6; ++p) pubu[phases[p]] = phases[p] "_unique"
    if (device != "") print "ours: " device
    if (public_device != "") print "public: " public_device
    print ""
    # Table 1: recording off.
    hdr = "| beta | util ours / public | phase | public M/s (insertPair) | public M/s (unique) | public bulk M/s |"
    sep = "|---|---|---|---|---|---|"
    for (i = 1; i <= ncfg; ++i) {
      if (cfgs[i] !~ /\/off$/) continue
      if (cfgs[i] ~ /^(generic|bulk|base)\/(map|multimap)\/k[12]\/off$/) { off[++noff] = cfgs[i]; hdr = hdr " " cfgs[i] " M/s | ratio |"; sep = sep "---|---|" }
      else variants[++nvar] = cfgs[i]
    }
    print "Recording off: M operations/s, ratio ours / public (searches: / its per-thread searchKey, and [/ its bulk])"
    print ""
    print hdr
    print sep
    for (b = 1; b <= nbeta; ++b) {
      beta = betas[b]
      for (p = 1; p <= nphase; ++p) {
        phase = phases[p]
        pk = "public" SUBSEP beta SUBSEP pub[phase]
        pm = (pk in M) ? M[pk] : ""
        uk = "public" SUBSEP beta SUBSEP pubu[phase]
        um = (uk in M) ? M[uk] : ""
        bulkm = ""
        if (phase ~ /^search/) { bk = "public" SUBSEP beta SUBSEP pub[phase] "_bulk"; if (bk in M) bulkm = M[bk] }
        ou = ""
        for (i = 1; i <= noff; ++i) if ((off[i] SUBSEP beta) in U) { ou = sprintf("%.0f%%", 100 * U[off[i] SUBSEP beta]); break }
        pu = (("public" SUBSEP beta) in U) ? sprintf("%.0f%%", 100 * U["public" SUBSEP beta]) : "-"
        row = sprintf("| %s | %s / %s | %s | %s | %s | %s |", beta, ou == "" ? "-" : ou, pu, phase,
                      pm == "" ? "-" : sprintf("%.0f", pm), phase ~ /^search/ ? "(same)" : um == "" ? "-" : sprintf("%.0f", um),
                      bulkm == "" ? "-" : sprintf("%.0f", bulkm))
        for (i = 1; i <= noff; ++i) {
          k = off[i] SUBSEP beta SUBSEP phase
          if (!(k in M)) { row = row " - | - |"; continue }
          cm = off[i] ~ /\/map\// ? um : pm  # the public row of its own contract
          r = (cm != "" && cm > 0) ? sprintf("%.2f", M[k] / cm) : "-"
          if (bulkm != "" && bulkm > 0) r = r sprintf(" [%.2f]", M[k] / bulkm)
          if (phase == "build" || phase ~ /^mix/) r = r (off[i] ~ /multimap/ ? " (INSERT / insertPair)" : " (REPLACE / insertPairUnique)")
          row = row sprintf(" %.0f | %s |", M[k], r)
        }
        print row
      }
    }
    # Table 1b: the other settings of the bulk driver, long form.
    if (nvar > 0) {
      print ""
      print "The bulk driver'"'"'s other settings, recording off: M operations/s; ratio: to the public code (per-thread searchKey for searches); vs k1: to bulk/<mode>/k1/off (kernels-shared rows, round 1 with one kernel for every phase, and tile rows: tile-none, round 2 with one operation a warp step, tile-16, two a step: to the same K with the defaults, tiles of 8)"
      print ""
      print "| configuration | beta | phase | M/s | ratio | vs k1 |"
      print "|---|---|---|---|---|---|"
      for (v = 1; v <= nvar; ++v) {
        cfg = variants[v]; ref = cfg; sub(/\/k[0-9]+\/.*$/, "/k1/off", ref)
        if (cfg ~ /\/kernels-shared\//) { ref = cfg; sub(/\/kernels-shared/, "", ref) }  # round 1 against the defaults, same K
        if (cfg ~ /\/tile-/) { ref = cfg; sub(/\/tile-[^\/]*/, "", ref) }                # other tiles against the defaults, same K
        if (cfg ~ /\/guard-/) { ref = cfg; sub(/\/guard-[^\/]*/, "", ref) }              # without the guard, or its read by acquire loads, against the default
        for (b = 1; b <= nbeta; ++b) for (p = 1; p <= nphase; ++p) {
          k = cfg SUBSEP betas[b] SUBSEP phases[p]
          if (!(k in M)) continue
          pk = "public" SUBSEP betas[b] SUBSEP (cfg ~ /\/map\// ? pubu[phases[p]] : pub[phases[p]]); rk = ref SUBSEP betas[b] SUBSEP phases[p]
          r1 = "-"; r2 = "-"
          if ((pk in M) && M[pk] > 0) r1 = sprintf("%.2f", M[k] / M[pk])
          if ((rk in M) && M[rk] > 0) r2 = sprintf("%.2f", M[k] / M[rk])
          printf "| %s | %s | %s | %.0f | %s | %s |\n", cfg, betas[b], phases[p], M[k], r1, r2
        }
      }
    }
    # Table 2: recording cost.
    print ""
    print "Recording on / off (kernel time per phase; target <= 1.5, and <= 1.2 for the slab hash since issue 32)"
    print ""
    hdr = "| configuration | beta |"; sep = "|---|---|"
    for (p = 1; p <= nphase; ++p) { hdr = hdr " " phases[p] " |"; sep = sep "---|" }
    print hdr " worst |"
    print sep "---|"
    for (i = 1; i <= ncfg; ++i) {
      cfg = cfgs[i]
      if (cfg == "public" || cfg ~ /\/off$/) continue
      base_cfg = cfg; sub(/\/[^\/]*$/, "/off", base_cfg)
      for (b = 1; b <= nbeta; ++b) {
        beta = betas[b]
        row = "| " cfg " | " beta " |"; worst = 0; any = 0
        for (p = 1; p <= nphase; ++p) {
          k1 = cfg SUBSEP beta SUBSEP phases[p]; k0 = base_cfg SUBSEP beta SUBSEP phases[p]
          if ((k1 in M) && (k0 in M) && M[k1] > 0) {
            r = M[k0] / M[k1]; any = 1; if (r > worst) worst = r
            row = row sprintf(" %.2f |", r)
          } else row = row " - |"
        }
        if (any) print row sprintf(" %.2f%s |", worst, worst <= 1.5 ? "" : " (over 1.5)")
      }
    }
    print ""
    print "Checks of the recorded histories (all six phases of the last table, one history each):"
    print ""
    for (i = 1; i <= nchecks; ++i) print "    " checks[i]
  }' /dev/null
}

ours_args_default=(--drivers generic,bulk --modes map,multimap --records off,batch --repeats 5 --warmup 1)
betas=${SLAB_HASH_BETAS:-0.2,0.5,1.0,2.0}
elements=${SLAB_HASH_ELEMENTS:-4194304}

run_both() {
  local ours_bin=$1 public_bin=$2; shift 2
  [ "${1:-}" = -- ] && shift
  local extra=("$@")
  [ ${#extra[@]} -eq 0 ] && extra=("${ours_args_default[@]}")
  local tmp
  tmp=$(mktemp -d)
  echo "== public SlabHash" >&2
  "$public_bin" --elements "$elements" --betas "$betas" --repeats 5 | tee "$tmp/public.txt" >&2
  echo "== ours" >&2
  "$ours_bin" --elements "$elements" --betas "$betas" "${extra[@]}" | tee "$tmp/ours.txt" >&2
  join_outputs "$tmp/ours.txt" "$tmp/public.txt"
  rm -rf "$tmp"
}

case "${1:-}" in
  --join)
    [ $# -ge 3 ] || { echo "usage: slab_hash_compare.sh --join OURS_OUT PUBLIC_OUT [BASE_OUT]" >&2; exit 2; }
    join_outputs "$2" "$3" "${4:-/dev/null}" ;;
  --run)
    [ $# -ge 3 ] || { echo "usage: slab_hash_compare.sh --run OURS_BIN PUBLIC_BIN [-- OURS_ARGS...]" >&2; exit 2; }
    ours=$2 public=$3; shift 3
    run_both "$ours" "$public" "$@" ;;
  ""|-h|--help)
    sed -n '2,27p' "$0"; exit 2 ;;
  *)
    dir=$1; shift
    bash bench/ext/slab_hash_public_build.sh "$dir" build/bench/slab_hash_public_bench || exit 1
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j"$(nproc)" --target slab_hash_gpu_bench || exit 1
    run_both build/bench/slab_hash_gpu_bench build/bench/slab_hash_public_bench "$@" ;;
esac
