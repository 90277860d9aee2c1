//! Cuts the skill listing out of the requests a client sent, exactly as
//! `scripts/capture-extract.py` does for each client (see `tests/fixtures/agents/FINDINGS.md`):
//! the first request that carries the skills, its texts in order, from the listing's opening
//! words to its end marker.

use super::clients::Wire;
use super::mock::Request;
use serde_json::Value;

/// The texts of a request body in order: the system prompt's, then every message's.
fn texts(wire: Wire, body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let push = |out: &mut Vec<String>, v: Option<&Value>| {
        if let Some(s) = v.and_then(Value::as_str) {
            out.push(s.to_string());
        }
    };
    let arr = |v: Option<&Value>| v.and_then(Value::as_array).cloned().unwrap_or_default();
    match wire {
        Wire::Anthropic => {
            match body.get("system") {
                Some(Value::String(s)) => out.push(s.clone()),
                Some(Value::Array(a)) => {
                    for s in a {
                        out.push(s.get("text").and_then(Value::as_str).unwrap_or("").into());
                    }
                }
                _ => {}
            }
            for m in arr(body.get("messages")) {
                match m.get("content") {
                    Some(Value::String(s)) => out.push(s.clone()),
                    Some(Value::Array(blocks)) => {
                        out.extend(blocks.iter().map(block_text).filter(|t| !t.is_empty()));
                    }
                    _ => {}
                }
            }
        }
        Wire::Responses => {
            push(&mut out, body.get("instructions"));
            for item in arr(body.get("input")) {
                for c in arr(item.get("content")) {
                    push(&mut out, c.get("text"));
                }
            }
        }
        Wire::Gemini => {
            let si = body.get("systemInstruction");
            for p in arr(si.and_then(|s| s.get("parts"))) {
                push(&mut out, p.get("text"));
            }
            for c in arr(body.get("contents")) {
                for p in arr(c.get("parts")) {
                    push(&mut out, p.get("text"));
                }
            }
        }
        Wire::Chat => {
            // Every message's text (a string, or its text parts), then each tool's
            // description: Cline lists its skills at the end of its `skills` tool's.
            for m in arr(body.get("messages")) {
                match m.get("content") {
                    Some(Value::String(s)) => out.push(s.clone()),
                    Some(Value::Array(parts)) => {
                        for p in parts {
                            push(&mut out, p.get("text"));
                        }
                    }
                    _ => {}
                }
            }
            for t in arr(body.get("tools")) {
                push(
                    &mut out,
                    t.get("function").and_then(|f| f.get("description")),
                );
            }
        }
    }
    out
}

/// A content block's text (capture-extract.py's `block_text`).
fn block_text(block: &Value) -> String {
    if let Some(s) = block.as_str() {
        return s.to_string();
    }
    if block.get("type").and_then(Value::as_str) == Some("text") {
        return block
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .into();
    }
    match block.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

/// The names of the tools a request declares.
fn tools(wire: Wire, body: &Value) -> Vec<String> {
    let arr = |v: Option<&Value>| v.and_then(Value::as_array).cloned().unwrap_or_default();
    let name = |v: &Value| v.get("name").and_then(Value::as_str).map(str::to_string);
    match wire {
        Wire::Gemini => arr(body.get("tools"))
            .iter()
            .flat_map(|t| arr(t.get("functionDeclarations")))
            .filter_map(|f| name(&f))
            .collect(),
        Wire::Chat => arr(body.get("tools"))
            .iter()
            .filter_map(|t| t.get("function").and_then(name))
            .collect(),
        _ => arr(body.get("tools")).iter().filter_map(name).collect(),
    }
}

/// Whether `req` is one of the client's turns that carries the skills (`is_main`).
fn is_main(client: &super::clients::Client, req: &Request, body: &Value) -> bool {
    if !body.is_object() {
        return false;
    }
    let p = req.path.as_str();
    let tools = tools(client.wire, body);
    match client.wire {
        Wire::Anthropic => {
            p.starts_with("/v1/messages")
                && !p.ends_with("count_tokens")
                && tools.iter().any(|t| t == client.skill_tool)
        }
        Wire::Responses => {
            p.contains("responses") && body.get("input").is_some_and(Value::is_array)
        }
        Wire::Gemini => {
            let call = p.contains("generateContent") || p.contains("GenerateContent");
            let system = texts(Wire::Gemini, &json_only_system(body)).concat();
            call && (tools.iter().any(|t| t == client.skill_tool)
                || system.contains(client.start)
                || tools.len() > 3)
        }
        Wire::Chat => {
            p.ends_with("/chat/completions")
                && body.get("messages").is_some_and(Value::is_array)
                && tools.iter().any(|t| t == client.skill_tool)
        }
    }
}

/// Whether `req` is one of the client's turns that carries the skills (its body JSON).
pub fn carries_skills(client: &super::clients::Client, req: &Request) -> bool {
    req.json().is_some_and(|body| is_main(client, req, &body))
}

/// A Gemini body with only its system instruction, for `is_main`.
fn json_only_system(body: &Value) -> Value {
    let mut v = serde_json::Map::new();
    if let Some(si) = body.get("systemInstruction") {
        v.insert("systemInstruction".into(), si.clone());
    }
    Value::Object(v)
}

/// What the recorded requests say about the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The first request carrying the skills held this listing ("" when it held none).
    Listing(String),
    /// No request carried the skills: the client never reached its model turn.
    NoTurn,
}

/// The listing in the first request that carries the skills (`find_listing` of the capture's
/// extractor for that client).
pub fn listing(client: &super::clients::Client, requests: &[Request]) -> Found {
    let dialect = crate::core::agents::model::model(client.agent).dialect();
    listing_as(client, requests, dialect)
}

/// [`listing`] from a client release that writes its listing as `dialect` says.
pub fn listing_as(
    client: &super::clients::Client,
    requests: &[Request],
    dialect: crate::core::listing::Dialect,
) -> Found {
    let Some(body) = requests.iter().find_map(|r| {
        let body = r.json()?;
        is_main(client, r, &body).then_some(body)
    }) else {
        return Found::NoTurn;
    };
    for text in texts(client.wire, &body) {
        let Some(mut i) = text.find(client.start) else {
            continue;
        };
        let start = i;
        // A line of the client's own before the listing, two blank lines between (OpenClaw's
        // note when it truncates or compacts its catalog).
        if let Some(lead) = client.lead
            && let Some(before) = text[..i].strip_suffix("\n\n\n")
        {
            let line = before.rfind('\n').map_or(0, |j| j + 1);
            if before[line..].starts_with(lead) {
                i = line;
            }
        }
        let mut end = client
            .ends
            .iter()
            .filter_map(|e| {
                text[start..]
                    .find(e)
                    .map(|j| start + j + if client.include_end { e.len() } else { 0 })
            })
            .min()
            .unwrap_or(text.len());
        // Where every entry is one line (Claude Code from 2.1.300 on), the first blank line
        // after the heading's ends the listing, whatever paragraph follows.
        if client.blank_line_ends
            && dialect.one_line
            && let Some(entries) = text[i..end].find("\n\n").map(|j| i + j + 2)
            && let Some(j) = text[entries..end].find("\n\n")
        {
            end = entries + j;
        }
        return Found::Listing(text[i..end].to_string());
    }
    // Older releases (Claude Code 2.0) list the skills at the end of the skill tool's
    // description, after its own words (its final line break left out).
    if let Some(start) = client.tool_start
        && let Some(d) = tool_description(client, &body)
        && let Some(i) = d.find(start)
    {
        return Found::Listing(d[i..].trim_end_matches('\n').to_string());
    }
    Found::Listing(String::new())
}

/// The description of the client's skill tool in `body`.
fn tool_description(client: &super::clients::Client, body: &Value) -> Option<String> {
    body.get("tools")?
        .as_array()?
        .iter()
        .find(|t| t.get("name").and_then(Value::as_str) == Some(client.skill_tool))?
        .get("description")?
        .as_str()
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn req(path: &str, body: Value) -> Request {
        Request {
            method: "POST".into(),
            path: path.into(),
            query: String::new(),
            body: body.to_string(),
            size: 0,
            unread: None,
        }
    }

    #[test]
    fn claude_codes_listing_ends_before_the_date() {
        let c = super::super::clients::client(crate::core::Agent::ClaudeCode).unwrap();
        let body = json!({"tools": [{"name": "Skill"}], "messages": [{"role": "user", "content": [
            {"type": "text", "text": "<system-reminder>\nThe following skills are here:\n- a: b\n\nToday's date is x\n</system-reminder>"}]}]});
        let count = req("/v1/messages/count_tokens", body.clone());
        let r = [count, req("/v1/messages", body)];
        assert_eq!(
            listing(c, &r),
            Found::Listing("The following skills are here:\n- a: b".into())
        );
        assert_eq!(listing(c, &r[..1]), Found::NoTurn);
    }

    #[test]
    fn claude_codes_listing_ends_before_what_each_release_puts_after_it() {
        let c = super::super::clients::client(crate::core::Agent::ClaudeCode).unwrap();
        let listing_of = |system: &str| {
            let body = json!({"tools": [{"name": "Skill"}], "messages": [
                {"role": "system", "content": system}]});
            listing(c, &[req("/v1/messages", body)])
        };
        let entries = "The following skills are available:\n\n- a: one\n- b: two";
        for after in [
            "\n\n<total_tokens>15000000 tokens left</total_tokens>\n\nToday's date is x.",
            "\n\nWhile auto mode is active:\n\nYou can do much.\n\nToday's date is x.",
            "",
        ] {
            assert_eq!(
                listing_of(&format!("{entries}{after}")),
                Found::Listing(entries.into()),
                "{after:?}"
            );
        }
        // Before 2.1.300 an entry keeps its blank lines: they do not end the listing.
        let kept = "The following skills are available:\n\n- a: one\n\nmore of a\n- b: two";
        let body = json!({"tools": [{"name": "Skill"}], "messages": [
            {"role": "system", "content": format!("{kept}\n\n<total_tokens>1</total_tokens>")}]});
        let raw = crate::core::agents::eras::era_for(crate::core::Agent::ClaudeCode, "2.1.270")
            .unwrap()
            .0
            .dialect;
        assert_eq!(
            listing_as(c, &[req("/v1/messages", body)], raw),
            Found::Listing(kept.into())
        );
    }

    /// The first request of a capture, as the mock recorded it.
    fn captured_request(dir: &str) -> Request {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/agents")
            .join(dir)
            .join("request.json");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        Request {
            method: "POST".into(),
            path: v["path"].as_str().unwrap().into(),
            query: String::new(),
            body: v["body"].to_string(),
            size: 0,
            unread: None,
        }
    }

    fn captured_listing(dir: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/agents")
            .join(dir)
            .join("listing.txt");
        std::fs::read_to_string(p).unwrap()
    }

    /// `verify` on the `controls` library (descriptions, names and folder names holding control,
    /// bidi and zero-width characters): the listing cut out of the request Claude Code 2.1.332
    /// sent and skillscope's prediction of the same library, as `verify` makes it (the agent's
    /// view, the release's own options, no escaping), compare as identical.
    #[test]
    fn verify_finds_the_controls_librarys_prediction_identical() {
        use crate::core::source::{Agent, Root, Scope};
        let t = tempfile::tempdir().unwrap();
        let skills = t.path().join(".claude/skills");
        let json = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/agents/library/controls.json");
        let lib: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
        for s in lib["skills"].as_array().unwrap() {
            let dir = skills.join(s["folder"].as_str().unwrap());
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("SKILL.md"), s["skill_md"].as_str().unwrap()).unwrap();
        }
        let (lib, _) = crate::core::library::Library::load_indexed(
            vec![Root::new(&skills, Agent::ClaudeCode, Scope::User)],
            &crate::core::scan::ScanOptions::default(),
            &crate::core::index::IndexStore::none(),
        );
        let lib = crate::core::agents::view::agent_library(&lib, Agent::ClaudeCode, &[], None);
        let client = &crate::core::agents::claude::eras::CLAUDE_CODE_2_1_332;
        let model = client.default_model().unwrap();
        let opts = crate::core::listing::ListingOptions {
            format: crate::core::listing::Format::ClaudeCode,
            context_window: model.context_window,
            chars_per_token: model.chars_per_token,
            builtins: client.builtins,
            ..Default::default()
        };
        let predicted = crate::core::listing::render(&lib, &|_| true, &opts).text;
        let c = super::super::clients::client(Agent::ClaudeCode).unwrap();
        let Found::Listing(real) = listing(c, &[captured_request("claude-code@2.1.332/controls")])
        else {
            panic!("no listing in the captured request");
        };
        let cmp = super::super::compare(&real, &predicted, "claude 2.1.332");
        assert!(cmp.identical, "{}", cmp.diff);
        assert!(
            real.contains("- ctl-esc: Colour red, title , clear  done."),
            "{real}"
        );
    }

    /// `verify` cuts each release's listing out of its request exactly where the capture did,
    /// with the dialect of the era the release is modelled by.
    #[test]
    fn every_captured_claude_code_and_codex_release_is_cut_out_exactly() {
        for (agent, dirs) in [
            (
                crate::core::Agent::ClaudeCode,
                &["2.1.231", "2.1.270", "2.1.290", "2.1.300", "2.1.332"][..],
            ),
            (
                crate::core::Agent::Codex,
                &["0.148.0", "0.151.0", "0.171.0"][..],
            ),
        ] {
            let c = super::super::clients::client(agent).unwrap();
            for v in dirs {
                let dialect = crate::core::agents::eras::era_for(agent, v)
                    .unwrap()
                    .0
                    .dialect;
                for case in ["mixed", "budget150"] {
                    let dir = format!("{}@{v}/{case}", agent.as_str());
                    assert_eq!(
                        listing_as(c, &[captured_request(&dir)], dialect),
                        Found::Listing(captured_listing(&dir)),
                        "{dir}"
                    );
                }
            }
        }
    }

    /// Qwen Code, Copilot, Cline and OpenClaw: verify cuts the listing out of each captured
    /// Chat Completions request exactly where the capture script did (Cline's from its `skills`
    /// tool's description), and a request without the client's tool carries no turn.
    #[test]
    fn every_captured_chat_client_is_cut_out_exactly() {
        use crate::core::Agent;
        for (agent, dir) in [
            (Agent::QwenCode, "qwen-code@0.24.4"),
            (Agent::QwenCode, "qwen-code@0.23.0"),
            (Agent::QwenCode, "qwen-code@0.21.10"),
            (Agent::Copilot, "copilot@1.0.102"),
            (Agent::Cline, "cline@3.0.65"),
            (Agent::Openclaw, "openclaw@2026.9.6"),
            (Agent::Openclaw, "openclaw@2026.7.35"),
        ] {
            let c = super::super::clients::client(agent).unwrap();
            for case in ["mixed", "folders", "budget", "wide"] {
                let dir = format!("{dir}/{case}");
                let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/fixtures/agents")
                    .join(&dir)
                    .join("request.json");
                let body: Value =
                    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
                let r = req("/v1/chat/completions", body.clone());
                assert_eq!(
                    listing(c, &[r]),
                    Found::Listing(captured_listing(&dir)),
                    "{dir}"
                );
                let mut other = body;
                other["tools"] = json!([]);
                assert_eq!(
                    listing(c, &[req("/v1/chat/completions", other)]),
                    Found::NoTurn,
                    "{dir}"
                );
            }
        }
    }

    /// OpenClaw's note before a truncated or compact catalog is cut out with the listing, so
    /// `verify` compares it; a line before the intro that is no note, or a note not standing
    /// two blank lines before it, is not taken.
    #[test]
    fn openclaws_note_is_cut_out_with_its_listing() {
        let c = super::super::clients::client(crate::core::Agent::Openclaw).unwrap();
        let cut = |system: &str| {
            let body = json!({"tools": [{"type": "function", "function": {"name": "read"}}],
                "messages": [{"role": "system", "content": system}]});
            listing(c, &[req("/v1/chat/completions", body)])
        };
        let intro = "The following skills provide specialized instructions for specific tasks.\n\n<available_skills>\n</available_skills>";
        let note = "\u{26a0}\u{fe0f} Skills truncated: included 1 of 2. Run `openclaw skills check` to audit.";
        assert_eq!(
            cut(&format!(
                "## Skills\nScan <available_skills>.\n{note}\n\n\n{intro}\n## Next"
            )),
            Found::Listing(format!("{note}\n\n\n{intro}"))
        );
        assert_eq!(
            cut(&format!("## Skills\nRetry-After.\n{intro}\n## Next")),
            Found::Listing(intro.to_string())
        );
        assert_eq!(
            cut(&format!("## Skills\n{note}\n{intro}")),
            Found::Listing(intro.to_string())
        );
        let budget = captured_listing("openclaw@2026.9.6/budget");
        assert!(budget.starts_with("\u{26a0}\u{fe0f} Skills truncated: included 150 of 222"));
    }

    #[test]
    fn claude_code_2_0_77s_listing_is_found_in_its_tool_description() {
        let c = super::super::clients::client(crate::core::Agent::ClaudeCode).unwrap();
        let r = captured_request("claude-code@2.0.77/mixed");
        let Found::Listing(l) = listing_as(c, &[r], crate::core::listing::Dialect::CURRENT) else {
            panic!("no turn");
        };
        assert!(
            l.starts_with("Available skills:\n- UpperCase-Skill: "),
            "{l}"
        );
        assert!(
            l.ends_with("- frontend:component: Create a frontend component"),
            "{l}"
        );
    }

    #[test]
    fn an_old_claude_code_lists_its_skills_in_the_tool_description() {
        let c = super::super::clients::client(crate::core::Agent::ClaudeCode).unwrap();
        let body = json!({"tools": [{"name": "Skill", "description":
            "Execute a skill\n\nAvailable skills:\n- a: one\n- b: two\n"}],
            "messages": [{"role": "user", "content": "hello"}]});
        assert_eq!(
            listing(c, &[req("/v1/messages", body)]),
            Found::Listing("Available skills:\n- a: one\n- b: two".into())
        );
    }

    #[test]
    fn codex_keeps_its_closing_tag_and_a_turn_without_one_lists_nothing() {
        let c = super::super::clients::client(crate::core::Agent::Codex).unwrap();
        let with = json!({"instructions": "x", "input": [{"content": [
            {"type": "input_text", "text": "a<skills_instructions>\nb\n</skills_instructions>c"}]}]});
        let r = [req("/v1/responses", with)];
        assert_eq!(
            listing(c, &r),
            Found::Listing("<skills_instructions>\nb\n</skills_instructions>".into())
        );
        let without = [req("/v1/responses", json!({"input": []}))];
        assert_eq!(listing(c, &without), Found::Listing(String::new()));
    }
}
