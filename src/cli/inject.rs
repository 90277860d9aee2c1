//! `skillscope inject --agent A NAME`: exactly what loading one skill adds to agent A's
//! conversation, as its client sends it (Claude Code's Skill tool result, Codex's `$name`
//! message, Gemini CLI's `activate_skill` response, opencode's, Qwen Code's, Copilot's and
//! Cline's skill tool results, the SKILL.md OpenClaw's `read` returns): the blocks' text on stdout
//! and nothing else; `--json` adds each block's role, kind and tokens.

use crate::cli::args::{AgentArgs, LibraryArgs};
use crate::core::agents::loading::{self, Block, Loading, MentionError, WhenOff};
use crate::core::source::Agent;
use crate::core::tokens::{self, Encoding};
use clap::Args;
use serde_json::json;
use std::io::{IsTerminal, Write};

#[derive(Debug, Args)]
pub struct InjectArgs {
    /// The skill, as the agent calls it (Claude Code: its folder's name for a skill of its own
    /// folders).
    #[arg(value_name = "NAME", add = clap_complete::ArgValueCompleter::new(crate::cli::complete::skill_names))]
    pub name: String,
    /// What the model passes along (Claude Code's `args`, filling `$ARGUMENTS`).
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub args: String,
    /// Encoding for the token counts: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Encoding::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::encodings))]
    pub encoding: Encoding,
    /// Print one JSON object: the agent, the skill, and each block with its role, kind, text and
    /// tokens.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub view: AgentArgs,
}

pub fn run(args: InjectArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    let Some(agent) = args.view.agent else {
        anyhow::bail!("inject needs --agent: what loading a skill adds is each agent's own");
    };
    let lib = library.load();
    crate::cli::output::note_demo(&lib);
    let request = crate::core::front::request::ViewRequest {
        agent: Some(agent),
        files: args.view.files.clone(),
        ..Default::default()
    };
    let view = crate::cli::args::view_library(&request, lib);
    let blocks = blocks(&view, agent, &args.name, &args.args)?;
    // What is injected does not depend on the model; where the client runs one, it is said.
    let settings = crate::cli::args::view_settings(Some(agent));
    let model = crate::cli::args::client_model(Some(agent), None, &settings)?;
    crate::cli::args::note_client_model(Some(agent), model.as_ref());
    let mut out = std::io::stdout().lock();
    if args.json {
        let listed: Vec<serde_json::Value> = blocks
            .iter()
            .map(|b| {
                let mut v = serde_json::to_value(b).unwrap_or_default();
                v["tokens"] = json!(tokens::count(args.encoding, &b.text));
                v
            })
            .collect();
        let (total, forked) = totals(&blocks, args.encoding);
        crate::cli::output::write_json(
            &mut out,
            &json!({
                "agent": agent,
                "skill": args.name,
                "model": model.as_ref().map(crate::core::agents::configured::Configured::id),
                "model_source": model.as_ref().map(|c| crate::cli::prompt::model_source(Some(agent), c)),
                "encoding": args.encoding.as_str(),
                "tokens": total,
                "forked_tokens": forked,
                "blocks": listed,
            }),
        )?;
        writeln!(out)?;
    } else {
        // Piped, the blocks are exactly what the agent receives; on a terminal, every hazard of
        // the skill's text is shown escaped rather than acted on.
        let joined = loading::joined(&blocks);
        if std::io::stdout().is_terminal() {
            out.write_all(crate::core::words::text::text(&joined).as_bytes())?;
        } else {
            out.write_all(joined.as_bytes())?;
        }
        out.flush()?;
        let (total, forked) = totals(&blocks, args.encoding);
        eprintln!(
            "\n{} block{}, {} tokens ({})",
            blocks.len(),
            if blocks.len() == 1 { "" } else { "s" },
            crate::core::words::text::thousands(total as u64),
            args.encoding
        );
        if forked > 0 {
            eprintln!(
                "context: fork: {} of them are a forked sub-agent's prompt, in its own context window; the main conversation gets {} tokens and the sub-agent's result",
                crate::core::words::text::thousands(forked as u64),
                crate::core::words::text::thousands((total - forked) as u64),
            );
        }
    }
    Ok(i32::from(blocks.iter().any(|b| b.is_error)))
}

/// Every block's tokens, and those of the blocks that open a forked sub-conversation.
fn totals(blocks: &[Block], encoding: Encoding) -> (usize, usize) {
    blocks.iter().fold((0, 0), |(all, forked), b| {
        let n = tokens::count(encoding, &b.text);
        (all + n, forked + if b.forked { n } else { 0 })
    })
}

/// What loading `name` adds for `agent`, over the agent's view, as its home's record says
/// ([`Loading`]).
fn blocks(
    view: &crate::core::Library,
    agent: Agent,
    name: &str,
    args: &str,
) -> anyhow::Result<Vec<Block>> {
    match agent.home().loading {
        Loading::Called(blocks) => {
            let i = called(view, name)?;
            Ok(blocks(&view.skills[i], name, args)?)
        }
        Loading::Mention(mention) => Ok(vec![Block {
            role: "user",
            kind: "input_text",
            text: mention(view, name).map_err(|e| match e {
                MentionError::Unknown(_) => {
                    anyhow::anyhow!("{e}{}", crate::cli::args::did_you_mean(view, name))
                }
                other => other.into(),
            })?,
            is_error: false,
            forked: false,
        }]),
        Loading::Tool(blocks, off) => {
            let Some(i) = crate::core::agents::tools::called(view, agent, name) else {
                anyhow::bail!(
                    "no skill `{name}` in this agent's view{}",
                    crate::cli::args::did_you_mean(view, name)
                );
            };
            let s = &view.skills[i];
            if let Some(why) = view.inactive.get(&i) {
                // A skill the client's own switch turned off still gets the client's answer
                // when the model calls it by name.
                let answer = if view.switched_off.contains(&i) {
                    switched_off_answer(off, blocks, agent, view, name, s, args)?
                } else {
                    None
                };
                match answer {
                    Some(blocks) => return Ok(blocks),
                    None => anyhow::bail!("{name} is not offered to the model: {why}"),
                }
            }
            Ok(blocks(s, name, args)?)
        }
        Loading::Unmodelled => {
            anyhow::bail!(
                "what loading a skill adds is verified for claude-code, codex, gemini, opencode, qwen-code, github-copilot, cline and openclaw; {} is not modelled",
                agent.as_str()
            )
        }
    }
}

/// What the client answers when the model calls a skill its own switch turned off, as its
/// record says: Qwen Code's error, Cline's, GitHub Copilot CLI's (the skill is not found, and
/// the skills it has are named), and for OpenClaw the SKILL.md itself (its model reads the
/// file, which no switch hides). `None` where the client's answer is not known.
fn switched_off_answer(
    off: WhenOff,
    blocks: loading::Blocks,
    agent: Agent,
    view: &crate::core::Library,
    name: &str,
    skill: &crate::core::skill::Skill,
    args: &str,
) -> anyhow::Result<Option<Vec<Block>>> {
    Ok(match off {
        WhenOff::Unknown => None,
        WhenOff::Error(text) => Some(vec![Block::error(text(name))]),
        WhenOff::NotFound(text) => {
            Some(vec![Block::error(text(name, &offered_names(agent, view)))])
        }
        WhenOff::Loaded => Some(blocks(skill, name, args)?),
    })
}

/// The names the agent's listing offers the model, in listing order (its built-ins too).
fn offered_names(agent: Agent, view: &crate::core::Library) -> Vec<String> {
    let format = crate::core::agents::model::model(agent).format;
    let settings = crate::cli::args::view_settings(Some(agent));
    let model = crate::cli::args::client_model(Some(agent), None, &settings)
        .ok()
        .flatten();
    let opts = crate::core::front::request::ViewRequest {
        agent: Some(agent),
        model,
        format,
        ..crate::core::front::request::ViewRequest::default()
    }
    .listing_options(&settings);
    let on = crate::core::front::load::enabled_mask(view, crate::cli::args::load_state().as_ref());
    crate::core::listing::render(view, &|i| on.get(i).copied().unwrap_or(false), &opts).names
}

/// The skill of the view the model can call `name`: listed or not (the client answers a call of
/// a skill closed to the model with an error), not shadowed.
fn called(view: &crate::core::Library, name: &str) -> anyhow::Result<usize> {
    let found: Vec<usize> = (0..view.len())
        .filter(|&i| {
            let s = &view.skills[i];
            s.shadowed_by.is_none() && (s.name == name || s.id == name)
        })
        .collect();
    match found.as_slice() {
        [i] => {
            // A skill closed to model invocation gets the client's own error: loading answers.
            if let Some(why) = view.inactive.get(i)
                && !view.skills[*i].frontmatter.disable_model_invocation
            {
                anyhow::bail!("{name} is not offered to the model: {why}");
            }
            Ok(*i)
        }
        [] => anyhow::bail!(
            "no skill `{name}` in this agent's view{}",
            crate::cli::args::did_you_mean(view, name)
        ),
        _ => anyhow::bail!("`{name}` names {} skills of this agent's view", found.len()),
    }
}
