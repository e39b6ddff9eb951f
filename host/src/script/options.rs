//! Rule options: the choices a variant's rules leave open (Ki Shogi's field size, whether Ladies
//! and Generals' rankers slide or step), declared by the script and chosen by the user.
//!
//! A script asks `option("field", ["15x15", "unbounded"])` (the first choice is the default) or
//! `option("field", "15x15")` (any value, the script checks it) and gets the chosen value back as
//! a string. A designer explains an option to the players who meet it: a choice may be written
//! `#{ value: "step", about: "rankers move one cell" }`, and a third argument says what the option
//! is about: `option("rankers", [...], "how the three rankers move")`. The editor, `henka check`
//! and the rules sheet show them. The loader is given the user's choices; a choice the script never asks for, or a
//! value outside the listed choices, is a load error, so a typo never silently plays the default.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rhai::{Array, Engine, EvalAltResult};

/// The user's choices: option name → value.
pub type RuleOptions = BTreeMap<String, String>;

/// An option as the script declared it, with the value in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredOption {
    pub name: String,
    /// The allowed values, default first; empty when the script takes any value.
    pub choices: Vec<String>,
    /// What each choice means, in `choices` order (`None` where the script says nothing).
    pub choice_about: Vec<Option<String>>,
    /// What the option is about, if the script says.
    pub about: Option<String>,
    pub default: String,
    pub value: String,
}

impl DeclaredOption {
    /// What the choice `value` means, if the script says.
    pub fn about_choice(&self, value: &str) -> Option<&str> {
        let i = self.choices.iter().position(|c| c == value)?;
        self.choice_about.get(i)?.as_deref()
    }
}

/// Reads `name=value` pairs, as given on the command line (`--option field=unbounded`).
pub fn parse_assignment(s: &str) -> Result<(String, String), String> {
    let (k, v) = s.split_once('=').ok_or_else(|| format!("an option is written name=value, not {s:?}"))?;
    let (k, v) = (k.trim(), v.trim());
    if k.is_empty() || v.is_empty() {
        return Err(format!("an option is written name=value, not {s:?}"));
    }
    Ok((k.to_string(), v.to_string()))
}

/// Writes options as `name=value` joined by spaces (for records and titles).
pub fn describe(options: &[DeclaredOption]) -> String {
    options.iter().map(|o| format!("{}={}", o.name, o.value)).collect::<Vec<_>>().join(" ")
}

/// What the script asked for during one load.
#[derive(Debug, Default)]
pub(crate) struct OptionLog {
    chosen: RuleOptions,
    declared: Vec<DeclaredOption>,
}

/// Registers `option(name, choices[, about])` and `option(name, default[, about])` on a fresh
/// engine; the log collects the declarations for [`finish`].
pub(crate) fn register(engine: &mut Engine, chosen: &RuleOptions) -> Arc<Mutex<OptionLog>> {
    let log = Arc::new(Mutex::new(OptionLog { chosen: chosen.clone(), declared: Vec::new() }));
    let l = log.clone();
    engine.register_fn("option", move |name: &str, choices: Array| -> Result<String, Box<EvalAltResult>> {
        declare_choices(&l, name, choices, None)
    });
    let l = log.clone();
    engine.register_fn(
        "option",
        move |name: &str, choices: Array, about: &str| -> Result<String, Box<EvalAltResult>> {
            declare_choices(&l, name, choices, Some(about.to_string()))
        },
    );
    let l = log.clone();
    engine.register_fn("option", move |name: &str, default: &str| -> Result<String, Box<EvalAltResult>> {
        declare(&l, Declaration { name, choices: Vec::new(), about: None, default: default.to_string() })
    });
    let l = log.clone();
    engine.register_fn("option", move |name: &str, default: &str, about: &str| -> Result<String, Box<EvalAltResult>> {
        let about = Some(about.to_string());
        declare(&l, Declaration { name, choices: Vec::new(), about, default: default.to_string() })
    });
    log
}

/// An option as the script writes it, before the user's choice is applied.
struct Declaration<'a> {
    name: &'a str,
    /// Each allowed value with what it means.
    choices: Vec<(String, Option<String>)>,
    about: Option<String>,
    default: String,
}

/// Reads a list of choices, each a value or `#{ value: …, about: … }`; the first is the default.
fn declare_choices(
    log: &Mutex<OptionLog>,
    name: &str,
    items: Array,
    about: Option<String>,
) -> Result<String, Box<EvalAltResult>> {
    let mut choices = Vec::with_capacity(items.len());
    for item in items {
        let item_text = item.to_string();
        choices.push(match item.try_cast::<rhai::Map>() {
            Some(map) => choice_from_map(name, &map)?,
            None => (item_text, None),
        });
    }
    let default = choices.first().map(|(v, _)| v.clone()).ok_or("an option needs at least one choice")?;
    declare(log, Declaration { name, choices, about, default })
}

/// `#{ value: "step", about: "…" }`; any other key is a typo worth an error.
fn choice_from_map(name: &str, map: &rhai::Map) -> Result<(String, Option<String>), Box<EvalAltResult>> {
    for key in map.keys() {
        if key.as_str() != "value" && key.as_str() != "about" {
            return Err(format!("option `{name}`: a choice has `value` and `about`, not `{key}`").into());
        }
    }
    let value = map.get("value").ok_or_else(|| format!("option `{name}`: a choice map needs `value`"))?;
    let about = map.get("about").map(|a| a.to_string());
    Ok((value.to_string(), about))
}

fn declare(log: &Mutex<OptionLog>, d: Declaration) -> Result<String, Box<EvalAltResult>> {
    let mut log = log.lock().expect("option log");
    let name = d.name;
    if log.declared.iter().any(|o| o.name == name) {
        return Err(format!("option `{name}` is declared twice").into());
    }
    let (choices, choice_about): (Vec<String>, Vec<Option<String>>) = d.choices.into_iter().unzip();
    let value = log.chosen.get(name).cloned().unwrap_or_else(|| d.default.clone());
    if !choices.is_empty() && !choices.contains(&value) {
        return Err(format!("option `{name}`: {value:?} is not one of {}", choices.join(", ")).into());
    }
    log.declared.push(DeclaredOption {
        name: name.to_string(),
        choices,
        choice_about,
        about: d.about,
        default: d.default,
        value: value.clone(),
    });
    Ok(value)
}

/// The declarations, once the script has run.
pub(crate) fn finish(log: &Mutex<OptionLog>) -> Vec<DeclaredOption> {
    log.lock().expect("option log").declared.clone()
}

/// Refuses choices for options the variant does not have, naming the ones it has. Loading itself
/// ignores them (the editor keeps its choices while a script's options are being edited); the
/// command line calls this so that a typo is an error rather than the default rules.
pub fn check_known(chosen: &RuleOptions, declared: &[DeclaredOption]) -> Result<(), String> {
    for name in chosen.keys() {
        if !declared.iter().any(|o| &o.name == name) {
            let known: Vec<&str> = declared.iter().map(|o| o.name.as_str()).collect();
            let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
            return Err(format!("this variant has no option `{name}` (its options: {known})"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::load_source_with;
    use henka_api::Variant;

    const SCRIPT: &str = r#"
        let size = option("size", ["9", "7"]);
        let drops = option("drops", "on");
        let n = parse_int(size);
        let v = variant(#{ name: "mini", board: [n, n] });
        v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
        v.drops(drops == "on");
        v.setup(if n == 9 { "4k4/9/9/9/9/9/9/9/4K4 b - 1" } else { "3k3/7/7/7/7/7/3K3 b - 1" });
        v
    "#;

    fn load(pairs: &[(&str, &str)]) -> Result<crate::script::LoadedScript, crate::script::ScriptError> {
        let chosen = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        load_source_with("mini.rhai", SCRIPT, &chosen)
    }

    #[test]
    fn options_and_choices_carry_what_they_mean() {
        let script = r#"
            let r = option("rankers", [#{ value: "slide", about: "any distance" }, "step"], "how rankers move");
            let f = option("field", "15x15", "the field's size, WxH");
            let v = variant(#{ name: "mini", board: [5, 5] });
            v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
            v.setup("2k2/5/5/5/2K2 b - 1");
            v
        "#;
        let d = load_source_with("mini.rhai", script, &RuleOptions::new()).unwrap();
        let rankers = &d.options[0];
        assert_eq!(rankers.choices, ["slide", "step"]);
        assert_eq!(rankers.about.as_deref(), Some("how rankers move"));
        assert_eq!(rankers.about_choice("slide"), Some("any distance"));
        assert_eq!(rankers.about_choice("step"), None);
        assert_eq!(d.options[1].about.as_deref(), Some("the field's size, WxH"));
        let typo = script.replace("about: \"any", "abuot: \"any");
        let e = load_source_with("mini.rhai", &typo, &RuleOptions::new()).unwrap_err().to_string();
        assert!(e.contains("not `abuot`") && e.contains("mini.rhai:2:"), "{e}");
    }

    #[test]
    fn defaults_are_the_first_choice_and_choices_change_the_rules() {
        let d = load(&[]).unwrap();
        assert_eq!(describe(&d.options), "size=9 drops=on");
        assert_eq!(d.options[0].choices, ["9", "7"]);
        assert_eq!(d.variant.info().geometry.files, 9);
        let small = load(&[("size", "7"), ("drops", "off")]).unwrap();
        assert_eq!(small.variant.info().geometry.files, 7);
        assert_eq!(describe(&small.options), "size=7 drops=off");
    }

    #[test]
    fn unknown_options_and_values_are_errors_that_say_what_exists() {
        let e = load(&[("size", "8")]).unwrap_err();
        assert!(e.message.contains("\"8\" is not one of 9, 7"), "{}", e.message);
        assert_eq!(e.location.unwrap().line, 2);
        let typo: RuleOptions = [("sise".to_string(), "7".to_string())].into();
        let loaded = load(&[("sise", "7")]).unwrap();
        assert_eq!(describe(&loaded.options), "size=9 drops=on", "loading ignores unknown names");
        let e = check_known(&typo, &loaded.options).unwrap_err();
        assert!(e.contains("no option `sise` (its options: size, drops)"), "{e}");
    }

    #[test]
    fn assignments_read_name_equals_value() {
        assert_eq!(parse_assignment(" field = unbounded ").unwrap(), ("field".into(), "unbounded".into()));
        assert!(parse_assignment("field").is_err());
        assert!(parse_assignment("=x").is_err());
    }
}
