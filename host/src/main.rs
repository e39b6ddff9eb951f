use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = henka::cli::Cli::parse();
    match henka::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
