#!/usr/bin/env bash
# One class's supervised training in a round of the overnight pipeline, shared by
# scripts/overnight.sh and its Slurm path (scripts/slurm/overnight-cluster.sh):
#
#   round-supervise.sh TRAINER CLASS INIT OUT EPOCHS LR [DATA...] [-- ARGS... [-- START...]]
#
# Resumes the run in OUT if it has a checkpoint (supervised.json); otherwise trains CLASS's net from INIT on the
# DATA files that hold positions of CLASS (by the stats.json that the label step writes
# next to each; a file without one is taken to hold every class). With none (a toy
# budget's few positions), INIT's nets are kept as the class's result in OUT. ARGS
# (threads, --minutes) go to every trainer call, START (e.g. --hidden, which a resumed
# run keeps) only to the one that starts the run. OUT is the step's own: a start killed
# before its first checkpoint is started again over what it left there.
set -euo pipefail
# shellcheck source=help.sh
. "$(dirname "$0")/help.sh" "$@"
[ $# -ge 6 ] || { echo "round-supervise.sh: TRAINER CLASS INIT OUT EPOCHS LR needed, got $# arguments (see --help)" >&2; exit 2; }
trainer=$1 class=$2 init=$3 out=$4 epochs=$5 lr=$6
shift 6
data=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  stats="${1%/*}/stats.json"
  if [ ! -f "$stats" ]; then
    data+=(--data "$1")
  else
    # Exit 0: the class is there; 1: it is not; anything else: an unreadable file.
    rc=0
    python3 -c 'import json, sys
try:
    d = json.load(open(sys.argv[1]))
    found = any(c["class"] == sys.argv[2] and c["count"] > 0 for c in d["classes"])
except Exception as e:  # a Python error exits 1, which means "not there"
    print(e, file=sys.stderr)
    sys.exit(3)
sys.exit(0 if found else 1)' "$stats" "$class" || rc=$?
    case $rc in
      0) data+=(--data "$1") ;;
      1) ;;
      *) echo "round-supervise.sh: cannot read $stats" >&2; exit 2 ;;
    esac
  fi
  shift
done
[ $# -gt 0 ] && shift
args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  args+=("$1")
  shift
done
[ $# -gt 0 ] && shift
if [ -f "$out/supervised.json" ]; then
  exec "$trainer" supervised --resume "$out" "${args[@]}"
elif [ ${#data[@]} -eq 0 ]; then
  echo "no $class positions in the round's data: the $class net is kept"
  mkdir -p "$out"
  # net.wd last: the step's callers take it as the result.
  for ext in weights json wd; do
    [ ! -f "${init%.wd}.$ext" ] || { cp "${init%.wd}.$ext" "$out/.net.$ext.tmp" && mv -f "$out/.net.$ext.tmp" "$out/net.$ext"; }
  done
else
  # A new run (no supervised.json: none yet, or killed before its first one, which the
  # trainer writes after checkpoint-N.wd and optimizer-N.bin): --force replaces what a
  # killed start left in OUT, which is this run's own directory.
  exec "$trainer" supervised --init "$init" --class "$class" --out "$out" --force --epochs "$epochs" --lr "$lr" \
    --patience 4 --plateau 1 "${data[@]}" "${args[@]}" "$@"
fi
