//! Evaluation weights learnt from a variant's own games (`henka tune`), stored per script hash
//! and used by every searcher made for that exact script.
//!
//! Tuning is Texel tuning: the AI plays itself (seeded games on every core, as `henka playtest`
//! does), every quiet position after the random opening plies becomes a sample of the
//! evaluation's [features](super::eval::Evaluator::features) and the game's result for the side
//! to move, and a logistic regression of results on features gives the weights. The scale comes
//! from the untuned evaluation (one more regression, of results on its score), so tuned weights
//! stay in centipawns, and a ridge penalty pulls every weight towards its untuned value: a piece
//! that seldom changed hands keeps its estimate instead of running off on a handful of games.
//! The last plies of a decided game are left out (the result is forced there), and the weights
//! are bounded: piece values within a factor of three of the estimate, the other terms within
//! ±150 centipawns (proximity 0–300 %), so a small run cannot make the AI play absurdly. Files
//! written before a term existed read it as 0 (off).
//!
//! `henka tune --placement` learns a placement table ([`super::placement`]) instead, on top of the
//! values and terms as they are, from a teacher's verdicts ([`crate::playtest::placement_fit`]).
//!
//! Files live in `$XDG_CACHE_HOME/henka/eval/` (else `~/.cache/henka/eval/`), named
//! `<variant>-<script hash>.json`: a changed script has another hash and plays untuned until it
//! is tuned again. Scripts are matched to their hash by the script loader
//! ([`crate::script::script_hash_of`]), so the editor, `henka match`, `henka playtest` and `henka usi` all find the
//! weights through [`super::searcher_for`] without passing the hash around. Henka also ships
//! tuned files for some bundled scripts ([`BUNDLED`]); one in the cache comes first.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::{Context, Result};
use henka_api::{PieceId, Variant};
use serde::{Deserialize, Serialize};

use super::eval::{Evaluator, Terms};
use super::placement::Placement;
use super::search::Searcher;
use super::values::PieceValues;

/// A variant's tuned evaluation, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedEval {
    /// The variant's name, and its script's content hash in hex.
    pub variant: String,
    pub script_hash: String,
    /// The piece tokens by id (for people reading the file, and a check that it fits).
    pub pieces: Vec<String>,
    /// Values on the board and in hand, in centipawns, by piece id.
    pub board: Vec<i32>,
    pub hand: Vec<i32>,
    pub terms: Terms,
    /// A learnt placement table ([`super::placement`]), as readable lines; none in files
    /// written before it existed or by a tuning run without `--placement`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement: Vec<String>,
    /// How the placement table was fitted, where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement_fit: Option<PlacementFitReport>,
    /// The families of the placement table the fit left out (`henka tune --without`), by the
    /// word their lines start with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement_without: Vec<String>,
    /// The share of the games' results in the placement fit's targets (`henka tune
    /// --result-share`); 0, and not written, for the teacher's verdicts alone.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub placement_result_share: f64,
    /// What the weights were learnt from.
    pub games: u32,
    pub positions: usize,
    pub nodes_per_move: u64,
    /// Nodes of the teacher search per position; 0 (and files written before it) means the
    /// game results alone.
    #[serde(default)]
    pub teacher_nodes: u64,
    /// The engine that taught, where it was not Henka's own search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teacher: Option<String>,
    /// How many of the positions the teacher gave a verdict on (the rest: results alone).
    #[serde(default)]
    pub taught: usize,
    pub seed: u64,
}

/// Serde's test for a share not worth writing: files without one read it as 0.
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// What a placement fit used and how much it explained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacementFitReport {
    /// The positions the fit used: those the teacher judged and did not call decided.
    pub samples: usize,
    /// The share of the teacher's variance that the evaluation explained without and with the
    /// table, on positions held out of the fit.
    pub explained_before: f64,
    pub explained_after: f64,
}

impl TunedEval {
    pub fn values(&self) -> PieceValues {
        PieceValues::from_parts(self.board.clone(), self.hand.clone())
    }

    /// The evaluation these weights make for `v`.
    pub fn evaluator(&self, v: &dyn Variant) -> Evaluator {
        // `fits` has read the placement lines once already; a file that got here parses.
        let placement = (!self.placement.is_empty()).then(|| Placement::parse(v, &self.placement).ok()).flatten();
        Evaluator::with_terms(v, self.values(), self.terms).with_placement(placement)
    }

    /// Whether the weights fit `v`'s piece table (and its placement lines name its pieces and cells).
    fn fits(&self, v: &dyn Variant) -> bool {
        let n = v.info().pieces.len();
        self.board.len() == n && self.hand.len() == n && Placement::parse(v, &self.placement).is_ok()
    }
}

/// Where tuned evaluations live: `$XDG_CACHE_HOME/henka/eval`, else `~/.cache/henka/eval`.
pub fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("henka").join("eval"))
}

/// The file name for `variant_name` at script hash `hash`.
pub fn file_name(variant_name: &str, hash: u64) -> String {
    let slug: String = variant_name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .trim_matches('-')
        .to_string();
    format!("{}-{hash:016x}.json", if slug.is_empty() { "variant" } else { &slug })
}

/// Reads the tuned evaluation for `v` at `hash` from `dir`, if there is one that fits.
pub fn load_from(dir: &Path, v: &dyn Variant, hash: u64) -> Option<TunedEval> {
    let path = dir.join(file_name(&v.info().meta.name, hash));
    let text = std::fs::read_to_string(path).ok()?;
    let t: TunedEval = serde_json::from_str(&text).ok()?;
    t.fits(v).then_some(t)
}

/// The tuned evaluation for this variant's exact script: the one `henka tune` stored in the cache
/// folder, else the one Henka ships for that script (see [`BUNDLED`]).
pub fn for_variant(v: &Arc<dyn Variant>) -> Option<TunedEval> {
    let hash = crate::script::script_hash_of(v)?;
    cache_dir().and_then(|dir| load_from(&dir, v.as_ref(), hash)).or_else(|| bundled(v.as_ref(), hash))
}

/// Tuned evaluations shipped with Henka for its bundled scripts, as `henka tune` wrote them
/// (`scripts/tuned/`). Each names the script hash it was learnt for: an edited script no longer
/// matches and plays untuned until it is tuned again, as with files in the cache.
pub const BUNDLED: &[&str] =
    &[include_str!("../../../scripts/tuned/shogi.json"), include_str!("../../../scripts/tuned/ogi.json")];

/// The shipped tuned evaluation for `v`'s script at `hash`, if there is one.
fn bundled(v: &dyn Variant, hash: u64) -> Option<TunedEval> {
    static PARSED: OnceLock<Vec<TunedEval>> = OnceLock::new();
    let parsed = PARSED.get_or_init(|| BUNDLED.iter().filter_map(|text| serde_json::from_str(text).ok()).collect());
    let hash = format!("{hash:016x}");
    parsed.iter().find(|t| t.script_hash == hash && t.variant == v.info().meta.name && t.fits(v)).cloned()
}

/// Writes `t` into `dir` (created if need be); returns the file's path.
pub fn save_to(dir: &Path, v: &dyn Variant, hash: u64, t: &TunedEval) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join(file_name(&v.info().meta.name, hash));
    let text = serde_json::to_string_pretty(t)?;
    std::fs::write(&path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// A searcher for `v`: with its tuned evaluation when one is stored for its script, else with
/// `values` and the untuned terms.
pub fn searcher(v: Arc<dyn Variant>, values: PieceValues, table_mb: usize) -> Searcher {
    match for_variant(&v) {
        Some(t) => {
            let eval = t.evaluator(v.as_ref());
            Searcher::with_evaluator(v, eval, table_mb)
        }
        None => Searcher::new(v, values, table_mb),
    }
}

/// The piece ids a variant holds in hand and has on the board, for printing.
pub fn piece_rows(v: &dyn Variant) -> Vec<(PieceId, String)> {
    v.info().pieces.iter().enumerate().map(|(i, p)| (i as PieceId, p.written().to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shipped evaluation that no longer matches its script would silently stop being used:
    /// an edit to a bundled script must come with a new tuning run (or the file's removal).
    #[test]
    fn every_shipped_evaluation_fits_a_bundled_script_as_it_is() {
        assert_eq!(BUNDLED.len(), 2);
        for text in BUNDLED {
            let t: TunedEval = serde_json::from_str(text).expect("a shipped file parses");
            let loaded = crate::catalog::bundled_script(&t.variant.to_lowercase());
            let v: Arc<dyn Variant> = loaded.variant.clone();
            assert_eq!(
                t.script_hash,
                format!("{:016x}", loaded.content_hash),
                "{} was edited since it was tuned",
                t.variant
            );
            let found = bundled(v.as_ref(), loaded.content_hash).expect("found by its script");
            assert!(!found.placement.is_empty());
            assert!(found.evaluator(v.as_ref()).placement().is_some());
        }
    }

    #[test]
    fn file_names_carry_the_variant_and_the_hash() {
        assert_eq!(file_name("Minishogi", 0xab), "minishogi-00000000000000ab.json");
        assert_eq!(file_name("Ōgi (test)", 1), "gi--test-0000000000000001.json");
    }

    #[test]
    fn the_registry_knows_a_loaded_script_by_its_variant() {
        let loaded = crate::catalog::bundled_script("shogi");
        let v: Arc<dyn Variant> = loaded.variant.clone();
        assert_eq!(crate::script::script_hash_of(&v), Some(loaded.content_hash));
        let dir = std::env::temp_dir().join(format!("henka-tuned-unit-{}", std::process::id()));
        assert!(load_from(&dir, v.as_ref(), loaded.content_hash).is_none());
        let n = v.info().pieces.len();
        let t = TunedEval {
            variant: "Shogi".into(),
            script_hash: format!("{:016x}", loaded.content_hash),
            pieces: vec![String::new(); n],
            board: vec![100; n],
            hand: vec![120; n],
            terms: Terms {
                tropism: 50,
                royal_defenders: 5,
                royal_attackers: 7,
                advanced: 3,
                mobility: 4,
                king_danger: 2,
            },
            games: 0,
            positions: 0,
            nodes_per_move: 0,
            teacher_nodes: 0,
            teacher: None,
            taught: 0,
            seed: 0,
            placement: vec!["cell K 8h 150".into(), "hand P 2 -5".into()],
            placement_fit: Some(PlacementFitReport { samples: 90, explained_before: 0.3, explained_after: 0.6 }),
            placement_without: vec!["own".into()],
            placement_result_share: 0.25,
        };
        save_to(&dir, v.as_ref(), loaded.content_hash, &t).unwrap();
        assert_eq!(load_from(&dir, v.as_ref(), loaded.content_hash), Some(t));
        assert!(load_from(&dir, v.as_ref(), loaded.content_hash ^ 1).is_none(), "another script");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
