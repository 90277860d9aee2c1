//! Gemini CLI 0.61.0's `activate_skill` as the client declares it (captured:
//! `tests/fixtures/agents/gemini-cli@0.61.0/*/tool.json`).

use serde_json::json;

/// Gemini CLI's `activate_skill` declaration for a listing of `names` (listing order), as compact
/// JSON (`getActivateSkillDeclaration`): every name quoted in its description and again in the
/// enum of its `name` parameter. `None` for no names: the tool is then not declared.
pub fn activate_skill(names: &[String]) -> Option<String> {
    if names.is_empty() {
        return None;
    }
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    let declaration = json!({
        "name": "activate_skill",
        "description": format!(
            "Activates a specialized agent skill by name (Available: {}). Returns the skill's instructions wrapped in `<activated_skill>` tags. These provide specialized guidance for the current task. Use this when you identify a task that matches a skill's description. ONLY use names exactly as they appear in the `<available_skills>` section.",
            quoted.join(", ")
        ),
        "parametersJsonSchema": {
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "enum": names,
                    "description": "The name of the skill to activate."
                }
            },
            "required": ["name"],
            "additionalProperties": false,
            "$schema": "http://json-schema.org/draft-07/schema#"
        }
    });
    Some(declaration.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::tools::testing::{capture, listed_names, sent};
    use crate::core::source::Agent;

    #[test]
    fn gemini_declares_activate_skill_with_every_listed_name_as_captured() {
        for (case, chars) in [("mixed", 1_772), ("budget150", 6_332)] {
            let names = listed_names(&capture("gemini-cli@0.61.0", case, "listing.txt"));
            let got = activate_skill(&names).unwrap();
            assert_eq!(got, sent("gemini-cli@0.61.0", case), "{case}");
            assert_eq!(got.chars().count(), chars, "{case}");
        }
        assert_eq!(activate_skill(&[]), None);
        let d = crate::core::agents::tools::definition(Agent::Gemini, &["a\"b".to_string()], None)
            .unwrap();
        assert!(d.json.contains(r#"'a\"b'"#), "{}", d.json);
    }
}
