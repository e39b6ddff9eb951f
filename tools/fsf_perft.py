#!/usr/bin/env python3
"""Perft counts from Fairy-Stockfish, an engine that shares no code with Henka, for the perft data
files of variants Fairy-Stockfish knows (host/tests/perft/<variant>.perft).

    pip install pyffish==0.0.90
    python3 tools/fsf_perft.py check-shogi > host/tests/perft/check-shogi.perft
    python3 tools/fsf_perft.py dobutsu > host/tests/perft/dobutsu.perft
    python3 tools/fsf_perft.py kyoto > host/tests/perft/kyoto.perft

Positions are written in Henka's notation (the same board string as Fairy-Stockfish's shogi FEN;
Henka's `b`, the first player, is Fairy-Stockfish's `w`; hands `2Pn` are `[PPn]`) and converted
here. Perft counts legal move sequences with the last ply bulk-counted, exactly as Henka does; a
position Fairy-Stockfish judges decided (a check in check shogi, a try in Dobutsu) has no legal
moves, which is the rule Henka's data files test.
"""

import re
import sys

import pyffish as sf

# (id, Henka position or "startpos", deepest depth, comment)
CASES = {
    "check-shogi": ("checkshogi", [
        ("startpos", "startpos", 4, "The start: no check is possible before ply 3; every check at ply 3 ends the game."),
        ("pawn_drop_check_wins", "8k/9/7G1/9/9/9/9/9/K8 b P 1", 3,
         "P*1b gives check and is no mate (the Gold on 2c guards 1b, but the King can flee to 2a), so it is legal and wins at once."),
        ("pawn_drop_that_would_mate", "7nk/9/7G1/9/9/9/9/9/K8 b P 1", 3,
         "P*1b would also be mate (the Knight on 2a blocks the King's flight, the Gold guards 1b): no uchifuzume, the check wins."),
        ("drops_and_checks", "ln1g2snl/1r1s1kg2/p1pppp1pp/6p2/1p7/2P3P2/PP1PPP1PP/1BG4R1/LNS1KGSNL b Bp 1", 3,
         "A middle game with Bishops and a pawn in hand: drops that give check win."),
        ("rook_and_bishop_in_hand", "4k4/9/9/9/9/9/9/9/4K4 b RBrb 1", 3,
         "Bare Kings with Rook and Bishop in hand each: most drops near the King are checks."),
    ]),
    "kyoto": ("kyotoshogi", [
        ("startpos", "startpos", 4, "The start: every move turns the piece over."),
        ("drops_anywhere", "k4/5/5/5/4K b LNP 1", 3,
         "Lance, Knight and Pawn in hand: each drops with either face on every empty cell, the last ranks included."),
        ("pawn_drop_mate_allowed", "3nk/5/3G1/5/K4 b P 1", 3, "P*1b mates, and is allowed: no uchifuzume."),
        ("middle_game", "p1k1t/2g2/1Sb2/5/T1K1P b Ns 1", 3, "A middle game with tiles in both hands."),
    ]),
    "dobutsu": ("dobutsu", [
        ("startpos", "startpos", 6, "The start."),
        ("try_safe_or_attacked", "2l/1L1/3/3 b - 1", 4,
         "Black's Lion steps to 3a (safe: a try, Black wins) or 2a (next to White's Lion: the game goes on); 1a captures the Lion."),
        ("try_for_white", "3/3/1l1/L2 w - 1", 4, "The same for White, whose far rank is d."),
        ("chick_drops_on_the_last_rank", "g1e/1l1/3/ELG b Cc 1", 4,
         "Chicks in hand: a Chick may be dropped on any empty cell, the last rank included (where it can never move)."),
        ("hen", "1l1/3/1+C1/1L1 b - 1", 5, "A Hen moves as a gold."),
        ("chick_must_promote", "1l1/1C1/3/1L1 b - 1", 5,
         "The Chick on 2b takes White's Lion on 2a and must promote doing so (2b2a+, no unpromoted form): the game ends."),
        ("middle_game", "g1e/1lC/c2/EL1 b G 1", 5, "A middle game, a Giraffe in Black's hand."),
    ]),
}


# What the data leaves out, and why.
NOTES = {
    "check-shogi": [
        "One difference is left out: Fairy-Stockfish counts checks given by moves, so in a set-up position whose",
        "side to move is already in check it plays on (the side in check must escape); Henka judges the position,",
        "and that check has already won (docs/rules/check-shogi.md, decisions). No position reached by moves differs.",
    ],
}


# Henka's tokens for faces Fairy-Stockfish writes as promoted pieces (Kyoto's second faces).
FACES = {"kyoto": {"T": "+L", "G": "+N", "B": "+S", "R": "+P"}}


def fsf_token(c: str, faces: dict) -> str:
    fsf = faces.get(c.upper())
    if fsf is None:
        return c
    return fsf if c.isupper() else fsf.lower()


def to_fen(henka: str, faces: dict) -> str:
    board, side, hands, *_ = henka.split()
    board = "".join(fsf_token(c, faces) for c in board)
    held = "".join(piece * int(n or 1) for n, piece in re.findall(r"(\d*)([A-Za-z])", "" if hands == "-" else hands))
    return f"{board}[{held or '-'}] {'w' if side == 'b' else 'b'} 0 1"


def perft(variant: str, fen: str, moves: list, depth: int) -> int:
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def main() -> None:
    name = sys.argv[1]
    fsf_name, cases = CASES[name]
    print(f"# {name} perft suite. Every count is Fairy-Stockfish {'.'.join(map(str, sf.version()))}'s (pyffish,")
    print(f"# variant {fsf_name!r}), made by tools/fsf_perft.py {name}; Henka's script must reproduce them.")
    print("# Positions in Henka's notation (Black = uppercase, moves first).")
    for line in NOTES.get(name, []):
        print(f"# {line}")
    for case_id, pos, depth, comment in cases:
        fen = sf.start_fen(fsf_name) if pos == "startpos" else to_fen(pos, FACES.get(name, {}))
        if sf.validate_fen(fen, fsf_name) != 1:
            sys.exit(f"{case_id}: Fairy-Stockfish refuses {fen}")
        print()
        print(f"# {comment}")
        print(f"id {case_id}")
        print(f"position {pos}")
        for d in range(1, depth + 1):
            print(f"perft {d} {perft(fsf_name, fen, [], d)}", flush=True)


if __name__ == "__main__":
    main()
