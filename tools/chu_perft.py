#!/usr/bin/env python3
"""Perft counts for Chu shogi (中将棋) from a move generator written here from the rules, sharing no
code with Henka, for the perft data file host/tests/perft/chu-shogi.perft.

    python3 tools/chu_perft.py > host/tests/perft/chu-shogi.perft
    python3 tools/chu_perft.py --selftest      # against lishogi's own counts (see below)
    python3 tools/chu_perft.py --perft "<Henka position>|startpos" 3 [--trading none] [--divide]

Standard library only. The rules are those of docs/rules/chu-shogi.md, as lishogi.org plays them
(its move library is shogiops; the rules below were read from its Chushogi class). Every piece's
moves are written out below as plain lists of steps, jumps and slides, not taken from the script's
Betza strings. In short:

- 12x12, no drops. Royals are the King and the Crown Prince (promoted Drunk Elephant); a side
  without either has lost, so a position whose side to move has none has no moves. Check need not
  be answered: royals may move into or stay in check. Lishogi's bare king (a lone royal against
  more loses, with its exceptions) and its draw by two lone royals also end the game: such a
  position has no moves.
- Promotion zone: the far four ranks. A promotable piece may promote when its move enters the
  zone from outside, or captures with its start or end in the zone, or (Pawn and Lance) ends on
  the last rank. Promotion is never forced: a Pawn or Lance may stay on the last rank, unable to
  move.
- The Lion (and the Kirin's promotion, which is a Lion) moves to any cell within two (jumping), or
  makes two king steps: the first onto an empty cell or a capture, the second anywhere next to it,
  its own start included (igui after a capture, a pass after an empty cell).
- The Horned Falcon has that power straight forward only (one step, the two-cell jump, capture and
  go on or back, or step out and back), the Soaring Eagle on the two forward diagonals.
- Lion trading (`--trading lishogi`, the default; `none` leaves both rules out):
  * a Lion may not take an enemy Lion two cells away (by a jump, or by two steps) if the enemy
    Lion is protected, unless its first step captured a piece other than a Pawn or Go-Between.
    Protected = some enemy piece attacks the cell with the mover's start (and first-step cell)
    treated as empty; a Pawn or Go-Between captured on the first step still counts as a protector
    (lishogi judges protection before the move);
  * after a non-Lion (a Kirin that promotes on the capture included) captured a Lion, the next
    move may not capture a Lion with a non-Lion, except on the cell where that capture happened.

Counting: Henka counts moves by their effect, so two paths with the same effect are one move (a
Lion's two steps through an empty cell that end where a jump would, a pass whichever empty cell it
used), and passes by different pieces are different moves. `--selftest` instead counts the way
shogiops' perft does (one move per USI string, so every path is a move of its own) and compares
with a sample of shogiops' published counts (test/fixtures/perftChushogi.ts and
test/rules/chushogi.test.ts) and with its bare-king and draw verdicts, which makes lishogi itself
the check on this generator.

Positions are in Henka's notation (ranks from the top, files from Black's left, capitals = Black,
who moves first, two-letter tokens as `(LN)`, `+` promoted). Perft counts legal move sequences;
the last ply is counted without playing it.
"""

import sys
import time

N = 12  # files and ranks

# Directions as (dx, dy) seen from the mover: dx > 0 is to the mover's right, dy > 0 forward.
ORTH = [(0, 1), (0, -1), (1, 0), (-1, 0)]
DIAG = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
ALL8 = ORTH + DIAG
FWD_DIAG = [(1, 1), (-1, 1)]
BACK_DIAG = [(1, -1), (-1, -1)]
SIDE = [(1, 0), (-1, 0)]
VERT = [(0, 1), (0, -1)]

# Each type: (steps, jumps, slides, lion power). Lion power: None, "lion", "falcon" (straight
# forward) or "eagle" (forward diagonals). Tokens are Henka's; `+X` is the promoted X.
TYPES = {
    "K": (ALL8, [], [], None),                                   # King
    "+(DE)": (ALL8, [], [], None),                               # Crown Prince
    "(DE)": ([(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (1, -1), (-1, -1)], [], [], None),  # Drunk Elephant: not straight back
    "+(GB)": ([(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (1, -1), (-1, -1)], [], [], None),  # Drunk Elephant (promoted Go-Between)
    "G": ([(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)], [], [], None),       # Gold
    "+P": ([(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)], [], [], None),      # Tokin (a Gold)
    "S": ([(0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)], [], [], None),              # Silver
    "C": ([(0, 1), (1, 1), (-1, 1), (0, -1)], [], [], None),                        # Copper
    "(FL)": ([(0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)], [], [], None),  # Ferocious Leopard
    "(BT)": ([(1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1), (1, -1), (-1, -1)], [], [], None),  # Blind Tiger: not straight forward
    "(KY)": (DIAG, [(0, 2), (0, -2), (2, 0), (-2, 0)], [], None),                   # Kirin
    "(PH)": (ORTH, [(2, 2), (-2, 2), (2, -2), (-2, -2)], [], None),                 # Phoenix
    "P": ([(0, 1)], [], [], None),                                                  # Pawn
    "(GB)": (VERT, [], [], None),                                                   # Go-Between
    "L": ([], [], [(0, 1)], None),                                                  # Lance
    "(RV)": ([], [], VERT, None),                                                   # Reverse Chariot
    "(SM)": (VERT, [], SIDE, None),                                                 # Side Mover
    "+C": (VERT, [], SIDE, None),                                                   # Side Mover (promoted Copper)
    "(VM)": (SIDE, [], VERT, None),                                                 # Vertical Mover
    "+S": (SIDE, [], VERT, None),                                                   # Vertical Mover (promoted Silver)
    "B": ([], [], DIAG, None),                                                      # Bishop
    "+(FL)": ([], [], DIAG, None),                                                  # Bishop (promoted Leopard)
    "R": ([], [], ORTH, None),                                                      # Rook
    "+G": ([], [], ORTH, None),                                                     # Rook (promoted Gold)
    "(DH)": (ORTH, [], DIAG, None),                                                 # Dragon Horse
    "+B": (ORTH, [], DIAG, None),                                                   # Dragon Horse (promoted Bishop)
    "(DK)": (DIAG, [], ORTH, None),                                                 # Dragon King
    "+R": (DIAG, [], ORTH, None),                                                   # Dragon King (promoted Rook)
    "Q": ([], [], ALL8, None),                                                      # Queen
    "+(PH)": ([], [], ALL8, None),                                                  # Queen (promoted Phoenix)
    "+L": ([], [], VERT + FWD_DIAG, None),                                          # White Horse
    "+(RV)": ([], [], VERT + BACK_DIAG, None),                                      # Whale
    "+(SM)": ([], [], SIDE + DIAG, None),                                           # Free Boar
    "+(VM)": ([], [], VERT + DIAG, None),                                           # Flying Ox
    "+(BT)": (SIDE + DIAG, [], VERT, None),                                         # Flying Stag
    "+(DH)": ([], [], DIAG + SIDE + [(0, -1)], "falcon"),                            # Horned Falcon
    "+(DK)": ([], [], ORTH + BACK_DIAG, "eagle"),                                    # Soaring Eagle
    "(LN)": ([], [], [], "lion"),                                                   # Lion
    "+(KY)": ([], [], [], "lion"),                                                  # Lion (promoted Kirin)
}
PROMOTES = {t: "+" + t for t in ["P", "(GB)", "L", "(FL)", "C", "S", "G", "(DE)", "(RV)", "B", "(BT)", "(PH)",
                                 "(KY)", "(SM)", "(VM)", "R", "(DH)", "(DK)"]}
ROYAL = {"K", "+(DE)"}
LIONS = {"(LN)", "+(KY)"}
WEAK = {"P", "(GB)"}  # a first-step capture of these does not allow taking a protected Lion

START = ("l(fl)csg(de)kgsc(fl)l/(rv)1b1(bt)(ph)(ky)(bt)1b1(rv)/(sm)(vm)r(dh)(dk)q(ln)(dk)(dh)r(vm)(sm)/"
         "pppppppppppp/3(gb)4(gb)3/12/12/3(GB)4(GB)3/PPPPPPPPPPPP/"
         "(SM)(VM)R(DH)(DK)(LN)Q(DK)(DH)R(VM)(SM)/(RV)1B1(BT)(KY)(PH)(BT)1B1(RV)/L(FL)CSGK(DE)GSC(FL)L b - 1")


# ---------------------------------------------------------------- positions

class Pos:
    """board[y][x]: None or (side, token); side 0 = Black (capitals, moves up), 1 = White.
    y = 0 is the top rank (a), x = 0 the file on Black's left (12). `llc` is the cell where a
    non-Lion captured a Lion on the last move (the counter-strike rule), or None."""

    __slots__ = ("board", "side", "llc")

    def __init__(self, board, side, llc=None):
        self.board, self.side, self.llc = board, side, llc


def parse(text):
    if text == "startpos":
        text = START
    fields = text.split()
    ranks = fields[0].split("/")
    assert len(ranks) == N, "12 ranks"
    board = []
    for rank in ranks:
        row, i, promoted = [], 0, False
        while i < len(rank):
            c = rank[i]
            if c.isdigit():
                j = i
                while j < len(rank) and rank[j].isdigit():
                    j += 1
                row.extend([None] * int(rank[i:j]))
                i = j
                continue
            if c == "+":
                promoted = True
                i += 1
                continue
            if c == "(":
                j = rank.index(")", i)
                tok, i = rank[i + 1:j], j + 1
                name = "(" + tok.upper() + ")"
            else:
                tok, i = c, i + 1
                name = c.upper()
            side = 0 if tok.isupper() else 1
            name = ("+" if promoted else "") + name
            assert name in TYPES, f"unknown piece {name}"
            row.append((side, name))
            promoted = False
        assert len(row) == N, f"rank {rank} has {len(row)} cells"
        board.append(row)
    side = 0 if fields[1] == "b" else 1
    pos = Pos(board, side)
    # The fifth field: the kit's four counters, then the script's; its counter 0 is the cell code
    # of the last Lion capture by a non-Lion ((file - 1) * 12 + rank + 1, rank a = 0), or 0.
    counters = fields[4].split(",") if len(fields) > 4 else []
    if len(counters) > 4 and int(counters[4]):
        code = int(counters[4]) - 1
        pos.llc = (N - (code // 12 + 1), code % 12)
    return pos


def cell_name(x, y):
    return f"{N - x}{chr(ord('a') + y)}"


# ---------------------------------------------------------------- moves

def on(x, y):
    return 0 <= x < N and 0 <= y < N


def vec(side, dx, dy):
    """The board offset of a move (dx to the mover's right, dy forward)."""
    return (dx, -dy) if side == 0 else (-dx, dy)


def in_zone(side, y):
    return y <= 3 if side == 0 else y >= N - 4


def last_rank(side, y):
    return y == (0 if side == 0 else N - 1)


def attacks(pos, x, y, tx, ty, empty):
    """Whether the piece on (x, y) could capture on (tx, ty), with the cells in `empty` taken as
    empty (only for blocking: a piece in `empty` still attacks if asked)."""
    side, t = pos.board[y][x]
    steps, jumps, slides, power = TYPES[t]
    ddx, ddy = tx - x, ty - y
    if power == "lion":
        return max(abs(ddx), abs(ddy)) <= 2 and (ddx, ddy) != (0, 0)
    if power == "falcon":
        fx, fy = vec(side, 0, 1)
        if (ddx, ddy) in ((fx, fy), (2 * fx, 2 * fy)):
            return True
    if power == "eagle":
        for dx, dy in FWD_DIAG:
            fx, fy = vec(side, dx, dy)
            if (ddx, ddy) in ((fx, fy), (2 * fx, 2 * fy)):
                return True
    for dx, dy in steps + jumps:
        if vec(side, dx, dy) == (ddx, ddy):
            return True
    for dx, dy in slides:
        sx, sy = vec(side, dx, dy)
        cx, cy = x + sx, y + sy
        while on(cx, cy):
            if (cx, cy) == (tx, ty):
                return True
            if pos.board[cy][cx] is not None and (cx, cy) not in empty:
                break
            cx, cy = cx + sx, cy + sy
    return False


def protected(pos, tx, ty, by, empty):
    """Whether some piece of side `by` (other than the one on the cell) attacks (tx, ty)."""
    for y in range(N):
        for x in range(N):
            p = pos.board[y][x]
            if p is not None and p[0] == by and (x, y) != (tx, ty) and attacks(pos, x, y, tx, ty, empty):
                return True
    return False


def royal_cells(pos, side):
    return [(x, y) for y in range(N) for x in range(N)
            if pos.board[y][x] is not None and pos.board[y][x][0] == side and pos.board[y][x][1] in ROYAL]


def in_check(pos, side):
    """Whether some royal of `side` is attacked (lishogi's isCheck, with one royal or two)."""
    return any(protected(pos, x, y, 1 - side, set()) for x, y in royal_cells(pos, side))


def dead(side, t, y):
    """A Pawn or Lance on its own last rank, which can never move."""
    return t in ("P", "L") and last_rank(side, y)


def bared(pos, side):
    """Lishogi's bare king: `side` has nothing but one royal (dead Pawns and Lances aside), the
    other side has more than a royal (Pawns, Go-Betweens and dead Lances aside), no royal of the
    other side is attacked, and the other side has more than two such pieces or none of them
    stands next to the bare royal (which could take it and bare the other side in turn)."""
    ours, theirs = [], []
    for y in range(N):
        for x in range(N):
            p = pos.board[y][x]
            if p is None:
                continue
            if p[0] == side and not dead(side, p[1], y):
                ours.append((x, y, p[1]))
            if p[0] != side and p[1] not in ("P", "(GB)") and not (p[1] == "L" and last_rank(p[0], y)):
                theirs.append((x, y))
    if len(ours) != 1 or ours[0][2] not in ROYAL or len(theirs) <= 1 or not royal_cells(pos, 1 - side):
        return False
    if in_check(pos, 1 - side):
        return False
    kx, ky = ours[0][0], ours[0][1]
    return len(theirs) > 2 or all(max(abs(x - kx), abs(y - ky)) > 1 for x, y in theirs)


def lone_royals(pos):
    """Lishogi's draw: two pieces on the board (dead Pawns and Lances aside), one royal a side,
    neither in check."""
    live = [(x, y) for y in range(N) for x in range(N)
            if pos.board[y][x] is not None and not dead(pos.board[y][x][0], pos.board[y][x][1], y)]
    return (len(live) == 2 and len(royal_cells(pos, 0)) == 1 and len(royal_cells(pos, 1)) == 1
            and not in_check(pos, 0) and not in_check(pos, 1))


def game_over(pos):
    """Lishogi's ends of the game judged from the position: the side to move has lost its royals,
    a side's royal is bare, or two lone royals draw (no legal move is the other end)."""
    return not royal_cells(pos, pos.side) or bared(pos, 0) or bared(pos, 1) or lone_royals(pos)


def raw_moves(pos, trading, ignore_end=False):
    """Every legal move as (from, via, to, promote): via is None, or the first-step cell of a
    two-step lion-power move. Paths with the same effect are all listed (shogiops' count)."""
    side, board = pos.side, pos.board
    out = []
    if not ignore_end and game_over(pos):
        return out  # royals lost, a bare royal, or two lone royals: the game is over
    enemy = 1 - side
    llc = pos.llc if trading == "lishogi" else None

    def own(x, y):
        p = board[y][x]
        return p is not None and p[0] == side

    def lion_at(x, y):
        p = board[y][x]
        return p is not None and p[0] == enemy and p[1] in LIONS

    def counter_strike_bars(x, y):
        # After a Lion was taken by a non-Lion, a non-Lion may not take a Lion (but on that cell).
        return llc is not None and lion_at(x, y) and (x, y) != llc

    for y in range(N):
        for x in range(N):
            p = board[y][x]
            if p is None or p[0] != side:
                continue
            t = p[1]
            steps, jumps, slides, power = TYPES[t]
            frm = (x, y)
            if power == "lion":
                # One move: any cell within two (steps and jumps alike).
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        tx, ty = x + dx, y + dy
                        if (dx, dy) == (0, 0) or not on(tx, ty) or own(tx, ty):
                            continue
                        if (trading == "lishogi" and max(abs(dx), abs(dy)) == 2 and lion_at(tx, ty)
                                and protected(pos, tx, ty, enemy, {frm})):
                            continue
                        out.append((frm, None, (tx, ty), False))
                # Two king steps: the first onto an empty cell or a capture, the second next to it.
                for ax, ay in ALL8:
                    mx, my = x + ax, y + ay
                    if not on(mx, my) or own(mx, my):
                        continue
                    mid = board[my][mx]
                    for bx, by in ALL8:
                        tx, ty = mx + bx, my + by
                        if not on(tx, ty) or (own(tx, ty) and (tx, ty) != frm):
                            continue
                        if (trading == "lishogi" and max(abs(tx - x), abs(ty - y)) == 2 and lion_at(tx, ty)
                                and (mid is None or mid[1] in WEAK)
                                and protected(pos, tx, ty, enemy, {frm, (mx, my)})):
                            continue
                        out.append((frm, (mx, my), (tx, ty), False))
                continue
            targets = []  # (to, captures)
            for dx, dy in steps + jumps:
                sx, sy = vec(side, dx, dy)
                tx, ty = x + sx, y + sy
                if on(tx, ty) and not own(tx, ty):
                    targets.append(((tx, ty), board[ty][tx] is not None))
            for dx, dy in slides:
                sx, sy = vec(side, dx, dy)
                tx, ty = x + sx, y + sy
                while on(tx, ty) and not own(tx, ty):
                    targets.append(((tx, ty), board[ty][tx] is not None))
                    if board[ty][tx] is not None:
                        break
                    tx, ty = tx + sx, ty + sy
            if power in ("falcon", "eagle"):
                lines = [(0, 1)] if power == "falcon" else FWD_DIAG
                for dx, dy in lines:
                    sx, sy = vec(side, dx, dy)
                    m = (x + sx, y + sy)
                    f2 = (x + 2 * sx, y + 2 * sy)
                    if on(*m) and not own(*m):
                        targets.append((m, board[m[1]][m[0]] is not None))
                    if on(*f2) and not own(*f2):
                        targets.append((f2, board[f2[1]][f2[0]] is not None))
                    # Two steps: onto the first cell (empty or a capture), then on or back.
                    if on(*m) and not own(*m) and not counter_strike_bars(*m):
                        for to in (f2, frm):
                            if not on(*to) or (own(*to) and to != frm) or counter_strike_bars(*to):
                                continue
                            out.append((frm, m, to, False))
            for to, cap in targets:
                if counter_strike_bars(*to):
                    continue
                if t in PROMOTES and (
                        (not in_zone(side, y) and in_zone(side, to[1]))
                        or (cap and (in_zone(side, y) or in_zone(side, to[1])))
                        or (t in ("P", "L") and last_rank(side, to[1]))):
                    out.append((frm, None, to, True))
                out.append((frm, None, to, False))
    return out


def effect_moves(pos, trading):
    """The legal moves counted by effect (Henka): a first-step cell is kept only when it captures."""
    seen = []
    keys = set()
    for frm, via, to, promo in raw_moves(pos, trading):
        if via is not None and pos.board[via[1]][via[0]] is None:
            via = None
        key = (frm, via, to, promo)
        if key not in keys:
            keys.add(key)
            seen.append(key)
    return seen


def play(pos, move):
    frm, via, to, promo = move
    board = [row[:] for row in pos.board]
    side, t = board[frm[1]][frm[0]]
    board[frm[1]][frm[0]] = None
    llc = None
    if via is not None and board[via[1]][via[0]] is not None:
        if board[via[1]][via[0]][1] in LIONS and t not in LIONS:
            llc = via
        board[via[1]][via[0]] = None
    captured = board[to[1]][to[0]]
    if captured is not None and captured[1] in LIONS and t not in LIONS:
        llc = to
    board[to[1]][to[0]] = (side, PROMOTES[t] if promo else t)
    return Pos(board, 1 - side, llc)


def move_name(pos, move):
    frm, via, to, promo = move
    s = cell_name(*frm) + (cell_name(*via) if via is not None else "") + cell_name(*to)
    return s + ("+" if promo else "")


def perft(pos, depth, trading, gen=effect_moves):
    moves = gen(pos, trading)
    if depth == 1:
        return len(moves)
    return sum(perft(play(pos, m), depth - 1, trading, gen) for m in moves)


# ---------------------------------------------------------------- the data file

# lishogi's SFEN letters for Chu pieces, as Henka tokens (a `+` in the SFEN carries over).
SFEN = {"l": "L", "f": "(FL)", "c": "C", "s": "S", "g": "G", "e": "(DE)", "k": "K", "a": "(RV)", "b": "B",
        "t": "(BT)", "x": "(PH)", "o": "(KY)", "m": "(SM)", "v": "(VM)", "r": "R", "h": "(DH)", "d": "(DK)",
        "q": "Q", "n": "(LN)", "p": "P", "i": "(GB)"}


def diagram(pieces, side="b", counters=""):
    """A Henka position from {cell: token}: "6g": "(LN)" is Black's Lion, "(ln)" White's."""
    grid = [[None] * N for _ in range(N)]
    for cell, tok in pieces.items():
        grid[ord(cell[-1]) - ord("a")][N - int(cell[:-1])] = tok
    ranks = []
    for row in grid:
        out, empty = "", 0
        for tok in row:
            if tok is None:
                empty += 1
                continue
            if empty:
                out, empty = out + str(empty), 0
            out += tok
        ranks.append(out + (str(empty) if empty else ""))
    return "/".join(ranks) + f" {side} - 1" + (f" {counters}" if counters else "")


def lishogi(sfen):
    """A lishogi SFEN's board in Henka's notation."""
    out = []
    for c in sfen.split()[0]:
        if c.isalpha():
            tok = SFEN[c.lower()]
            out.append(tok if c.isupper() else tok.lower())
        else:
            out.append(c)
    return "".join(out) + f" {sfen.split()[1]} - 1"


# (id, position, deepest depth, comment). Cells in comments are Henka's (file from Black's right,
# rank letter from the top); Black's zone is ranks a-d, White's i-l.
CASES = [
    ("startpos", "startpos", 3,
     "The start: 36 moves a side (12 Pawns, 2 Go-Betweens, 5 jumps of the Lion, 17 steps into the gaps of "
     "the second rank).", 4),
    ("lion_double_moves", diagram({"6g": "(LN)", "7f": "G", "9l": "K", "6f": "p", "5f": "g", "7h": "s", "4e": "(dh)",
                                   "5h": "p", "4a": "k", "8c": "(ln)", "7d": "p", "9d": "g"}), 2,
     "Black's Lion on 6g among White's pieces: steps, jumps, captures, double captures, igui, the pass. "
     "White's Lion on 8c comes within reach once Black's has moved, so lion trading bites deeper in the tree.", 3),
    ("lions_adjacent", diagram({"6g": "(LN)", "5f": "(ln)", "4e": "g", "7h": "G", "9l": "K", "3a": "k", "6e": "p"}), 3,
     "Lions side by side: either may take the other, protected or not (by a step, igui, or capture-and-move-on)."),
    ("bridge_doomed_pawn", diagram({"5d": "(LN)", "5e": "p", "5f": "(ln)", "9l": "K", "2a": "k", "8h": "G"}), 3,
     "Black's Lion on 5d, White's Pawn on 5e and Lion on 5f: the Pawn, which 5d5e5f would take on its first "
     "step, is the only protector of 5f. Lishogi judges protection before the move, so it counts: 5d5e5f and "
     "the jump 5d5f are barred. Deeper in the tree either Lion may take the other when it is unprotected."),
    ("bridge_capture", diagram({"5d": "(LN)", "5e": "p", "4e": "g", "6e": "(gb)", "5f": "(ln)", "4g": "s",
                                "9l": "K", "2a": "k", "10k": "G"}), 2,
     "White's Lion on 5f is protected by the Silver on 4g: Black's Lion may take it two cells away only by "
     "taking the Gold on 4e first (the bridge), not over the Pawn on 5e or the Go-Between on 6e, nor by the jump.", 3),
    ("bridge_xray", diagram({"6f": "(LN)", "6d": "(ln)", "6i": "r", "4h": "(ln)", "3h": "B",
                             "10l": "K", "12a": "k", "1j": "P"}), 2,
     "Protection seen through the mover's own start: White's Rook on 6i protects 6d once Black's Lion has left 6f, "
     "so 6f6d is barred; the Lion on 4h has no protector (the Bishop on 3h is Black's) and may be taken.", 3),
    ("counter_strike", diagram({"6d": "(ln)", "2e": "+(ky)", "5c": "g", "3f": "s", "1a": "k",
                                "12d": "R", "6f": "(KY)", "4g": "(LN)", "12l": "K", "3j": "P"}), 2,
     "A non-Lion taking a Lion: the Rook (12d6d) or the Kirin (6f6d, promoting or not, 6d being in Black's zone). "
     "White's reply may then not take Black's Lion on 4g with the Silver (3f); its own Lion (the promoted Kirin "
     "on 2e) still may, and after 6f6d+ the Gold (5c) may take the new Lion on 6d, where the capture was made.", 3),
    ("counter_strike_state", diagram({"6d": "+(KY)", "2e": "+(ky)", "5c": "g", "3f": "s", "1a": "k", "12d": "R",
                                      "4g": "(LN)", "12l": "K", "3j": "P"}, "w", "0,0,0,0,64"), 2,
     "The position after the Kirin's 6f6d+ above, written with the rule counter: 64 is 6d, where a non-Lion has "
     "just taken a Lion. White's Gold may take the new Lion there; the Silver may not take the one on 4g, the "
     "promoted Kirin on 2e may.", 3),
    ("falcon_and_eagle", diagram({"8h": "+(DH)", "8g": "p", "8f": "s", "4h": "+(DK)", "5g": "p", "6f": "g", "3g": "(ln)",
                                  "9e": "+(dh)", "9f": "P", "3d": "+(dk)", "2e": "G", "7l": "K", "6a": "k"}), 2,
     "Horned Falcons and Soaring Eagles: the Lion's power straight forward (Falcon) or on the forward diagonals "
     "(Eagle): capture and go on, igui, the two-cell jump, the pass.", 3),
    ("promotions", diagram({"3e": "P", "9b": "P", "11a": "P", "1c": "L", "7d": "S", "6e": "g", "8e": "p",
                            "10e": "G", "5c": "(DE)", "4b": "s", "12l": "K", "1k": "k", "8h": "p",
                            "6j": "p", "5i": "P"}), 3,
     "Promotion: entering the zone (3e3d, 10e10d), capturing in it or out of it (7d8e, 7d6e), reaching the last "
     "rank (9b9a, 1c1a; either may decline and stay, unable to move, like the Pawn on 11a); moving within the "
     "zone without capturing (1c1b, 7d7c, 5c5b) may not promote. The Drunk Elephant promotes to the Crown Prince "
     "by taking the Silver on 4b; White's Pawn on 8h promotes entering rank i, the one on 6j may not (6j6k)."),
    ("royals", diagram({"2k": "K", "10k": "+(DE)", "2a": "r", "6a": "k", "5b": "(de)", "6k": "R", "9i": "P"}), 3,
     "Two royals: Black's Rook may take White's only royal at once (6k6a), which ends the game (no moves after "
     "it); otherwise White's Rook may take Black's King (2a2k) and Black plays on with its Crown Prince (10k). "
     "Check need not be answered: the Kings stand in check and may move into it."),
    ("middle_game_1", lishogi("l2e1tsg1hbl/avbs1dxtn1ca/f1g2k1d2rm/1r1h1q2ov1f/m3c1p5/P1Pp2OP1P2/RVD2p5p/3P1P4pM/"
                              "B5PG1B1V/1M2SNQE1R2/AC3TDTHF1A/LF1G1K1H1SCL w"), 2,
     "A middle game from lishogi's random perft positions (shogiops test/fixtures/perftChushogi.ts)."),
    ("middle_game_2", lishogi("lvt3k1s1fl/a1bf1g2o1cb/r2e1q2grv1/1d1s1+P1t3+P/m1x1c1D5/P2pB3ph2/AP1i3p2p1/"
                              "2pPQN2K3/2H1TX+d4M/1M1F2E2SVA/L1V1RGT1R1F1/1BCS3GOC1L b"), 2,
     "Another, with promoted Pawns and a Soaring Eagle."),
    ("middle_game_3", lishogi("lfkts4fcl/ac3egths1a/1brx3+P1r2/m1g2Nd2bdm/vh7+I1v/p2pp4P1L/1H1i2X1P1H1/M2PPD4P1/"
                              "A1+p3DV2+p1/1B1Tn1GRS3/V1RG1O2E1F1/L1FSK2T4 b"), 2,
     "Another, Black's Lion deep in White's camp and White's in Black's."),
    ("bare_king_adjacent", diagram({"7g": "K", "7f": "g", "6l": "k"}), 4,
     "Bare king (§3): Black has only its King, White its King and a Gold. While the Gold stands next to Black's "
     "King, which could take it and leave two lone royals, the game goes on; once it steps away, Black's King is "
     "bare and Black has lost (no moves after it)."),
    ("bare_king_attacking", diagram({"7g": "K", "6f": "k", "3a": "g", "2a": "s", "1a": "r"}), 4,
     "Black's lone King against four White pieces is not bare while it attacks White's King (next to it on 6f); "
     "once the Kings part, it is. Black may also simply take White's King."),
    ("lone_royals", diagram({"6e": "k", "7f": "G", "6h": "K"}, "w"), 4,
     "Two lone royals (§3): White's King may take the Gold on 7f, leaving one King a side, neither attacked: a "
     "draw (no moves after it). Meanwhile White's King is not bare: the Gold stands next to it."),
    ("lone_royals_dead_pieces", diagram({"11a": "P", "7a": "P", "6a": "P", "2a": "P", "6e": "k", "6h": "K",
                                         "12l": "l", "1l": "l"}), 1,
     "Dead Pawns and Lances (on their last rank, §5) do not count: one King a side besides them is a draw at once "
     "(lishogi's own test)."),
    ("bridge_doomed_go_between", diagram({"5d": "(LN)", "5e": "(gb)", "5f": "(ln)", "9l": "K", "2a": "k", "8h": "G"}),
     2, "As bridge_doomed_pawn with a Go-Between on 5e, which protects 5f too: 5d5e5f and 5d5f are barred."),
    ("bridge_pawn_behind", diagram({"5h": "(LN)", "5g": "p", "5f": "(ln)", "9l": "K", "2a": "k", "8i": "G"}), 2,
     "Black's Lion on 5h and White's on 5f with White's Pawn between: the Pawn steps towards Black, so it does not "
     "protect 5f, and 5h5g5f and the jump 5h5f are allowed."),
    ("bridge_go_between_behind", diagram({"5h": "(LN)", "5g": "(gb)", "5f": "(ln)", "9l": "K", "2a": "k", "8i": "G"}),
     2, "The same with a Go-Between on 5g, which steps back too and so protects 5f: 5h5g5f and 5h5f are barred."),
]


def main():
    args = sys.argv[1:]
    trading = "lishogi"
    if "--trading" in args:
        i = args.index("--trading")
        trading = args[i + 1]
        del args[i:i + 2]
    if args and args[0] == "--selftest":
        sys.exit(selftest())
    if args and args[0] == "--perft":
        pos = parse(args[1])
        depth = int(args[2])
        if "--divide" in args:
            total = 0
            for m in effect_moves(pos, trading):
                n = perft(play(pos, m), depth - 1, trading) if depth > 1 else 1
                total += n
                print(move_name(pos, m), n)
            print("total", total)
        else:
            print(perft(pos, depth, trading))
        return
    print("# Chu shogi perft suite (docs/rules/chu-shogi.md). Every count is tools/chu_perft.py's, a move")
    print("# generator written from the rules with no code in common with Henka; Henka's script must")
    print("# reproduce them. Rules: lishogi's lion trading (the default option). Moves are counted by")
    print("# effect: two paths with the same effect are one move, passes by different pieces are different.")
    print("# Positions in Henka's notation (Black = uppercase, moves first; rank a is White's back rank); a")
    print("# fifth field's fifth counter is the script's counter 0, the cell of a Lion just taken by a non-Lion.")
    print("# The generator's --selftest reproduces 32 of lishogi's own perft counts (shogiops' tests).")
    started = time.time()
    for case_id, text, depth, comment, *deeper in CASES:
        pos = parse(text)
        print()
        print(f"# {comment}")
        for d in range(depth + 1, (deeper or [depth])[0] + 1):
            # Deeper counts stay comments: the debug test run would take minutes over them.
            print(f"# perft {d} {perft(pos, d, trading)} (a comment: too slow for the debug test run; Henka's release build agrees)")
        print(f"id {case_id}")
        print(f"position {text}")
        for d in range(1, depth + 1):
            print(f"perft {d} {perft(pos, d, trading)}", flush=True)
    print(f"# generated in {time.time() - started:.0f} s", file=sys.stderr)


# ---------------------------------------------------------------- the self-test against lishogi

def from_sfen(sfen):
    """A lishogi Chushogi SFEN as a position; the third field may name the last lion capture."""
    fields = sfen.split()
    out = []
    for c in fields[0]:
        if c.isalpha():
            tok = SFEN[c.lower()]
            out.append(tok if c.isupper() else tok.lower())
        else:
            out.append(c)
    pos = parse("".join(out) + " " + (fields[1] if len(fields) > 1 else "b") + " - 1")
    if len(fields) > 2 and fields[2] != "-":
        sq = fields[2]
        pos.llc = (N - int(sq[:-1]), ord(sq[-1]) - ord("a"))
    return pos


# (SFEN, depth, count): shogiops test/rules/chushogi.test.ts and a sample of
# test/fixtures/perftChushogi.ts (positions from random games).
LISHOGI = [
    ("", 1, 36),
    ("", 2, 1296),
    ("11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b 8j", 1, 7),
    ("11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b -", 1, 8),
    ("lfcsg2gso1l/a1bdtet2fc1/2r2q1k1r1a/mv1x+P1+Pp1bvm/3p3d2pp/1Q4h1p2h/P1piD5PP/5B2iPV1/2HP1ONPP3/MCVTED1GBT1M/A1S4XH1RA/LF1RGK2SCFL w - 142", 1, 113),
    ("lt5s1v1l/a1v1q3s2a/f2gge2kcf+A/2bc+H+Pt2+Po1/mpS1P3bOV1/1VD9/5E6/4+iB1PP1M+L/1+p6R3/A1C1K2R3S/L2XGBG2F2/2F2TT1HD2 b - 369", 1, 171),
    ("l2e1tsg1hbl/avbs1dxtn1ca/f1g2k1d2rm/1r1h1q2ov1f/m3c1p5/P1Pp2OP1P2/RVD2p5p/3P1P4pM/B5PG1B1V/1M2SNQE1R2/AC3TDTHF1A/LF1G1K1H1SCL w - 230", 1, 126),
    ("lbc1dxkg1c1l/a2rg1otsbfv/1v1se1d1hrma/mf1tq2pp+B+P1/3hppp2P1n/1p9p/1P3P1PG2P/p1ppP1G1I3/3P1DP1P2R/MVDHON2H1VM/AF1CSEXCT2A/L1R1KT2SFBL b - 159", 1, 106),
    ("lf1s1kqg1sfl/a3t3tbcv/vbcdgxe2r1a/2rpo4ndm/m+PPh4p3/P2Ip1pNIp1P/6Pp4/3P3TPP2/M3PHDPGR+pM/AFRV2XT1D1V/L1B1G2SCBFA/2CSK1E4L w - 178", 1, 118),
    ("l1t2qe1tx2/1h1f2s4b/ar3k4f1/2s4dd1+Bl/2+A3g5/b5Xh1C2/1cR1p1g2V2/L2iG4HM1/7R1F1+a/VFD1T6L/3S3D2GS/M4K+p2T2 b - 359", 1, 132),
    ("l1f1gxg2ft1/a1b1teks1r1l/v1s5r1ma/2h3p2vob/2cnd2Pp1p1/mPPpP3q1Ph/1C1P2P1P3/9MB1/+p2HDQ2D1C1/A1VRK2H3R/L1F1G1X1GS1A/O1S1TNE1T1FL b - 243", 1, 129),
    ("1v1q2khbv1l/l1sg2exgf1a/1trfd3t3/a1m1o4d2/pp1p1P1Hprcm/P1ph3s4/2cP3P1Pp1/RP6P3/AMVF1K2M3/1C2HG1R2V1/L1B1XO1E1SCA/3T1S1G1DFL b - 247", 1, 113),
    ("lf2ho1gs2l/avcrg1kec1fa/m4b1h1dtm/1+Psd3bn1v1/4t4r2/2p3PN1p1p/3p3PiB2/3Pp2DH2A/2P1SK1CPM1L/R2H4D1F1/A1C1BOXG1R2/LVFGTE1TS1V1 w - 210", 1, 134),
    ("2f4h1o1l/lt4k1ns1a/2hb+B1gqt1f1/acs1g1d5/8mc1+P/5m6/1v1O4E3/p6DS2G/1MR1+p1P2CV1/6+p1R2M/T1F2C4FA/L3DSNKBT1L w - 338", 1, 152),
    ("lvt3k1s1fl/a1bf1g2o1cb/r2e1q2grv1/1d1s1+P1t3+P/m1x1c1D5/P2pB3ph2/AP1i3p2p1/2pPQN2K3/2H1TX+d4M/1M1F2E2SVA/L1V1RGT1R1F1/1BCS3GOC1L b - 225", 1, 200),
    ("v1f2dk3bl/lg2t5mf/5o1n4/a4h1t+P3/cmr1X5sc/3x4e3/6pP1R1v/A1RM2S1T3/3q3E3L/3KD3C1HF/LCSD1G3M2/1BO6H2 b - 399", 1, 124),
    ("l2s2rt2fl/avch3bsrca/q6k3v/1+X1f2e1p1h1/3g4i2P/x4g1p2P1/9C1A/3Md1S1dF1V/1+pG+o2H2M1L/RB3HO5/AFCTK3G3/L3DERS2T1 w - 348", 1, 218),
    ("lv1be1sg2fl/as1rtdkt1b1h/2gh2qcxv2/fcmp+X1od+I3/P2ip5m1/1ppI1ppp1DPa/1PP1PP2P3/N5PP4/1R1PD2BR1V1/M1G1QE1S1HM1/AVBH1T1O1F1A/LFCS1TK1G1CL w - 170", 1, 91),
    ("4sx6/l8t1l/2v1f1s1b2c/3m1ke5/3b3p1m1C/a1Dc6v1/B8V1D/2O4E3A/4+r2n1M2/AC6F1B1/L1F1T7/4SK3T1L w - 374", 1, 202),
    ("l3to1df3/s+P1v3k1h2/a3b2t1cv1/2ep+D1s5/mhqf2x1dr1l/VPCP4n3/2B1HOQSP2A/12/A5+pX4/1+p2TRE1BG+a1/3K7L/LFS1G1T5 w - 326", 1, 180),
    ("1o2f3t1b1/lcgt1srh3l/a1v2n2+P2f/m+P+P1bk2p2a/1d6i2m/P3d1s3c1/1N2G6+r/1VX9/M2HS7/ABR1Q1K1RCM1/L1FOT4VS1/1C2TG1DF3 b - 359", 1, 158),
    ("lb2t2ksrc1/af1cnex1hf1l/m1rd1og1t2a/1gpp1+Hspd1m1/1vPiph2p1vp/P2PPPp1iP2/6PP2b1/1P4Q1IG1P/M1B3D1P2M/C1V2KO1D1R1/AFR1T1TXSBCA/L1S1G1E3FL w - 178", 1, 93),
    ("lfkts4fcl/ac3egths1a/1brx3+P1r2/m1g2Nd2bdm/vh7+I1v/p2pp4P1L/1H1i2X1P1H1/M2PPD4P1/A1+p3DV2+p1/1B1Tn1GRS3/V1RG1O2E1F1/L1FSK2T4 b - 217", 1, 204),
    ("2tf8/l1+Rs1e3k1l/1v1b2b+P1gfa/6sxt1m1/a4g2c3/4o2G4/1VQc3P1p1p/A2CD1D5/1O5SR1T1/2FMS3M2L/L7C2V/2T2E1KF3 b - 393", 1, 137),
    ("3c2k3bl/ftb2se3f1/1+P10/4x4vsa/l2pX+P2mc2/2Pi3C1g2/5d2S3/3dG3M1BA/1+hqC3D1F2/+a3SK1ER1G1/1M1HN1QT2VL/LF1D8 b - 367", 1, 169),
    ("f1g1tk1+V4/l9sl/av+Ds5g2/3d6ea/m5hPph2/3i5q2/1GC5iR2/L1M3OSP3/3P5T1+r/H2S2V1E1M1/2RFX4B2/5K2GNFL b - 381", 1, 134),
]

# shogiops' solo-piece counts (perft 1, the game's end ignored: no royals on the board).
LISHOGI_SOLO = [
    ("12/12/12/12/12/12/5N6/12/12/12/12/12 b", 24 + 8 * 8),
    ("12/12/12/12/12/12/5+O6/12/12/12/12/12 b", 24 + 8 * 8),
    ("12/12/12/12/12/12/5+H6/12/12/12/12/12 b", 41),
    ("12/12/12/12/12/12/5+D6/12/12/12/12/12 b", 40),
    ("12/12/12/12/7g4/6n5/5N6/12/12/12/12/12 b - 1", 24 + 8 * 8),
    ("12/12/12/12/4B2l4/4S7/5N6/7n4/12/12/12/12 b - 1", 98),
]


# shogiops' bare-king and draw tests: (SFEN, moves, the end lishogi sees after them: None, "bare"
# or "draw").
LISHOGI_ENDS = [
    ("12/12/12/12/6k5/4g7/4G7/6K5/12/12/12/12 b - 1", [], None),
    ("12/12/12/12/6k5/4g7/4G7/6K5/12/12/12/12 b - 1", ["8g8f"], "bare"),
    ("12/12/12/12/3I2k5/12/12/5+pK5/12/12/12/12 b - 1", ["6h7h"], None),
    ("12/12/12/12/3I2k5/12/12/5+pK5/12/12/12/12 b - 1", ["6h7h", "6e7d"], None),
    ("12/12/12/12/3I2k5/12/12/5+pK5/12/12/12/12 b - 1", ["6h7h", "6e7d", "9e9d+"], "bare"),
    ("1P3PP3P1/12/12/12/6k5/12/12/6K5/12/12/12/l10l b - 1", [], "draw"),
    ("12/12/12/12/6k5/5g6/4G7/6K5/12/12/12/12 b - 1", ["8g7f"], None),
    ("12/12/12/12/6k5/5g6/4G7/6K5/12/12/12/12 b - 1", ["8g7f", "6e7f"], "draw"),
    ("12/12/12/12/6k5/5g6/4G7/6K5/12/12/12/12 b - 1", ["8g7f", "6e6d"], "bare"),
    ("12/12/12/12/6k5/5K6/12/4G7/12/12/12/12 w - 1", [], None),
    ("12/12/12/12/6k5/5K6/12/4G7/12/12/12/12 b - 1", [], None),
]


def selftest():
    bad = 0
    for sfen, moves, want in LISHOGI_ENDS:
        pos = from_sfen(sfen)
        for text in moves:
            pos = play(pos, next(m for m in raw_moves(pos, "lishogi") if move_name(pos, m) == text))
        got = "bare" if bared(pos, 0) or bared(pos, 1) else "draw" if lone_royals(pos) else None
        if got != want:
            bad += 1
            print(f"MISMATCH {sfen} after {moves}: lishogi {want}, here {got}")
    for sfen, depth, want in LISHOGI:
        pos = from_sfen(sfen) if sfen else parse("startpos")
        got = perft(pos, depth, "lishogi", raw_moves)
        if got != want:
            bad += 1
            print(f"MISMATCH {sfen or 'start'} perft {depth}: lishogi {want}, here {got}")
    for sfen, want in LISHOGI_SOLO:
        got = len(raw_moves(from_sfen(sfen), "lishogi", ignore_end=True))
        if got != want:
            bad += 1
            print(f"MISMATCH solo {sfen}: lishogi {want}, here {got}")
    total = len(LISHOGI_ENDS) + len(LISHOGI) + len(LISHOGI_SOLO)
    print(f"{total - bad} of {total} lishogi results reproduced ({len(LISHOGI) + len(LISHOGI_SOLO)} perft counts, "
          f"{len(LISHOGI_ENDS)} bare-king and draw verdicts)")
    return 1 if bad else 0


if __name__ == "__main__":
    main()
