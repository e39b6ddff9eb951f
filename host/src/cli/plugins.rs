//! `henka plugin add|list|remove`: the user's plugin folder (see `crate::plugin::discover`).
//!
//! Adding copies the file into the folder rather than recording its path: the registered plugin
//! is then exactly the build that was checked when it was added, whatever happens to the file
//! it came from. A developer who rebuilds a plugin often points `$HENKA_PLUGINS` at their build
//! folder instead.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use henka_api::Variant;

use crate::plugin::{self, discover};

#[derive(Debug, clap::Args)]
pub struct PluginArgs {
    #[command(subcommand)]
    pub action: PluginAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum PluginAction {
    /// Checks a built plugin (it must load and describe its variant) and copies it into your
    /// plugin folder, replacing an older one of the same name.
    Add {
        /// The plugin file, e.g. target/release/libminishogi.so.
        path: PathBuf,
    },
    /// Lists the plugins found, and the folders searched, in order.
    List,
    /// Removes a plugin from your plugin folder.
    Remove {
        /// The variant name of the plugin.
        name: String,
    },
}

pub fn run(args: PluginArgs) -> Result<()> {
    match args.action {
        PluginAction::Add { path } => {
            let Some(name) = discover::plugin_name(&path) else {
                bail!(
                    "{}: a plugin file is named {}<name>{} (as cargo names a cdylib)",
                    path.display(),
                    std::env::consts::DLL_PREFIX,
                    std::env::consts::DLL_SUFFIX
                );
            };
            let variant = plugin::open(&path)?;
            let dir = discover::user_dir().context("no plugin folder: set XDG_DATA_HOME or HOME")?;
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            let file = path.file_name().context("a plugin path names a file")?;
            let target = dir.join(file);
            // Written beside and renamed over, so a crash never leaves half a library in place.
            let partial = dir.join(format!(".{}.partial-{}", file.to_string_lossy(), std::process::id()));
            std::fs::copy(&path, &partial)
                .with_context(|| format!("copying {} into {}", path.display(), dir.display()))?;
            std::fs::rename(&partial, &target).with_context(|| format!("writing {}", target.display()))?;
            say!("added {name} ({}) as {}", variant.info().meta.name, target.display());
        }
        PluginAction::List => {
            let dirs = plugin::search_dirs();
            for f in discover::discover(&dirs) {
                say!("{:<24} {}", f.name, f.path.display());
            }
            say!("searched, in order:");
            for d in dirs {
                say!("  {}", d.display());
            }
        }
        PluginAction::Remove { name } => {
            let dir = discover::user_dir().context("no plugin folder: set XDG_DATA_HOME or HOME")?;
            let found = discover::discover(std::slice::from_ref(&dir)).into_iter().find(|f| f.name == name);
            let Some(f) = found else {
                bail!("no plugin {name:?} in your plugin folder {}", dir.display());
            };
            std::fs::remove_file(&f.path).with_context(|| format!("removing {}", f.path.display()))?;
            say!("removed {}", f.path.display());
        }
    }
    Ok(())
}
