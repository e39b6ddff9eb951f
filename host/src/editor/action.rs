//! What the panels ask for. A panel draws from the controller's state and returns actions; the
//! window ([`super::app`]) applies them to the controller, so no panel changes the game, the
//! document or the rules by itself.

use std::path::PathBuf;

use henka_api::Move;

use super::controller::Discard;
use super::file_dialog::Purpose;
use crate::catalog::Entry;
use crate::plugin::PluginFile;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Play(Move),
    /// "New game": at once with no moves played, else after the designer confirms.
    NewGame,
    /// The answer to "drop the game in progress?".
    ConfirmNewGame(bool),
    Undo,
    Redo,
    ShowPly(usize),
    /// Start a game from a position string.
    StartFrom(String),
    /// Start a game from the setup editor's position, and leave the setup.
    PlayFromSetup(String),
    /// Put a position string on the clipboard.
    CopyPosition(String),
    Open(Entry),
    OpenPath(PathBuf),
    OpenPlugin(PluginFile),
    /// Create a variant of this name from the template, in the user's folder.
    NewVariant(String),
    /// The script text was edited in place.
    ScriptEdited,
    Save,
    SaveScriptAs(PathBuf),
    /// Make this position string the script's start position.
    WriteSetup(String),
    /// Make these the moves of the piece of this name in the script (the piece lab).
    WriteMoves {
        piece: String,
        moves: String,
    },
    SaveGame(PathBuf),
    /// Write the rules sheet (`henka sheet`) of the rules in force here.
    SaveSheet(PathBuf),
    LoadGame(PathBuf),
    /// Open the file dialog for this purpose.
    AskPath(Purpose),
    /// The answer to "unsaved changes" when opening another variant.
    Discard(Discard),
    /// The answer to "changed on disk": take the file's version or not.
    UseDiskVersion(bool),
    SetOption {
        name: String,
        value: String,
    },
    UseScript,
    /// Play the plugin from this file (again, after a rebuild).
    UsePlugin(PathBuf),
}
