//! [`PluginVariant`]: a [`Variant`] whose rules live in a plugin loaded into this process — used
//! only inside a plugin worker ([`super::worker`]); the host itself never maps a plugin.
//!
//! [`load`] maps a library and checks the ABI version before anything else, then the table, then
//! the description. Libraries are never unloaded: the table, the variant's static strings and any
//! thread-local state it registered would dangle (glibc cannot unload a library that registered a
//! TLS destructor anyway); a worker loads one library for its whole life.
//!
//! Each call writes the position as words, calls the table with host-owned buffers (growing
//! them when the plugin asks), and turns any failure — including a panic the plugin caught — into
//! a [`RuleError`] that names the plugin and the call. Notation runs on the host side from the
//! plugin's description, so moves and positions are written the same way for scripts and plugins.

use std::path::{Path, PathBuf};

use henka_api::abi::{
    ABI_VERSION, ABI_VERSION_SYMBOL, OutBuf, PluginTable, PositionRef, RawOutcome, Status, TABLE_SYMBOL, TextBuf,
    outcome_from_raw,
};
use henka_api::model::piece::MAX_PIECE_TYPES;
use henka_api::{Geometry, HistoryEntry, Move, Outcome, Position, RuleError, Variant, VariantInfo};
use libloading::Library;

use super::PluginError;
use super::protocol::WireMove;

/// Maps `file`, checks the ABI version before anything else, then the table, then the
/// description. `name` is the variant's name in messages.
pub fn load(file: &Path, name: String) -> Result<PluginVariant, PluginError> {
    let path = file.to_path_buf();
    // SAFETY: loading runs the library's initialisers. This runs in a worker process only, so
    // whatever the library does cannot take the host down (docs/architecture.md, Plugins).
    let lib =
        unsafe { Library::new(file) }.map_err(|e| PluginError::Load { path: path.clone(), message: e.to_string() })?;
    let not_a_plugin = |symbol: &std::ffi::CStr| PluginError::NotAPlugin {
        path: path.clone(),
        symbol: symbol.to_string_lossy().into_owned(),
    };
    // SAFETY: the symbol is declared `extern "C" fn() -> u32` by every ABI version.
    let version = unsafe { lib.get::<unsafe extern "C" fn() -> u32>(ABI_VERSION_SYMBOL) }
        .map_err(|_| not_a_plugin(ABI_VERSION_SYMBOL))?;
    // SAFETY: as above; the function takes nothing and returns an integer.
    let found = unsafe { version() };
    if found != ABI_VERSION {
        return Err(PluginError::AbiVersion { path, found, expected: ABI_VERSION, api: env!("CARGO_PKG_VERSION") });
    }
    // SAFETY: with the version agreed, the table symbol has this signature.
    let table_fn = unsafe { lib.get::<unsafe extern "C" fn() -> *const PluginTable>(TABLE_SYMBOL) }
        .map_err(|_| not_a_plugin(TABLE_SYMBOL))?;
    // SAFETY: returns a pointer to the plugin's static table (or null).
    let table = unsafe { table_fn() };
    // Never unloaded: the table below borrows from the library for the rest of the process.
    std::mem::forget(lib);
    // SAFETY: non-null tables are statics of the library, which is never unloaded.
    let table: &'static PluginTable = unsafe { table.as_ref() }
        .ok_or_else(|| PluginError::Table { path: path.clone(), message: "the function table is null".into() })?;
    check_table(table).map_err(|message| PluginError::Table { path: path.clone(), message })?;
    PluginVariant::new(table, name, path)
}

/// The checks that follow the version handshake: both sides must agree on the table and move
/// layouts, or a plugin built by a mismatched henka-api would read garbage.
fn check_table(t: &PluginTable) -> Result<(), String> {
    if t.struct_size != std::mem::size_of::<PluginTable>() {
        return Err(format!(
            "the function table is {} bytes, this henka expects {}",
            t.struct_size,
            std::mem::size_of::<PluginTable>()
        ));
    }
    if t.abi_version != ABI_VERSION {
        return Err(format!("the table says ABI version {}, the plugin said {ABI_VERSION}", t.abi_version));
    }
    if t.move_size as usize != std::mem::size_of::<Move>() {
        return Err(format!("moves are {} bytes in the plugin, {} here", t.move_size, size_of::<Move>()));
    }
    Ok(())
}

/// A move as the plugin wrote it: [`Move`]'s layout with the kind as a plain byte, so a plugin
/// that writes an unknown kind gives an error rather than an invalid enum.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct RawMove {
    kind: u8,
    piece: u8,
    from: u16,
    to: u16,
    via: u16,
}

const _: () = assert!(size_of::<RawMove>() == size_of::<Move>() && align_of::<RawMove>() == align_of::<Move>());

/// A variant served by a plugin's function table.
#[derive(Debug)]
pub struct PluginVariant {
    table: &'static PluginTable,
    /// The variant's name, for messages.
    name: String,
    info: VariantInfo,
    geometry: Geometry,
}

/// Room for the text of a typical call; larger results are asked for again.
const TEXT_START: usize = 4096;

impl PluginVariant {
    /// Reads and checks the plugin's description. `name` and `path` are for messages.
    pub fn new(table: &'static PluginTable, name: String, path: PathBuf) -> Result<PluginVariant, PluginError> {
        let bad = |message: String| PluginError::Description { path: path.clone(), message };
        let mut v = PluginVariant {
            table,
            name,
            info: VariantInfo {
                meta: Default::default(),
                geometry: henka_api::GeometrySpec::flat(1, 1),
                pieces: Vec::new(),
                hand_types: Vec::new(),
                start: String::new(),
                field: None,
                royals_per_side: None,
            },
            geometry: Geometry::new(&henka_api::GeometrySpec::flat(1, 1)).expect("a 1×1 board"),
        };
        // SAFETY: `describe` follows the table contract; the buffer is the one `call` passes.
        let json = v
            .call("describe", None::<&mut Vec<u8>>, |_, text| unsafe { (table.describe)(text) })
            .map_err(|e| bad(e.message))?;
        let info: VariantInfo = serde_json::from_str(&json).map_err(|e| bad(format!("{e}")))?;
        v.geometry = check_description(&info).map_err(bad)?;
        v.info = info;
        Ok(v)
    }

    /// Calls a table function until its output fits; returns the text it wrote.
    ///
    /// `f` gets an output buffer (moves or a position, when `moves` is given) and a text buffer,
    /// both valid for the call.
    fn call<T>(
        &self,
        what: &str,
        mut moves: Option<&mut Vec<T>>,
        mut f: impl FnMut(*mut OutBuf<T>, *mut TextBuf) -> Status,
    ) -> Result<String, RuleError> {
        let mut text: Vec<u8> = Vec::with_capacity(TEXT_START);
        loop {
            let mut tb = TextBuf { ptr: text.as_mut_ptr(), cap: text.capacity(), len: 0 };
            let mut mb = moves.as_mut().map(|m| {
                m.clear();
                OutBuf { ptr: m.as_mut_ptr(), cap: m.capacity(), len: 0 }
            });
            let mb_ptr = mb.as_mut().map_or(std::ptr::null_mut(), |b| b as *mut OutBuf<T>);
            let status = f(mb_ptr, &mut tb);
            let text_len = tb.len.min(tb.cap);
            // SAFETY: the plugin wrote `len <= cap` bytes into the buffer on every status that
            // carries text, and nothing on BUFFER_TOO_SMALL (then `len` is only read, below).
            if status != Status::BUFFER_TOO_SMALL {
                unsafe { text.set_len(text_len) };
            }
            let message = || String::from_utf8_lossy(&text).into_owned();
            match status {
                Status::OK => {
                    if let (Some(m), Some(b)) = (moves.as_mut(), mb) {
                        if b.len > b.cap {
                            return Err(self.error(what, "wrote more than the buffer holds".into()));
                        }
                        // SAFETY: the plugin wrote `len <= cap` moves (table contract).
                        unsafe { m.set_len(b.len) };
                    }
                    return Ok(message());
                }
                Status::BUFFER_TOO_SMALL => {
                    let mut grew = false;
                    if tb.len > tb.cap {
                        text.reserve(tb.len);
                        grew = true;
                    }
                    if let (Some(m), Some(b)) = (moves.as_mut(), mb)
                        && b.len > b.cap
                    {
                        m.reserve(b.len);
                        grew = true;
                    }
                    if !grew {
                        return Err(self.error(what, "asked for a larger buffer without saying how large".into()));
                    }
                }
                Status::BAD_INPUT => return Err(self.error(what, format!("rejected its input: {}", message()))),
                Status::RULE_ERROR => return Err(self.error(what, message())),
                Status::PANICKED => return Err(self.error(what, format!("panicked: {}", message()))),
                Status(other) => return Err(self.error(what, format!("returned the unknown status {other}"))),
            }
        }
    }

    fn error(&self, what: &str, message: String) -> RuleError {
        RuleError::new(format!("plugin {} ({what}): {message}", self.name))
    }
}

/// Checks a description (from a plugin, or from a worker) and builds its board: the geometry, the
/// piece table and the start position must all be sound before anything uses them.
pub fn check_description(info: &VariantInfo) -> Result<Geometry, String> {
    let geometry = Geometry::new(&info.geometry).map_err(|e| format!("board: {e}"))?;
    check_pieces(info)?;
    henka_api::notation::parse_position(info, &geometry, &info.start)
        .map_err(|e| format!("start position {:?}: {e}", info.start))?;
    Ok(geometry)
}

/// Cross-references in the piece table must point at pieces, and tokens must be writable.
fn check_pieces(info: &VariantInfo) -> Result<(), String> {
    let n = info.pieces.len();
    if n == 0 || n > MAX_PIECE_TYPES {
        return Err(format!("a variant has 1 to {MAX_PIECE_TYPES} piece types, this one {n}"));
    }
    for (i, p) in info.pieces.iter().enumerate() {
        if p.token.is_empty() || !p.token.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) {
            return Err(format!("piece {:?}: token {:?} must be capital letters (and digits)", p.name, p.token));
        }
        if p.promotes_to.is_some_and(|t| t as usize >= n) || p.demotes_to as usize >= n {
            return Err(format!("piece {:?} promotes or demotes to a type that does not exist", p.name));
        }
        if info.pieces[..i].iter().any(|q| q.written() == p.written()) {
            return Err(format!("two pieces are written {}", p.written()));
        }
    }
    if let Some(t) = info.hand_types.iter().find(|&&t| t as usize >= n) {
        return Err(format!("hand type {t} does not exist"));
    }
    Ok(())
}

impl Variant for PluginVariant {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let words = words(pos);
        let mut raw: Vec<RawMove> = Vec::with_capacity(256);
        // SAFETY (every call below): the table contract; the buffers are the ones `call` passes.
        // `RawMove` has `Move`'s layout (asserted above), and any byte is a valid `RawMove`.
        self.call("legal_moves", Some(&mut raw), |moves, text| unsafe {
            (self.table.legal_moves)(PositionRef::new(&words), moves.cast(), text)
        })?;
        out.clear();
        for m in raw {
            let wire = WireMove(m.kind, m.piece as u32, m.from as u32, m.to as u32, m.via as u32);
            out.push(
                wire.to_move(&self.info, &self.geometry)
                    .map_err(|e| self.error("legal_moves", format!("wrote {e}")))?,
            );
        }
        Ok(())
    }

    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        let words = words(pos);
        let mut next: Vec<u32> = Vec::with_capacity(words.len());
        self.call("play", Some(&mut next), |out, text| unsafe {
            (self.table.play)(PositionRef::new(&words), mv, out, text)
        })?;
        *pos = Position::from_words(&next, self.geometry.len(), self.info.pieces.len())
            .map_err(|e| self.error("play", format!("returned a bad position: {e}")))?;
        Ok(())
    }

    /// A failing plugin cannot answer; the error goes to stderr and the answer is "not in check".
    fn in_check(&self, pos: &Position) -> bool {
        let words = words(pos);
        let mut out = 0u8;
        let call = self.call("in_check", None::<&mut Vec<u8>>, |_, text| unsafe {
            (self.table.in_check)(PositionRef::new(&words), &mut out, text)
        });
        match call {
            Ok(_) => out != 0,
            Err(e) => {
                eprintln!("warning: {e}");
                false
            }
        }
    }

    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let words = words(pos);
        let mut raw = RawOutcome::default();
        let reason = self.call("outcome", None::<&mut Vec<u8>>, |_, text| unsafe {
            (self.table.outcome)(PositionRef::new(&words), history.as_ptr(), history.len(), &mut raw, text)
        })?;
        outcome_from_raw(raw, &reason).map_err(|e| self.error("outcome", e))
    }

    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        let words = words(pos);
        let mut nodes = 0u64;
        self.call("perft", None::<&mut Vec<u8>>, |_, text| unsafe {
            (self.table.perft)(PositionRef::new(&words), depth, &mut nodes, text)
        })?;
        Ok(nodes)
    }
}

/// A position as the ABI carries it.
fn words(pos: &Position) -> Vec<u32> {
    let mut w = Vec::new();
    pos.to_words(&mut w);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a description the way a plugin would (two-call pattern included).
    unsafe fn write(text: *mut TextBuf, json: &str) -> Status {
        // SAFETY: `call` passes a valid buffer.
        let b = unsafe { &mut *text };
        b.len = json.len();
        if json.len() > b.cap {
            return Status::BUFFER_TOO_SMALL;
        }
        // SAFETY: room for `cap >= len` bytes.
        unsafe { std::ptr::copy_nonoverlapping(json.as_ptr(), b.ptr, json.len()) };
        Status::OK
    }

    /// A table whose `describe` writes `$json`; the other functions come from a real table but
    /// are never called (`PluginVariant::new` only describes).
    macro_rules! describing {
        ($json:expr) => {{
            unsafe extern "C" fn describe(text: *mut TextBuf) -> Status {
                unsafe { write(text, $json) }
            }
            &*Box::leak(Box::new(PluginTable { describe, ..henka_api::abi::table::<Unused>() }))
        }};
    }

    /// Fills the rest of the test tables.
    struct Unused;
    impl henka_api::abi::Exported for Unused {
        type Variant = henka_api::kit::KitVariant;
        fn variant() -> &'static Self::Variant {
            unreachable!("only `describe` is called")
        }
    }

    fn refusal(table: &'static PluginTable) -> String {
        match PluginVariant::new(table, "probe".into(), "libprobe.so".into()) {
            Err(e @ PluginError::Description { .. }) => e.to_string(),
            other => panic!("expected a refused description, got {other:?}"),
        }
    }

    #[test]
    fn a_malformed_description_is_refused_with_what_is_wrong() {
        assert!(refusal(describing!("{not json")).contains("malformed variant description: key must be a string"));
        let bad_reference = describing!(
            r#"{"name":"X","geometry":{"files":3,"ranks":3},"start":"k2/3/K2 b - 1",
                "pieces":[{"name":"King","token":"K","royal":true,"demotes_to":0,"promotes_to":5}]}"#
        );
        assert!(refusal(bad_reference).contains("promotes or demotes to a type that does not exist"));
        let bad_start = describing!(
            r#"{"name":"X","geometry":{"files":3,"ranks":3},"start":"k2/3 b - 1",
                "pieces":[{"name":"King","token":"K","royal":true,"demotes_to":0}]}"#
        );
        assert!(refusal(bad_start).contains("start position"));
        let good = describing!(
            r#"{"name":"X","geometry":{"files":3,"ranks":3},"start":"k2/3/K2 b - 1",
                "pieces":[{"name":"King","token":"K","royal":true,"demotes_to":0}]}"#
        );
        assert!(PluginVariant::new(good, "probe".into(), "libprobe.so".into()).is_ok());
    }
}
