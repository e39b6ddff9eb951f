use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = henka::cli::Cli::parse();
    match henka::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`henka moves … | head`): not an error.
        Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
