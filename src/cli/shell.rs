//! `skillscope completions SHELL` and `skillscope man`: the shell's conventions, generated from
//! the same clap definition the binary parses with, so they never drift from the real options.

use std::io::Write;

/// Writes the shell code that completes through this binary (option values and installed skill
/// names included) to stdout.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<i32> {
    let script = crate::cli::complete::registration(shell)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(0)
}

/// The man page (roff), one page for the program and every subcommand: it names no other page,
/// so `man skillscope` holds everything.
pub fn man_page(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    let subs: Vec<&clap::Command> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .collect();
    out.extend_from_slice(b".SH COMMANDS\n");
    for sub in &subs {
        let about = sub
            .get_about()
            .map(std::string::ToString::to_string)
            .unwrap_or_default();
        out.extend_from_slice(
            format!(
                ".TP\n\\fBskillscope {}\\fR\n{}\n",
                sub.get_name(),
                roff_text(&about)
            )
            .as_bytes(),
        );
    }
    for sub in subs {
        let name = sub.get_name();
        // Each subcommand's options as its own section of the same page.
        let mut page = Vec::new();
        let sub = sub
            .clone()
            .display_name(format!("skillscope-{name}"))
            .bin_name(format!("skillscope {name}"));
        let man = clap_mangen::Man::new(sub);
        man.render_synopsis_section(&mut page)?;
        man.render_description_section(&mut page)?;
        man.render_options_section(&mut page)?;
        out.extend_from_slice(format!(".SH \"SKILLSCOPE {}\"\n", name.to_uppercase()).as_bytes());
        // Inner sections become subsections so the page keeps one title.
        let text = String::from_utf8_lossy(&page).replace(".SH ", ".SS ");
        out.extend_from_slice(text.as_bytes());
    }
    out.extend_from_slice(MORE_SECTIONS.as_bytes());
    Ok(out)
}

/// Text for a roff paragraph: backslashes doubled, and a line never starts with a control
/// character (`.` or `'`).
fn roff_text(s: &str) -> String {
    let s = s.replace('\\', "\\\\").replace('-', "\\-");
    match s.chars().next() {
        Some('.' | '\'') => format!("\\&{s}"),
        _ => s,
    }
}

const MORE_SECTIONS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Success; no gate failed.
.TP
\fB1\fR
A gate failed: \fBcheck\fR found an error (a warning too with \fB\-\-warnings\-as\-errors\fR), the listing is over \fB\-\-max\-listing\-tokens\fR or, with \fB\-\-fail\-over\-window\fR, bigger than the context window;
\fBbudget\fR is over \fB\-\-max\-listing\-tokens\fR or the window, or against a baseline \fB\-\-fail\-on\-increase\fR or \fB\-\-fail\-on\-drop\fR tripped;
\fBeval\fR is under \fB\-\-min\-recall\fR; a \fBprobe\fR failed; a \fBtoggle\fR could not be written;
\fBlist\fR, \fBbudget\fR or \fBprompt\fR could not read a skill file or folder.
.TP
\fB2\fR
The command could not do what was asked: a usage error (an unknown command, with the one meant); a folder named to read that is missing, is not a folder or holds no skill;
a command that writes (\fBadd\fR, \fBupdate\fR, \fBremove\fR, \fBmove\fR, \fBcopy\fR, \fBtrash \-\-empty\fR) with no terminal to ask on and no \fB\-\-yes\fR;
\fBcheck\fR with no folder named and no skill installed (it never checks the bundled demo);
an unreadable or foreign baseline, a git failure, an unwritable file.
.TP
\fB130\fR
Interrupted: \fBprobe\fR stopped by Ctrl\-C, SIGTERM or SIGHUP stops its children and exits 130; any other command dies by the signal, which the shell reports as 130 (the app takes Ctrl\-C as a quit key and exits 0).
.SH ENVIRONMENT
.TP
\fBNO_COLOR\fR
When set to a non\-empty value, no colours (unless \fB\-\-color always\fR).
.TP
\fBSKILLSCOPE_CONFIG\fR
The config file to read instead of the default one.
.TP
\fBSKILLSCOPE_CONFIG_DIR\fR, \fBSKILLSCOPE_CACHE_DIR\fR
Where skillscope keeps its state and its caches (default: \fI$XDG_CONFIG_HOME/skillscope\fR and \fI$XDG_CACHE_HOME/skillscope\fR).
.TP
\fBSKILLSCOPE_MAX_ENTRIES\fR
How many files and folders a root's walk reads at most (\fB\-\-max\-entries\fR wins).
.TP
\fBSKILLSCOPE_LOCK_TIMEOUT_MS\fR
How long a write waits for another skillscope writing the same file.
.TP
\fBSKILLSCOPE_VERIFY_TIMEOUT\fR
Seconds \fBverify\fR gives the client for its start and its turn (default 300; \fB\-\-timeout\fR wins).
.TP
\fBCOMPLETE\fR
Set by the shell code of \fBskillscope completions\fR when it asks for completions.
.TP
\fBHOME\fR, \fBXDG_CONFIG_HOME\fR, \fBXDG_CACHE_HOME\fR
Where the agents' skill folders, the config file and the caches are found.
.SH FILES
.TP
\fI$XDG_CONFIG_HOME/skillscope/config.toml\fR
Defaults, extra roots, key bindings and rule levels (\fB[rules]\fR).
.TP
\fI$XDG_CONFIG_HOME/skillscope/state.json\fR
Which skills are switched on or off in skillscope's own state.
.TP
\fI$XDG_CACHE_HOME/skillscope/\fR
The library index, the token cache and past probe results.
.TP
\fI~/.claude/skills\fR, \fI~/.codex/skills\fR, \fI~/.agents/skills\fR, \fI~/.config/opencode/skills\fR, \fI~/.gemini/skills\fR, \fI~/.config/goose/skills\fR
The agents' user skill folders, read when no folder is named (the project folders \fI.claude/skills\fR and the like too).
.SH KEYS
In the terminal app, \fB?\fR (or \fBF1\fR) shows every key with the config file's bindings applied; \fBq\fR quits.
.SH EXAMPLES
.TP
\fBskillscope\fR
The terminal app on every agent's skills.
.TP
\fBskillscope check skills/ \-\-format github\fR
Inline annotations of a pull request's skills in GitHub Actions.
.TP
\fBskillscope check skills/ \-\-ignore unknown\-field \-\-warnings\-as\-errors\fR
Adopt the gate step by step: leave one rule out, fail on the rest.
.TP
\fBskillscope budget skills/ \-\-baseline\-ref origin/main \-\-fail\-on\-increase 500\fR
Fail when a change adds more than 500 tokens per turn.
.TP
\fBskillscope prompt \-\-agent claude\-code \-\-fates\fR
The listing Claude Code would put in its system prompt, and what happened to each skill.
.TP
\fBskillscope match "fill in this pdf form"\fR
Which skills a message would trigger, and why.
.TP
\fBsource <(skillscope completions bash)\fR
Completions of options, their values and installed skill names.
"#;

/// Writes the man page to stdout.
pub fn man(cmd: clap::Command) -> anyhow::Result<i32> {
    let page = man_page(cmd)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&page)?;
    out.flush()?;
    Ok(0)
}
