//! Every type alone on the empty board at the centre (m13, `13m`), moving as Sente: the number of
//! its moves, derived by hand from its XBetza.
//!
//! From m13 every line runs 12 squares to the edge, so an unlimited slide is 12 squares per
//! direction (R or B = 48, Q = 96). A pass is a move (counter 0, neighbours empty); there is
//! nothing to capture, so no igui or locust move. Leaps onto a slide's squares are the same moves.
//! Hook destinations (§6.8), with the turn after a ≥1 leg a and a ≥1 leg b: orthogonal, every
//! square off both lines (24 × 24 = 576); diagonal, the points a·(1,1) + b·(1,−1) with
//! |a| + |b| ≤ 12, 66 per quadrant of signs (264), the Peacock's forward first leg reaching three
//! quadrants (198).

mod common;

use common::{position, sq};
use henka_api::Variant;
use taishin::Taishin;

#[rustfmt::skip]
const COUNTS: [(&str, usize); 163] = [
    // Steppers: one square in each listed direction.
    ("P", 1),        // fW
    ("D", 3),        // bFfW
    ("N", 8),        // N
    ("E", 2),        // vW
    ("O", 2),        // fF
    ("T", 3),        // fFbW
    ("I", 3),        // fFfW
    ("C", 4),        // fFvW
    ("S", 5),        // FfW
    ("(BT)", 7),     // FsbW
    ("(FL)", 6),     // FvW
    ("G", 6),        // WfF
    ("(CT)", 4),     // F
    ("(AB)", 4),     // W
    ("(EW)", 5),     // fFfsW
    ("(CO)", 4),     // bFvW
    ("(BD)", 5),     // fFsbW
    ("(OM)", 5),     // FbW
    ("(RN)", 6),     // WbF
    ("(FH)", 8),     // F2: 4 × 2
    ("(FN)", 8),     // W2: 4 × 2
    ("(RD)", 24),    // K3: 8 × 3
    ("(RV)", 24),    // vR: 2 × 12
    ("L", 14),       // fRbW2: 12 + 2
    ("(WL)", 48),    // bBvR: 4 × 12
    ("(WH)", 48),    // fBvR: 4 × 12
    ("(HD)", 13),    // fRbW: 12 + 1
    ("(KY)", 8),     // FD: 4 + 4
    ("(PH)", 8),     // WA: 4 + 4
    ("(WR)", 10),    // WfFA: 4 + 2 + 4
    ("(PS)", 10),    // FvWD: 4 + 2 + 4
    ("(LC)", 37),    // fRbWflbrB: 3 × 12 + 1
    ("(RC)", 37),    // fRbWfrblB: 3 × 12 + 1
    ("(SO)", 72),    // RbB: 6 × 12
    ("(SM)", 26),    // WsR: 24 + 2 (forward, back)
    ("(VM)", 26),    // WvR
    ("B", 48),       // B
    ("(SS)", 27),    // WsRfnD: 24 + back 1 + forward 2
    ("(VS)", 17),    // WfRsnD: 12 + back 1 + sideways 2 × 2
    ("R", 48),       // R
    ("(SC)", 28),    // sRvW2: 24 + 2 × 2
    ("(VC)", 28),    // vRsW2
    ("(DH)", 52),    // BW: 48 + 4
    ("(DK)", 52),    // RF: 48 + 4
    ("F", 60),       // RfB4bB2: 48 + 2 × 4 + 2 × 2
    ("W", 60),       // RbB4fB2
    ("H", 60),       // BsR4vR2
    ("A", 60),       // BvR4sR2
    ("(VF)", 56),    // BN: 48 + 8
    ("(VE)", 56),    // RN: 48 + 8
    ("(CS)", 76),    // BvRWnD: 48 + 24 + sideways 2 × 2 (nD ahead/behind is on vR)
    ("(MF)", 76),    // RfBbB2fD: 48 + 24 + 2 × 2; fD lies on the forward slide
    ("(LE)", 86),    // RlbfBrbB2lvA: 48 + 3 × 12 + 2; both lvA squares lie on slides
    ("(RE)", 86),    // RrbfBlbB2rvA
    ("(HF)", 87),    // BbsRfWfDfcavWfmabW: 48 + 36 + fW + fD + pass
    ("(SE)", 77),    // RbBfFfAfcavFfmabF: 48 + 24 + 2 fF + 2 fA + pass
    ("(LN)", 25),    // lion: the 24 squares of the 5×5 + pass
    ("(LD)", 25),    // lion dog: S1–S3 on 8 rays + pass
    ("Q", 96),       // Q
    ("(FE)", 97),    // QADcasFcafFmcabF: 96 (A, D on lines) + pass
    ("(LH)", 65),    // BWNADcaKmcabK: 48 + W 4 + N 8 + D 4 (A on B) + pass
    ("(BG)", 48),    // range-jumping B: on an empty board a bishop
    ("(RG)", 48),    // range-jumping R
    ("(VH)", 60),    // R3 + range-jumping B: 12 + 48
    ("(VD)", 60),    // B3 + range-jumping R
    ("(VA)", 52),    // D + range-jumping B: 4 + 48
    ("(GA)", 52),    // A + range-jumping R
    ("(WB)", 76),    // BsRWnD: 48 + 24 + forward/back 2 × 2
    ("(PC)", 226),   // bB2fBfmasB: 4 + 24 + 198 hook squares
    ("(CA)", 312),   // BmasB: 48 + 264
    ("(LT)", 7),     // FvrW
    ("(RT)", 7),     // FvlW
    ("(DV)", 7),     // lfbFW
    ("(DS)", 7),     // rfbFW
    ("(DE)", 7),     // FsfW
    ("(CP)", 8),     // K
    ("K", 16),       // K2
    ("(HK)", 82),    // BsRvW5: 48 + 24 + 2 × 5
    ("(HB)", 82),    // BvRsW5
    ("(FF)", 33),    // lion 24 + G, H leaps 8 + pass
    ("(VG)", 85),    // B 48 + 7×7 area 48 less its 12 diagonal squares + pass
    ("(GG)", 96),    // range-jumping Q
    ("(HT)", 70),    // jsR3jBjvR: sideways 2 × 2, diagonal 4 × 11, forward/back 2 × 11; no pass
    ("(FD)", 103),   // BsR 72 + area 48 less 12 diagonal and 6 sideways squares + pass
    ("(TG)", 316),   // WBmasB: 4 + 48 + 264
    ("(HM)", 624),   // RmasR: 48 + 576, every square but its own
    // Promoted types.
    ("+P", 6),       // WfF
    ("+D", 36),      // bBfR: 24 + 12
    ("+N", 27),      // WsRfnD
    ("+E", 24),      // vR
    ("+O", 28),      // sRvW2
    ("+T", 28),      // vRsW2
    ("+I", 17),      // WfRsnD
    ("+C", 26),      // WsR
    ("+S", 26),      // WvR
    ("+(BT)", 30),   // KvR: 24 + 6 other king steps
    ("+(FL)", 48),   // B
    ("+G", 48),      // R
    ("+(CT)", 48),   // B
    ("+(AB)", 48),   // R
    ("+(EW)", 30),   // KsR: 24 + 6
    ("+(CO)", 48),   // bBvR
    ("+(BD)", 85),   // BsfRbW: 48 + 36 + 1
    ("+(OM)", 85),   // BsbRfW
    ("+(RN)", 72),   // RbB
    ("+(FH)", 56),   // BN
    ("+(FN)", 56),   // RN
    ("+(RD)", 25),   // lion dog
    ("+(RV)", 48),   // bBvR
    ("+L", 48),      // fBvR
    ("+(WL)", 52),   // bBvRsR2: 48 + 4
    ("+(WH)", 52),   // fBvRsR2
    ("+(HD)", 24),   // K3
    ("+(KY)", 25),   // lion
    ("+(PH)", 96),   // Q
    ("+(WR)", 316),  // tengu
    ("+(PS)", 624),  // hook mover
    ("+(LC)", 41),   // KrvBrR: 3 × 12 + 5 other king steps
    ("+(RC)", 41),   // KlvBlR
    ("+(SO)", 72),   // RfB
    ("+(SM)", 72),   // BsR
    ("+(VM)", 72),   // BvR
    ("+B", 52),      // BW
    ("+(SS)", 76),   // BsRWnD
    ("+(VS)", 76),   // BvRWnD
    ("+R", 52),      // RF
    ("+(SC)", 82),   // BsRvW5
    ("+(VC)", 82),   // BvRsW5
    ("+(DH)", 87),   // horned falcon
    ("+(DK)", 77),   // soaring eagle
    ("+F", 88),      // kirin master: B 48 + bsR 36 + fW fD fH + pass
    ("+W", 79),      // phoenix master: R 48 + bB 24 + 2 × (fF fA fG) + pass
    ("+H", 65),      // BWaKmabK: 48 + 4 + 24 (5×5) less 8 diagonal, 4 orthogonal + pass
    ("+A", 65),      // RFaKmabK: 48 + 4 + 24 less 8 orthogonal, 4 diagonal + pass
    ("+(VF)", 60),   // violent horse
    ("+(VE)", 60),   // violent dragon
    ("+(CS)", 70),   // heavenly tetrarch
    ("+(MF)", 87),   // horned falcon
    ("+(LE)", 77),   // soaring eagle
    ("+(RE)", 77),   // soaring eagle
    ("+(HF)", 48),   // bishop general
    ("+(SE)", 48),   // rook general
    ("+(LN)", 65),   // lion hawk
    ("+(LD)", 33),   // furious fiend
    ("+Q", 97),      // free eagle
    ("+(FE)", 97),   // QDcasWcafWmcabW: 96 (D on lines) + pass
    ("+(LH)", 65),   // RFNADcaKmcabK: 48 + F 4 + N 8 + A 4 (D on R) + pass
    ("+(BG)", 85),   // vice general
    ("+(RG)", 96),   // great general
    ("+(VH)", 65),   // horse master: B 48 + 5×5 area 24 less 8 diagonal + pass
    ("+(VD)", 65),   // dragon master: R 48 + 24 less 8 orthogonal + pass
    ("+(VA)", 85),   // vice general
    ("+(GA)", 96),   // great general
    ("+(WB)", 103),  // fire demon
    ("+(PC)", 316),  // tengu
    ("+(CA)", 624),  // hook mover
    ("+(LT)", 49),   // shogun: 7×7 area 48 + pass
    ("+(RT)", 49),   // shogun
    ("+(DV)", 97),   // teaching king: Q 96 (S1–S3 on lines) + pass
    ("+(DS)", 105),  // divine dragon: Q 96 + N 8 + pass
    ("+(DE)", 8),    // prince: K
    ("+(CP)", 16),   // king: K2
    ("+K", 624),     // emperor: U, every square but its own
];

#[test]
fn every_type_alone_at_the_centre() {
    let v = Taishin::new();
    let mut wrong = Vec::new();
    for (written, expected) in COUNTS {
        let pos = position(&v, &[("m13", written)], "b");
        let got = v.piece_moves(&pos, sq("m13")).len();
        if got != expected {
            wrong.push(format!("{written}: {got}, expected {expected}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_table_covers_every_type_once() {
    let v = Taishin::new();
    let mut written: Vec<String> = v.info().pieces.iter().map(|p| p.written()).collect();
    let mut listed: Vec<String> = COUNTS.iter().map(|(w, _)| w.to_string()).collect();
    written.sort();
    listed.sort();
    assert_eq!(written, listed);
}

#[test]
fn gote_moves_are_sentes_turned_round() {
    // The centre is its own image under the 180° turn, so each Gote type has the same moves,
    // turned: m13 + v for Sente is m13 − v for Gote.
    let v = Taishin::new();
    let turned = |c: henka_api::Cell| 624 - c;
    for (written, _) in COUNTS {
        let sente = position(&v, &[("m13", written)], "b");
        let gote = position(&v, &[("m13", &written.to_ascii_lowercase())], "w");
        let mut expected: Vec<_> =
            v.piece_moves(&sente, sq("m13")).into_iter().map(|m| (turned(m.to), m.piece)).collect();
        let mut got: Vec<_> = v.piece_moves(&gote, sq("m13")).into_iter().map(|m| (m.to, m.piece)).collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{written}");
    }
}
