# Helpers of the command-line tests (sourced): needs $w (warpcheck) and
# $dir (a scratch folder).
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect CODE ARGS...: warpcheck ARGS exits CODE; its output in $dir/out
  local want=$1
  shift
  "$w" "$@" >"$dir/out" 2>&1
  local got=$?
  [ "$got" = "$want" ] || { cat "$dir/out"; fail "warpcheck $* exited $got, expected $want"; }
}

# Two failure folders' histories record the same run: equal but for the
# failure record's reproduce line, which names each folder.
same_run() {
  for h in "$1" "$2"; do
    "$w" convert "$h" "$h.jsonl" --to jsonl || fail "convert $h"
    sed -i '1s/,"failure":{.*}}$/}/' "$h.jsonl"
  done
  cmp -s "$1.jsonl" "$2.jsonl"
}
