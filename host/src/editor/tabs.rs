//! The right-hand panel: the script, the piece inspector with the piece lab, the setup editor,
//! perft and the playtest lab, one tab each.

use eframe::egui::{self, RichText};

use super::action::Action;
use super::controller::Controller;
use super::inspector::Inspector;
use super::perft_panel::PerftPanel;
use super::piece_face::FaceText;
use super::piece_lab_panel::PieceLabPanel;
use super::playtest_panel::PlaytestPanel;
use super::script_panel::ScriptPanel;
use super::session::text_hash;
use super::setup::{SetupAction, SetupEditor};
use crate::ai::PieceValues;
use crate::playtest::Subject;

/// The right-hand panel's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Tab {
    Script,
    Pieces,
    Setup,
    Perft,
    Playtest,
}

/// The tabs' panels.
#[derive(Debug, Default)]
pub struct Tabs {
    script: ScriptPanel,
    inspector: Inspector,
    lab: PieceLabPanel,
    /// The position being set up, while the Setup tab is open (the board then edits it).
    setup: Option<SetupEditor>,
    perft: PerftPanel,
    playtest: PlaytestPanel,
}

impl Tabs {
    /// Draws the tab bar and `tab`. The script text is edited in place (reported as
    /// [`Action::ScriptEdited`]); everything else is returned.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        tab: &mut Tab,
        controller: &mut Controller,
        face: FaceText,
    ) -> Vec<Action> {
        let mut actions = Vec::new();
        ui.horizontal(|ui| {
            for (t, name) in [
                (Tab::Script, "Script"),
                (Tab::Pieces, "Pieces"),
                (Tab::Setup, "Setup"),
                (Tab::Perft, "Perft"),
                (Tab::Playtest, "Playtest"),
            ] {
                ui.selectable_value(tab, t, name);
            }
        });
        ui.separator();
        if *tab != Tab::Setup {
            self.setup = None;
        }
        let session = controller.session();
        let v = session.variant().clone();
        match *tab {
            Tab::Script => {
                let dirty = session.doc.is_dirty();
                ui.label(RichText::new(session.doc.source_name()).small().weak());
                let error = session.error.clone();
                let events = self.script.show(ui, controller.text_mut(), error.as_ref(), dirty);
                if events.changed {
                    actions.push(Action::ScriptEdited);
                }
                if events.save {
                    actions.push(Action::Save);
                }
            }
            Tab::Pieces => {
                egui::ScrollArea::vertical().id_salt("pieces-tab").auto_shrink([false, false]).show(ui, |ui| {
                    self.inspector.show(ui, v.as_ref());
                    if let Some(info) = v.info().pieces.get(self.inspector.selected as usize) {
                        let levels = v.geometry().levels();
                        actions.extend(self.lab.show(ui, self.inspector.selected, info, levels, face));
                    }
                });
            }
            Tab::Setup => {
                let shown = session.shown_position();
                let setup = self.setup.get_or_insert_with(|| SetupEditor::new(shown.clone()));
                match setup.show(ui, v.as_ref(), face) {
                    Some(SetupAction::Play(text)) => actions.push(Action::PlayFromSetup(text)),
                    Some(SetupAction::Copy(text)) => actions.push(Action::CopyPosition(text)),
                    Some(SetupAction::WriteToScript(text)) => actions.push(Action::WriteSetup(text)),
                    Some(SetupAction::FromGame) => setup.position = shown.clone(),
                    None => {}
                }
            }
            Tab::Perft => self.perft.show(ui, &v, session.shown_position()),
            Tab::Playtest => {
                // The subject (with its piece values) is built only when a run starts.
                let key = rules_key(controller);
                self.playtest.show(ui, Some(key), &|| playtest_subject(controller));
            }
        }
        actions
    }

    /// The setup editor, while the Setup tab is open.
    pub fn setup(&mut self) -> Option<&mut SetupEditor> {
        self.setup.as_mut()
    }

    /// Drops the position being set up (another variant is open, or a game starts from it).
    pub fn leave_setup(&mut self) {
        self.setup = None;
    }

    /// Forgets what belongs to the last variant (another is open): the position being set up,
    /// the playtest and perft results, the piece inspected, a pending jump in the script.
    pub fn forget_variant(&mut self) {
        self.setup = None;
        self.playtest.clear();
        self.perft.cancel();
        self.perft.job = None;
        self.inspector.selected = 0;
        self.lab.clear();
        self.script = ScriptPanel::default();
    }

    /// Stops a perft count made under rules no longer in force.
    pub fn cancel_perft(&mut self) {
        self.perft.cancel();
    }
}

/// The non-default rule options in force, as `name=value`.
fn chosen_options(controller: &Controller) -> Vec<(String, String)> {
    let session = controller.session();
    session
        .declared_options()
        .iter()
        .filter(|o| o.value != o.default)
        .map(|o| (o.name.clone(), o.value.clone()))
        .collect()
}

/// The identity of the rules in force, which "compare with before" looks at: the script text's
/// hash mixed with the options chosen, so a changed rule option counts as a rule change too.
fn rules_key(controller: &Controller) -> u64 {
    let listed: Vec<String> = chosen_options(controller).iter().map(|(k, v)| format!("{k}={v}")).collect();
    text_hash(&format!("{:x} {}", controller.session().rules_hash(), listed.join(" ")))
}

/// The rules in force as the playtest lab plays them.
fn playtest_subject(controller: &Controller) -> Subject {
    let session = controller.session();
    let options = chosen_options(controller);
    let listed: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let name = session.doc.name.clone();
    let variant = session.variant().clone();
    Subject {
        label: if listed.is_empty() { name.clone() } else { format!("{name} ({})", listed.join(", ")) },
        variant_name: name,
        values: PieceValues::estimate(variant.as_ref(), session.piece_values()),
        variant,
        script_hash: Some(rules_key(controller)),
        options,
    }
}
