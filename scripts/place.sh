# Putting generated files into a user's directories, all or nothing (sourced by
# quickstart.sh and install-shell-docs.sh, which define `me` and `die`). Each file is
# generated into a staging folder inside its destination's directory, so that putting it
# in place is a rename:
#
#   place_plan FORCE HINT STAGED DEST [STAGED DEST ...]   # checks every DEST first
#   place_commit                                          # renames them all, or none
#
# and the caller's EXIT trap runs place_undo before it removes its staging folders, so
# that a failure or an interrupt half-way puts everything back.
# shellcheck shell=bash

place_moves=() # STAGED DEST pairs to rename (place_plan)
place_kept=()  # DESTs that hold the staged bytes already (place_plan)
place_done=()  # STAGED DEST pairs renamed by a place_commit not finished yet

# place_plan FORCE HINT STAGED DEST...: sorts each pair. A DEST that does not exist is
# to be renamed into place; one that is a file with STAGED's bytes is kept as it is
# (listed in place_kept); any other file is replaced with FORCE=1, else the script stops
# with "DEST exists HINT". A folder at DEST is refused either way.
place_plan() {
  local force=$1 hint=$2 new dest
  shift 2
  place_moves=() place_kept=()
  while [ $# -gt 1 ]; do
    new=$1 dest=$2
    shift 2
    if [ -d "$dest" ] && [ ! -L "$dest" ]; then
      die "$dest is a directory, not a file this script writes"
    elif [ ! -e "$dest" ] && [ ! -L "$dest" ]; then
      place_moves+=("$new" "$dest")
    elif [ -f "$dest" ] && cmp -s "$new" "$dest"; then
      place_kept+=("$dest")
    elif [ "$force" = 1 ]; then
      place_moves+=("$new" "$dest")
    else
      die "$dest exists $hint"
    fi
  done
}

# place_commit: renames place_moves into place. A file it replaces keeps a second name
# (STAGED.old, a hard link or a copy) until all are in place, for place_undo.
place_commit() {
  local i new dest
  for ((i = 0; i < ${#place_moves[@]}; i += 2)); do
    new=${place_moves[i]} dest=${place_moves[i + 1]}
    if [ -e "$dest" ] || [ -L "$dest" ]; then
      ln -P "$dest" "$new.old" 2>/dev/null || cp -P "$dest" "$new.old" 2>/dev/null ||
        die "cannot keep a copy of $dest while replacing it"
    fi
  done
  for ((i = 0; i < ${#place_moves[@]}; i += 2)); do
    new=${place_moves[i]} dest=${place_moves[i + 1]}
    mv -fT "$new" "$dest" 2>/dev/null || die "cannot rename $new to $dest"
    place_done+=("$new" "$dest")
  done
  place_done=()
}

# place_undo: after a place_commit cut short, what it renamed into place goes again and
# what that replaced comes back.
place_undo() {
  local i new dest
  for ((i = 0; i < ${#place_done[@]}; i += 2)); do
    new=${place_done[i]} dest=${place_done[i + 1]}
    if [ -e "$new.old" ] || [ -L "$new.old" ]; then
      # shellcheck disable=SC2154 # me: the caller's name
      mv -fT "$new.old" "$dest" 2>/dev/null ||
        echo "$me: could not put $dest back; the file it replaced is $new.old" >&2
    else
      rm -f "$dest"
    fi
  done
  place_done=()
}
