# Sourced by the GPU scripts (tools/gpu_*.sh), which name no structure: the
# registered structures from the declarations, and each structure's rows
# for a script from its own bench file, bench/<structure>_gpu_rows.txt
# (SECTION|ARGUMENTS a line; # starts a comment).

# structures WARPCHECK: the registered structures, in the registry's order.
structures() { "$1" stress --help | sed -n 's/^structures: \(.*\) (default.*/\1/p' | tr -d ,; }

# structure_rows WARPCHECK SECTION: STRUCTURE|ARGUMENTS for each row of SECTION.
structure_rows() {
  local s
  for s in $(structures "$1"); do
    [ -f "bench/${s}_gpu_rows.txt" ] && sed -n "s/^$2|/$s|/p" "bench/${s}_gpu_rows.txt"
  done
  return 0
}
