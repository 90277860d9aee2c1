//! A word typed where a subcommand goes that names no subcommand and no folder: `skillscope chek`
//! is a mistyped `check`, not a library to open.

use std::ffi::OsString;
use std::path::Path;

/// The error for the first free argument of `args` (the program name first) when it names no
/// subcommand of `cmd`, no file or folder, and is a bare word (no `/`, not `.` or `~`): `unknown
/// command 'chek'; did you mean 'check'?`. `None` when it is a command, a path, or absent.
pub fn mistyped_command(cmd: &clap::Command, args: &[OsString]) -> Option<String> {
    let word = first_free_argument(cmd, args.get(1..).unwrap_or_default())?;
    let word = word.to_str()?;
    let commands: Vec<&str> = cmd
        .get_subcommands()
        .flat_map(|s| std::iter::once(s.get_name()).chain(s.get_all_aliases()))
        .chain(std::iter::once("help"))
        .collect();
    if commands.contains(&word)
        || word.is_empty()
        || word.contains('/')
        || word.starts_with(['.', '~'])
        || Path::new(word).exists()
    {
        return None;
    }
    let shown = crate::core::words::text::line(word);
    let visible = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(clap::Command::get_name);
    Some(match crate::core::words::text::closest(word, visible) {
        Some(meant) => format!("unknown command '{shown}'; did you mean '{meant}'?"),
        None => format!(
            "unknown command '{shown}', and no file or folder of that name here; the commands \
             are {} (`skillscope --help`); a folder to open is named with a `/` (./{shown})",
            cmd.get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(clap::Command::get_name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// The first argument that is neither an option nor an option's value (`--max-depth 3`), before
/// `--`; what follows `--` is a path whatever it looks like.
fn first_free_argument<'a>(cmd: &clap::Command, args: &'a [OsString]) -> Option<&'a OsString> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let s = a.to_string_lossy();
        if s == "--" {
            return None;
        }
        if let Some(long) = s.strip_prefix("--") {
            if !long.contains('=') && takes_value(cmd, |arg| arg.get_long() == Some(long)) {
                i += 1;
            }
        } else if let Some(short) = s.strip_prefix('-').filter(|r| !r.is_empty()) {
            // `-x VALUE` when the last of the letters takes a value that is not attached.
            let mut letters = short.chars();
            if let Some(c) = letters.next()
                && letters.next().is_none()
                && takes_value(cmd, |arg| arg.get_short() == Some(c))
            {
                i += 1;
            }
        } else {
            return Some(a);
        }
        i += 1;
    }
    None
}

/// Whether the option `is` picks out of `cmd`'s own takes a value.
fn takes_value(cmd: &clap::Command, is: impl Fn(&clap::Arg) -> bool) -> bool {
    cmd.get_arguments()
        .filter(|a| !a.is_positional())
        .find(|a| is(a))
        .is_some_and(|a| a.get_action().takes_values())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn said(args: &[&str]) -> Option<String> {
        let args: Vec<OsString> = std::iter::once("skillscope")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        mistyped_command(&crate::cli::Cli::command(), &args)
    }

    #[test]
    fn a_mistyped_command_names_the_one_meant() {
        assert_eq!(
            said(&["chek"]).as_deref(),
            Some("unknown command 'chek'; did you mean 'check'?")
        );
        assert_eq!(
            said(&["--max-depth", "3", "budgte", "x"]).as_deref(),
            Some("unknown command 'budgte'; did you mean 'budget'?")
        );
        let far = said(&["zzzzzz"]).unwrap_or_default();
        assert!(
            far.starts_with("unknown command 'zzzzzz'") && far.contains("check, budget"),
            "{far}"
        );
    }

    #[test]
    fn commands_paths_and_options_are_not_typos() {
        for args in [
            &["check"][..],
            &["help"],
            &["./chek"],
            &["some/lib"],
            &["~/skills"],
            &["--max-depth", "3"],
            &["--", "chek"],
            &["--color", "never"],
            &[],
        ] {
            assert_eq!(said(args), None, "{args:?}");
        }
    }
}
