//! The standard shogi pieces as kit data, for compiled variants of the shogi family. The bundled
//! plugins (shogi, Okisaki, Ōgi) and the plugin template all share these pieces, so they are
//! written once here; the scripts spell the same pieces in Rhai.
//!
//! Each function returns a piece and, if it promotes, its promoted form, ready for
//! [`RuleSet::add`](super::RuleSet::add).

use super::rule_set::PieceRule;

/// A piece and its promoted form, if any.
pub type Pair = (PieceRule, Option<PieceRule>);

/// A piece type from a move definition fixed in source code.
///
/// # Panics
/// If `moves` is not valid Betza: a bug in the table that calls it, found by its first test.
pub fn piece(name: &str, token: &str, moves: &str) -> PieceRule {
    PieceRule::new(name, token, moves).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A piece that promotes to a Gold General's move, as the minor pieces do.
pub fn promotes_to_gold(base: PieceRule, name: &str, kanji: &str) -> Pair {
    let promoted = piece(name, &base.token, "WfF").kanji(kanji);
    (base, Some(promoted))
}

/// The King; `kanji` is 玉将 or 王将, as the variant writes it.
pub fn king(kanji: &str) -> Pair {
    (piece("King", "K", "K").kanji(kanji).royal(), None)
}

pub fn rook() -> Pair {
    (piece("Rook", "R", "R").kanji("飛車"), Some(piece("Dragon King", "R", "RF").kanji("龍王")))
}

pub fn bishop() -> Pair {
    (piece("Bishop", "B", "B").kanji("角行"), Some(piece("Dragon Horse", "B", "BW").kanji("龍馬")))
}

pub fn gold() -> Pair {
    (piece("Gold General", "G", "WfF").kanji("金将"), None)
}

pub fn silver() -> Pair {
    promotes_to_gold(piece("Silver General", "S", "FfW").kanji("銀将"), "Promoted Silver", "成銀")
}

/// The shogi Knight: the two narrow forward knight leaps.
pub fn knight() -> Pair {
    promotes_to_gold(piece("Knight", "N", "ffN").kanji("桂馬"), "Promoted Knight", "成桂")
}

pub fn lance() -> Pair {
    promotes_to_gold(piece("Lance", "L", "fR").kanji("香車"), "Promoted Lance", "成香")
}

/// The Pawn with nifu (one unpromoted Pawn per file); add `no_drop_mate` where the variant forbids
/// mate by a Pawn drop.
pub fn pawn() -> Pair {
    promotes_to_gold(piece("Pawn", "P", "fW").kanji("歩兵").one_per_file(), "Tokin", "と金")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promoted_forms_share_the_token_and_move_as_gold() {
        let (p, t) = pawn();
        let t = t.unwrap();
        assert_eq!((p.token.as_str(), t.token.as_str(), t.betza.as_str()), ("P", "P", "WfF"));
        assert!(p.one_per_file && !p.no_drop_mate);
        assert!(king("玉将").0.royal);
    }
}
