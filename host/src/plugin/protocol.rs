//! The protocol between the host and a plugin worker (`henka plugin-worker`): what crosses the
//! pipes, how it is framed, and how every value that comes back is checked before the host uses
//! it.
//!
//! Frames are a 4-byte little-endian length, then that many bytes of JSON (serde_json). A frame
//! longer than [`MAX_FRAME`] is refused before anything is read into memory, so a garbage length
//! cannot make the host allocate gigabytes. The first frame each way is the handshake ([`Hello`],
//! [`Welcome`]), a struct of its own that every protocol version decodes the same way, so a
//! worker of another version is refused with both numbers rather than failing on a message it
//! cannot read.
//!
//! Positions cross as the plugin ABI's words ([`Position::to_words`]) and are read back with
//! [`Position::from_words`], which checks every cell, piece and hand; moves cross as five plain
//! integers ([`WireMove`]) and become [`Move`]s only through [`WireMove::to_move`], which checks
//! the kind, the piece id and every cell against the variant.

use std::io::{Read, Write};

use henka_api::model::geometry::NO_CELL;
use henka_api::{Geometry, HistoryEntry, Move, MoveKind, Position, VariantInfo};
use serde::{Deserialize, Serialize};

/// The version of this protocol. Host and worker are the same executable in normal use; the
/// number catches a worker started from another build (a stale `henka` beside a new one).
pub const PROTOCOL_VERSION: u32 = 2;

/// The largest frame either side accepts (a Taishin position is ~3 KB, its legal moves ~60 KB).
pub const MAX_FRAME: usize = 64 << 20;

/// The host's first frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u32,
    /// The library to load (the host's private copy of the plugin file).
    pub library: String,
    /// The plugin's variant name, for messages.
    pub name: String,
}

/// The worker's first frame: its version, and the variant's description once the library is
/// loaded (or why it could not be).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Welcome {
    pub protocol: u32,
    pub loaded: Result<VariantInfo, String>,
}

/// A move as five integers, read back only through [`WireMove::to_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireMove(pub u8, pub u32, pub u32, pub u32, pub u32);

impl From<Move> for WireMove {
    fn from(m: Move) -> WireMove {
        WireMove(m.kind as u8, m.piece as u32, m.from as u32, m.to as u32, m.via as u32)
    }
}

impl WireMove {
    /// The move, if every field fits the variant: a known kind, an existing piece type, cells on
    /// the board where the kind needs one and "no cell" where it has none.
    pub fn to_move(self, info: &VariantInfo, geometry: &Geometry) -> Result<Move, String> {
        let WireMove(kind, piece, from, to, via) = self;
        let kind = match kind {
            0 => MoveKind::Board,
            1 => MoveKind::Drop,
            2 => MoveKind::Pass,
            3 => MoveKind::Place,
            k => return Err(format!("a move of unknown kind {k}")),
        };
        if piece as usize >= info.pieces.len() {
            return Err(format!("a move of piece type {piece}; the variant has {} types", info.pieces.len()));
        }
        let cells = geometry.len() as u32;
        let none = NO_CELL as u32;
        let cell = |c: u32, what: &str| {
            if c < cells {
                Ok(c as u16)
            } else {
                Err(format!("a move whose {what} cell is {c}; the board has {cells}"))
            }
        };
        let no_cell = |c: u32, what: &str| {
            if c == none { Ok(NO_CELL) } else { Err(format!("a {kind:?} move with a {what} cell ({c})")) }
        };
        let (from, to, via) = match kind {
            MoveKind::Board => {
                (cell(from, "from")?, cell(to, "to")?, if via == none { NO_CELL } else { cell(via, "via")? })
            }
            MoveKind::Drop | MoveKind::Place => (no_cell(from, "from")?, cell(to, "to")?, no_cell(via, "via")?),
            MoveKind::Pass => (no_cell(from, "from")?, no_cell(to, "to")?, no_cell(via, "via")?),
        };
        Ok(Move { kind, piece: piece as u8, from, to, via })
    }
}

/// A position as words ([`Position::to_words`]).
pub fn position_words(pos: &Position) -> Vec<u32> {
    let mut w = Vec::new();
    pos.to_words(&mut w);
    w
}

/// The AI's evaluation and table settings, which a worker needs to search as the host would.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchSetup {
    pub board_values: Vec<i32>,
    pub hand_values: Vec<i32>,
    /// `tropism`, `royal_defenders`, `royal_attackers`, `advanced`, `mobility`, `king_danger`
    /// (see `ai::eval::Terms`).
    pub terms: [i32; 6],
    pub table_mb: usize,
    pub threads: usize,
    /// Forget what earlier searches learnt first.
    pub new_game: bool,
}

/// The search's limits; times in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireLimits {
    pub time_ms: Option<u64>,
    pub soft_time_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// A search report (`ai::Report`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireReport {
    pub depth: u32,
    pub seldepth: u32,
    /// Centipawns, or (with `mate`) mate in this many moves (negative: mated).
    pub score: i32,
    pub mate: bool,
    pub nodes: u64,
    pub elapsed_us: u64,
    pub pv: Vec<WireMove>,
}

/// What the host asks. Each request gets exactly one final [`Response`]; a search may send
/// [`Response::Progress`] frames before it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    LegalMoves {
        position: Vec<u32>,
    },
    Play {
        position: Vec<u32>,
        mv: WireMove,
    },
    InCheck {
        position: Vec<u32>,
    },
    Outcome {
        position: Vec<u32>,
        history: Vec<(u64, bool, WireMove)>,
    },
    /// A whole perft inside the worker: one request, the plugin's own speed.
    Perft {
        position: Vec<u32>,
        depth: u32,
    },
    /// The AI's whole search inside the worker, on the plugin loaded there.
    Search {
        position: Vec<u32>,
        history: Vec<(u64, bool, WireMove)>,
        limits: WireLimits,
        setup: SearchSetup,
    },
    /// Stops the running search (which then answers with what it has); ignored otherwise. It
    /// gets no answer of its own.
    Stop,
}

/// The worker's answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Response {
    Moves(Vec<WireMove>),
    Position(Vec<u32>),
    InCheck(bool),
    /// `ended`, `winner`, `reason` and the reason's text, as the plugin ABI's `RawOutcome`.
    Outcome {
        ended: u8,
        winner: u8,
        reason: u8,
        text: String,
    },
    Nodes(u64),
    /// A completed depth of a running search.
    Progress(WireReport),
    /// The search's answer: `None` when the side to move has no move.
    Searched(Option<WireReport>),
    /// The plugin's error (a rule error, a caught panic), as its message.
    Error(String),
}

/// History entries as triples.
pub fn wire_history(history: &[HistoryEntry]) -> Vec<(u64, bool, WireMove)> {
    history.iter().map(|h| (h.hash, h.in_check, h.played.into())).collect()
}

/// And back; every move is checked as a move of the variant.
pub fn history_from_wire(
    history: &[(u64, bool, WireMove)],
    info: &VariantInfo,
    geometry: &Geometry,
) -> Result<Vec<HistoryEntry>, String> {
    (history.iter())
        .map(|&(hash, in_check, mv)| Ok(HistoryEntry::new(hash, in_check).with_move(mv.to_move(info, geometry)?)))
        .collect()
}

/// Writes one frame.
pub fn write_frame<T: Serialize>(w: &mut impl Write, value: &T) -> std::io::Result<()> {
    let body = serde_json::to_vec(value).map_err(std::io::Error::other)?;
    if body.len() > MAX_FRAME {
        return Err(std::io::Error::other(format!("a frame of {} bytes is over the limit", body.len())));
    }
    w.write_all(&(body.len() as u32).to_le_bytes())?;
    w.write_all(&body)?;
    w.flush()
}

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The other side closed the pipe between frames.
    #[error("the pipe was closed")]
    Closed,
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    #[error("a frame of {0} bytes, over the limit of {MAX_FRAME}")]
    TooLong(usize),
    #[error("a frame that does not decode: {0}")]
    Garbage(String),
}

/// Reads one frame and decodes it.
pub fn read_frame<T: for<'de> Deserialize<'de>>(r: &mut impl Read) -> Result<T, FrameError> {
    let mut len = [0u8; 4];
    match r.read_exact(&mut len) {
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Err(FrameError::Closed),
        other => other?,
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(FrameError::TooLong(len));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    serde_json::from_slice(&body).map_err(|e| FrameError::Garbage(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use henka_api::GeometrySpec;

    fn board() -> (VariantInfo, Geometry) {
        let info = VariantInfo {
            meta: Default::default(),
            geometry: GeometrySpec::flat(3, 3),
            pieces: vec![serde_json::from_str(r#"{"name":"King","token":"K","royal":true,"demotes_to":0}"#).unwrap()],
            hand_types: Vec::new(),
            start: "k2/3/K2 b - 1".into(),
            field: None,
            royals_per_side: None,
        };
        let g = Geometry::new(&info.geometry).unwrap();
        (info, g)
    }

    #[test]
    fn moves_survive_the_wire_and_bad_ones_are_refused() {
        let (info, g) = board();
        for m in [Move::board(0, 4, 0), Move::drop(0, 8), Move::pass(), Move::place(0, 3)] {
            assert_eq!(WireMove::from(m).to_move(&info, &g), Ok(m));
        }
        let refused = |w: WireMove| w.to_move(&info, &g).unwrap_err();
        assert!(refused(WireMove(7, 0, 0, 1, NO_CELL as u32)).contains("unknown kind 7"));
        assert!(refused(WireMove(0, 3, 0, 1, NO_CELL as u32)).contains("piece type 3"));
        assert!(refused(WireMove(0, 0, 0, 9, NO_CELL as u32)).contains("to cell is 9"));
        assert!(refused(WireMove(0, 0, 0, 1, 40)).contains("via cell is 40"));
        assert!(refused(WireMove(1, 0, 2, 1, NO_CELL as u32)).contains("Drop move with a from cell"));
    }

    #[test]
    fn frames_round_trip_and_garbage_is_an_error() {
        let mut buf = Vec::new();
        write_frame(&mut buf, &Request::Perft { position: vec![1, 2, 3], depth: 4 }).unwrap();
        let back: Request = read_frame(&mut buf.as_slice()).unwrap();
        assert_eq!(back, Request::Perft { position: vec![1, 2, 3], depth: 4 });

        let huge = [0xFFu8, 0xFF, 0xFF, 0x7F, b'{'];
        assert!(matches!(read_frame::<Request>(&mut huge.as_slice()), Err(FrameError::TooLong(_))));
        let mut junk = 5u32.to_le_bytes().to_vec();
        junk.extend_from_slice(b"hello");
        assert!(matches!(read_frame::<Request>(&mut junk.as_slice()), Err(FrameError::Garbage(_))));
        assert!(matches!(read_frame::<Request>(&mut [1u8, 0].as_slice()), Err(FrameError::Closed)));
        let short = [9u8, 0, 0, 0, b'{'];
        assert!(matches!(read_frame::<Request>(&mut short.as_slice()), Err(FrameError::Io(_))));
    }
}
