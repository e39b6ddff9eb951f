#!/usr/bin/env python3
"""Where did Henka's games go wrong? Replays game records (`henka match --records DIR`) through a
USI engine (Fairy-Stockfish) and lists, per game, the moves of one player that dropped the
engine's evaluation the most.

For every ply the engine searches the position before it for a fixed number of nodes; a move's
drop is the engine's score before it minus its score after it, both from the mover's side. A
mate score counts as 30,000 centipawns. The engine's verdict at a few hundred thousand nodes is
itself noisy by a pawn or so, so single small drops mean little; moves that drop several pawns
are blunders in the engine's eyes, and the engine's best move and line show what was missed.

    tools/fsf_blunders.py --engine /usr/games/fairy-stockfish --variant shogi \
        --nodes 100000 records/game-0*.henka

Only the Python standard library is used; the engine is any USI engine that plays the variant
(`setoption name UCI_Variant value <variant>` chooses it, as Fairy-Stockfish expects).
"""

import argparse
import re
import subprocess
import sys

MATE = 30000


class Engine:
    """A USI engine process, spoken to line by line."""

    def __init__(self, command, variant):
        self.p = subprocess.Popen(command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("usi")
        self.until("usiok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"the engine quit while we waited for {prefix!r}")
            lines.append(line.rstrip())
            if line.startswith(prefix):
                return lines

    def judge(self, start, moves, nodes):
        """The score (centipawns, side to move) and best move after `moves` from `start`."""
        return self.search(start, moves, f"nodes {nodes}")

    def search(self, start, moves, go):
        """`judge` with any `go` limits (`movetime 200`, `nodes 40000`)."""
        self.send(f"position sfen {start} moves {' '.join(moves)}" if moves else f"position sfen {start}")
        self.send(f"go {go}")
        lines = self.until("bestmove")
        score = None
        for line in lines:
            m = re.search(r"score (cp|mate) (-?\d+)", line)
            if m:
                value = int(m.group(2))
                score = value if m.group(1) == "cp" else (MATE if value > 0 else -MATE)
        return score, lines[-1].split()[1]

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def read_record(path):
    """(start position, moves, black's player, result) of a Henka game record."""
    text = open(path, encoding="utf-8").read()
    field = lambda name: (re.search(rf"^{name} (.*)$", text, re.M) or [None, None])[1]
    moves = text.split("\nmoves\n", 1)[1].split() if "\nmoves\n" in text else []
    return field("start"), moves, field("option black"), field("result") or "unfinished"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+", help="game records written by `henka match --records`")
    ap.add_argument("--engine", default="fairy-stockfish", help="the judging engine's command line")
    ap.add_argument("--variant", default="shogi", help="the variant's name for UCI_Variant")
    ap.add_argument("--nodes", type=int, default=100000, help="nodes per judged position")
    ap.add_argument("--player", default="ai", help="whose moves to judge: the record's player name")
    ap.add_argument("--threshold", type=int, default=300, help="list drops of at least this many cp")
    ap.add_argument("--top", type=int, default=4, help="list at most this many drops per game")
    args = ap.parse_args()
    engine = Engine(args.engine, args.variant)
    total_moves = total_drops = 0
    for path in args.records:
        start, moves, black, result = read_record(path)
        if not start:
            print(f"{path}: no start position, skipped")
            continue
        judged_is_black = black == args.player
        verdicts = [engine.judge(start, moves[:i], args.nodes) for i in range(len(moves) + 1)]
        drops = []
        for i, mv in enumerate(moves):
            if (i % 2 == 0) != judged_is_black:
                continue
            (before, best), (after, _) = verdicts[i], verdicts[i + 1]
            if before is None or after is None:
                continue
            drops.append((before + after, i + 1, mv, best, before, -after))
        big = sorted((d for d in drops if d[0] >= args.threshold), reverse=True)
        total_moves += len(drops)
        total_drops += len(big)
        side = "Black" if judged_is_black else "White"
        print(f"{path}: {args.player} as {side}, {result}, {len(moves)} plies, "
              f"{len(big)} of {len(drops)} moves dropped {args.threshold}+ cp")
        for drop, ply, mv, best, before, after in big[:args.top]:
            print(f"  ply {ply}: {mv} ({before:+} -> {after:+}, -{drop}); the engine plays {best}")
        sys.stdout.flush()
    engine.quit()
    if total_moves:
        print(f"in all: {total_drops} of {total_moves} moves ({100 * total_drops / total_moves:.1f} %) "
              f"dropped {args.threshold}+ cp")


if __name__ == "__main__":
    main()
