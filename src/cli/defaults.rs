//! The config file's settings as the defaults of the subcommands' arguments.

use crate::config::Config;
use crate::core::listing::{Format, Tier};
use crate::core::rules::Profile;
use crate::core::tokens::Encoding;

/// The clap definition with the config file's settings as the defaults of every subcommand
/// that takes them, so `--help` shows the defaults in force and a flag still wins.
pub fn apply(config: &Config, cmd: clap::Command) -> clap::Command {
    let context_window = config.context_window.map(|n| {
        // clap keeps defaults for the life of the process; this one string is made once.
        &*String::leak(n.to_string())
    });
    let model = config.model.as_ref().map(|m| {
        if crate::core::pricing::model::PRESETS
            .iter()
            .any(|p| p.name == m.name)
        {
            &*String::leak(m.name.clone())
        } else {
            &*String::leak(format!("{}={}", m.name, m.factor))
        }
    });
    let settings: [(&str, Option<&'static str>); 6] = [
        ("profile", config.profile.map(Profile::as_str)),
        ("listing", config.listing.map(Format::as_str)),
        ("tier", config.tier.map(Tier::as_str)),
        ("encoding", config.encoding.map(Encoding::as_str)),
        ("context_window", context_window),
        ("model", model),
    ];
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd;
    for name in names {
        cmd = cmd.mut_subcommand(name.as_str(), |mut sub| {
            for (id, value) in settings {
                let Some(value) = value else { continue };
                // `prompt --format` is the listing format; elsewhere `--format` is output.
                let id = if name == "prompt" && id == "listing" {
                    "format"
                } else {
                    id
                };
                if sub.get_arguments().any(|a| a.get_id() == id) {
                    sub = sub.mut_arg(id, |a| a.default_value(value));
                }
            }
            sub
        });
    }
    cmd
}
