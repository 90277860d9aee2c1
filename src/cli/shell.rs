//! `skillscope completions SHELL` and `skillscope man`: the shell's conventions, generated from
//! the same clap definition the binary parses with, so they never drift from the real options.

use clap::CommandFactory;
use std::io::Write;

/// Writes the completion script for `shell` to stdout.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<i32> {
    let mut cmd = crate::cli::Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(shell, &mut cmd, "skillscope", &mut out);
    out.flush()?;
    Ok(0)
}

/// The man page (roff): the program, then one section per subcommand.
pub fn man_page() -> std::io::Result<Vec<u8>> {
    let cmd = crate::cli::Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        if name == "help" {
            continue;
        }
        // Each subcommand's options as its own section of the same page.
        let mut page = Vec::new();
        let sub = sub
            .clone()
            .display_name(format!("skillscope-{name}"))
            .bin_name(format!("skillscope {name}"));
        let man = clap_mangen::Man::new(sub);
        man.render_name_section(&mut page)?;
        man.render_synopsis_section(&mut page)?;
        man.render_description_section(&mut page)?;
        man.render_options_section(&mut page)?;
        out.extend_from_slice(format!(".SH \"SKILLSCOPE {}\"\n", name.to_uppercase()).as_bytes());
        // Inner sections become subsections so the page keeps one title.
        let text = String::from_utf8_lossy(&page).replace(".SH ", ".SS ");
        out.extend_from_slice(text.as_bytes());
    }
    out.extend_from_slice(EXIT_STATUS.as_bytes());
    Ok(out)
}

const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Success; no gate failed.
.TP
\fB1\fR
A gate failed: \fBcheck\fR found errors or the listing is over \fB--max-listing-tokens\fR;
\fBbudget\fR is over \fB--max-listing-tokens\fR, or against a baseline \fB--fail-on-increase\fR or \fB--fail-on-drop\fR tripped;
\fBeval\fR is under \fB--min-recall\fR; a \fBprobe\fR failed; a \fBtoggle\fR could not be written.
.TP
\fB2\fR
Usage error, or the command could not run (unreadable baseline, git failure, unwritable file).
.SH FILES
.TP
\fI$XDG_CONFIG_HOME/skillscope/config.toml\fR
Defaults and key bindings (\fBSKILLSCOPE_CONFIG\fR names another file).
.TP
\fI$XDG_CONFIG_HOME/skillscope/state.json\fR
Which skills are switched on or off.
"#;

/// Writes the man page to stdout.
pub fn man() -> anyhow::Result<i32> {
    let page = man_page()?;
    let mut out = std::io::stdout().lock();
    out.write_all(&page)?;
    out.flush()?;
    Ok(0)
}
