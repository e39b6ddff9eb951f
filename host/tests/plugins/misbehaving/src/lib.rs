//! A plugin that misbehaves on cue, for the host's isolation tests. The game is kings and a rook
//! on 3×3 (as the panicky fixture's); the cues are numbers a test can set:
//!
//! - `perft` of depth [`ABORT`], [`SEGFAULT`], [`EXIT`], [`HANG`]: aborts, writes through a null
//!   pointer, exits with status 0, loops forever; [`PRINT`]: prints junk to standard output, then
//!   answers 7;
//! - `legal_moves` of a position whose move number is [`BAD_CELL`], [`BAD_PIECE`], [`BAD_KIND`]:
//!   a move to a cell off the board, of a piece type that does not exist, of an unknown kind;
//! - `play` from a position whose move number is [`BAD_POSITION`]: a position holding a piece
//!   type that does not exist;
//! - `legal_moves` of a position whose move number is [`HANG_MOVES`] loops forever (so does an AI
//!   search from there);
//! - `legal_moves` or `play` aborts once if the file `$HOME/henka-test-crash-once` exists (deleting it
//!   first): a crash that a restarted worker does not repeat.
//!
//! The cues are far from anything a test plays by accident; otherwise it is a sound variant.

use henka_api::abi::{self, MoveBuf, OutBuf, PluginTable, PositionBuf, PositionRef, Status, TextBuf};
use henka_api::kit::KitVariant;
use henka_api::rules::RuleSet;
use henka_api::rules::shogi_pieces::piece;
use henka_api::{
    Geometry, GeometrySpec, HistoryEntry, Metadata, Move, Outcome, Position, RuleError, Variant, VariantInfo,
};

pub const ABORT: u32 = 101;
pub const SEGFAULT: u32 = 102;
pub const EXIT: u32 = 103;
pub const HANG: u32 = 104;
pub const PRINT: u32 = 105;
pub const BAD_CELL: u32 = 201;
pub const BAD_PIECE: u32 = 202;
pub const BAD_KIND: u32 = 203;
pub const BAD_POSITION: u32 = 204;
pub const HANG_MOVES: u32 = 301;

/// Kings and a rook on 3×3.
#[derive(Debug)]
pub struct Misbehaving(KitVariant);

impl Default for Misbehaving {
    fn default() -> Self {
        let meta = Metadata { name: "Misbehaving".into(), ..Metadata::default() };
        let rules = RuleSet {
            pieces: vec![piece("King", "K", "K").royal(), piece("Rook", "R", "R")],
            ..RuleSet::new(meta, GeometrySpec::flat(3, 3), "k2/3/KR1 b - 1")
        };
        Misbehaving(KitVariant::new(rules, None).expect("valid rules"))
    }
}

fn crash_once() {
    if let Some(home) = std::env::var_os("HOME") {
        let flag = std::path::Path::new(&home).join("henka-test-crash-once");
        if std::fs::remove_file(flag).is_ok() {
            std::process::abort();
        }
    }
}

impl Variant for Misbehaving {
    fn info(&self) -> &VariantInfo {
        self.0.info()
    }
    fn geometry(&self) -> &Geometry {
        self.0.geometry()
    }
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        crash_once();
        self.0.legal_moves(pos, out)?;
        match pos.move_number() {
            BAD_CELL => out[0].to = 99,
            BAD_PIECE => out[0].piece = 9,
            HANG_MOVES => loop {
                std::hint::spin_loop();
            },
            _ => {}
        }
        Ok(())
    }
    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        crash_once();
        self.0.play(pos, mv)
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.0.in_check(pos)
    }
    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        self.0.outcome(pos, history)
    }
    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        match depth {
            ABORT => std::process::abort(),
            SEGFAULT => {
                let null = std::hint::black_box(std::ptr::null_mut::<u64>());
                // SAFETY: none: this is the crash the test wants, in the worker.
                unsafe { null.write_volatile(1) };
                unreachable!("the write faults")
            }
            EXIT => std::process::exit(0),
            HANG => loop {
                std::hint::spin_loop();
            },
            PRINT => {
                use std::io::Write;
                let mut out = std::io::stdout();
                let _ = out.write_all(&[0xFF, 0xFF, 0xFF, 0x7F, b'{', b'!']);
                let _ = out.flush();
                println!("a plugin that prints");
                Ok(7)
            }
            _ => self.0.perft(pos, depth),
        }
    }
}

struct Plugin;
static VARIANT: std::sync::OnceLock<Misbehaving> = std::sync::OnceLock::new();
impl abi::Exported for Plugin {
    type Variant = Misbehaving;
    fn variant() -> &'static Misbehaving {
        VARIANT.get_or_init(Misbehaving::default)
    }
}

/// The table `export_variant!` would make, with the two calls that write raw garbage no
/// `Variant` can: a move of an unknown kind, a position with a piece type that does not exist.
const SOUND: PluginTable = abi::table::<Plugin>();
static TABLE: PluginTable = PluginTable { legal_moves, play, ..SOUND };

/// The move number of a position as the ABI passes it (its second word).
///
/// # Safety
/// `pos` is the host's, valid for the call.
unsafe fn move_number(pos: PositionRef) -> Option<u32> {
    // SAFETY: forwarded from the caller.
    (pos.len >= 2 && !pos.ptr.is_null()).then(|| unsafe { *pos.ptr.add(1) })
}

/// Writes `data` into a host buffer, or asks for a larger one.
///
/// # Safety
/// `buf` is the host's, valid for the call.
unsafe fn write<T: Copy>(buf: *mut OutBuf<T>, data: &[T]) -> Status {
    // SAFETY: forwarded from the caller.
    let b = unsafe { &mut *buf };
    b.len = data.len();
    if data.len() > b.cap {
        return Status::BUFFER_TOO_SMALL;
    }
    // SAFETY: room for `cap >= len` elements.
    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), b.ptr, data.len()) };
    Status::OK
}

unsafe extern "C" fn legal_moves(pos: PositionRef, moves: *mut MoveBuf, text: *mut TextBuf) -> Status {
    // SAFETY: the host's buffers (table contract).
    unsafe {
        if move_number(pos) == Some(BAD_KIND) {
            // A board move of kind 7: Move's layout, written as bytes.
            let raw: [u8; 8] = [7, 0, 0, 0, 1, 0, 0xFF, 0xFF];
            return write(moves.cast::<OutBuf<[u8; 8]>>(), &[raw]);
        }
        (SOUND.legal_moves)(pos, moves, text)
    }
}

unsafe extern "C" fn play(pos: PositionRef, mv: Move, next: *mut PositionBuf, text: *mut TextBuf) -> Status {
    // SAFETY: the host's buffers (table contract).
    unsafe {
        if move_number(pos) == Some(BAD_POSITION) {
            let mut words = std::slice::from_raw_parts(pos.ptr, pos.len).to_vec();
            // The first cell (after the header) holds piece type 77.
            let header = words.len() - 9 - 4;
            words[header] = 1 + 77;
            return write(next, &words);
        }
        (SOUND.play)(pos, mv, next, text)
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn henka_plugin_abi_version() -> u32 {
    abi::ABI_VERSION
}

#[unsafe(no_mangle)]
pub extern "C" fn henka_plugin_table() -> *const PluginTable {
    &TABLE
}
