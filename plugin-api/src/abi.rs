//! The C ABI between the host and a compiled plugin (a `cdylib`), and the plugin side of it.
//!
//! Only C-shaped values cross: integers, `#[repr(C)]` structs, raw pointers with lengths and
//! `extern "C"` function pointers. Rust's own layouts (`String`, `Vec`, trait objects) are not
//! stable between compilers, so they never cross (docs/architecture.md, "The plugin ABI").
//!
//! A plugin exports two symbols:
//! - [`ABI_VERSION_SYMBOL`] `() -> u32`, which the host calls *before* touching anything else, and
//!   refuses the plugin unless it returns [`ABI_VERSION`];
//! - [`TABLE_SYMBOL`] `() -> *const PluginTable`, the function table.
//!
//! What the table's functions exchange:
//! - the variant description ([`VariantInfo`](crate::VariantInfo)) as serde JSON, once, from `describe`;
//! - positions as 32-bit words ([`Position::to_words`]): a copy, not a parse, since the AI crosses
//!   the boundary several times in every node it searches;
//! - moves as the `#[repr(C)]` [`Move`] value, written into buffers the *caller* owns;
//! - text (results and error messages) in caller-owned byte buffers.
//!
//! Whoever allocates frees: the host owns every buffer, so no allocator crosses the boundary.
//! When a result does not fit, the function returns [`Status::BUFFER_TOO_SMALL`] with the needed
//! length in the buffer's `len`, and the caller grows the buffer and calls again.
//!
//! Every table function runs its body under [`std::panic::catch_unwind`]: a panic that unwound
//! into the host through `extern "C"` would abort the process, so it becomes
//! [`Status::PANICKED`] with the panic message instead.
//!
//! A plugin author writes only `impl Variant` and [`export_variant!`](crate::export_variant):
//!
//! ```ignore
//! henka_api::export_variant!(MyVariant, MyVariant::new());
//! ```

use std::ffi::CStr;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::model::error::RuleError;
use crate::model::moves::Move;
use crate::model::outcome::{EndReason, HistoryEntry, Outcome};
use crate::model::position::Position;
use crate::model::side::Side;
use crate::variant::Variant;

/// The version of this ABI. Bump it on *any* change to the table, the value types that cross, or
/// the meaning of a call; the host refuses a plugin built against another version.
pub const ABI_VERSION: u32 = 3;

/// `extern "C" fn() -> u32`: the plugin's ABI version. Read first, before the table.
pub const ABI_VERSION_SYMBOL: &CStr = c"henka_plugin_abi_version";

/// `extern "C" fn() -> *const PluginTable`: the plugin's function table (static, never freed).
pub const TABLE_SYMBOL: &CStr = c"henka_plugin_table";

/// The result of a table call. A plain integer rather than a Rust enum, so that a value the host
/// does not know (from a buggy plugin) is a status to report, not undefined behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct Status(pub u32);

impl Status {
    /// Done; outputs are valid.
    pub const OK: Status = Status(0);
    /// An output buffer is too small; its `len` says how much is needed. Nothing else changed.
    pub const BUFFER_TOO_SMALL: Status = Status(1);
    /// The input (a position string, a move) was rejected; the text buffer holds why.
    pub const BAD_INPUT: Status = Status(2);
    /// The variant's rules failed ([`RuleError`]); the text buffer holds the message.
    pub const RULE_ERROR: Status = Status(3);
    /// The plugin panicked; the text buffer holds the panic message.
    pub const PANICKED: Status = Status(4);
}

/// A borrowed position passed into a plugin, as [`Position::to_words`] writes it.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct PositionRef {
    pub ptr: *const u32,
    pub len: usize,
}

impl PositionRef {
    pub fn new(words: &[u32]) -> PositionRef {
        PositionRef { ptr: words.as_ptr(), len: words.len() }
    }

    /// # Safety
    /// `ptr` must point at `len` readable words that outlive `'a` (or `len` must be 0).
    unsafe fn as_words<'a>(self) -> Result<&'a [u32], String> {
        if self.len == 0 {
            return Ok(&[]);
        }
        if self.ptr.is_null() {
            return Err("null position pointer".into());
        }
        // SAFETY: the caller guarantees `len` readable words at `ptr`.
        Ok(unsafe { std::slice::from_raw_parts(self.ptr, self.len) })
    }
}

/// A caller-owned output buffer of `cap` elements; the callee sets `len`.
///
/// On success `len` elements were written. On [`Status::BUFFER_TOO_SMALL`] nothing was written
/// and `len` is the number needed.
#[derive(Debug)]
#[repr(C)]
pub struct OutBuf<T> {
    pub ptr: *mut T,
    pub cap: usize,
    pub len: usize,
}

/// Text out of a plugin: a result (JSON, a position string, a rule's reason) or an error message.
pub type TextBuf = OutBuf<u8>;
/// Moves out of a plugin.
pub type MoveBuf = OutBuf<Move>;
/// A position out of a plugin, as [`Position::to_words`] writes it.
pub type PositionBuf = OutBuf<u32>;

/// A game's result as C values: `ended` 0/1; `winner` 0 first, 1 second, 2 draw; `reason` one of
/// the `REASON_*` codes ([`REASON_RULE`]'s words are in the text buffer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct RawOutcome {
    pub ended: u8,
    pub winner: u8,
    pub reason: u8,
}

pub const REASON_CHECKMATE: u8 = 0;
pub const REASON_STALEMATE: u8 = 1;
pub const REASON_ROYAL_CAPTURED: u8 = 2;
pub const REASON_BARING: u8 = 3;
pub const REASON_REPETITION: u8 = 4;
pub const REASON_PERPETUAL_CHECK: u8 = 5;
pub const REASON_RULE: u8 = 6;

/// The plugin's functions. Every one returns a [`Status`]; `text` receives the result text or
/// the error message. All pointers are owned by the caller and valid for the call only.
#[derive(Debug)]
#[repr(C)]
pub struct PluginTable {
    /// `size_of::<PluginTable>()` as the plugin saw it: a second check that both sides agree.
    pub struct_size: usize,
    pub abi_version: u32,
    /// `size_of::<Move>()` as the plugin saw it.
    pub move_size: u32,
    /// The variant's [`VariantInfo`](crate::VariantInfo) as JSON.
    pub describe: unsafe extern "C" fn(text: *mut TextBuf) -> Status,
    /// The legal moves of the position (in any order).
    pub legal_moves: unsafe extern "C" fn(pos: PositionRef, moves: *mut MoveBuf, text: *mut TextBuf) -> Status,
    /// Plays a legal move; `next` receives the new position.
    pub play: unsafe extern "C" fn(pos: PositionRef, mv: Move, next: *mut PositionBuf, text: *mut TextBuf) -> Status,
    /// Whether the side to move's royal is attacked: `*out` = 0 or 1.
    pub in_check: unsafe extern "C" fn(pos: PositionRef, out: *mut u8, text: *mut TextBuf) -> Status,
    /// The game's result given the earlier positions (`history`, `len` entries, oldest first).
    pub outcome: unsafe extern "C" fn(
        pos: PositionRef,
        history: *const HistoryEntry,
        len: usize,
        out: *mut RawOutcome,
        text: *mut TextBuf,
    ) -> Status,
    /// Perft of `depth` plies from the position into `*out`.
    pub perft: unsafe extern "C" fn(pos: PositionRef, depth: u32, out: *mut u64, text: *mut TextBuf) -> Status,
}

/// Converts an [`Outcome`] to C values and the text of a variant-specific reason.
pub fn outcome_to_raw(o: &Option<Outcome>) -> (RawOutcome, String) {
    let Some(o) = o else {
        return (RawOutcome::default(), String::new());
    };
    let winner = match o.winner {
        Some(Side::First) => 0,
        Some(Side::Second) => 1,
        None => 2,
    };
    let (reason, text) = match &o.reason {
        EndReason::Checkmate => (REASON_CHECKMATE, String::new()),
        EndReason::Stalemate => (REASON_STALEMATE, String::new()),
        EndReason::RoyalCaptured => (REASON_ROYAL_CAPTURED, String::new()),
        EndReason::Baring => (REASON_BARING, String::new()),
        EndReason::Repetition => (REASON_REPETITION, String::new()),
        EndReason::PerpetualCheck => (REASON_PERPETUAL_CHECK, String::new()),
        EndReason::Rule(s) => (REASON_RULE, s.clone()),
    };
    (RawOutcome { ended: 1, winner, reason }, text)
}

/// Reads an outcome written by a plugin; an unknown code is an error, not a guess.
pub fn outcome_from_raw(raw: RawOutcome, text: &str) -> Result<Option<Outcome>, String> {
    if raw.ended == 0 {
        return Ok(None);
    }
    let winner = match raw.winner {
        0 => Some(Side::First),
        1 => Some(Side::Second),
        2 => None,
        w => return Err(format!("unknown winner code {w}")),
    };
    let reason = match raw.reason {
        REASON_CHECKMATE => EndReason::Checkmate,
        REASON_STALEMATE => EndReason::Stalemate,
        REASON_ROYAL_CAPTURED => EndReason::RoyalCaptured,
        REASON_BARING => EndReason::Baring,
        REASON_REPETITION => EndReason::Repetition,
        REASON_PERPETUAL_CHECK => EndReason::PerpetualCheck,
        REASON_RULE => EndReason::Rule(text.to_string()),
        r => return Err(format!("unknown end reason code {r}")),
    };
    Ok(Some(Outcome { winner, reason }))
}

// ---------------------------------------------------------------------------------------------
// The plugin side: turning an `impl Variant` into a table.

/// Implemented by [`export_variant!`](crate::export_variant) for a hidden marker type: how the
/// table's functions reach the plugin's one variant instance.
pub trait Exported: 'static {
    type Variant: Variant;
    /// The instance, built on first use.
    fn variant() -> &'static Self::Variant;
}

/// Why a call failed inside the plugin.
enum Failure {
    TooSmall,
    BadInput(String),
    Rule(RuleError),
}

impl From<RuleError> for Failure {
    fn from(e: RuleError) -> Failure {
        Failure::Rule(e)
    }
}

/// Copies `data` into a caller's buffer, or reports the length needed.
///
/// # Safety
/// `buf` must be null or point at a valid `OutBuf` whose `ptr` has room for `cap` elements.
unsafe fn write_out<T: Copy>(buf: *mut OutBuf<T>, data: &[T]) -> Result<(), Failure> {
    // SAFETY: the caller guarantees `buf` is null or valid.
    let Some(b) = (unsafe { buf.as_mut() }) else {
        return if data.is_empty() { Ok(()) } else { Err(Failure::TooSmall) };
    };
    b.len = data.len();
    if data.len() > b.cap {
        return Err(Failure::TooSmall);
    }
    if !data.is_empty() {
        // SAFETY: `ptr` has room for `cap >= data.len()` elements (caller's contract).
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), b.ptr, data.len()) };
    }
    Ok(())
}

/// Writes an error message, cut to fit (a message is never worth a second call).
///
/// # Safety
/// As [`write_out`].
unsafe fn write_message(text: *mut TextBuf, msg: &str) {
    // SAFETY: the caller guarantees `text` is null or valid.
    if let Some(b) = unsafe { text.as_mut() } {
        let mut n = msg.len().min(b.cap);
        while !msg.is_char_boundary(n) {
            n -= 1;
        }
        if n > 0 {
            // SAFETY: room for `cap >= n` bytes.
            unsafe { std::ptr::copy_nonoverlapping(msg.as_ptr(), b.ptr, n) };
        }
        b.len = n;
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Runs one exported call: catches panics and turns every failure into a status and a message.
///
/// # Safety
/// `text` must be null or a valid buffer (the table's contract).
unsafe fn guard(text: *mut TextBuf, body: impl FnOnce() -> Result<(), Failure>) -> Status {
    let (status, msg) = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return Status::OK,
        Ok(Err(Failure::TooSmall)) => return Status::BUFFER_TOO_SMALL,
        Ok(Err(Failure::BadInput(m))) => (Status::BAD_INPUT, m),
        Ok(Err(Failure::Rule(e))) => (Status::RULE_ERROR, e.to_string()),
        Err(payload) => (Status::PANICKED, panic_message(payload.as_ref())),
    };
    // SAFETY: forwarded from the caller.
    unsafe { write_message(text, &msg) };
    status
}

/// Reads the position argument of a call.
///
/// # Safety
/// As [`PositionRef::as_words`].
unsafe fn read_position<V: Variant>(v: &V, pos: PositionRef) -> Result<Position, Failure> {
    // SAFETY: forwarded from the caller.
    let words = unsafe { pos.as_words() }.map_err(Failure::BadInput)?;
    Position::from_words(words, v.geometry().len(), v.info().pieces.len())
        .map_err(|e| Failure::BadInput(format!("position: {e}")))
}

unsafe extern "C" fn describe<E: Exported>(text: *mut TextBuf) -> Status {
    // SAFETY (all table functions): the host passes buffers valid for the call (table contract).
    unsafe {
        guard(text, || {
            let json = serde_json::to_string(E::variant().info())
                .map_err(|e| Failure::Rule(RuleError::new(format!("cannot write the description: {e}"))))?;
            write_out(text, json.as_bytes())
        })
    }
}

unsafe extern "C" fn legal_moves<E: Exported>(pos: PositionRef, moves: *mut MoveBuf, text: *mut TextBuf) -> Status {
    unsafe {
        guard(text, || {
            let v = E::variant();
            let p = read_position(v, pos)?;
            let mut list = Vec::new();
            v.legal_moves(&p, &mut list)?;
            write_out(moves, &list)
        })
    }
}

unsafe extern "C" fn play<E: Exported>(
    pos: PositionRef,
    mv: Move,
    next: *mut PositionBuf,
    text: *mut TextBuf,
) -> Status {
    unsafe {
        guard(text, || {
            let v = E::variant();
            let mut p = read_position(v, pos)?;
            v.play(&mut p, mv)?;
            let mut words = Vec::new();
            p.to_words(&mut words);
            write_out(next, &words)
        })
    }
}

unsafe extern "C" fn in_check<E: Exported>(pos: PositionRef, out: *mut u8, text: *mut TextBuf) -> Status {
    unsafe {
        guard(text, || {
            let v = E::variant();
            let p = read_position(v, pos)?;
            let checked = v.in_check(&p);
            if let Some(o) = out.as_mut() {
                *o = checked as u8;
            }
            Ok(())
        })
    }
}

unsafe extern "C" fn outcome<E: Exported>(
    pos: PositionRef,
    history: *const HistoryEntry,
    len: usize,
    out: *mut RawOutcome,
    text: *mut TextBuf,
) -> Status {
    unsafe {
        guard(text, || {
            let v = E::variant();
            let p = read_position(v, pos)?;
            let history = if len == 0 || history.is_null() { &[] } else { std::slice::from_raw_parts(history, len) };
            let (raw, words) = outcome_to_raw(&v.outcome(&p, history)?);
            write_out(text, words.as_bytes())?;
            if let Some(o) = out.as_mut() {
                *o = raw;
            }
            Ok(())
        })
    }
}

unsafe extern "C" fn perft<E: Exported>(pos: PositionRef, depth: u32, out: *mut u64, text: *mut TextBuf) -> Status {
    unsafe {
        guard(text, || {
            let v = E::variant();
            let p = read_position(v, pos)?;
            let n = v.perft(&p, depth)?;
            if let Some(o) = out.as_mut() {
                *o = n;
            }
            Ok(())
        })
    }
}

/// The table for a plugin's variant; used by [`export_variant!`](crate::export_variant).
pub const fn table<E: Exported>() -> PluginTable {
    PluginTable {
        struct_size: std::mem::size_of::<PluginTable>(),
        abi_version: ABI_VERSION,
        move_size: std::mem::size_of::<Move>() as u32,
        describe: describe::<E>,
        legal_moves: legal_moves::<E>,
        play: play::<E>,
        in_check: in_check::<E>,
        outcome: outcome::<E>,
        perft: perft::<E>,
    }
}

/// Exports a variant from a plugin crate (`crate-type = ["cdylib"]`): the ABI version symbol and
/// the function table. The instance is built on first use by the given expression (default:
/// `Default::default()`); if building it panics, the host gets the panic message.
///
/// ```ignore
/// henka_api::export_variant!(MyVariant, MyVariant::new());
/// ```
#[macro_export]
macro_rules! export_variant {
    ($ty:ty) => {
        $crate::export_variant!($ty, <$ty as ::core::default::Default>::default());
    };
    ($ty:ty, $make:expr) => {
        const _: () = {
            struct Plugin;
            static VARIANT: ::std::sync::OnceLock<$ty> = ::std::sync::OnceLock::new();
            impl $crate::abi::Exported for Plugin {
                type Variant = $ty;
                fn variant() -> &'static $ty {
                    VARIANT.get_or_init(|| $make)
                }
            }
            static TABLE: $crate::abi::PluginTable = $crate::abi::table::<Plugin>();

            #[unsafe(no_mangle)]
            pub extern "C" fn henka_plugin_abi_version() -> u32 {
                $crate::abi::ABI_VERSION
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn henka_plugin_table() -> *const $crate::abi::PluginTable {
                &TABLE
            }
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::outcome::EndReason;

    #[test]
    fn outcomes_survive_the_round_trip() {
        let cases = [
            None,
            Some(Outcome::win(Side::First, EndReason::Checkmate)),
            Some(Outcome::win(Side::Second, EndReason::Baring)),
            Some(Outcome::draw(EndReason::Repetition)),
            Some(Outcome::win(Side::Second, EndReason::Rule("King reached the far rank".into()))),
        ];
        for o in cases {
            let (raw, text) = outcome_to_raw(&o);
            assert_eq!(outcome_from_raw(raw, &text).unwrap(), o);
        }
        assert!(outcome_from_raw(RawOutcome { ended: 1, winner: 9, reason: 0 }, "").is_err());
        assert!(outcome_from_raw(RawOutcome { ended: 1, winner: 0, reason: 99 }, "").is_err());
    }

    #[test]
    fn a_short_buffer_reports_the_length_needed_and_a_message_is_cut_to_fit() {
        let mut room = [0u8; 4];
        let mut b = TextBuf { ptr: room.as_mut_ptr(), cap: 4, len: 0 };
        // SAFETY: `b` describes `room`.
        assert!(matches!(unsafe { write_out(&mut b, b"too long") }, Err(Failure::TooSmall)));
        assert_eq!(b.len, 8);
        unsafe { write_message(&mut b, "ünïcode") };
        assert_eq!(std::str::from_utf8(&room[..b.len]).unwrap(), "ün");
    }
}
