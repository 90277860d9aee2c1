//! Agents' settings entries that name a skill (Claude Code `skillOverrides`, Codex
//! `[[skills.config]]`, opencode `permission.skill` rules): found for a removed skill, and
//! cleaned only when asked.
