//! What scripts can call: `variant(...)` and the builder's methods, and the `Position` type hooks
//! receive. Every builder call records where it was made, so errors found later (an unknown token
//! in the setup, a bad promotion) still point at the script line that caused them.

use henka_api::rules::betza::{self, Atom, Mode, Moves};
use henka_api::rules::directions;
use henka_api::rules::{
    BaringRule, CheckRule, EndRules, Limit, LimitScope, PieceRule, PromotionRule, ReachRule, RepetitionRule, RuleSet,
    StalemateRule,
};
use henka_api::{GeometrySpec, Metadata};
use rhai::{Array, Dynamic, Engine, EvalAltResult, FnPtr, Map, NativeCallContext, Position};

use super::field_api::{self, CubeDecl, FaceLinks, FieldDecl};
use super::position_api::{self, parse_vector};

type Res<T> = Result<T, Box<EvalAltResult>>;

fn fail<T>(msg: impl Into<String>) -> Res<T> {
    Err(msg.into().into())
}

/// The text of an error raised by our own checks (without Rhai's "Runtime error:" prefix).
fn text(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorRuntime(d, _) => d.to_string(),
        other => other.to_string(),
    }
}

/// A piece declaration and where it was made.
#[derive(Clone, Debug)]
pub struct Declared<T> {
    pub value: T,
    pub at: Position,
}

/// The most cells × piece types a variant may have: the move tables grow with both (and with the
/// rays' length), and a script must not make the host build tables it cannot hold. Taishin, the
/// largest bundled variant, has 625 × 163 ≈ 102,000.
pub const MAX_CELLS_TIMES_TYPES: usize = 250_000;

/// The definition a script builds and returns.
#[derive(Clone, Debug, Default)]
pub struct VariantBuilder {
    pub meta: Metadata,
    pub geometry: Option<GeometrySpec>,
    pub pieces: Vec<Declared<PieceRule>>,
    /// The AI's value of each piece where the script gives one (`value:`), by piece index. Kept
    /// beside the rules, not in them: it is advice to the playtest AI, not part of the game.
    pub values: Vec<Option<i32>>,
    pub promotion: PromotionRule,
    pub drops: bool,
    pub check: CheckRule,
    pub stalemate: StalemateRule,
    pub baring: BaringRule,
    pub repetition: RepetitionRule,
    pub pass_limit: u8,
    /// `rules(#{ royals: n })`: the most royal pieces a side may have on the board.
    pub royals_per_side: Option<u8>,
    /// The pieces the promotion zone applies to, when not all (by name).
    pub zone_pieces: Option<Declared<Vec<String>>>,
    pub setup: Option<Declared<String>>,
    pub hooks: Vec<Declared<(String, FnPtr)>>,
    /// The capture hook, `v.on_capture(…)`: the trigger piece names and the function.
    pub capture_hook: Option<Declared<(Vec<String>, FnPtr)>>,
    /// Movement callbacks, `v.on_moves(name, #{ reach }, …)`: the piece name, its reach, the function.
    pub move_callbacks: Vec<Declared<(String, Option<String>, FnPtr)>>,
    /// Drop callbacks, `v.on_drop(name, …)`.
    pub drop_callbacks: Vec<Declared<(String, FnPtr)>>,
    /// The move effect, `v.after_move([names], …)`: the movers it runs for (none: every move),
    /// when it runs and what it may change, and the function.
    pub effect: Option<Declared<(Vec<String>, EffectOptions, FnPtr)>>,
    pub declared_at: Position,
    /// Per piece (in `pieces` order): its `opposite` and `capture_faces`, if a cube face.
    pub face_links: Vec<FaceLinks>,
    pub cubes: Vec<Declared<CubeDecl>>,
    pub field: Option<Declared<FieldDecl>>,
    /// `v.win(…)`: the declared end rules, with the reach rule's piece names still unresolved.
    pub win: Option<Declared<WinDecl>>,
}

/// `v.after_move(#{ captures, counters_only }, …)`: only after moves that take a piece; an effect
/// that changes only counters and the turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EffectOptions {
    pub taking: bool,
    pub counters_only: bool,
}

/// The end rules as a script states them (`v.win(#{ reach: …, checks: n })`).
#[derive(Clone, Debug, Default)]
pub struct WinDecl {
    /// The reach rule: piece names (empty = the royals), zone depth, survives the reply.
    pub reach: Option<(Vec<String>, u8, bool)>,
    pub checks: u8,
}

/// Checks that a map has only known keys, so a typo is an error rather than a silent default.
fn check_keys(map: &Map, what: &str, allowed: &[&str]) -> Res<()> {
    for k in map.keys() {
        if !allowed.contains(&k.as_str()) {
            return fail(format!("unknown key `{k}` in {what} (known: {})", allowed.join(", ")));
        }
    }
    Ok(())
}

fn get_str(map: &Map, key: &str) -> Res<Option<String>> {
    match map.get(key) {
        None => Ok(None),
        Some(d) if d.is_string() => Ok(Some(d.clone().into_string()?)),
        Some(d) => fail(format!("`{key}` must be a string, not {}", d.type_name())),
    }
}

fn get_bool(map: &Map, key: &str) -> Res<bool> {
    match map.get(key) {
        None => Ok(false),
        Some(d) => d.as_bool().map_err(|t| format!("`{key}` must be true or false, not {t}").into()),
    }
}

fn get_int(map: &Map, key: &str) -> Res<Option<i64>> {
    match map.get(key) {
        None => Ok(None),
        Some(d) => d.as_int().map(Some).map_err(|t| format!("`{key}` must be a whole number, not {t}").into()),
    }
}

/// Sets `slot` from a string option that must be one of `choices`, if the key is present.
fn choose<T: Copy>(map: &Map, key: &str, slot: &mut T, choices: &[(&str, T)]) -> Res<()> {
    let Some(given) = get_str(map, key)? else { return Ok(()) };
    match choices.iter().find(|(name, _)| *name == given) {
        Some(&(_, value)) => {
            *slot = value;
            Ok(())
        }
        None => {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("{n:?}")).collect();
            fail(format!("`{key}` is one of {}, not {given:?}", names.join(", ")))
        }
    }
}

fn int_in(v: i64, lo: i64, hi: i64, what: &str) -> Res<u8> {
    if (lo..=hi).contains(&v) { Ok(v as u8) } else { fail(format!("{what} must be from {lo} to {hi} (got {v})")) }
}

fn get_mode(m: &Map) -> Res<Mode> {
    match get_str(m, "mode")?.as_deref() {
        None | Some("both") => Ok(Mode::BOTH),
        Some("move") => Ok(Mode::MOVE_ONLY),
        Some("capture") => Ok(Mode::CAPTURE_ONLY),
        Some(o) => fail(format!("`mode` must be \"both\", \"move\" or \"capture\", not {o:?}")),
    }
}

/// Reads `#{ slide: [...] }` or `#{ step: [...] }`: direction set names (`"orthogonal"`,
/// `"forward_triagonal"`, see [`directions`]) and explicit vectors, one string or vector alone or
/// an array of them; `range` limits a slide, `mode` as for a vector move.
fn direction_moves(m: &Map) -> Res<(String, Moves)> {
    check_keys(m, "a direction move", &["slide", "step", "range", "mode"])?;
    let (kind, dirs, range) = match (m.get("slide"), m.get("step")) {
        (Some(d), None) => ("slide", d, int_in(get_int(m, "range")?.unwrap_or(0), 0, 255, "`range`")?),
        (None, Some(d)) if !m.contains_key("range") => ("step", d, 1),
        (None, Some(_)) => return fail("`range` goes with `slide` (a step has range 1)"),
        _ => return fail("a direction move is either `slide: …` or `step: …`, not both"),
    };
    let items: Array = match dirs.clone().try_cast::<Array>() {
        // A lone vector `[0, 1, 0]` rather than a list of sets and vectors.
        Some(a) if a.first().is_some_and(|x| x.is_int()) => vec![dirs.clone()],
        Some(a) => a,
        None => vec![dirs.clone()],
    };
    let mode = get_mode(m)?;
    let mut words = Vec::new();
    let mut atoms: Vec<Atom> = Vec::new();
    for item in items {
        let vectors = if item.is_string() {
            let name = item.into_string()?;
            let Some(vs) = directions::named(&name) else {
                return fail(format!("unknown direction set {name:?} (known: {})", directions::names().join(", ")));
            };
            words.push(name);
            vs
        } else {
            let v = parse_vector(&item)?;
            words.push(format!("{:?}", [v.df, v.dr, v.dl]));
            vec![v]
        };
        for vector in vectors {
            let atom = Atom { vector, range, mode, lame: false, skip_first: false };
            if !atoms.contains(&atom) {
                atoms.push(atom);
            }
        }
    }
    if atoms.is_empty() {
        return fail(format!("`{kind}` names no direction"));
    }
    let range_text = if range > 1 { format!(" up to {range}") } else { String::new() };
    Ok((format!("{kind}{range_text} {}", words.join(", ")), Moves { atoms, paths: vec![] }))
}

/// Reads a `moves` value: a Betza string, a vector map, a direction map, or an array of these.
fn parse_moves(d: &Dynamic) -> Res<(String, Moves)> {
    if d.is_string() {
        let text = d.clone().into_string()?;
        // No data moves: the piece's moves come from a movement callback (`v.on_moves`).
        if text.is_empty() {
            return Ok((text, Moves::default()));
        }
        let moves = betza::parse(&text).map_err(|e| e.to_string())?;
        return Ok((text, moves));
    }
    if d.is_map() {
        let m = d.clone().cast::<Map>();
        if m.contains_key("slide") || m.contains_key("step") {
            return direction_moves(&m);
        }
        check_keys(&m, "a vector move", &["vector", "range", "mode"])?;
        let v = m.get("vector").ok_or("a vector move needs `vector: [files, ranks]` or `[files, ranks, levels]`")?;
        let vector = parse_vector(v)?;
        let range = int_in(get_int(&m, "range")?.unwrap_or(1), 0, 255, "`range`")?;
        let atom = Atom { vector, range, mode: get_mode(&m)?, lame: false, skip_first: false };
        let text = format!("{:?}", [vector.df, vector.dr, vector.dl]);
        return Ok((text, Moves { atoms: vec![atom], paths: vec![] }));
    }
    if d.is_array() {
        let mut text = Vec::new();
        let mut all = Moves::default();
        for item in d.clone().cast::<Array>() {
            let (t, m) = parse_moves(&item)?;
            text.push(t);
            for a in m.atoms {
                if !all.atoms.contains(&a) {
                    all.atoms.push(a);
                }
            }
            for p in m.paths {
                if !all.paths.contains(&p) {
                    all.paths.push(p);
                }
            }
        }
        return Ok((text.join(" + "), all));
    }
    fail(format!("`moves` must be a Betza string, a vector map or an array of them, not {}", d.type_name()))
}

fn piece_from_map(m: &Map, base_token: Option<&str>) -> Res<PieceRule> {
    let name = get_str(m, "name")?.ok_or("a piece needs a `name`")?;
    let token = match (get_str(m, "token")?, base_token) {
        (Some(t), _) => t,
        (None, Some(b)) => b.to_string(),
        (None, None) => {
            return fail(format!("piece {name:?} needs a `token` (its letter in positions)"));
        }
    };
    let moves = m.get("moves").ok_or_else(|| format!("piece {name:?} needs `moves`"))?;
    let (betza, parsed) = parse_moves(moves).map_err(|e| format!("piece {name:?}: {}", text(&e)))?;
    Ok(PieceRule {
        name,
        kanji: get_str(m, "kanji")?,
        token,
        betza,
        atoms: parsed.atoms,
        paths: parsed.paths,
        royal: get_bool(m, "royal")?,
        promotes_to: None,
        one_per_file: false,
        no_drop_mate: false,
        drop_immobile: false,
        zone_promotion: true,
        spares_protected_royals: get_bool(m, "spares_protected_royals")?,
        reversible_promotion: false,
        limit: None,
        opposite: None,
        capture_faces: Vec::new(),
    })
}

/// A piece's `value:` for the AI, in centipawns (a pawn ≈ 100).
fn get_value(m: &Map) -> Res<Option<i32>> {
    match get_int(m, "value")? {
        None => Ok(None),
        Some(v) if (0..=100_000).contains(&v) => Ok(Some(v as i32)),
        Some(v) => fail(format!("`value` must be from 0 to 100000 (got {v})")),
    }
}

impl VariantBuilder {
    fn piece(ctx: NativeCallContext, b: &mut VariantBuilder, m: Map) -> Res<()> {
        check_keys(
            &m,
            "a piece",
            &[
                "name",
                "kanji",
                "token",
                "moves",
                "royal",
                "spares_protected_royals",
                "promotes",
                "drop",
                "limit",
                "value",
                "opposite",
                "capture_faces",
            ],
        )?;
        let links = field_api::face_links(&m)?;
        let at = ctx.call_position();
        let mut piece = piece_from_map(&m, None)?;
        if let Some(d) = m.get("drop") {
            let d = d.clone().try_cast::<Map>().ok_or("`drop` must be a map, e.g. #{ one_per_file: true }")?;
            check_keys(&d, "`drop`", &["one_per_file", "no_mate", "allow_immobile"])?;
            piece.one_per_file = get_bool(&d, "one_per_file")?;
            piece.no_drop_mate = get_bool(&d, "no_mate")?;
            piece.drop_immobile = get_bool(&d, "allow_immobile")?;
        }
        if let Some(d) = m.get("limit") {
            let d = d.clone().try_cast::<Map>().ok_or("`limit` must be a map, e.g. #{ most: 2, per: \"file\" }")?;
            check_keys(&d, "`limit`", &["most", "per"])?;
            let most = int_in(get_int(&d, "most")?.ok_or("`limit` needs `most`")?, 1, 255, "`most`")?;
            if !d.contains_key("per") {
                return fail("`limit` needs `per`: \"file\" or \"binding\"");
            }
            let mut per = LimitScope::File;
            choose(&d, "per", &mut per, &[("file", LimitScope::File), ("binding", LimitScope::Binding)])?;
            piece.limit = Some(Limit { most, per });
        }
        let promoted = match m.get("promotes") {
            None => None,
            Some(p) => {
                let p = p.clone().try_cast::<Map>().ok_or("`promotes` must be a map describing the promoted piece")?;
                let keys =
                    ["name", "kanji", "token", "moves", "royal", "spares_protected_royals", "reversible", "value"];
                check_keys(&p, "`promotes`", &keys)?;
                piece.reversible_promotion = get_bool(&p, "reversible")?;
                Some((piece_from_map(&p, Some(&piece.token))?, get_value(&p)?))
            }
        };
        b.values.push(get_value(&m)?);
        b.face_links.push(links);
        if let Some((p, value)) = promoted {
            piece.promotes_to = Some(b.pieces.len() + 1);
            b.pieces.push(Declared { value: piece, at });
            b.pieces.push(Declared { value: p, at });
            b.values.push(value);
            b.face_links.push(FaceLinks::default());
        } else {
            b.pieces.push(Declared { value: piece, at });
        }
        Ok(())
    }

    fn promotion(ctx: NativeCallContext, b: &mut VariantBuilder, m: Map) -> Res<()> {
        check_keys(&m, "promotion", &["zone", "mandatory", "on_capture", "zone_pieces", "allow_immobile"])?;
        let zone = int_in(get_int(&m, "zone")?.unwrap_or(0), 0, 255, "`zone`")?;
        b.promotion = PromotionRule {
            zone_depth: zone,
            mandatory: get_bool(&m, "mandatory")?,
            // The script's `on_capture` key (promotion by capture), not the `v.on_capture` hook.
            by_capture: get_bool(&m, "on_capture")?,
            allow_immobile: get_bool(&m, "allow_immobile")?,
        };
        b.zone_pieces = match m.get("zone_pieces") {
            None => None,
            Some(d) => {
                let names = d.clone().try_cast::<Array>().ok_or("`zone_pieces` must be an array of piece names")?;
                let names = names
                    .into_iter()
                    .map(|n| n.into_string().map_err(|t| format!("`zone_pieces` holds names, not {t}")));
                Some(Declared { value: names.collect::<Result<_, _>>()?, at: ctx.call_position() })
            }
        };
        Ok(())
    }

    fn rules(b: &mut VariantBuilder, m: Map) -> Res<()> {
        check_keys(
            &m,
            "rules",
            &["check", "stalemate", "baring", "repetition", "perpetual_check_loses", "pass_limit", "royals"],
        )?;
        use CheckRule as C;
        use StalemateRule as S;
        let checks = [("must_escape", C::MustEscape), ("optional", C::Optional), ("ignore", C::Ignore)];
        choose(&m, "check", &mut b.check, &checks)?;
        if let Some(n) = get_int(&m, "pass_limit")? {
            b.pass_limit = int_in(n, 0, 255, "`pass_limit`")?;
        }
        choose(&m, "stalemate", &mut b.stalemate, &[("loss", S::Loss), ("draw", S::Draw), ("win", S::Win)])?;
        choose(&m, "baring", &mut b.baring, &[("off", BaringRule::Off), ("board_and_hand", BaringRule::BoardAndHand)])?;
        if let Some(n) = get_int(&m, "repetition")? {
            b.repetition.count = int_in(n, 0, 255, "`repetition`")?;
        }
        if m.contains_key("perpetual_check_loses") {
            b.repetition.perpetual_check_loses = get_bool(&m, "perpetual_check_loses")?;
        }
        if let Some(n) = get_int(&m, "royals")? {
            b.royals_per_side = Some(int_in(n, 1, 255, "`royals`")?);
        }
        Ok(())
    }

    fn setup(ctx: NativeCallContext, b: &mut VariantBuilder, s: &str) {
        b.setup = Some(Declared { value: s.to_string(), at: ctx.call_position() });
    }

    /// The capture hook, `v.on_capture(["Deva", …], |pos, capture| …)`: what a piece becomes after
    /// capturing one of these types (`capture` holds `mover`, `victims` and `becomes`, the data
    /// rules' answer, which includes promotion by capture).
    fn on_capture_hook(ctx: NativeCallContext, b: &mut VariantBuilder, names: Array, f: FnPtr) -> Res<()> {
        let names: Vec<String> = names
            .into_iter()
            .map(|n| n.into_string().map_err(|t| format!("on_capture takes piece names, not {t}")))
            .collect::<Result<_, _>>()?;
        if names.is_empty() {
            return fail("on_capture needs at least one piece name");
        }
        b.capture_hook = Some(Declared { value: (names, f), at: ctx.call_position() });
        Ok(())
    }

    /// `v.win(#{ reach: #{ zone, pieces, survives }, checks })`: results declared by the position.
    fn win(ctx: NativeCallContext, b: &mut VariantBuilder, m: Map) -> Res<()> {
        check_keys(&m, "win", &["reach", "checks"])?;
        let mut win = WinDecl::default();
        if let Some(r) = m.get("reach") {
            let r = r.clone().try_cast::<Map>().ok_or("`reach` must be a map, e.g. #{ zone: 1, survives: true }")?;
            check_keys(&r, "`reach`", &["zone", "pieces", "survives"])?;
            let zone =
                int_in(get_int(&r, "zone")?.ok_or("`reach` needs `zone`: how many far ranks")?, 1, 255, "`zone`")?;
            let pieces = match r.get("pieces") {
                None => Vec::new(),
                Some(d) => {
                    let names = d.clone().try_cast::<Array>().ok_or("`pieces` must be an array of piece names")?;
                    let names = names
                        .into_iter()
                        .map(|n| n.into_string().map_err(|t| format!("`pieces` holds names, not {t}")));
                    let names: Vec<String> = names.collect::<Result<_, _>>()?;
                    if names.is_empty() {
                        return fail("`pieces` names no piece; leave it out to mean the royals");
                    }
                    names
                }
            };
            win.reach = Some((pieces, zone, get_bool(&r, "survives")?));
        }
        if let Some(n) = get_int(&m, "checks")? {
            win.checks = int_in(n, 1, 255, "`checks`")?;
        }
        b.win = Some(Declared { value: win, at: ctx.call_position() });
        Ok(())
    }

    /// `v.on_moves("Crowd", #{ reach: "R" }, |pos, from| …)`: a piece's moves computed by a
    /// function (docs/scripting.md, "Movement callbacks").
    fn on_moves(ctx: NativeCallContext, b: &mut VariantBuilder, name: &str, options: Map, f: FnPtr) -> Res<()> {
        check_keys(&options, "on_moves", &["reach"])?;
        let reach = get_str(&options, "reach")?;
        if let Some(r) = &reach {
            let m = betza::parse(r).map_err(|e| format!("`reach`: {e}"))?;
            if !m.paths.is_empty() {
                return fail(
                    "`reach` must be simple moves (a superset of where the callback captures), not multi-leg moves",
                );
            }
        }
        if b.move_callbacks.iter().any(|c| c.value.0 == name) {
            return fail(format!("the {name} has a move callback already"));
        }
        b.move_callbacks.push(Declared { value: (name.to_string(), reach, f), at: ctx.call_position() });
        Ok(())
    }

    /// `v.on_drop("Pawn", |pos, cells| …)`: where a piece type may be dropped.
    fn on_drop(ctx: NativeCallContext, b: &mut VariantBuilder, name: &str, f: FnPtr) -> Res<()> {
        if b.drop_callbacks.iter().any(|c| c.value.0 == name) {
            return fail(format!("the {name} has a drop callback already"));
        }
        b.drop_callbacks.push(Declared { value: (name.to_string(), f), at: ctx.call_position() });
        Ok(())
    }

    /// `v.after_move(["Bomber"], |fx| …)`: a move effect, after the moves of the named pieces
    /// (`[]`: after every move); or `v.after_move(#{ pieces: [...], captures: true }, …)`: only
    /// after those of them that take a piece off the board.
    fn after_move(ctx: NativeCallContext, b: &mut VariantBuilder, which: Dynamic, f: FnPtr) -> Res<()> {
        let (names, options) = match which.clone().try_cast::<Map>() {
            Some(m) => {
                check_keys(&m, "after_move", &["pieces", "captures", "counters_only"])?;
                let names = m.get("pieces").cloned().unwrap_or_else(|| Dynamic::from(Array::new()));
                let options =
                    EffectOptions { taking: get_bool(&m, "captures")?, counters_only: get_bool(&m, "counters_only")? };
                (names, options)
            }
            None => (which, EffectOptions::default()),
        };
        let names =
            names.try_cast::<Array>().ok_or("after_move takes an array of piece names or #{ pieces, captures }")?;
        let names: Vec<String> = names
            .into_iter()
            .map(|n| n.into_string().map_err(|t| format!("after_move takes piece names, not {t}")))
            .collect::<Result<_, _>>()?;
        if b.effect.is_some() {
            return fail("a variant has one move effect; give it every mover it needs ([] for all moves)");
        }
        b.effect = Some(Declared { value: (names, options, f), at: ctx.call_position() });
        Ok(())
    }

    fn on(ctx: NativeCallContext, b: &mut VariantBuilder, name: &str, f: FnPtr) -> Res<()> {
        const HOOKS: [&str; 3] = ["game_end", "filter_moves", "stranded"];
        if !HOOKS.contains(&name) {
            return fail(format!("unknown hook {name:?} (known: {})", HOOKS.join(", ")));
        }
        b.hooks.push(Declared { value: (name.to_string(), f), at: ctx.call_position() });
        Ok(())
    }

    /// The rule set, or the first problem and where it was made.
    pub fn rule_set(&self) -> Result<RuleSet, (Position, String)> {
        let geometry = self.geometry.clone().ok_or((self.declared_at, "the variant needs a `board`".to_string()))?;
        let setup = self
            .setup
            .clone()
            .ok_or((self.declared_at, "the variant needs a start position: call `setup(...)`".to_string()))?;
        let mut pieces: Vec<PieceRule> = self.pieces.iter().map(|p| p.value.clone()).collect();
        let cells = geometry.files as usize * geometry.ranks as usize * geometry.levels as usize;
        if cells * pieces.len() > MAX_CELLS_TIMES_TYPES {
            return Err((
                self.declared_at,
                format!(
                    "{cells} cells × {} piece types is more than Henka's move tables allow ({MAX_CELLS_TIMES_TYPES}): \
                     use a smaller board or fewer types",
                    pieces.len()
                ),
            ));
        }
        if let Some(zone) = &self.zone_pieces {
            for name in &zone.value {
                if !pieces.iter().any(|p| &p.name == name) {
                    return Err((zone.at, format!("`zone_pieces`: no piece is named {name:?}")));
                }
            }
            for p in &mut pieces {
                p.zone_promotion = zone.value.contains(&p.name);
            }
        }
        let (cubes, field) = field_api::resolve(self, &mut pieces)?;
        let mut end = EndRules::default();
        if let Some(win) = &self.win {
            if let Some((names, zone, survives)) = &win.value.reach {
                let mut types = Vec::new();
                for name in names {
                    let found: Vec<usize> = (0..pieces.len()).filter(|&i| &pieces[i].name == name).collect();
                    if found.is_empty() {
                        return Err((win.at, format!("`reach`: no piece is named {name:?}")));
                    }
                    types.extend(found);
                }
                if *zone > geometry.ranks {
                    return Err((
                        win.at,
                        format!("`reach`: the zone is {zone} ranks, the board has {}", geometry.ranks),
                    ));
                }
                end.reach = Some(ReachRule { pieces: types, zone: *zone, survives: *survives });
            }
            end.checks = win.value.checks;
            let needs_royal = end.checks > 0 || end.reach.as_ref().is_some_and(|r| r.pieces.is_empty());
            if needs_royal && !pieces.iter().any(|p| p.royal) {
                return Err((
                    win.at,
                    "`win` speaks of royals (check, or `reach` without `pieces`), and no piece is royal".into(),
                ));
            }
        }
        // Every field named (no `..RuleSet::default()`): a rule added to RuleSet must be read from
        // scripts too.
        Ok(RuleSet {
            meta: self.meta.clone(),
            geometry,
            pieces,
            promotion: self.promotion,
            drops: self.drops,
            check: self.check,
            stalemate: self.stalemate,
            baring: self.baring,
            repetition: self.repetition,
            pass_limit: self.pass_limit,
            start: setup.value,
            cubes,
            field,
            royals_per_side: self.royals_per_side,
            end,
        })
    }
}

fn new_variant(ctx: NativeCallContext, m: Map) -> Res<VariantBuilder> {
    check_keys(&m, "variant", &["name", "author", "version", "description", "board"])?;
    let board: Array = m
        .get("board")
        .and_then(|d| d.clone().try_cast::<Array>())
        .ok_or("the variant needs `board: [files, ranks]` (or `[files, ranks, levels]`)")?;
    if !(2..=3).contains(&board.len()) {
        return fail("`board` needs 2 or 3 numbers: [files, ranks] or [files, ranks, levels]");
    }
    let dims: Vec<u8> = board
        .iter()
        .map(|d| {
            d.as_int()
                .map_err(|_| "board sizes must be whole numbers".into())
                .and_then(|n| int_in(n, 1, 255, "a board size"))
        })
        .collect::<Res<_>>()?;
    Ok(VariantBuilder {
        meta: Metadata {
            name: get_str(&m, "name")?.ok_or("the variant needs a `name`")?,
            author: get_str(&m, "author")?.unwrap_or_default(),
            version: get_str(&m, "version")?.unwrap_or_default(),
            description: get_str(&m, "description")?.unwrap_or_default(),
        },
        geometry: Some(GeometrySpec {
            files: dims[0],
            ranks: dims[1],
            levels: dims.get(2).copied().unwrap_or(1),
            holes: vec![],
        }),
        repetition: RepetitionRule::default(),
        declared_at: ctx.call_position(),
        ..VariantBuilder::default()
    })
}

/// Registers the builder, and the position API hooks use.
pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<VariantBuilder>("Variant")
        .register_fn("variant", new_variant)
        .register_fn("piece", VariantBuilder::piece)
        .register_fn("promotion", VariantBuilder::promotion)
        .register_fn("drops", |b: &mut VariantBuilder, on: bool| b.drops = on)
        .register_fn("rules", VariantBuilder::rules)
        .register_fn("setup", VariantBuilder::setup)
        .register_fn("on", VariantBuilder::on)
        .register_fn("win", VariantBuilder::win)
        .register_fn("on_capture", VariantBuilder::on_capture_hook)
        .register_fn("on_moves", VariantBuilder::on_moves)
        .register_fn("on_moves", |ctx: NativeCallContext, b: &mut VariantBuilder, name: &str, f: FnPtr| {
            VariantBuilder::on_moves(ctx, b, name, Map::new(), f)
        })
        .register_fn("on_drop", VariantBuilder::on_drop)
        .register_fn("after_move", VariantBuilder::after_move);
    field_api::register(engine);

    position_api::register(engine);
}
