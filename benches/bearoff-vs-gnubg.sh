#!/usr/bin/env bash
# Bearoff database generation, side by side with gnubg 1.07's makebearoff, in the same
# run on the same machine: each case runs ours and gnubg's alternately (A B A B ...),
# checks the two files are byte-identical, and prints the median wall times and their
# ratio (gnubg / ours: how many times faster we are).
#
# Needs gnubg's makebearoff (Debian: apt-get install gnubg). Uses all cores for ours
# (override with BEAROFF_THREADS=N); makebearoff is single-threaded.
# Usage: benches/bearoff-vs-gnubg.sh [runs] [case ...]
#   cases: os6 os7 os8 os9 ts6x5 ts6x6 ts6x7 ts6x8 os6n   (default: os6 os8 ts6x6)
set -euo pipefail
# shellcheck source=../scripts/help.sh
. "$(dirname "$0")/../scripts/help.sh" "$@"
runs=${1:-3}
whole_number bearoff-vs-gnubg.sh runs "$runs"
shift || true
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(os6 os8 ts6x6)
root=$(cd "$(dirname "$0")/.." && pwd)
mb=${MAKEBEAROFF:-/usr/games/makebearoff}
[ -x "$mb" ] || { echo "makebearoff not found at $mb (apt-get install gnubg)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
cargo build --release -q -p gen-bearoff --manifest-path "$root/Cargo.toml"
ours="$CARGO_TARGET_DIR/release/gen-bearoff"
threads=()
[ -n "${BEAROFF_THREADS:-}" ] && threads=(-j "$BEAROFF_THREADS")

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

printf '%-7s %5s %12s %12s %8s  %s\n' case runs "ours s" "gnubg s" ratio identical
for c in "${cases[@]}"; do
  case $c in
    os[0-9]|os1[0-3]) p=${c#os}; a=(one-sided -p "$p"); b=(-o "$p") ;;
    os[0-9]n) p=${c#os}; p=${p%n}; a=(one-sided -p "$p" --normal-dist); b=(-o "$p" -n) ;;
    ts6x[0-9]|ts6x1[01]) k=${c#ts6x}; a=(two-sided -p 6 -c "$k"); b=(-t "6x$k") ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
  : > "$work/ours.t"; : > "$work/gnubg.t"
  for _ in $(seq "$runs"); do
    t0=$(now); "$ours" "${a[@]}" "${threads[@]}" -q -o "$work/ours.bd"; t1=$(now)
    awk -v a="$t0" -v b="$t1" "BEGIN{print b - a}" >> "$work/ours.t"
    t0=$(now); "$mb" "${b[@]}" -f "$work/gnubg.bd" >/dev/null 2>&1; t1=$(now)
    awk -v a="$t0" -v b="$t1" "BEGIN{print b - a}" >> "$work/gnubg.t"
  done
  mo=$(median < "$work/ours.t"); mg=$(median < "$work/gnubg.t")
  same=no; cmp -s "$work/ours.bd" "$work/gnubg.bd" && same=yes
  printf '%-7s %5s %12.3f %12.3f %7.1fx  %s\n' "$c" "$runs" "$mo" "$mg" "$(awk -v g="$mg" -v o="$mo" "BEGIN{print g / o}")" "$same"
done
echo "(wall-clock medians, whole processes; ours uses $(nproc) cores unless BEAROFF_THREADS is set)"
