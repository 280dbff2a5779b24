# Headless Chromium for the command-line tests (sourced): $browser is its
# path, or empty where there is none (tools/setup.sh installs it);
# run_browser ARGS... runs it with its profile under $dir (or $tmp);
# render PAGE OUT writes the page's DOM after its scripts ran.
browser=$(command -v chromium || command -v chromium-browser || true)
run_browser() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="${dir:-$tmp}/profile" "$@" 2>/dev/null; }
render() { run_browser --dump-dom "$1" >"$2"; }
# A test that is all about the page: skipped (77), saying why, without one.
need_browser() {
  [ -n "$browser" ] && return
  echo "SKIPPED: no chromium on this machine (tools/setup.sh installs it)"
  exit 77
}
