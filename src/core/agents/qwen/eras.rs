//! Qwen Code's releases before 0.24.4 whose listings differ (`tests/fixtures/agents/
//! qwen-code@0.21.10/`, `qwen-code@0.23.0/`): the same listing of the library's skills, other
//! bundled skills (0.21.10: nine, `review` worded otherwise; 0.23.0: eleven; 0.24.4 adds
//! `browser-use`, `workflow-authoring` and `workflow-creator`), and before 0.24 another `skill`
//! tool text. The release installed picks the era (`eras::choose`).

use crate::core::agents::client::{Client, QWEN_CODE_0_24_4};
use crate::core::agents::eras::Era;
use crate::core::listing::{BuiltinEntry, Dialect};

/// A Qwen Code release before 0.24.4: its version and bundled skills; the rest as 0.24.4's.
const fn qwen_code(version: &'static str, builtins: &'static [BuiltinEntry]) -> Client {
    Client {
        version,
        models: &[],
        builtins,
        budget_env: None,
        budget_setting: None,
        settings_files: (&[".qwen/settings.json"], &[".qwen/settings.json"]),
        install: None,
        catalogue: None,
    }
}

/// Qwen Code 0.21.10 (`tests/fixtures/agents/qwen-code@0.21.10/`).
pub static QWEN_CODE_0_21_10: Client = qwen_code("0.21.10", QWEN_CODE_0_21_10_BUILTINS);
/// Qwen Code 0.23.0 (`tests/fixtures/agents/qwen-code@0.23.0/`).
pub static QWEN_CODE_0_23_0: Client = qwen_code("0.23.0", QWEN_CODE_0_23_0_BUILTINS);

/// Qwen Code's eras, oldest first.
pub(crate) static ERAS: &[Era] = &[
    Era {
        client: &QWEN_CODE_0_21_10,
        dialect: Dialect::CURRENT,
    },
    Era {
        client: &QWEN_CODE_0_23_0,
        dialect: Dialect::CURRENT,
    },
    Era {
        client: &QWEN_CODE_0_24_4,
        dialect: Dialect::CURRENT,
    },
];

/// Whether the release in use declares the `skill` tool of the releases before 0.24.
pub(crate) fn older_tool() -> bool {
    crate::core::agents::eras::in_use(crate::core::source::Agent::QwenCode).is_some_and(|c| {
        crate::core::agents::installed::numbers(c.era.client.version)
            < crate::core::agents::installed::numbers("0.24.0")
    })
}

/// The 9 bundled skills Qwen Code 0.21.10 lists (`tests/fixtures/agents/qwen-code@0.21.10/mixed/listing.txt`),
/// in the capture's order.
pub static QWEN_CODE_0_21_10_BUILTINS: &[BuiltinEntry] = &[
    BuiltinEntry {
        name: "batch",
        description: "Execute batch operations on multiple files in parallel. Automatically discovers files, splits into chunks, and processes with parallel worker agents. Use `/batch` followed by operation and file pattern.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "dataviz",
        description: "Design guidance for charts, graphs, dashboards, maps, and data visualizations, including a local palette validator. — When creating or revising charts, graphs, dashboards, maps, plots, inline SVG, D3, Plotly, Recharts, matplotlib, or any Artifact page that visualizes data.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "extension-creator",
        description: "Create, scaffold, customize, validate, and locally test Qwen Code extensions. Use when the user wants a new Qwen Code extension, needs help choosing an extension template, wants to add QWEN.md context, commands, skills, agents, MCP servers, settings, hooks, channels, or LSP servers, or asks how to link and test an extension locally. Invoke with `/extension-creator` followed by an extension path and optional template name.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "loop",
        description: "Create a loop that runs a prompt now and follows up either on a fixed schedule or through self-paced wakeups. Usage - /loop check the build, /loop 5m check the build, /loop check the PR every 30m. /loop list to show jobs, /loop clear to cancel all.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "new-app",
        description: "Workflow for creating new applications from scratch. Covers requirements gathering, tech stack selection, scaffolding, implementation, and delivery of a functional prototype. — When the user asks to create a new application, project, website, game, mobile app, CLI tool, or library from scratch.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "qc-helper",
        description: "Answer any question about Qwen Code usage, features, configuration, and troubleshooting by referencing the official user documentation. Also helps users view or modify their settings.json. Invoke with `/qc-helper` followed by a question, e.g. `/qc-helper how do I configure MCP servers?` or `/qc-helper change approval mode to yolo`.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "review",
        description: "Review changed code for correctness, security, code quality, and performance. Use when the user asks to review code changes, a PR, or specific files. Invoke with `/review`, `/review <pr-number>`, `/review <file-path>`, `/review <pr-number> --comment` to post inline comments on the PR, or `/review --fix` to apply the findings to your working tree. Add `--effort low|medium|high` to trade depth for speed (defaults to high for PRs, medium for local changes).",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "simplify",
        description: "Review recent code changes for reuse, code quality, and efficiency, then directly apply straightforward cleanup improvements. Use when the user wants a post-implementation cleanup pass, pre-PR polish, or asks to simplify/refine recent changes. Invoke with `/simplify` or `/simplify <focus>`.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "stuck",
        description: "Diagnose frozen, stuck, or slow Qwen Code sessions on this machine. Scans for problematic processes, high CPU/memory usage, hung subprocesses, and debug logs. Use /stuck or /stuck <PID> to focus on a specific process.",
        fixed: true,
        location: "",
    },
];

/// The 11 bundled skills Qwen Code 0.23.0 lists (`tests/fixtures/agents/qwen-code@0.23.0/mixed/listing.txt`),
/// in the capture's order.
pub static QWEN_CODE_0_23_0_BUILTINS: &[BuiltinEntry] = &[
    BuiltinEntry {
        name: "batch",
        description: "Execute batch operations on multiple files in parallel. Automatically discovers files, splits into chunks, and processes with parallel worker agents. Use `/batch` followed by operation and file pattern.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "computer-use",
        description: "Control local desktop applications through Computer Use for tasks that require reading or operating app UI. Prefer purpose-built connectors, APIs, or CLIs when available.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "dataviz",
        description: "Design guidance for charts, graphs, dashboards, maps, and data visualizations, including a local palette validator. — When creating or revising charts, graphs, dashboards, maps, plots, inline SVG, D3, Plotly, Recharts, matplotlib, or any Artifact page that visualizes data.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "extension-creator",
        description: "Create, scaffold, customize, validate, and locally test Qwen Code extensions. Use when the user wants a new Qwen Code extension, needs help choosing an extension template, wants to add QWEN.md context, commands, skills, agents, MCP servers, settings, hooks, channels, or LSP servers, or asks how to link and test an extension locally. Invoke with `/extension-creator` followed by an extension path and optional template name.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "goal-draft",
        description: "Turn a fuzzy intention into a /goal objective the Goal verifier can actually judge - one outcome, numbered binary \"Done when\" checks that leave evidence in the transcript, guardrails, a budget, and a block protocol. Use when the user wants to set or define a goal, asks whether a goal is good enough, or says \"keep going until X\". Usage - /goal-draft <what you want done>, or /goal-draft <existing goal> to tighten it. This skill only writes the objective; it never starts the work.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "loop",
        description: "Create a loop that runs a prompt now and follows up either on a fixed schedule or through self-paced wakeups. Usage - /loop check the build, /loop 5m check the build, /loop check the PR every 30m. /loop list to show jobs, /loop clear to cancel all.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "new-app",
        description: "Workflow for creating new applications from scratch. Covers requirements gathering, tech stack selection, scaffolding, implementation, and delivery of a functional prototype. — When the user asks to create a new application, project, website, game, mobile app, CLI tool, or library from scratch.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "qc-helper",
        description: "Answer any question about Qwen Code usage, features, configuration, and troubleshooting by referencing the official user documentation. Also helps users view or modify their settings.json. Invoke with `/qc-helper` followed by a question, e.g. `/qc-helper how do I configure MCP servers?` or `/qc-helper change approval mode to yolo`.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "review",
        description: "Review changed code for correctness, security, code quality, and performance. Use when the user asks to review code changes, a PR, or specific files. Invoke with `/review`, `/review <pr-number>`, `/review <file-path>`, `/review <pr-number> --comment` to post inline comments on the PR, `/review --fix` to apply the findings to your working tree, or `/review <pr-number> --resume` to continue an interrupted review of that PR instead of starting over. Add `--effort low|medium|high` to trade depth for speed (defaults to high for PRs, medium for local changes). Add `--topology minimal` to run the single-pass A/B comparison arm instead of the pipeline.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "simplify",
        description: "Review recent code changes for reuse, code quality, and efficiency, then directly apply straightforward cleanup improvements. Use when the user wants a post-implementation cleanup pass, pre-PR polish, or asks to simplify/refine recent changes. Invoke with `/simplify` or `/simplify <focus>`.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "stuck",
        description: "Diagnose frozen, stuck, or slow Qwen Code sessions on this machine. Scans for problematic processes, high CPU/memory usage, hung subprocesses, and debug logs. Use /stuck or /stuck <PID> to focus on a specific process.",
        fixed: true,
        location: "",
    },
];
