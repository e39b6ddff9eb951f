#!/usr/bin/env python3
"""Seats Fairy-Stockfish 11.1 (Debian's) for Ōgi behind `henka match`.

FSF 11.1 has no custom pieces, so ogi-fairy-stockfish.ini makes the Princess an archbishop (BN)
that "promotes" to an archbishop again: FSF then writes a `+` on every move of a promoted
Princess that starts or ends in the mover's zone, where Henka (and the rules) write none, and
writes every Princess drop as `+I*…`. This
filter sits between Henka and the engine, follows the game's moves to know where each promoted
Princess stands, and adds or strips that `+`. What it cannot fix: FSF's promoted Princess lacks
the four one-step orthogonal moves (BNW), so FSF never plays them and cannot read them — a game
where Henka plays one ends as FSF's "player failure" and is counted apart.

Usage: ogi-fairy-stockfish-adapter.py [ENGINE] (default /usr/games/fairy-stockfish).
"""
import subprocess
import sys
import threading

FILES = "87654321"
RANKS = "abcdefgh"
START = "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL"


def in_zone(square, black):
    rank = square[1]
    return rank in "abc" if black else rank in "fgh"


class Board:
    def __init__(self):
        self.cells = {}  # square -> (letter, promoted)
        for r, row in enumerate(START.split("/")):
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    self.cells[FILES[f] + RANKS[r]] = (ch, False)
                    f += 1
        self.black = True

    def promoted_princess(self, frm):
        p = self.cells.get(frm)
        return p is not None and p[0] in "Ii" and p[1]

    def play(self, move):
        """Plays a move in Henka's notation."""
        if "*" in move:
            letter, sq = move.split("*")
            self.cells[sq[:2]] = (letter if self.black else letter.lower(), False)
        else:
            frm, to, plus = move[:2], move[2:4], move.endswith("+")
            letter, promoted = self.cells.pop(frm)
            self.cells[to] = (letter, promoted or plus)
        self.black = not self.black

    def to_engine(self, move):
        if move[:2] in ("I*", "i*"):
            # FSF writes every Princess drop as a promoted piece's.
            return "+" + move
        if "*" not in move and self.promoted_princess(move[:2]):
            if in_zone(move[:2], self.black) or in_zone(move[2:4], self.black):
                return move.rstrip("+") + "+"
        return move

    def from_engine(self, move):
        if move.startswith("+") and "*" in move:
            return move[1:]
        if "*" not in move and self.promoted_princess(move[:2]):
            return move.rstrip("+")
        return move


def main():
    engine = sys.argv[1] if len(sys.argv) > 1 else "/usr/games/fairy-stockfish"
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    state = {"board": Board()}

    def pump():
        for line in proc.stdout:
            if line.startswith("bestmove"):
                parts = line.split()
                if len(parts) > 1:
                    parts[1] = state["board"].from_engine(parts[1])
                line = " ".join(parts[:2]) + "\n"
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=pump, daemon=True).start()
    for line in sys.stdin:
        words = line.split()
        if words[:2] == ["position", "startpos"]:
            board = Board()
            out = ["position", "startpos"]
            if "moves" in words:
                out.append("moves")
                for m in words[words.index("moves") + 1:]:
                    out.append(board.to_engine(m))
                    board.play(m)
            state["board"] = board
            line = " ".join(out) + "\n"
        proc.stdin.write(line)
        proc.stdin.flush()
        if words[:1] == ["quit"]:
            break
    proc.wait(timeout=2)


if __name__ == "__main__":
    main()
