# The usage text and argument checks of bgkit's scripts, sourced by each executable
# script with its arguments before it does anything:
#
#   . "$(dirname "$0")/help.sh" "$@"     (scripts/slurm: ../help.sh; benches: ../scripts/help.sh)
#
# `usage` prints the script's header comment: the lines after the first that start with
# `#`, up to the first that does not (shellcheck directives left out). -h or --help as
# the first argument prints it and exits 0, before the script does anything else.
# `no_arguments ME "$@"` and `whole_number ME NAME VALUE` refuse, with one message and
# exit 2, arguments to a script that takes none and a count that is not a positive
# whole number.
# shellcheck shell=bash
usage() { awk 'NR > 1 && /^# shellcheck/ { next } NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
no_arguments() {
  local me=$1
  shift
  [ $# -eq 0 ] || { echo "$me: unknown argument '$1' (see --help)" >&2; exit 2; }
}
whole_number() {
  case "$3" in
    '' | *[!0-9]* | 0 | 0*) echo "$1: $2 must be a positive whole number, got '$3' (see --help)" >&2; exit 2 ;;
  esac
}
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
esac
