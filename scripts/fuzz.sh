#!/usr/bin/env bash
# The long run of bgkit's fuzz suite (issue 19): every parser's fuzz target
# (`tests/fuzz.rs` in board, evaluator, gen-bearoff, datasets, trainer) with many more
# cases than CI runs. Usage:
#
#   scripts/fuzz.sh [SCALE]
#
# SCALE (default 100) multiplies each target's CI case count; BGKIT_FUZZ_CASES, if set,
# gives every target that many cases instead. At SCALE 100 the suite tries about 1.2
# million inputs. A panic fails the target; proptest prints the smallest failing input.
# Runs at the lowest CPU priority so it does not starve other work.
set -euo pipefail
# shellcheck source=help.sh
. "$(dirname "$0")/help.sh" "$@"
[ $# -le 1 ] || { echo "fuzz.sh: one SCALE at most, got $# arguments (see --help)" >&2; exit 2; }
cd "$(dirname "$0")/.."
scale=${1:-100}
whole_number fuzz.sh SCALE "$scale"
run() { # crate, CI cases of its targets (all targets of a file share one count here)
  local crate=$1 filter=$2 ci=$3
  local cases=${BGKIT_FUZZ_CASES_OVERRIDE:-$((ci * scale))}
  echo "== $crate $filter: $cases cases per target"
  BGKIT_FUZZ_CASES=$cases nice -n 19 cargo test -q -p "$crate" --test fuzz -- "$filter" --test-threads 1
}
if [ -n "${BGKIT_FUZZ_CASES:-}" ]; then
  export BGKIT_FUZZ_CASES_OVERRIDE=$BGKIT_FUZZ_CASES
fi
start=$(date +%s)
# Per target (CI cases): position/match ID, XGID, any ID, notation x2 (2000 each), SGF and .mat (300).
run board fuzz_position_id 2000
run board fuzz_match_id 2000
run board fuzz_xgid 2000
run board fuzz_any_id 2000
run board fuzz_notation 2000
run board fuzz_sgf 300
run board fuzz_mat 300
run evaluator fuzz_weights 1000
run gen-bearoff fuzz_bearoff_header 2000
run gen-bearoff fuzz_bearoff_files 200
run datasets fuzz_dataset_files 300
run datasets fuzz_benchmark_files 300
run trainer fuzz_tourney_json 1000
run trainer fuzz_optimizer_state 200
echo "fuzz.sh: all targets passed, 0 panics, in $(( $(date +%s) - start )) s"
