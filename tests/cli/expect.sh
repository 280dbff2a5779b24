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
