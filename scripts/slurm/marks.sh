# The marker files of bgkit's Slurm path (sourced by submit.sh and lib.sh): small text
# files that record a job, a part's job or a finished step. An empty one counts as absent.
# shellcheck shell=bash

# put FILE TEXT: FILE holds TEXT (and a newline), written to a temporary name and
# renamed, so that a reader never finds it half written.
put() { printf '%s\n' "$2" >"$1.tmp$$" && mv -f "$1.tmp$$" "$1"; }
# same FILE TEXT: FILE exists, is not empty and holds TEXT.
same() { [ -s "$1" ] && [ "$(cat "$1")" = "$2" ]; }
