//! Shell completions and man pages, generated from a tool's own clap definition so that
//! they never drift from its flags: `TOOL completions SHELL` prints a completion script
//! on stdout, `TOOL man -o DIR` writes `TOOL.1` and one page per subcommand
//! (`TOOL-SUB.1`, `TOOL-SUB-SUBSUB.1`). `scripts/install-shell-docs.sh` installs both
//! for every tool.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Command, CommandFactory};

use crate::outputs;

/// `TOOL completions SHELL`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `TOOL man -o DIR`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Directory for the pages (created if missing), e.g. ~/.local/share/man/man1.
    #[arg(short = 'o', long, value_name = "DIR")]
    pub output: PathBuf,
    /// Replace pages already in DIR.
    #[arg(long)]
    pub force: bool,
}

/// Prints the completion script of the tool `C` for `args.shell` on stdout.
pub fn completions<C: CommandFactory>(args: &CompletionsArgs) -> Result<()> {
    let mut cmd = C::command();
    let name = cmd.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, name, &mut script);
    let mut out = crate::stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}

/// The man pages of the tool `C`: file name and roff text, the tool first, then its
/// subcommands depth first (clap's own `help` subcommand left out).
pub fn man_pages<C: CommandFactory>() -> Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = C::command();
    // Building gives subcommands their display names (`tool-sub`, the page titles) and
    // bin names (`tool sub`, the synopsis).
    cmd.build();
    let mut pages = Vec::new();
    collect(&cmd, &mut pages)?;
    Ok(pages)
}

fn collect(cmd: &Command, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut text = Vec::new();
    man.render(&mut text)?;
    pages.push((man.get_filename(), text));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        collect(sub, pages)?;
    }
    Ok(())
}

/// Writes the man pages of the tool `C` into `args.output` (each page written to a
/// temporary name and renamed; a page already there is refused unless `--force`).
/// Returns the paths written.
pub fn write_man_pages<C: CommandFactory>(args: &ManArgs) -> Result<Vec<PathBuf>> {
    let pages = man_pages::<C>()?;
    let dir: &Path = &args.output;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, _) in &pages {
        outputs::check(&dir.join(name), &[], args.force)?;
    }
    let mut written = Vec::new();
    for (name, text) in pages {
        let path = dir.join(name);
        fileio::write_atomic(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// A tool with a nested subcommand, as `trainer tourney run`.
    #[derive(Parser)]
    #[command(name = "toy", about = "A toy tool")]
    enum Toy {
        /// Play games.
        Play {
            /// How many.
            #[arg(long)]
            games: u64,
        },
        /// Tournaments.
        #[command(subcommand)]
        Tourney(Tourney),
    }

    #[derive(clap::Subcommand)]
    enum Tourney {
        /// Run one.
        Run,
    }

    #[test]
    fn every_subcommand_gets_a_page_named_after_its_path() {
        let pages = man_pages::<Toy>().unwrap();
        let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["toy.1", "toy-play.1", "toy-tourney.1", "toy-tourney-run.1"]
        );
        let play = String::from_utf8(pages[1].1.clone()).unwrap();
        assert!(play.starts_with(".ie"), "roff: {play}");
        assert!(play.contains(".TH toy-play 1"), "{play}");
        assert!(play.contains("toy play"), "synopsis names the command: {play}");
        assert!(play.contains("\\-\\-games"), "the flag is documented: {play}");
    }

    #[test]
    fn pages_are_not_replaced_without_force() {
        let dir = test_support::Scratch::new("cli-support", "man");
        let args = ManArgs {
            output: dir.join("man1"),
            force: false,
        };
        let written = write_man_pages::<Toy>(&args).unwrap();
        assert_eq!(written.len(), 4);
        for page in &written {
            std::fs::remove_file(page).unwrap();
        }
        std::fs::write(&written[2], "mine").unwrap();
        let err = write_man_pages::<Toy>(&args).unwrap_err().to_string();
        assert!(err.contains("toy-tourney.1 exists (use --force"), "{err}");
        assert_eq!(std::fs::read(&written[2]).unwrap(), b"mine");
        assert_eq!(
            test_support::dir_names(&dir.join("man1")).len(),
            1,
            "nothing written"
        );
        write_man_pages::<Toy>(&ManArgs { force: true, ..args }).unwrap();
        assert!(std::fs::read_to_string(&written[2])
            .unwrap()
            .contains(".TH toy-tourney 1"));
        assert_eq!(
            test_support::dir_names(&dir.join("man1")).len(),
            4,
            "no temporary file left"
        );
    }
}
