//! The rule options panel: the variant's options, each a choice that recompiles the rules and
//! replays the game (closed at first: while playing, the move list below matters more). Under each
//! option stands what its choice in force means, as the script explains it; each choice explains
//! itself on hover.

use eframe::egui::{self, RichText};

use super::action::Action;
use crate::script::DeclaredOption;

/// The rule options panel (a free-text option's draft lives in egui's memory while it is typed).
#[derive(Debug, Default)]
pub struct RuleOptionsPanel;

impl RuleOptionsPanel {
    /// Draws `declared`, the options of the rules in force; `plugin`: the board plays a plugin,
    /// which plays the default rules only.
    pub fn show(&mut self, ui: &mut egui::Ui, declared: &[DeclaredOption], plugin: bool) -> Option<Action> {
        if declared.is_empty() {
            return None;
        }
        let mut changed = None;
        egui::CollapsingHeader::new(format!("Rule options ({})", declared.len())).id_salt("rule-options").show(
            ui,
            |ui| {
                if plugin {
                    ui.label(RichText::new("The plugin plays the default rules.").weak());
                }
                for o in declared {
                    ui.add_enabled_ui(!plugin, |ui| {
                        if o.choices.is_empty() {
                            if let Some(c) = ui.horizontal(|ui| free_text(ui, o)).inner {
                                changed = Some(c);
                            }
                        } else {
                            let combo = egui::ComboBox::from_label(&o.name).selected_text(&o.value).show_ui(ui, |ui| {
                                for c in &o.choices {
                                    let mut item = ui.selectable_label(*c == o.value, c);
                                    if let Some(about) = o.about_choice(c) {
                                        item = item.on_hover_text(about);
                                    }
                                    if item.clicked() && *c != o.value {
                                        changed = Some((o.name.clone(), c.clone()));
                                    }
                                }
                            });
                            if let Some(about) = &o.about {
                                combo.response.on_hover_text(about);
                            }
                        }
                        // What the choice in force means, under its box, for every option.
                        let meaning = o.about_choice(&o.value).map(str::to_string).or_else(|| o.about.clone());
                        if let Some(text) = meaning {
                            ui.label(RichText::new(text).weak().small());
                        }
                    });
                    ui.add_space(2.0);
                }
            },
        );
        changed.map(|(name, value)| Action::SetOption { name, value })
    }
}

/// An option that takes any value: a text field, chosen when it loses the focus.
fn free_text(ui: &mut egui::Ui, o: &DeclaredOption) -> Option<(String, String)> {
    let id = egui::Id::unique(("rule-option", &o.name));
    let mut text = ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_else(|| o.value.clone());
    let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(90.0)).accessible_name(o.name.clone());
    let changed = (r.lost_focus() && text != o.value).then(|| (o.name.clone(), text.clone()));
    if r.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, text));
    } else {
        ui.data_mut(|d| d.remove::<String>(id));
    }
    ui.label(&o.name).on_hover_text(format!("default: {}", o.default));
    changed
}
