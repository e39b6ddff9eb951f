//! Perft suites as plain-text data files, one per variant, read by one shared harness.
//!
//! ```text
//! # comment
//! id startpos
//! position lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
//! perft 1 30
//! perft 2 900
//! ```
//! `position startpos` means the variant's start position.

// Perft suite files come from anyone: no indexing, slicing or arithmetic that could panic on them (issue #17).
#![deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

/// One case of a suite: a position and its expected counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub id: String,
    /// The position string, or `None` for the variant's start position.
    pub position: Option<String>,
    pub expected: Vec<(u32, u64)>,
    /// 1-based line of the `id` line, for messages.
    pub line: usize,
}

/// Reads a suite; errors name the line.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (line_no, raw) in (1usize..).zip(text.lines()) {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let current = cases.last_mut();
        match (key, current) {
            ("id", _) => {
                cases.push(PerftCase { id: rest.to_string(), position: None, expected: Vec::new(), line: line_no })
            }
            ("position", Some(c)) => c.position = (rest != "startpos").then(|| rest.to_string()),
            ("perft", Some(c)) => {
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|s| s.parse::<u32>().ok());
                let nodes = it.next().and_then(|s| s.replace('_', "").parse::<u64>().ok());
                match (depth, nodes) {
                    (Some(d), Some(nodes)) => c.expected.push((d, nodes)),
                    _ => return Err(format!("line {line_no}: expected `perft <depth> <nodes>`")),
                }
            }
            (_, None) => return Err(format!("line {line_no}: `{key}` before the first `id`")),
            _ => return Err(format!("line {line_no}: unknown keyword `{key}`")),
        }
    }
    Ok(cases)
}

// Tests index and count what they have just built: a panic there is a failing test, not a
// parser reached by input.
#[cfg(test)]
#[allow(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_suite() {
        let s = parse_suite(
            "# x\nid a\nposition startpos\nperft 1 30\nperft 2 900\nid b\nposition 9/9 b - 1\nperft 3 1_000\n",
        )
        .unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].position, None);
        assert_eq!(s[0].expected, vec![(1, 30), (2, 900)]);
        assert_eq!(s[1].expected, vec![(3, 1000)]);
        assert!(parse_suite("perft 1 2").is_err());
        assert!(parse_suite("id a\nperft x").is_err());
    }
}
