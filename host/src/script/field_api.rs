//! What scripts call for games on an open field of cubes (Ki Shogi): `v.cube(...)` and
//! `v.field(...)` on the builder, the `opposite` and `capture_faces` keys of a face, and the
//! `Field` object the `stranded` hook receives — a turn's end with the kit's support primitives,
//! through which the hook captures stranded pieces and sets grace marks.

use std::sync::{Arc, Mutex};

use henka_api::kit::Support;
use henka_api::model::field::{GRACE, SupportRule};
use henka_api::rules::{CubeRule, FieldRule, PieceRule};
use henka_api::{Cell, Geometry, Position as Pos, Side, VariantInfo, notation};
use rhai::{Array, Dynamic, Engine, EvalAltResult, Map, NativeCallContext, Position};

use super::api::{Declared, VariantBuilder};
use super::position_api::side_name;

type Res<T> = Result<T, Box<EvalAltResult>>;

fn fail<T>(msg: impl Into<String>) -> Res<T> {
    Err(msg.into().into())
}

/// A cube as declared: its faces by name.
#[derive(Clone, Debug)]
pub struct CubeDecl {
    pub name: String,
    pub letter: char,
    pub faces: Vec<String>,
}

/// A field as declared: relays by name.
#[derive(Clone, Debug)]
pub struct FieldDecl {
    pub rule: FieldRule,
    pub relays: Vec<String>,
}

/// A face's links to other faces, by name: the opposite and the capture choices.
#[derive(Clone, Debug, Default)]
pub struct FaceLinks {
    pub opposite: Option<String>,
    pub capture_faces: Vec<String>,
}

fn names(d: &Dynamic, what: &str) -> Res<Vec<String>> {
    let a = d.clone().try_cast::<Array>().ok_or_else(|| format!("`{what}` must be an array of piece names"))?;
    a.into_iter().map(|n| n.into_string().map_err(|t| format!("`{what}` holds piece names, not {t}").into())).collect()
}

fn check_keys(map: &Map, what: &str, allowed: &[&str]) -> Res<()> {
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => fail(format!("unknown key `{k}` in {what} (known: {})", allowed.join(", "))),
        None => Ok(()),
    }
}

fn get_int(map: &Map, key: &str, lo: i64, hi: i64) -> Res<Option<u8>> {
    match map.get(key).map(|d| d.as_int()) {
        None => Ok(None),
        Some(Ok(v)) if (lo..=hi).contains(&v) => Ok(Some(v as u8)),
        Some(_) => fail(format!("`{key}` must be a whole number from {lo} to {hi}")),
    }
}

fn get_bool(map: &Map, key: &str) -> Res<bool> {
    map.get(key)
        .map_or(Ok(false), |d| d.as_bool().map_err(|t| format!("`{key}` must be true or false, not {t}").into()))
}

/// Reads a face's `opposite` and `capture_faces` keys.
pub fn face_links(m: &Map) -> Res<FaceLinks> {
    let opposite = match m.get("opposite") {
        None => None,
        Some(d) => Some(d.clone().into_string().map_err(|t| format!("`opposite` is a piece name, not {t}"))?),
    };
    let capture_faces = m.get("capture_faces").map_or(Ok(Vec::new()), |d| names(d, "capture_faces"))?;
    Ok(FaceLinks { opposite, capture_faces })
}

/// `v.cube(#{ name, letter, faces })`.
fn cube(ctx: NativeCallContext, b: &mut VariantBuilder, m: Map) -> Res<()> {
    check_keys(&m, "a cube", &["name", "letter", "faces"])?;
    let name = m.get("name").and_then(|d| d.clone().into_string().ok()).ok_or("a cube needs a `name`")?;
    let letter: Vec<char> =
        m.get("letter").and_then(|d| d.clone().into_string().ok()).unwrap_or_default().chars().collect();
    let [letter] = letter[..] else {
        return fail(format!("cube {name:?} needs a one-letter `letter` (its hand letter)"));
    };
    if !letter.is_ascii_uppercase() {
        return fail(format!("cube {name:?}: `letter` must be a capital letter"));
    }
    let faces = names(m.get("faces").ok_or_else(|| format!("cube {name:?} needs `faces`"))?, "faces")?;
    b.cubes.push(Declared { value: CubeDecl { name, letter, faces }, at: ctx.call_position() });
    Ok(())
}

/// `v.field(#{ unbounded, placement_distance, royal_distance, support, notation })`.
fn field(ctx: NativeCallContext, b: &mut VariantBuilder, m: Map) -> Res<()> {
    check_keys(&m, "field", &["unbounded", "placement_distance", "royal_distance", "support", "notation"])?;
    let s: Map = match m.get("support") {
        None => Map::new(),
        Some(d) => d.clone().try_cast::<Map>().ok_or("`support` must be a map")?,
    };
    check_keys(&s, "`support`", &["relays", "relay_reach", "relay_anchor", "moves_end_supported"])?;
    let relays = s.get("relays").map_or(Ok(Vec::new()), |d| names(d, "relays"))?;
    let anchor = s.get("relay_anchor").map(|d| d.to_string());
    let relay_anchor_own = match anchor.as_deref() {
        None | Some("either") => false,
        Some("own") => true,
        Some(o) => return fail(format!("`relay_anchor` is \"either\" or \"own\", not {o:?}")),
    };
    let compass = match m.get("notation").map(|d| d.to_string()).as_deref() {
        None | Some("coordinates") => false,
        Some("compass") => true,
        Some(o) => return fail(format!("`notation` is \"coordinates\" or \"compass\", not {o:?}")),
    };
    let rule = FieldRule {
        unbounded: get_bool(&m, "unbounded")?,
        placement_distance: get_int(&m, "placement_distance", 1, 100)?.ok_or("`field` needs `placement_distance`")?,
        royal_distance: get_int(&m, "royal_distance", 0, 100)?.unwrap_or(0),
        support: SupportRule {
            relays: Vec::new(),
            relay_reach: get_int(&s, "relay_reach", 0, 100)?.unwrap_or(0),
            relay_anchor_own,
            moves_end_supported: get_bool(&s, "moves_end_supported")?,
        },
        compass,
    };
    b.field = Some(Declared { value: FieldDecl { rule, relays }, at: ctx.call_position() });
    Ok(())
}

/// Turns the declared cubes, face links and field into rule data, names into indices.
pub fn resolve(
    b: &VariantBuilder,
    pieces: &mut [PieceRule],
) -> Result<(Vec<CubeRule>, Option<FieldRule>), (Position, String)> {
    let index = |name: &str, at: Position| {
        pieces.iter().position(|p| p.name == name).ok_or((at, format!("no piece is named {name:?}")))
    };
    let mut links = Vec::new();
    for (i, l) in b.face_links.iter().enumerate() {
        let at = b.pieces[i].at;
        let opposite = l.opposite.as_deref().map(|n| index(n, at)).transpose()?;
        let capture: Vec<usize> = l.capture_faces.iter().map(|n| index(n, at)).collect::<Result<_, _>>()?;
        links.push((opposite, capture));
    }
    let cubes = (b.cubes.iter())
        .map(|c| {
            let faces = c.value.faces.iter().map(|n| index(n, c.at)).collect::<Result<_, _>>()?;
            Ok(CubeRule { name: c.value.name.clone(), letter: c.value.letter, faces })
        })
        .collect::<Result<Vec<_>, (Position, String)>>()?;
    let field = match &b.field {
        None => None,
        Some(f) => {
            let mut rule = f.value.rule.clone();
            rule.support.relays = f.value.relays.iter().map(|n| index(n, f.at)).collect::<Result<_, _>>()?;
            Some(rule)
        }
    };
    for (p, (opposite, capture)) in pieces.iter_mut().zip(links) {
        p.opposite = opposite;
        p.capture_faces = capture;
    }
    Ok((cubes, field))
}

/// The end of a turn as the `stranded` hook sees it: read the field, capture stranded pieces, set
/// grace marks. Changes go through the kit's [`Support`], which refuses to capture a supported
/// piece; the kit copies the position back when the hook returns.
#[derive(Clone)]
pub struct Field {
    pub pos: Arc<Mutex<Pos>>,
    pub info: Arc<(VariantInfo, Geometry)>,
    pub support: Arc<Support>,
}

impl Field {
    fn cell(&self, name: &str) -> Res<Cell> {
        notation::parse_cell(&self.info.1, name).map_err(|e| e.to_string().into())
    }

    fn name(&self, c: Cell) -> Dynamic {
        notation::cell_name(&self.info.1, c).into()
    }

    fn pos(&self) -> std::sync::MutexGuard<'_, Pos> {
        self.pos.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn piece_at(&mut self, cell: &str) -> Res<Dynamic> {
        let c = self.cell(cell)?;
        let Some(p) = self.pos().piece_at(c) else { return Ok(Dynamic::UNIT) };
        let info = &self.info.0.pieces[p.ty as usize];
        let mut m = Map::new();
        m.insert("cell".into(), self.name(c));
        m.insert("name".into(), info.name.clone().into());
        m.insert("side".into(), side_name(p.side).into());
        m.insert("royal".into(), info.royal.into());
        m.insert("grace".into(), (p.flags & GRACE != 0).into());
        Ok(m.into())
    }

    fn unsupported(&mut self) -> Array {
        let cells = self.support.unsupported(&self.pos());
        cells.into_iter().map(|c| self.name(c)).collect()
    }

    fn supported(&mut self, cell: &str) -> Res<bool> {
        let c = self.cell(cell)?;
        let pos = self.pos();
        Ok(self.support.is_supported(&pos, &self.support.occupied(&pos), c))
    }

    fn neighbours(&mut self, cell: &str) -> Res<Array> {
        let c = self.cell(cell)?;
        Ok(self.support.neighbours(c).map(|n| self.name(n)).collect())
    }

    fn capture(&mut self, cell: &str) -> Res<()> {
        let c = self.cell(cell)?;
        let support = self.support.clone();
        support.capture(&mut self.pos(), c).map(drop).map_err(|e| format!("capture({cell:?}): {e}").into())
    }

    fn set_grace(&mut self, cell: &str, on: bool) -> Res<()> {
        let c = self.cell(cell)?;
        let support = self.support.clone();
        support.set_grace(&mut self.pos(), c, on).map_err(|e| format!("set_grace({cell:?}): {e}").into())
    }

    fn grace_cells(&mut self, side: &str) -> Res<Array> {
        let side = match side {
            "black" => Side::First,
            "white" => Side::Second,
            o => return fail(format!("a side is \"black\" or \"white\", not {o:?}")),
        };
        let cells = self.support.grace_cells(&self.pos(), side);
        Ok(cells.into_iter().map(|c| self.name(c)).collect())
    }
}

/// Registers the cube and field builder methods and the `Field` type.
pub fn register(engine: &mut Engine) {
    engine.register_fn("cube", cube).register_fn("field", field);
    engine
        .register_type_with_name::<Field>("Field")
        .register_get("side_to_move", |f: &mut Field| side_name(f.pos().side_to_move()).to_string())
        .register_fn("piece_at", Field::piece_at)
        .register_fn("unsupported", Field::unsupported)
        .register_fn("supported", Field::supported)
        .register_fn("neighbours", Field::neighbours)
        .register_fn("capture", Field::capture)
        .register_fn("set_grace", Field::set_grace)
        .register_fn("grace_cells", Field::grace_cells);
}
