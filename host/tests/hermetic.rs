//! The test harness's own promise (`common`): a test process removes its stand-in home when it
//! exits, so test runs leave nothing in the temp folder.

mod common;

use std::process::{Command, Stdio};

/// Run by the test below in a child process: writes into its stand-in home, as tests do.
#[test]
#[ignore = "the child half of the clean-up test"]
fn writes_into_its_home_child() {
    std::fs::create_dir_all(common::home().join("scratch")).unwrap();
    std::fs::write(common::home().join("scratch/file.txt"), "left behind?").unwrap();
}

#[test]
fn a_test_process_removes_its_stand_in_home_when_it_exits() {
    let child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "writes_into_its_home_child", "--ignored"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let done = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&done.stdout);
    assert!(done.status.success() && out.contains("1 passed"), "the child test ran: {out}");
    let home = common::home_of(pid);
    assert!(!home.exists(), "the finished child left {} behind", home.display());
}
