//! The built-in skills of Qwen Code 0.24.4, as data of its model: each name and description
//! exactly as the client's capture lists it (`tests/fixtures/agents/qwen-code@0.24.4/mixed/listing.txt`),
//! unescaped.
//! Nothing else of the client is kept.

use crate::core::listing::BuiltinEntry;

/// The 14 of Qwen Code's 16 bundled skills (`bundled/` of its package) that it lists, in the
/// capture's order; a `when_to_use` is joined to the description with ` — ` as listed. Its
/// `coordinate` and `zvec-grep-install` set `disable-model-invocation: true` and are never listed.
/// Bundled entries are never shortened by its budget.
pub static QWEN_CODE_BUILTINS: &[BuiltinEntry] = &[
    BATCH,
    BROWSER_USE,
    COMPUTER_USE,
    DATAVIZ,
    EXTENSION_CREATOR,
    GOAL_DRAFT,
    LOOP,
    NEW_APP,
    QC_HELPER,
    REVIEW,
    SIMPLIFY,
    STUCK,
    WORKFLOW_AUTHORING,
    WORKFLOW_CREATOR,
];

/// Each bundled skill as some release lists it; an entry whose words changed between releases
/// has one constant per wording (`REVIEW_0_21`: `review` as 0.21 words it).
pub(crate) const BATCH: BuiltinEntry = BuiltinEntry {
    name: "batch",
    description: "Execute batch operations on multiple files in parallel. Automatically discovers files, splits into chunks, and processes with parallel worker agents. Use `/batch` followed by operation and file pattern.",
    fixed: true,
    location: "",
};

pub(crate) const BROWSER_USE: BuiltinEntry = BuiltinEntry {
    name: "browser-use",
    description: "Control the user's Chrome through the existing persistent Node REPL and the Qwen Browser SDK.",
    fixed: true,
    location: "",
};

pub(crate) const COMPUTER_USE: BuiltinEntry = BuiltinEntry {
    name: "computer-use",
    description: "Control local desktop applications through Computer Use for tasks that require reading or operating app UI. Prefer purpose-built connectors, APIs, or CLIs when available.",
    fixed: true,
    location: "",
};

pub(crate) const DATAVIZ: BuiltinEntry = BuiltinEntry {
    name: "dataviz",
    description: "Design guidance for charts, graphs, dashboards, maps, and data visualizations, including a local palette validator. — When creating or revising charts, graphs, dashboards, maps, plots, inline SVG, D3, Plotly, Recharts, matplotlib, or any Artifact page that visualizes data.",
    fixed: true,
    location: "",
};

pub(crate) const EXTENSION_CREATOR: BuiltinEntry = BuiltinEntry {
    name: "extension-creator",
    description: "Create, scaffold, customize, validate, and locally test Qwen Code extensions. Use when the user wants a new Qwen Code extension, needs help choosing an extension template, wants to add QWEN.md context, commands, skills, agents, MCP servers, settings, hooks, channels, or LSP servers, or asks how to link and test an extension locally. Invoke with `/extension-creator` followed by an extension path and optional template name.",
    fixed: true,
    location: "",
};

pub(crate) const GOAL_DRAFT: BuiltinEntry = BuiltinEntry {
    name: "goal-draft",
    description: "Turn a fuzzy intention into a /goal objective the Goal verifier can actually judge - one outcome, numbered binary \"Done when\" checks that leave evidence in the transcript, guardrails, a budget, and a block protocol. Use when the user wants to set or define a goal, asks whether a goal is good enough, or says \"keep going until X\". Usage - /goal-draft <what you want done>, or /goal-draft <existing goal> to tighten it. This skill only writes the objective; it never starts the work.",
    fixed: true,
    location: "",
};

pub(crate) const LOOP: BuiltinEntry = BuiltinEntry {
    name: "loop",
    description: "Create a loop that runs a prompt now and follows up either on a fixed schedule or through self-paced wakeups. Usage - /loop check the build, /loop 5m check the build, /loop check the PR every 30m. /loop list to show jobs, /loop clear to cancel all.",
    fixed: true,
    location: "",
};

pub(crate) const NEW_APP: BuiltinEntry = BuiltinEntry {
    name: "new-app",
    description: "Workflow for creating new applications from scratch. Covers requirements gathering, tech stack selection, scaffolding, implementation, and delivery of a functional prototype. — When the user asks to create a new application, project, website, game, mobile app, CLI tool, or library from scratch.",
    fixed: true,
    location: "",
};

pub(crate) const QC_HELPER: BuiltinEntry = BuiltinEntry {
    name: "qc-helper",
    description: "Answer any question about Qwen Code usage, features, configuration, and troubleshooting by referencing the official user documentation. Also helps users view or modify their settings.json. Invoke with `/qc-helper` followed by a question, e.g. `/qc-helper how do I configure MCP servers?` or `/qc-helper change approval mode to yolo`.",
    fixed: true,
    location: "",
};

pub(crate) const REVIEW: BuiltinEntry = BuiltinEntry {
    name: "review",
    description: "Review changed code for correctness, security, code quality, and performance. Use when the user asks to review code changes, a PR, or specific files. Invoke with `/review`, `/review <pr-number>`, `/review <file-path>`, `/review <pr-number> --comment` to post inline comments on the PR, `/review --fix` to apply the findings to your working tree, or `/review <pr-number> --resume` to continue an interrupted review of that PR instead of starting over. Add `--effort low|medium|high` to trade depth for speed (defaults to high for PRs, medium for local changes). Add `--topology minimal` to run the single-pass A/B comparison arm instead of the pipeline.",
    fixed: true,
    location: "",
};

pub(crate) const SIMPLIFY: BuiltinEntry = BuiltinEntry {
    name: "simplify",
    description: "Review recent code changes for reuse, code quality, and efficiency, then directly apply straightforward cleanup improvements. Use when the user wants a post-implementation cleanup pass, pre-PR polish, or asks to simplify/refine recent changes. Invoke with `/simplify` or `/simplify <focus>`.",
    fixed: true,
    location: "",
};

pub(crate) const STUCK: BuiltinEntry = BuiltinEntry {
    name: "stuck",
    description: "Diagnose frozen, stuck, or slow Qwen Code sessions on this machine. Scans for problematic processes, high CPU/memory usage, hung subprocesses, and debug logs. Use /stuck or /stuck <PID> to focus on a specific process.",
    fixed: true,
    location: "",
};

pub(crate) const WORKFLOW_AUTHORING: BuiltinEntry = BuiltinEntry {
    name: "workflow-authoring",
    description: "Reference for writing a Workflow tool script (script API and gotchas, agent() options, pipeline() vs parallel(), verification and convergence patterns, resume, worked example). Load before authoring a script for a workflow the user already opted into; it does not itself authorize running one.",
    fixed: true,
    location: "",
};

pub(crate) const WORKFLOW_CREATOR: BuiltinEntry = BuiltinEntry {
    name: "workflow-creator",
    description: "Create or update reusable Dynamic Workflow JavaScript files under .qwen/workflows. Use when the user asks to create, save, edit, or reuse a Dynamic Workflow, including requests started from the Web Shell Workflows page.",
    fixed: true,
    location: "",
};

pub(crate) const REVIEW_0_21: BuiltinEntry = BuiltinEntry {
    name: "review",
    description: "Review changed code for correctness, security, code quality, and performance. Use when the user asks to review code changes, a PR, or specific files. Invoke with `/review`, `/review <pr-number>`, `/review <file-path>`, `/review <pr-number> --comment` to post inline comments on the PR, or `/review --fix` to apply the findings to your working tree. Add `--effort low|medium|high` to trade depth for speed (defaults to high for PRs, medium for local changes).",
    fixed: true,
    location: "",
};
