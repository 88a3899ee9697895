#!/usr/bin/env bash
# Move generation, side by side with bkgm (the fastest Rust backgammon move generator we
# know of), on bkgm's own corpora (1000 contact and 1000 race positions, all 21 rolls),
# in the same run on the same machine.
#
# bkgm is fetched from crates.io into a temporary directory and built there with its own
# corpus benchmark; nothing of it enters this repository. Needs network access to
# crates.io. Usage: benches/movegen-vs-bkgm.sh [seconds-per-run]
set -euo pipefail
# shellcheck source=../scripts/help.sh
. "$(dirname "$0")/../scripts/help.sh" "$@"
secs=${1:-3}
whole_number movegen-vs-bkgm.sh seconds-per-run "$secs"
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release -q -p evaluator --manifest-path "$root/Cargo.toml"
ours="$root/target/release/evaluator"

cd "$work"
cargo new -q peer
cd peer
cargo add -q bkgm@=0.6.0 mimalloc@0.1 --no-default-features
printf '[profile.release]\ncodegen-units = 1\nlto = true\n' >> Cargo.toml
src=$(cargo metadata --format-version 1 | python3 -c \
  'import json,sys; print([p for p in json.load(sys.stdin)["packages"] if p["name"]=="bkgm"][0]["manifest_path"].rsplit("/",1)[0])')
sed 's|PathBuf::from(env!("CARGO_MANIFEST_DIR"))|PathBuf::from(std::env::var("BKGM_DIR").unwrap())|' \
  "$src/src/bin/corpus-bench.rs" > src/main.rs
cargo build --release -q
iters=$((40 * secs))

printf '%-8s %14s %14s %7s\n' corpus "bgkit pos/s" "bkgm moves/s" ratio
for kind in contact race; do
  theirs=$(BKGM_DIR="$src" ./target/release/peer --iterations "$iters" |
    awk -v k="corpus/$kind/all21" '$0==k{f=1} f&&/moves_per_sec/{split($0,a,"="); print a[2]; exit}')
  mine=$("$ours" bench --movegen --positions "$src/benches/resources/$kind.csv" --seconds "$secs" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["positions_per_sec"])')
  python3 -c "print(f'%-8s %14.0f %14.0f %6.2fx' % ('$kind', $mine, $theirs, $mine/$theirs))"
done
echo "(bkgm counts a roll without a legal move as one position and, in some bear-offs, one"
echo " position twice; bgkit counts distinct legal results as gnubg does: 0.2-0.8% fewer.)"
