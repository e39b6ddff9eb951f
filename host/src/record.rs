//! Game records: a small, documented text format the CLI, `henka match` and the editor read and
//! write (and the editor's autosave uses).
//!
//! ```text
//! # Henka game record
//! variant okisaki
//! version 1.0
//! script-hash 5e0c3b1f9a2d4c87
//! option black ai
//! option time-per-move 0.2
//! rule field unbounded
//! result Black wins by checkmate
//! start lnsgkqgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQKGSNL b - 1
//! redo 7c7d 8h7g
//! moves 3h3g 8c8d
//!       2i3h+ …
//! ```
//! Lines are `key value`; `#` starts a comment. Every key is optional and `moves` comes last:
//! after it, every whitespace-separated token to the end of the file is a move in the variant's
//! notation (move numbers such as `1.` are ignored); a move whose notation has spaces (Ki Shogi's
//! compass moves) is written in double quotes: `"Cho(Hi) S+"`.
//!
//! - `variant`: the catalog name; `version`: the variant's declared version; `script-hash`: the
//!   script text's hash (16 hex digits), so a reader can tell the rules changed since the game.
//! - `option NAME VALUE`: settings the game was played under (players, time per move, …), kept
//!   as text in order.
//! - `rule NAME VALUE`: a rule option of the variant the game was played with (`henka replay`
//!   loads the variant with them).
//! - `result`: how the game ended, as Henka words it; informational (replaying judges anew).
//! - `start`: the start position (default: the variant's start).
//! - `redo`: moves taken back (Undo) or cut off by changed rules, in the order Redo plays them
//!   after the last of `moves`: the editor's autosave keeps them so a restored game can still go
//!   forward. One line; older records without it have none.

// Game records come from files anyone may hand over: no indexing, slicing or arithmetic that
// could panic on them (issue #17).
#![deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use henka_api::{Game, Position, Variant};

/// A record as read from text or made from a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub variant: Option<String>,
    pub version: Option<String>,
    pub script_hash: Option<u64>,
    pub options: Vec<(String, String)>,
    /// The variant's rule options the game was played with.
    pub rules: Vec<(String, String)>,
    pub result: Option<String>,
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// What Redo would play next, first first (the `redo` line).
    pub redo: Vec<String>,
}

/// Reads a record; errors name the line.
pub fn parse(text: &str) -> Result<Record, String> {
    let mut r = Record::default();
    let mut in_moves = false;
    for (line_no, line) in (1usize..).zip(text.lines()) {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if in_moves {
            r.moves.extend(move_tokens(line).map_err(|e| format!("line {line_no}: {e}"))?);
            continue;
        }
        let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let value = value.trim();
        match key {
            "variant" => r.variant = Some(value.to_string()),
            "version" => r.version = Some(value.to_string()),
            "script-hash" => {
                let h = u64::from_str_radix(value, 16)
                    .map_err(|_| format!("line {line_no}: script-hash is 16 hex digits, not {value:?}"))?;
                r.script_hash = Some(h);
            }
            "option" | "rule" => {
                let (name, v) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
                let list = if key == "rule" { &mut r.rules } else { &mut r.options };
                list.push((name.to_string(), v.trim().to_string()));
            }
            "result" => r.result = Some(value.to_string()),
            "start" => r.start = Some(value.to_string()),
            "redo" => r.redo = move_tokens(value).map_err(|e| format!("line {line_no}: {e}"))?,
            "moves" => {
                in_moves = true;
                r.moves.extend(move_tokens(value).map_err(|e| format!("line {line_no}: {e}"))?);
            }
            _ => {
                return Err(format!(
                    "line {line_no}: unknown key `{key}` (expected variant, version, script-hash, option, rule, result, start, redo or moves)"
                ));
            }
        }
    }
    Ok(r)
}

/// The moves on one line: whitespace-separated, or in double quotes when a move's notation has
/// spaces (Ki Shogi's compass moves, `"Cho(Hi) S+"`). Move numbers such as `1.` are skipped.
fn move_tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let (m, after) = quoted.split_once('"').ok_or("a quoted move has no closing quote")?;
            out.push(m.trim().to_string());
            rest = after.trim_start();
        } else {
            let (t, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if !t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) {
                out.push(t.to_string());
            }
            rest = after.trim_start();
        }
    }
    Ok(out)
}

impl Record {
    /// The record of a game: variant, version, start, moves, and the result if it is over.
    pub fn of_game(variant_name: &str, v: &dyn Variant, game: &Game) -> Record {
        let version = &v.info().meta.version;
        Record {
            variant: Some(variant_name.to_string()),
            version: (!version.is_empty()).then(|| version.clone()),
            script_hash: None,
            options: Vec::new(),
            rules: Vec::new(),
            result: game.outcome(v).ok().flatten().map(|o| o.to_string()),
            start: Some(v.format_position(game.start())),
            moves: crate::replay::notation(v, game),
            redo: Vec::new(),
        }
    }

    /// The value of an option, if the record has it.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The text of the record.
    pub fn to_text(&self) -> String {
        let mut s = String::from("# Henka game record\n");
        let mut line = |key: &str, value: &str| {
            s.push_str(key);
            s.push(' ');
            s.push_str(value);
            s.push('\n');
        };
        if let Some(v) = &self.variant {
            line("variant", v);
        }
        if let Some(v) = &self.version {
            line("version", v);
        }
        if let Some(h) = self.script_hash {
            line("script-hash", &format!("{h:016x}"));
        }
        for (name, value) in &self.options {
            line("option", &format!("{name} {value}"));
        }
        for (name, value) in &self.rules {
            line("rule", &format!("{name} {value}"));
        }
        if let Some(r) = &self.result {
            line("result", r);
        }
        if let Some(p) = &self.start {
            line("start", p);
        }
        if !self.redo.is_empty() {
            let redo: Vec<String> = self.redo.iter().map(|m| quoted(m)).collect();
            line("redo", &redo.join(" "));
        }
        s.push_str("moves");
        for (i, m) in self.moves.iter().enumerate() {
            s.push_str(if i % 10 == 0 { "\n" } else { " " });
            s.push_str(&quoted(m));
        }
        s.push('\n');
        s
    }

    /// A warning when the record was made under other rules than `script_hash` (the game is
    /// replayed by notation all the same, and stops where a move became illegal).
    pub fn rules_changed(&self, script_hash: u64) -> Option<String> {
        let recorded = self.script_hash?;
        (recorded != script_hash).then(|| {
            let version = self.version.as_deref().map(|v| format!("version {v}, ")).unwrap_or_default();
            format!("recorded under other rules ({version}script {recorded:016x}, now {script_hash:016x})")
        })
    }
}

/// A move as a record writes it: in double quotes when its notation has spaces.
fn quoted(m: &str) -> String {
    if m.contains(char::is_whitespace) { format!("\"{m}\"") } else { m.to_string() }
}

/// Writes a record of a game.
pub fn write(variant_name: &str, v: &dyn Variant, game: &Game) -> String {
    Record::of_game(variant_name, v, game).to_text()
}

/// Replays a record's moves; on an illegal move says which (1-based) and why.
pub fn replay(v: &dyn Variant, r: &Record) -> Result<Game, String> {
    let p = replay_prefix(v, r)?;
    match p.cut {
        None => Ok(p.game),
        Some(e) => Err(e),
    }
}

/// A record replayed as far as its moves are legal.
#[derive(Debug)]
pub struct Prefix {
    pub game: Game,
    /// Which move was refused and why, if one was.
    pub cut: Option<String>,
    /// What Redo plays next, in order: the refused move and those after it, then the record's
    /// own `redo` moves (so nothing of the record is lost, as after a reload).
    pub redo: Vec<String>,
}

/// Replays a record's moves as far as they are legal. Only a start position that cannot be read
/// is an error.
pub fn replay_prefix(v: &dyn Variant, r: &Record) -> Result<Prefix, String> {
    let start: Position = match &r.start {
        Some(s) => v.parse_position(s).map_err(|e| format!("start position: {e}"))?,
        None => v.start_position(),
    };
    let replayed = crate::replay::play_notation(v, start, &r.moves);
    let number = replayed.game.moves().len().saturating_add(1);
    let refused = replayed.rest.first().map_or("", String::as_str);
    let cut = replayed.refused.map(|e| format!("move {number} ({refused}): {e}"));
    let redo = replayed.rest.into_iter().chain(r.redo.iter().cloned()).collect();
    Ok(Prefix { game: replayed.game, cut, redo })
}

// Tests index and count what they have just built: a panic there is a failing test, not a
// parser reached by input.
#[cfg(test)]
#[allow(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn reads_headers_and_moves_and_skips_numbers() {
        let r = parse("# x\nvariant shogi\nmoves 1. 7g7f 3c3d\n2. 8h2b+ 3a2b\n").unwrap();
        assert_eq!(r.variant.as_deref(), Some("shogi"));
        assert_eq!(r.moves, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
        assert!(parse("colour red").is_err());
    }

    #[test]
    fn a_record_saved_mid_game_reloads_to_the_same_position() {
        let loaded = crate::catalog::bundled_script("okisaki");
        let v = loaded.variant;
        let mut game = Game::new(v.start_position());
        let mut rng = fastrand::Rng::with_seed(5);
        let mut moves = Vec::new();
        for _ in 0..37 {
            v.legal_moves(game.position(), &mut moves).unwrap();
            game.play(v.as_ref(), moves[rng.usize(..moves.len())]).unwrap();
        }
        let mut rec = Record::of_game("okisaki", v.as_ref(), &game);
        rec.script_hash = Some(loaded.content_hash);
        let back = replay(v.as_ref(), &parse(&rec.to_text()).unwrap()).unwrap();
        assert_eq!(v.format_position(back.position()), v.format_position(game.position()));
        assert_eq!(back.moves(), game.moves());
        assert_eq!(back.history(), game.history(), "repetition sees the same past");
        // A record cut by changed rules replays up to the first move that is no longer legal.
        let mut cut = rec.clone();
        cut.moves.insert(5, "1a1a".into());
        cut.redo = vec!["9a9b".into()];
        let partial = replay_prefix(v.as_ref(), &cut).unwrap();
        assert_eq!(partial.game.moves().len(), 5);
        assert!(partial.cut.unwrap().starts_with("move 6 (1a1a)"));
        assert_eq!(partial.redo.len(), 37 - 5 + 2, "the refused move, those after it and the record's redo");
        assert_eq!((partial.redo[0].as_str(), partial.redo.last().unwrap().as_str()), ("1a1a", "9a9b"));
    }

    #[test]
    fn every_field_round_trips() {
        let r = Record {
            variant: Some("okisaki".into()),
            version: Some("1.0".into()),
            script_hash: Some(0x00ab_cdef_0123_4567),
            options: vec![("black".into(), "usi:henka usi okisaki".into()), ("time-per-move".into(), "0.2".into())],
            rules: vec![("field".into(), "unbounded".into())],
            result: Some("Black wins by checkmate".into()),
            start: Some("4k5/10/10/10/10/10/10/10/10/5K4 b P 1".into()),
            moves: (0..23).map(|i| format!("m{i}")).chain(["Cho(Hi) S+".to_string()]).collect(),
            redo: vec!["r1".into(), "Hi N".into()],
        };
        let text = r.to_text();
        assert_eq!(parse(&text).unwrap(), r, "{text}");
        assert_eq!(r.option("black"), Some("usi:henka usi okisaki"));
        assert!(r.rules_changed(0x00ab_cdef_0123_4567).is_none());
        assert!(r.rules_changed(1).unwrap().contains("version 1.0"));
        // A record from before `redo` existed reads with nothing to redo.
        let old = parse("variant okisaki\nstart 4k5/10/10/10/10/10/10/10/10/5K4 b P 1\nmoves m0 m1\n").unwrap();
        assert!(old.redo.is_empty() && old.moves == ["m0", "m1"]);
    }
}
