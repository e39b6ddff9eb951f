//! Rule options: the choices a variant's rules leave open (Ki Shogi's field size, whether Ladies
//! and Generals' rankers slide or step), declared by the script and chosen by the user.
//!
//! A script asks `option("field", ["15x15", "unbounded"])` (the first choice is the default) or
//! `option("field", "15x15")` (any value, the script checks it) and gets the chosen value back as
//! a string. The loader is given the user's choices; a choice the script never asks for, or a
//! value outside the listed choices, is a load error, so a typo never silently plays the default.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rhai::{Array, Dynamic, Engine, EvalAltResult};

/// The user's choices: option name → value.
pub type RuleOptions = BTreeMap<String, String>;

/// An option as the script declared it, with the value in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredOption {
    pub name: String,
    /// The allowed values, default first; empty when the script takes any value.
    pub choices: Vec<String>,
    pub default: String,
    pub value: String,
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

/// Registers `option(name, choices)` and `option(name, default)` on a fresh engine; the log
/// collects the declarations for [`finish`].
pub(crate) fn register(engine: &mut Engine, chosen: &RuleOptions) -> Arc<Mutex<OptionLog>> {
    let log = Arc::new(Mutex::new(OptionLog { chosen: chosen.clone(), declared: Vec::new() }));
    let l = log.clone();
    engine.register_fn("option", move |name: &str, choices: Array| -> Result<String, Box<EvalAltResult>> {
        let choices: Vec<String> = choices.iter().map(Dynamic::to_string).collect();
        let default = choices.first().cloned().ok_or("an option needs at least one choice")?;
        declare(&l, name, choices, default)
    });
    let l = log.clone();
    engine.register_fn("option", move |name: &str, default: &str| -> Result<String, Box<EvalAltResult>> {
        declare(&l, name, Vec::new(), default.to_string())
    });
    log
}

fn declare(
    log: &Mutex<OptionLog>,
    name: &str,
    choices: Vec<String>,
    default: String,
) -> Result<String, Box<EvalAltResult>> {
    let mut log = log.lock().expect("option log");
    if log.declared.iter().any(|o| o.name == name) {
        return Err(format!("option `{name}` is declared twice").into());
    }
    let value = log.chosen.get(name).cloned().unwrap_or_else(|| default.clone());
    if !choices.is_empty() && !choices.contains(&value) {
        return Err(format!("option `{name}`: {value:?} is not one of {}", choices.join(", ")).into());
    }
    log.declared.push(DeclaredOption { name: name.to_string(), choices, default, value: value.clone() });
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
