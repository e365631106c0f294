# Shared by the benchmark scripts that count instructions with valgrind's
# callgrind (row_hash.sh, describe_cost.sh): figures that do not depend on
# the machine's load. Source it from the repository's root.

command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: apt-get install valgrind)" >&2; exit 2; }

# callgrind_count COMMAND…: "INSTRUCTIONS OUTPUT", the instructions the
# command ran and what it printed on standard output.
callgrind_count() {
  local log out
  log=$(mktemp)
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$log" "$@" 2>/dev/null)
  echo "$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log") $out"
  rm -f "$log"
}
