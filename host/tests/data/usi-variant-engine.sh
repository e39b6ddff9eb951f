#!/bin/sh
# A minimal USI engine for Henka's tests (cli.rs): it offers its variants through `USI_Variant`,
# as Fairy-Stockfish's later releases name the option in USI mode, and resigns every game once
# Okisaki was chosen through it; otherwise it answers with a move no variant has.
chosen=""
while read -r line; do
  case "$line" in
    usi) echo "id name usi-variant-test"
         echo "option name USI_Variant type combo default shogi var shogi var okisaki"
         echo "usiok" ;;
    "setoption name USI_Variant value "*) chosen="${line#setoption name USI_Variant value }" ;;
    isready) echo "readyok" ;;
    go*) if [ "$chosen" = "okisaki" ]; then echo "bestmove resign"; else echo "bestmove 0z0z"; fi ;;
    quit) exit 0 ;;
  esac
done
