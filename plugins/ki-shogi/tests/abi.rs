//! The plugin as the host sees it: through the exported C table (`henka_api::export_variant!`),
//! with positions as words and moves as `#[repr(C)]` values. The description must be the
//! variant's own (the host compares it with the script's), and the calls must agree with the
//! engine called directly.

use henka_api::abi::{ABI_VERSION, MoveBuf, PluginTable, PositionRef, Status, TextBuf};
use henka_api::{Move, Piece, Position, Side, Variant, VariantInfo};
use ki_shogi::KiShogi;

unsafe extern "C" {
    fn henka_plugin_abi_version() -> u32;
    fn henka_plugin_table() -> *const PluginTable;
}

fn table() -> &'static PluginTable {
    // SAFETY: the symbols are this crate's exports; the table is a static.
    unsafe {
        assert_eq!(henka_plugin_abi_version(), ABI_VERSION);
        &*henka_plugin_table()
    }
}

fn text_buf(room: &mut Vec<u8>) -> TextBuf {
    TextBuf { ptr: room.as_mut_ptr(), cap: room.len(), len: 0 }
}

#[test]
fn the_description_is_the_variants() {
    let mut room = vec![0u8; 1 << 16];
    let mut text = text_buf(&mut room);
    // SAFETY: `text` describes `room`.
    assert_eq!(unsafe { (table().describe)(&mut text) }, Status::OK);
    let info: VariantInfo = serde_json::from_slice(&room[..text.len]).unwrap();
    assert_eq!(&info, KiShogi::new().info());
    let field = info.field.expect("a field variant");
    assert!(field.compass && !field.unbounded);
    assert_eq!(info.hand_types, [0, 1, 7]);
    assert_eq!(info.start, "b - b:GHK,w:GHK -");
}

#[test]
fn calls_through_the_table_agree_with_the_engine() {
    let v = KiShogi::new();
    let s = "b bGyoku@7,7;bHi@8,6;bMyou@7,6;wGyoku@9,8;wCho@9,7;wMyou@9,9 b:-,w:- - 9";
    let pos = v.parse_position(s).unwrap();
    let at = words(&pos);
    let mut moves = vec![Move::pass(); 256];
    let mut buf = MoveBuf { ptr: moves.as_mut_ptr(), cap: moves.len(), len: 0 };
    let mut room = vec![0u8; 4096];
    let mut text = text_buf(&mut room);
    // SAFETY: the buffers describe `moves` and `room`; the words outlive the call.
    assert_eq!(unsafe { (table().legal_moves)(PositionRef::new(&at), &mut buf, &mut text) }, Status::OK);
    let mut direct = Vec::new();
    v.legal_moves(&pos, &mut direct).unwrap();
    assert_eq!(&moves[..buf.len], &direct[..]);
    let mut nodes = 0u64;
    // SAFETY: as above.
    assert_eq!(unsafe { (table().perft)(PositionRef::new(&at), 4, &mut nodes, &mut text) }, Status::OK);
    assert_eq!(nodes, 4110, "the script's count (host/tests/perft/ki-shogi.perft, seed-after-4)");
    // Bad input comes back as an error with its reason, not a crash.
    let mut bad = pos.clone();
    bad.set(v.geometry().cell(1, 1, 0).unwrap(), Some(Piece::new(0, Side::First)));
    let bad = words(&bad);
    // SAFETY: as above.
    let status = unsafe { (table().perft)(PositionRef::new(&bad), 1, &mut nodes, &mut text) };
    assert_eq!(status, Status::RULE_ERROR);
    assert!(String::from_utf8_lossy(&room[..text.len]).contains("two Gyoku"));
}

fn words(pos: &Position) -> Vec<u32> {
    let mut w = Vec::new();
    pos.to_words(&mut w);
    w
}
