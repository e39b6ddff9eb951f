//! Script against plugin: two implementations of one variant, run side by side until they differ.
//!
//! The script is the reference; the plugin is its fast path. They are compared where a user would
//! notice a difference — in notation: the description (board, pieces as written, hands, start),
//! every count of a perft suite, and seeded random games in which, at every ply, the sorted legal
//! moves, the position string, check and the game's result must agree. A perft mismatch is chased
//! down the tree (divide on both sides, follow the move whose counts differ) to the position where
//! the legal moves themselves differ, so every failure reads the same way: a position, the moves
//! that led there, and the moves only one side has.
//!
//! Positions reached by play are only part of what the position parser accepts: [`random_positions`]
//! also compares perft on random placements (pieces anywhere, random hands, either side to move)
//! that both parsers read, and both must refuse the same strings.

use std::collections::BTreeMap;

use henka_api::variant::perft_suite::PerftCase;
use henka_api::{Cell, HistoryEntry, Move, Piece, PieceId, Position, RuleError, Side, Variant};

/// The perft suites of the bundled variants and the example, by variant name.
pub const SUITES: &[(&str, &str)] = &[
    ("shogi", include_str!("../tests/perft/shogi.perft")),
    ("okisaki", include_str!("../tests/perft/okisaki.perft")),
    ("ogi", include_str!("../tests/perft/ogi.perft")),
    ("taishin", include_str!("../tests/perft/taishin.perft")),
    ("ladies-and-generals", include_str!("../tests/perft/ladies-and-generals.perft")),
    ("ki-shogi", include_str!("../tests/perft/ki-shogi.perft")),
    ("first-variant", include_str!("../tests/perft/first-variant.perft")),
    ("swap-shogi", include_str!("../tests/perft/swap-shogi.perft")),
    ("chu-shogi", include_str!("../tests/perft/chu-shogi.perft")),
];

/// How much to check.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Perft counts above this many nodes are skipped.
    pub perft_limit: u64,
    /// Random plies to play in total.
    pub plies: usize,
    /// A game longer than this is abandoned and a new one started.
    pub max_game_plies: usize,
    pub seed: u64,
    /// Random positions to compare perft 1 and 2 on (see [`random_positions`]).
    pub positions: usize,
}

/// What a passing run checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub perft_counts: usize,
    pub perft_skipped: usize,
    /// Leaf nodes counted by each side in the perft part.
    pub perft_nodes: u64,
    pub plies: usize,
    pub games: usize,
    /// Random positions both sides read and count alike, and those both refused.
    pub positions: usize,
    pub positions_refused: usize,
}

/// The first place where script and plugin disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// What differs, in a sentence.
    pub what: String,
    /// The position where it shows (as the script writes it).
    pub position: String,
    /// The start of the line and the moves from there to `position`.
    pub start: String,
    pub history: Vec<String>,
    pub only_script: Vec<String>,
    pub only_plugin: Vec<String>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "script and plugin differ: {}", self.what)?;
        writeln!(f, "  position: {}", self.position)?;
        writeln!(f, "  reached from: {}", self.start)?;
        let moves = if self.history.is_empty() { "(none)".to_string() } else { self.history.join(" ") };
        writeln!(f, "  by the moves: {moves}")?;
        if !self.only_script.is_empty() || !self.only_plugin.is_empty() {
            writeln!(f, "  moves only the script has: {}", list(&self.only_script))?;
            write!(f, "  moves only the plugin has: {}", list(&self.only_plugin))?;
        }
        Ok(())
    }
}

/// The most moves a divergence lists on each side: on a drop-heavy position one side may have
/// thousands of moves the other lacks, and the first few say as much.
const LISTED_MOVES: usize = 40;

fn list(moves: &[String]) -> String {
    match moves.len() {
        0 => "(none)".into(),
        n if n > LISTED_MOVES => format!("{} … and {} more", moves[..LISTED_MOVES].join(" "), n - LISTED_MOVES),
        _ => moves.join(" "),
    }
}

/// Why verification stopped.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    #[error("{0}")]
    Differ(Box<Divergence>),
    /// One side failed outright (a script hook error, a plugin panic).
    #[error("{side} failed at {position}: {error}")]
    Rule { side: &'static str, position: String, error: RuleError },
    #[error("{0}")]
    Suite(String),
}

/// One line of play, compared on both sides: each side keeps its own position, and they must
/// stay equal as strings.
struct Line<'a> {
    script: &'a dyn Variant,
    plugin: &'a dyn Variant,
    start: String,
    history: Vec<String>,
}

/// Legal moves by their notation (sorted), with each side's own move value.
type MoveMap = BTreeMap<String, Move>;

impl<'a> Line<'a> {
    fn differ(&self, what: String, at: &Position) -> Failure {
        Failure::Differ(Box::new(Divergence {
            what,
            position: self.script.format_position(at),
            start: self.start.clone(),
            history: self.history.clone(),
            only_script: Vec::new(),
            only_plugin: Vec::new(),
        }))
    }

    fn rule(&self, side: &'static str, at: &Position, error: RuleError) -> Failure {
        let mut position = self.script.format_position(at);
        if !self.history.is_empty() {
            position = format!("{position} (after {} from {})", self.history.join(" "), self.start);
        }
        Failure::Rule { side, position, error }
    }

    fn moves(&self, v: &dyn Variant, side: &'static str, pos: &Position) -> Result<MoveMap, Failure> {
        let mut list = Vec::new();
        v.legal_moves(pos, &mut list).map_err(|e| self.rule(side, pos, e))?;
        let map: MoveMap = list.iter().map(|&m| (v.format_move(pos, m), m)).collect();
        if map.len() != list.len() {
            return Err(
                self.differ(format!("{side} lists a move twice ({} moves, {} different)", list.len(), map.len()), pos)
            );
        }
        Ok(map)
    }

    /// Both sides' legal moves; an error if they differ.
    fn same_moves(&self, s: &Position, p: &Position) -> Result<(MoveMap, MoveMap), Failure> {
        let ms = self.moves(self.script, "the script", s)?;
        let mp = self.moves(self.plugin, "the plugin", p)?;
        if ms.keys().ne(mp.keys()) {
            let Failure::Differ(mut d) = self.differ("the legal moves differ".into(), s) else { unreachable!() };
            d.only_script = ms.keys().filter(|k| !mp.contains_key(*k)).cloned().collect();
            d.only_plugin = mp.keys().filter(|k| !ms.contains_key(*k)).cloned().collect();
            if d.only_script.is_empty() && d.only_plugin.is_empty() {
                d.what = format!("the legal moves differ in number ({} against {})", ms.len(), mp.len());
            }
            return Err(Failure::Differ(d));
        }
        Ok((ms, mp))
    }

    fn same_positions(&self, s: &Position, p: &Position) -> Result<(), Failure> {
        let (a, b) = (self.script.format_position(s), self.plugin.format_position(p));
        if a != b {
            return Err(self.differ(format!("the positions differ: the plugin has {b}"), s));
        }
        Ok(())
    }

    fn play(
        &mut self,
        s: &mut Position,
        p: &mut Position,
        name: &str,
        ms: &MoveMap,
        mp: &MoveMap,
    ) -> Result<(), Failure> {
        self.script.play(s, ms[name]).map_err(|e| self.rule("the script", s, e))?;
        self.plugin.play(p, mp[name]).map_err(|e| self.rule("the plugin", p, e))?;
        self.history.push(name.to_string());
        self.same_positions(s, p)
    }

    fn perft(&self, s: &Position, p: &Position, depth: u32) -> Result<(u64, u64), Failure> {
        let a = self.script.perft(s, depth).map_err(|e| self.rule("the script", s, e))?;
        let b = self.plugin.perft(p, depth).map_err(|e| self.rule("the plugin", p, e))?;
        Ok((a, b))
    }

    /// Perft counts differ at `depth`: follow the first move whose subtree counts differ until the
    /// legal moves themselves (or the positions) differ.
    fn chase(&mut self, s: &Position, p: &Position, depth: u32) -> Failure {
        let (ms, mp) = match self.same_moves(s, p) {
            Ok(m) => m,
            Err(f) => return f,
        };
        if depth <= 1 {
            return self
                .differ(format!("perft 1 differs from the number of legal moves ({}) on one side", ms.len()), s);
        }
        for name in ms.keys() {
            let (mut s2, mut p2) = (s.clone(), p.clone());
            if let Err(f) = self.play(&mut s2, &mut p2, name, &ms, &mp) {
                return f;
            }
            match self.perft(&s2, &p2, depth - 1) {
                Err(f) => return f,
                Ok((a, b)) if a != b => return self.chase(&s2, &p2, depth - 1),
                Ok(_) => {}
            }
            self.history.pop();
        }
        self.differ(format!("perft {depth} differs but no move's subtree does"), s)
    }
}

/// The description as notation sees it: the board, how pieces and hands are written, the field
/// (cubes, opposites, support), the start.
fn same_description(script: &dyn Variant, plugin: &dyn Variant) -> Result<(), Failure> {
    let written = |v: &dyn Variant| {
        let mut w: Vec<String> = v.info().pieces.iter().map(|p| p.written()).collect();
        w.sort();
        w
    };
    let hands = |v: &dyn Variant| -> Vec<String> {
        v.info().hand_types.iter().map(|&t| v.info().pieces[t as usize].written()).collect()
    };
    let (si, pi) = (script.info(), plugin.info());
    let what = if si.geometry != pi.geometry {
        format!("the boards differ: {:?} against {:?}", si.geometry, pi.geometry)
    } else if written(script) != written(plugin) {
        format!("the pieces differ: {} against {}", written(script).join(" "), written(plugin).join(" "))
    } else if hands(script) != hands(plugin) {
        format!("the hands are written differently: {} against {}", hands(script).join(" "), hands(plugin).join(" "))
    } else if si.field != pi.field {
        format!("the fields differ: {:?} against {:?}", si.field, pi.field)
    } else if si.royals_per_side != pi.royals_per_side {
        format!("the royals allowed a side differ: {:?} against {:?}", si.royals_per_side, pi.royals_per_side)
    } else if script.format_position(&script.start_position()) != plugin.format_position(&plugin.start_position()) {
        format!("the start positions differ: the plugin starts from {}", pi.start)
    } else {
        return Ok(());
    };
    Err(Failure::Suite(format!("script and plugin do not describe the same variant: {what}")))
}

/// Runs every count of `cases` up to the limit on both sides, against each other and the file.
pub fn perft_suite(
    script: &dyn Variant,
    plugin: &dyn Variant,
    cases: &[PerftCase],
    opts: &Options,
    report: &mut Report,
    mut progress: impl FnMut(&str),
) -> Result<(), Failure> {
    same_description(script, plugin)?;
    for case in cases {
        let start = case.position.clone().unwrap_or_else(|| script.info().start.clone());
        let read = |v: &dyn Variant| {
            v.parse_position(&start).map_err(|e| Failure::Suite(format!("line {} ({}): {e}", case.line, case.id)))
        };
        let (s, p) = (read(script)?, read(plugin)?);
        let mut line = Line { script, plugin, start: start.clone(), history: Vec::new() };
        line.same_positions(&s, &p)?;
        for &(depth, expected) in &case.expected {
            if expected > opts.perft_limit {
                report.perft_skipped += 1;
                continue;
            }
            progress(&format!("{} depth {depth}", case.id));
            let (a, b) = line.perft(&s, &p, depth)?;
            if a != b {
                return Err(line.chase(&s, &p, depth));
            }
            if a != expected {
                return Err(Failure::Suite(format!(
                    "line {} ({}) depth {depth}: script and plugin both count {a}, the file says {expected}",
                    case.line, case.id
                )));
            }
            report.perft_counts += 1;
            report.perft_nodes += a;
        }
    }
    Ok(())
}

/// Plays seeded random games on both sides, comparing everything at every ply. Games start in
/// turn from each of `starts` (the suite's positions), so the odd corners of a suite are played
/// through too.
pub fn playouts(
    script: &dyn Variant,
    plugin: &dyn Variant,
    starts: &[String],
    opts: &Options,
    report: &mut Report,
    mut progress: impl FnMut(&str),
) -> Result<(), Failure> {
    let mut rng = fastrand::Rng::with_seed(opts.seed);
    while report.plies < opts.plies {
        let start = &starts[report.games % starts.len()];
        report.games += 1;
        progress(&format!("game {} from {start}", report.games));
        let mut line = Line { script, plugin, start: start.clone(), history: Vec::new() };
        let mut s = script.parse_position(start).map_err(|e| Failure::Suite(format!("{start}: {e}")))?;
        let mut p = plugin.parse_position(start).map_err(|e| Failure::Suite(format!("{start}: {e}")))?;
        line.same_positions(&s, &p)?;
        let (mut hs, mut hp): (Vec<HistoryEntry>, Vec<HistoryEntry>) = (Vec::new(), Vec::new());
        for ply in 0..opts.max_game_plies {
            let (ms, mp) = line.same_moves(&s, &p)?;
            let (cs, cp) = (script.in_check(&s), plugin.in_check(&p));
            if cs != cp {
                return Err(line.differ(format!("in check: the script says {cs}, the plugin {cp}"), &s));
            }
            let os = script.outcome(&s, &hs).map_err(|e| line.rule("the script", &s, e))?;
            let op = plugin.outcome(&p, &hp).map_err(|e| line.rule("the plugin", &p, e))?;
            if os != op {
                return Err(line.differ(format!("the result differs: script {os:?}, plugin {op:?}"), &s));
            }
            // The bulk-counting path of perft is separate code in a fast plugin: sample it.
            if ply % 32 == 0 {
                let (a, b) = line.perft(&s, &p, 2)?;
                if a != b {
                    return Err(line.chase(&s, &p, 2));
                }
            }
            if os.is_some() || ms.is_empty() || report.plies >= opts.plies {
                break;
            }
            let name = ms.keys().nth(rng.usize(..ms.len())).expect("a move").clone();
            hs.push(HistoryEntry::new(s.repetition_hash(), cs).with_move(ms[&name]));
            hp.push(HistoryEntry::new(p.repetition_hash(), cp).with_move(mp[&name]));
            line.play(&mut s, &mut p, &name, &ms, &mp)?;
            report.plies += 1;
        }
    }
    Ok(())
}

/// How deep perft goes on a random position.
const RANDOM_POSITION_DEPTH: u32 = 2;

/// A random position of `v`: the start position's pieces (on the board and in hand), each left out,
/// put on a random empty cell (promoted now and then, owned by either side) or put in either side's
/// hand as its unpromoted type; royals stay on the board, with their owner. The side to move is
/// random. Nothing keeps it legal or reachable: that is the parser's job, and the point.
pub fn random_position(v: &dyn Variant, rng: &mut fastrand::Rng) -> Position {
    let info = v.info();
    let start = v.start_position();
    let mut pieces: Vec<Piece> = start.cells().iter().flatten().copied().collect();
    for side in Side::BOTH {
        for &ty in &info.hand_types {
            pieces.extend(std::iter::repeat_n(Piece::new(ty, side), start.hand(side, ty).into()));
        }
    }
    let mut pos = Position::empty(start.cells().len(), start.piece_types());
    let mut empty: Vec<Cell> = (0..start.cells().len()).filter_map(|c| Cell::try_from(c).ok()).collect();
    // Only cells the start position's variant can hold a piece on (holes stay empty).
    let geometry = henka_api::Geometry::new(&info.geometry).ok();
    empty.retain(|&c| geometry.as_ref().is_none_or(|g| g.exists(c)));
    let keep = rng.f64().max(0.1);
    rng.shuffle(&mut pieces);
    for mut piece in pieces {
        let ty = &info.pieces[usize::from(piece.ty)];
        if ty.royal {
            if let Some(i) = (!empty.is_empty()).then(|| rng.usize(..empty.len())) {
                pos.set(empty.swap_remove(i), Some(piece));
            }
            continue;
        }
        if rng.f64() > keep {
            continue;
        }
        piece.side = if rng.bool() { Side::First } else { Side::Second };
        // Now and then any type at all, so rare types (and more of one than the start has) show.
        if rng.u8(..4) == 0 {
            let other = rng.usize(..info.pieces.len());
            if !info.pieces[other].royal
                && let Ok(ty) = PieceId::try_from(other)
            {
                piece.ty = ty;
            }
        }
        let ty = &info.pieces[usize::from(piece.ty)];
        if rng.u8(..4) == 0 {
            let base = ty.demotes_to;
            if info.hand_types.contains(&base) {
                pos.set_hand(piece.side, base, pos.hand(piece.side, base).saturating_add(1));
                continue;
            }
        }
        if let Some(promoted) = ty.promotes_to.filter(|_| rng.u8(..4) == 0) {
            piece.ty = promoted;
        }
        if !empty.is_empty() {
            let i = rng.usize(..empty.len());
            pos.set(empty.swap_remove(i), Some(piece));
        }
    }
    pos.set_side_to_move(if rng.bool() { Side::First } else { Side::Second });
    pos
}

/// A position with every cell filled, with a random chance, by any type of either side (royals
/// too: none, one or several), and random hands. Far from any game.
pub fn scattered_position(v: &dyn Variant, rng: &mut fastrand::Rng) -> Position {
    let info = v.info();
    let start = v.start_position();
    let mut pos = Position::empty(start.cells().len(), start.piece_types());
    let geometry = henka_api::Geometry::new(&info.geometry).ok();
    let density = rng.f64() * 0.5;
    for c in 0..start.cells().len() {
        let Ok(cell) = Cell::try_from(c) else { continue };
        if geometry.as_ref().is_some_and(|g| !g.exists(cell)) || rng.f64() > density {
            continue;
        }
        let Ok(ty) = PieceId::try_from(rng.usize(..info.pieces.len())) else { continue };
        pos.set(cell, Some(Piece::new(ty, if rng.bool() { Side::First } else { Side::Second })));
    }
    for side in Side::BOTH {
        for &ty in &info.hand_types {
            if rng.u8(..3) == 0 {
                pos.set_hand(side, ty, rng.u8(1..4));
            }
        }
    }
    pos.set_side_to_move(if rng.bool() { Side::First } else { Side::Second });
    pos
}

/// Compares perft 1 and 2 on `opts.positions` random positions ([`random_position`]) written by the
/// script: a string one side reads and the other refuses is a difference, as is any count.
pub fn random_positions(
    script: &dyn Variant,
    plugin: &dyn Variant,
    opts: &Options,
    report: &mut Report,
    mut progress: impl FnMut(&str),
) -> Result<(), Failure> {
    let mut rng = fastrand::Rng::with_seed(opts.seed);
    for n in 0..opts.positions {
        let pos = if n % 2 == 0 { random_position(script, &mut rng) } else { scattered_position(script, &mut rng) };
        let text = script.format_position(&pos);
        progress(&format!("random position {}: {text}", n + 1));
        let line = Line { script, plugin, start: text.clone(), history: Vec::new() };
        let (s, p) = match (script.parse_position(&text), plugin.parse_position(&text)) {
            (Ok(s), Ok(p)) => (s, p),
            (Err(_), Err(_)) => {
                report.positions_refused += 1;
                continue;
            }
            (Ok(s), Err(e)) => return Err(line.differ(format!("the script reads it, the plugin refuses it: {e}"), &s)),
            (Err(e), Ok(_)) => {
                return Err(Failure::Suite(format!("the plugin reads {text}, the script refuses it: {e}")));
            }
        };
        line.same_positions(&s, &p)?;
        let mut line = line;
        for depth in 1..=RANDOM_POSITION_DEPTH {
            let (a, b) = line.perft(&s, &p, depth)?;
            if a != b {
                return Err(line.chase(&s, &p, depth));
            }
        }
        report.positions += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use henka_api::kit::KitVariant;
    use henka_api::variant::perft_suite::parse_suite;

    use super::*;

    /// Shogi with and without the pawn-drop-mate rule: two "engines" that differ in one move.
    fn engines() -> (std::sync::Arc<KitVariant>, KitVariant) {
        let script = crate::catalog::find("shogi", &[]).unwrap().load().unwrap().variant;
        let mut rules = script.rules().clone();
        rules.pieces.iter_mut().for_each(|p| p.no_drop_mate = false);
        (script, KitVariant::new(rules, None).unwrap())
    }

    fn first_difference(position: &str, depth: u32) -> Divergence {
        let (script, other) = engines();
        let suite = format!("id probe\nposition {position}\nperft {depth} 1\n");
        let opts = Options { perft_limit: u64::MAX, plies: 0, max_game_plies: 0, seed: 0, positions: 0 };
        match perft_suite(script.as_ref(), &other, &parse_suite(&suite).unwrap(), &opts, &mut Report::default(), |_| {})
        {
            Err(Failure::Differ(d)) => *d,
            other => panic!("expected a divergence, got {other:?}"),
        }
    }

    #[test]
    fn a_difference_at_the_root_names_the_moves_only_one_side_has() {
        let d = first_difference("7lk/9/8S/9/9/9/9/7L1/8K b P 1", 1);
        assert_eq!((d.only_script, d.only_plugin), (vec![], vec!["P*1b".to_string()]));
        assert!(d.history.is_empty());
    }

    #[test]
    fn a_deeper_difference_is_chased_down_to_its_position() {
        // White moves first; only after its pawn move 9c9d is the drop mate still there (every
        // other White move opens 2a for the king).
        let d = first_difference("7lk/9/p7S/9/9/9/9/7L1/8K w P 1", 2);
        assert_eq!(d.only_plugin, vec!["P*1b".to_string()], "{d}");
        assert_eq!(d.history, vec!["9c9d".to_string()], "{d}");
        let text = d.to_string();
        assert!(text.contains("moves only the plugin has: P*1b") && text.contains("by the moves:"), "{text}");
    }
}
