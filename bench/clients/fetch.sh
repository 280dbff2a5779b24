#!/usr/bin/env bash
# Fetches the libraries of bench/clients/sources.txt into .ext/<name>, each
# at its pinned commit, and writes .ext/<name>.source ("repository commit
# date"), which the corpus's tables quote. Needs the network (run it where
# there is one; the GPU machine gets the copies with the working tree).
# A copy already there at its commit is kept.
#   bash bench/clients/fetch.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
mkdir -p .ext
grep -v '^#' bench/clients/sources.txt | while read -r name url commit; do
  [ -n "$name" ] || continue
  if [ -f ".ext/$name.source" ] && grep -q " $commit " ".ext/$name.source"; then continue; fi
  rm -rf ".ext/$name"
  git clone -q "$url" ".ext/$name"
  git -C ".ext/$name" checkout -q "$commit"
  echo "$url $commit $(git -C ".ext/$name" log -1 --format=%cs)" > ".ext/$name.source"
  echo "fetched $name at $commit"
done
