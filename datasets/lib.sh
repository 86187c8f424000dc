#!/usr/bin/env bash
# Shared by the datasets/build-*.sh scripts (sourced, not run).

# Sets DEB to the path of PACKAGE's .deb in the current directory, downloading it with
# apt-get first when none is there (retrying once after apt-get update).
fetch_deb() {
  local package="$1"
  local debs
  shopt -s nullglob
  debs=("${package}"_*.deb)
  if (( ${#debs[@]} == 0 )); then
    echo "Downloading $package .deb into $PWD" >&2
    if ! apt-get download "$package"; then
      echo "apt-get download failed; running apt-get update and retrying" >&2
      apt-get update
      apt-get download "$package"
    fi
    debs=("${package}"_*.deb)
  else
    echo "Using existing ${debs[0]}" >&2
  fi
  DEB="${debs[0]}"
}

# Unpacks $DEB into ./extracted, replacing an earlier unpack.
extract_deb() {
  rm -rf extracted
  dpkg -x "$DEB" extracted
}

# Prints the first file under ./extracted that the find tests after WHAT match; fails naming
# WHAT when there is none, e.g. INDEX="$(find_extracted .index -name '*.index')".
find_extracted() {
  local what="$1"
  shift
  local found
  found="$(find extracted -type f "$@" | head -n1)"
  if [[ -z "$found" ]]; then
    echo "could not locate $what inside $DEB" >&2
    exit 1
  fi
  echo "$found"
}
