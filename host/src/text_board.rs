//! A plain-text board for the terminal: file labels on top, rank labels on the right (as the
//! variant's notation names them), the first player's pieces in capitals and the second player's
//! in lower case, hands below; a board with levels is printed level by level.

use henka_api::{Position, Side, Variant, notation};

pub fn render(v: &dyn Variant, pos: &Position) -> String {
    let info = v.info();
    let g = v.geometry();
    let width = info.pieces.iter().map(|p| p.written().chars().count()).max().unwrap_or(1) + 1;
    let mut s = String::new();
    let hand = |side: Side| -> String {
        let items: Vec<String> = info
            .hand_types
            .iter()
            .filter(|&&t| pos.hand(side, t) > 0)
            .map(|&t| format!("{}×{}", info.pieces[t as usize].written(), pos.hand(side, t)))
            .collect();
        if items.is_empty() { "-".to_string() } else { items.join(" ") }
    };
    s.push_str(&format!("White's hand: {}\n", hand(Side::Second)));
    for l in 0..g.levels() as i32 {
        if g.levels() > 1 {
            s.push_str(&format!("level {}\n", notation::level_label(g, l)));
        }
        for f in 0..g.files() as i32 {
            s.push_str(&format!("{:>width$}", notation::file_label(g, f)));
        }
        s.push('\n');
        for r in (0..g.ranks() as i32).rev() {
            for f in 0..g.files() as i32 {
                let cell = match g.cell(f, r, l) {
                    None => " ".to_string(),
                    Some(c) => match pos.piece_at(c) {
                        None => "·".to_string(),
                        Some(p) => {
                            let w = info.pieces[p.ty as usize].written();
                            if p.side == Side::Second { w.to_ascii_lowercase() } else { w }
                        }
                    },
                };
                s.push_str(&format!("{cell:>width$}"));
            }
            s.push_str(&format!("  {}\n", notation::rank_label(g, r)));
        }
    }
    s.push_str(&format!("Black's hand: {}\n", hand(Side::First)));
    s
}
