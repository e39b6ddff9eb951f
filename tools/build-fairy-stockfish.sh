#!/bin/sh
# Builds a current Fairy-Stockfish engine for the strength runs of docs/ai-strength.md.
#
# Debian's `fairy-stockfish` package is release 11.1, which has no custom pieces, so it cannot
# play Ōgi's Promoted Princess. The source distribution of pyffish (Fairy-Stockfish's Python
# binding, on PyPI) carries the whole engine, its USI front end included; this script downloads
# that (version pinned below) and compiles the engine with the defines pyffish's own build uses.
# No NNUE network is bundled, so the engine plays with its classical evaluation.
#
# Usage: tools/build-fairy-stockfish.sh [OUTPUT]   (default: ./fairy-stockfish-pyffish-0.0.90)
# Needs: python3 with pip, g++.
set -eu
version=0.0.90
out=$(realpath -m "${1:-fairy-stockfish-pyffish-$version}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download "pyffish==$version" --no-binary :all: --no-deps --dest "$work" >/dev/null
tar -xzf "$work/pyffish-$version.tar.gz" -C "$work"
src="$work/pyffish-$version/src"
sources=$(ls "$src"/*.cpp "$src"/syzygy/*.cpp "$src"/nnue/*.cpp "$src"/nnue/features/*.cpp | grep -v -e '/pyffish.cpp$' -e '/ffishjs.cpp$')
# shellcheck disable=SC2086 # the source list is meant to split
g++ -O2 -std=c++17 -DNDEBUG -DIS_64BIT -DUSE_POPCNT -mpopcnt \
    -DLARGEBOARDS -DALLVARS -DPRECOMPUTED_MAGICS -DNNUE_EMBEDDING_OFF \
    -pthread $sources -o "$out"
echo "built $out"
