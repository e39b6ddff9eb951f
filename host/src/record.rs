//! Game records: a small, documented text format the CLI (and later the editor) reads and writes.
//!
//! ```text
//! # Henka game record
//! variant okisaki
//! start lnsgkqgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQKGSNL b - 1
//! moves 3h3g 8c8d
//!       2i3h+ …
//! ```
//! Lines are `key value`; `#` starts a comment. `start` is optional (the variant's start position).
//! After `moves`, every whitespace-separated token to the end of the file is a move in the
//! project's notation; move numbers such as `1.` are ignored.

use henka_api::{Game, Move, Position, Variant};

/// A record as read from text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub variant: Option<String>,
    pub start: Option<String>,
    pub moves: Vec<String>,
}

/// Reads a record; errors name the line.
pub fn parse(text: &str) -> Result<Record, String> {
    let mut r = Record::default();
    let mut in_moves = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let tokens = |s: &str| -> Vec<String> {
            s.split_whitespace()
                .filter(|t| !t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()))
                .map(str::to_string)
                .collect()
        };
        if in_moves {
            r.moves.extend(tokens(line));
            continue;
        }
        let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match key {
            "variant" => r.variant = Some(value.trim().to_string()),
            "start" => r.start = Some(value.trim().to_string()),
            "moves" => {
                in_moves = true;
                r.moves.extend(tokens(value));
            }
            _ => {
                return Err(format!("line {}: unknown key `{key}` (expected variant, start or moves)", n + 1));
            }
        }
    }
    Ok(r)
}

/// Writes a record.
pub fn write(variant_name: &str, v: &dyn Variant, game: &Game) -> String {
    let mut s =
        format!("# Henka game record\nvariant {variant_name}\nstart {}\nmoves", v.format_position(game.start()));
    for (i, &mv) in game.moves().iter().enumerate() {
        s.push_str(if i % 10 == 0 { "\n" } else { " " });
        s.push_str(&v.format_move(game.position_before(i), mv));
    }
    s.push('\n');
    s
}

/// Replays a record's moves; on an illegal move says which (1-based) and why.
pub fn replay(v: &dyn Variant, r: &Record) -> Result<Game, String> {
    let start: Position = match &r.start {
        Some(s) => v.parse_position(s).map_err(|e| format!("start position: {e}"))?,
        None => v.start_position(),
    };
    let mut game = Game::new(start);
    for (i, m) in r.moves.iter().enumerate() {
        let _: Move = game.play_str(v, m).map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_headers_and_moves_and_skips_numbers() {
        let r = parse("# x\nvariant shogi\nmoves 1. 7g7f 3c3d\n2. 8h2b+ 3a2b\n").unwrap();
        assert_eq!(r.variant.as_deref(), Some("shogi"));
        assert_eq!(r.moves, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
        assert!(parse("colour red").is_err());
    }
}
