#!/usr/bin/env bash
# A demo of the databases: builds gnubg's standard bearoff databases (one-sided 6x15,
# two-sided 6x6; byte-identical to gnubg's) into DIR, checks them, and evaluates the
# opening position with them (using gnubg's weights when they are installed).
#
#   scripts/quickstart.sh [--dir DIR] [--force]
#
# --dir DIR: where the databases go (default ./bgkit-data; created if missing):
#   DIR/gnubg_os0.bd, DIR/gnubg_ts0.bd and their .sha256 checksums. The databases are
#   built in a temporary folder inside DIR, verified, then renamed into place. A file
#   already in DIR with the same bytes is kept as it is (so a rerun changes nothing);
#   one that differs is refused, before anything is written, unless --force.
# --force: replace such files (all of them or, if a rename fails, none).
#
# BGKIT_BIN=DIR: use the bgkit binaries in DIR (no build); otherwise they are built
# with cargo (release, into target/release). GNUBG_WEIGHTS=FILE: gnubg's weights for
# the evaluation (default /usr/lib/gnubg/gnubg.wd, as scripts/overnight.sh). BGKIT_DATA
# (the tools' data directory) is neither read nor written: the script names every file.
set -euo pipefail
me=quickstart.sh
die() { echo "$me: $*" >&2; exit 2; }
# shellcheck source=help.sh
. "$(dirname "$0")/help.sh" "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
data=bgkit-data
force=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || die "--dir needs a value (see --help)"; data=$2; shift ;;
    --dir=*) data=${1#--dir=} ;;
    --force) force=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[ -n "$data" ] || die "--dir is empty"
[ ! -e "$data" ] || [ -d "$data" ] || die "--dir $data exists and is not a directory"
files=(gnubg_os0.bd gnubg_os0.bd.sha256 gnubg_ts0.bd gnubg_ts0.bd.sha256)
for f in "${files[@]}"; do  # (before the build: --force replaces files, not folders)
  [ -L "$data/$f" ] || [ ! -d "$data/$f" ] || die "$data/$f is a directory, not a file this script writes (give another --dir)"
done

# gnubg's weights (optional): GNUBG_WEIGHTS when set, which must then be a file.
if [ -n "${GNUBG_WEIGHTS:-}" ]; then
  weights=$GNUBG_WEIGHTS
  [ -f "$weights" ] || die "GNUBG_WEIGHTS=$weights is not a file"
else
  weights=/usr/lib/gnubg/gnubg.wd
fi

# BGKIT_BIN=DIR uses the binaries in DIR instead of building them.
if [ -n "${BGKIT_BIN:-}" ]; then
  bin=$(cd "$BGKIT_BIN" 2>/dev/null && pwd) || die "BGKIT_BIN=$BGKIT_BIN is not a directory"
  for tool in gen-bearoff evaluator; do
    [ -x "$bin/$tool" ] || die "BGKIT_BIN=$BGKIT_BIN has no $tool binary"
  done
else
  command -v cargo >/dev/null || die "cargo is needed to build the binaries (or set BGKIT_BIN=DIR)"
  cargo build --release -q -p gen-bearoff -p evaluator --manifest-path "$root/Cargo.toml" ||
    die "cargo build failed"
  bin=$(cd "${CARGO_TARGET_DIR:-$root/target}/release" && pwd)
fi

mkdir -p "$data" || die "cannot create --dir $data"
data=$(cd "$data" && pwd)
stage=$(mktemp -d "$data/.quickstart.XXXXXX") || die "cannot write in $data"
# Files go into DIR all or nothing (scripts/place.sh): a failure or an interrupt half-way
# puts back what was replaced.
# shellcheck source-path=SCRIPTDIR source=place.sh
. "$root/scripts/place.sh"
trap 'place_undo; rm -rf "$stage"' EXIT
"$bin/gen-bearoff" one-sided --points 6 -o "$stage/gnubg_os0.bd" --quiet
"$bin/gen-bearoff" two-sided --points 6 --checkers 6 -o "$stage/gnubg_ts0.bd" --quiet
# (Verified by their names in DIR, which they will have.)
(cd "$stage" && "$bin/gen-bearoff" verify --quiet gnubg_os0.bd && "$bin/gen-bearoff" verify --quiet gnubg_ts0.bd)

# Every file is checked before any is renamed into place: a refusal writes nothing.
pairs=()
for f in "${files[@]}"; do
  [ -f "$stage/$f" ] || die "gen-bearoff wrote no $f"
  pairs+=("$stage/$f" "$data/$f")
done
place_plan "$force" "and is not the file this script builds (--force replaces it, or give another --dir)" "${pairs[@]}"
for f in "${place_kept[@]}"; do
  echo "kept $f (the same bytes)"
done
place_commit
echo "databases in $data:"
ls -l "$data/gnubg_os0.bd" "$data/gnubg_ts0.bd"
if [ -f "$weights" ]; then
  echo "opening position, 0-ply, gnubg's weights ($weights) with the new databases:"
  "$bin/evaluator" eval --weights "$weights" --bearoff-os "$data/gnubg_os0.bd" \
    --bearoff-ts "$data/gnubg_ts0.bd" --position-id 4HPwATDgc/ABMA
else
  echo "(gnubg's weights are not installed at $weights: apt-get install gnubg, or set GNUBG_WEIGHTS, to evaluate positions)"
fi
