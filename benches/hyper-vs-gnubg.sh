#!/usr/bin/env bash
# Hypergammon database generation, side by side with gnubg 1.07's makehyper, in the same
# run on the same machine. For 1 and 2 checkers each run alternates ours (exact solver),
# ours with --gnubg-compat and makehyper; the script prints median wall-clock and CPU
# times and the ratios (makehyper / ours: how many times faster we are), checks that the
# --gnubg-compat file is byte-identical to makehyper's, and prints the largest
# differences of the exact file from makehyper's (`gen-bearoff compare`).
#
# 3 checkers: ours only (makehyper needs 4-5 hours here; set HYPER3_GNUBG=1 to run it
# anyway, once), with the start-of-game values from `gen-bearoff verify` compared with
# Tom Keith's published solution (opening-roll winner's cubeless equity +0.0836795).
# HYPER3_COMPAT=1 also times our --gnubg-compat build of 3 checkers.
#
# Needs gnubg's makehyper (Debian: apt-get install gnubg). Ours uses all cores unless
# HYPER_THREADS=N; makehyper is single-threaded.
# Usage: benches/hyper-vs-gnubg.sh [runs] [case ...]   cases: h1 h2 h3 (default: all)
set -euo pipefail
# shellcheck source=../scripts/help.sh
. "$(dirname "$0")/../scripts/help.sh" "$@"
runs=${1:-3}
whole_number hyper-vs-gnubg.sh runs "$runs"
shift || true
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(h1 h2 h3)
root=$(cd "$(dirname "$0")/.." && pwd)
mh=${MAKEHYPER:-/usr/games/makehyper}
[ -x "$mh" ] || { echo "makehyper not found at $mh (apt-get install gnubg)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
cargo build --release -q -p gen-bearoff --manifest-path "$root/Cargo.toml"
ours="$CARGO_TARGET_DIR/release/gen-bearoff"
threads=()
[ -n "${HYPER_THREADS:-}" ] && threads=(-j "$HYPER_THREADS")

# Runs a command, appending "wall cpu" seconds (cpu = user + system, children included).
timed() {
  local out=$1; shift
  local t0 t1 c0 c1
  c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s.%N)
  c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  awk -v a="$t0" -v b="$t1" -v c="$c0" -v d="$c1" -v hz="$(getconf CLK_TCK)" \
    'BEGIN{printf "%.3f %.3f\n", b - a, (d - c) / hz}' >> "$out"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
col() { awk -v k="$1" '{print $k}' "$2" | median; }
ratio() { awk -v g="$1" -v o="$2" 'BEGIN{printf "%.1fx", g / o}'; }

printf '%-5s %4s  %-22s %10s %10s %9s %9s\n' case runs method "wall s" "cpu s" "wall x" "cpu x"
for c in "${cases[@]}"; do
  case $c in
    h1|h2)
      k=${c#h}
      : > "$work/exact.t"; : > "$work/compat.t"; : > "$work/gnubg.t"
      for _ in $(seq "$runs"); do
        timed "$work/exact.t" "$ours" hyper -c "$k" "${threads[@]}" -q --no-checkpoint -o "$work/exact$k.bd"
        timed "$work/compat.t" "$ours" hyper -c "$k" --gnubg-compat "${threads[@]}" -q --no-checkpoint -o "$work/compat$k.bd"
        timed "$work/gnubg.t" bash -c "cd '$work' && exec '$mh' -c $k -n -f gnubg$k.bd"
      done
      gw=$(col 1 "$work/gnubg.t"); gc=$(col 2 "$work/gnubg.t")
      for m in exact compat; do
        w=$(col 1 "$work/$m.t"); u=$(col 2 "$work/$m.t")
        label=$([ $m = exact ] && echo "ours (exact)" || echo "ours (--gnubg-compat)")
        printf '%-5s %4s  %-22s %10.3f %10.3f %9s %9s\n' "$c" "$runs" "$label" "$w" "$u" "$(ratio "$gw" "$w")" "$(ratio "$gc" "$u")"
      done
      printf '%-5s %4s  %-22s %10.3f %10.3f\n' "$c" "$runs" "makehyper" "$gw" "$gc"
      same=no; cmp -s "$work/compat$k.bd" "$work/gnubg$k.bd" && same=yes
      echo "      --gnubg-compat byte-identical to makehyper: $same"
      echo "      exact vs makehyper:"
      "$ours" compare "$work/exact$k.bd" "$work/gnubg$k.bd" | sed 's/^/        /'
      "$ours" verify "$work/exact$k.bd" -q --samples 2000 | grep -E "start position|opening" | sed 's/^ */      exact: /'
      ;;
    h3)
      : > "$work/exact.t"
      timed "$work/exact.t" "$ours" hyper -c 3 "${threads[@]}" -q --no-checkpoint -o "$work/exact3.bd"
      read -r w u < "$work/exact.t"
      printf '%-5s %4s  %-22s %10.3f %10.3f\n' h3 1 "ours (exact)" "$w" "$u"
      if [ -n "${HYPER3_COMPAT:-}" ]; then
        : > "$work/compat.t"
        timed "$work/compat.t" "$ours" hyper -c 3 --gnubg-compat "${threads[@]}" -q --no-checkpoint -o "$work/compat3.bd"
        read -r w u < "$work/compat.t"
        printf '%-5s %4s  %-22s %10.3f %10.3f\n' h3 1 "ours (--gnubg-compat)" "$w" "$u"
      fi
      if [ -n "${HYPER3_GNUBG:-}" ]; then
        : > "$work/gnubg.t"
        timed "$work/gnubg.t" bash -c "cd '$work' && exec '$mh' -c 3 -n -f gnubg3.bd"
        read -r w u < "$work/gnubg.t"
        printf '%-5s %4s  %-22s %10.3f %10.3f\n' h3 1 "makehyper" "$w" "$u"
        "$ours" compare "$work/exact3.bd" "$work/gnubg3.bd" | sed 's/^/        /'
        [ -f "$work/compat3.bd" ] && { cmp -s "$work/compat3.bd" "$work/gnubg3.bd" && echo "      --gnubg-compat identical: yes" || echo "      --gnubg-compat identical: no"; }
      fi
      "$ours" verify "$work/exact3.bd" -q --samples 20000 | grep -E "OK|problem|deviation|start position|opening" | sed 's/^ */      /'
      echo "      Tom Keith: opening-roll winner +0.0836795 (win 0.52118, win gammon 0.31021, win backgammon 0.02082, lose gammon 0.27245, lose backgammon 0.01726)"
      ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
done
echo "(medians of whole processes; wall x and cpu x are makehyper's time over ours; ours uses $(nproc) cores unless HYPER_THREADS is set)"
