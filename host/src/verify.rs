//! Script against plugin: two implementations of one variant, run side by side until they differ.
//!
//! The script is the reference; the plugin is its fast path. They are compared where a user would
//! notice a difference — in notation: the description (board, pieces as written, hands, start),
//! every count of a perft suite, and seeded random games in which, at every ply, the sorted legal
//! moves, the position string, check and the game's result must agree. A perft mismatch is chased
//! down the tree (divide on both sides, follow the move whose counts differ) to the position where
//! the legal moves themselves differ, so every failure reads the same way: a position, the moves
//! that led there, and the moves only one side has.

use std::collections::BTreeMap;

use henka_api::variant::perft_suite::PerftCase;
use henka_api::{HistoryEntry, Move, Position, RuleError, Variant};

/// The perft suites of the bundled variants and the example, by variant name.
pub const SUITES: &[(&str, &str)] = &[
    ("shogi", include_str!("../tests/perft/shogi.perft")),
    ("okisaki", include_str!("../tests/perft/okisaki.perft")),
    ("ogi", include_str!("../tests/perft/ogi.perft")),
    ("taishin", include_str!("../tests/perft/taishin.perft")),
    ("ladies-and-generals", include_str!("../tests/perft/ladies-and-generals.perft")),
    ("ki-shogi", include_str!("../tests/perft/ki-shogi.perft")),
    ("first-variant", include_str!("../tests/perft/first-variant.perft")),
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

fn list(moves: &[String]) -> String {
    if moves.is_empty() { "(none)".into() } else { moves.join(" ") }
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
            hs.push(HistoryEntry { hash: s.repetition_hash(), in_check: cs });
            hp.push(HistoryEntry { hash: p.repetition_hash(), in_check: cp });
            line.play(&mut s, &mut p, &name, &ms, &mp)?;
            report.plies += 1;
        }
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
        let opts = Options { perft_limit: u64::MAX, plies: 0, max_game_plies: 0, seed: 0 };
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
