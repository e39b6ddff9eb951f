//! Makes every test binary hermetic: before `main` (so before any test thread reads the
//! environment) the user's folders are pointed at a fresh temp folder, so no test reads or writes
//! a variant, plugin, autosave or setting of the machine's user, and every machine runs the same
//! tests. Child processes (`henka` from the CLI tests) inherit it. The folder is removed when the
//! process exits, pass or fail, so runs leave nothing behind; a test that needs a folder of its own
//! makes it inside.
//!
//! Each test file includes it with `mod common;`.

use std::path::PathBuf;

/// The temp folder that stands in for the user's home in this test process.
pub fn home() -> PathBuf {
    home_of(std::process::id())
}

/// The stand-in home of the test process `pid`: a test that kills a child test process (which
/// then cannot clean up) removes it.
pub fn home_of(pid: u32) -> PathBuf {
    std::env::temp_dir().join(format!("henka-test-home-{pid}"))
}

#[ctor::ctor(unsafe)]
fn hermetic() {
    let home = home();
    let runtime = home.join("run");
    let _ = std::fs::create_dir_all(&runtime);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700));
    }
    // SAFETY: `remove_home` is a plain function that stays valid until the process ends.
    unsafe {
        libc::atexit(remove_home);
    }
    // SAFETY: runs before `main`, while the process has one thread.
    unsafe {
        std::env::set_var("HOME", &home);
        std::env::set_var("XDG_CONFIG_HOME", home.join(".config"));
        std::env::set_var("XDG_STATE_HOME", home.join(".local/state"));
        std::env::set_var("XDG_DATA_HOME", home.join(".local/share"));
        // Tuned evaluations (`henka tune`) are cached here.
        std::env::set_var("XDG_CACHE_HOME", home.join(".cache"));
        // The windowing libraries egui_kittest's renderer probes want one (else they print errors).
        std::env::set_var("XDG_RUNTIME_DIR", &runtime);
        // Plugin workers are this build's `henka` (the test binary is not one).
        std::env::set_var("HENKA_WORKER_EXE", env!("CARGO_BIN_EXE_henka"));
        for var in ["HENKA_VARIANTS", "HENKA_PLUGINS", "HENKA_STATE_DIR"] {
            std::env::remove_var(var);
        }
    }
}

/// Deletes this process's stand-in home; registered with `atexit`, so it runs after the last test
/// (test binaries exit through `std::process::exit`, which runs the handlers).
extern "C" fn remove_home() {
    let _ = std::fs::remove_dir_all(home());
}
