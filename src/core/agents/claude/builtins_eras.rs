//! Claude Code's built-in entries in the releases before 2.1.332, as each listing holds them
//! (captured: `tests/fixtures/agents/claude-code@VERSION/mixed/listing.txt`): the bundled skills,
//! never shortened, then the commands `init` and `security-review`. Data of the model.

use crate::core::listing::BuiltinEntry;

// Each entry once: a release lists the ones it held, and an entry that changed between
// releases is a const of its own (`_1`, `_2`, … in the order met).

const DATAVIZ_1: BuiltinEntry = BuiltinEntry {
    name: "dataviz",
    description: "Use this skill whenever you are about to create ANY chart, graph, plot, dashboard, or data visualization, in ANY output medium — an HTML or React artifact, inline SVG, plotting code in any library (matplotlib, plotly, d3, Recharts, …), an image/PNG you will render and upload, or a chart shared into Slack. Read it BEFORE writing the first line of chart code, choosing chart colors, building a stat tile / meter / KPI row, or laying out a dashboard. When the destination is a first-party document connector (host-designated, never self-described) that renders live charts, hand it the rows (inline, or as an uploaded data file the chart cites) rather than a rendered PNG/SVG — a picture of a chart loses hover, data inspection and per-value comments. Produces visualizations that read as one system — elegant, accessible, consistent in light and dark — using a brand-neutral placeholder palette you swap for your own. Teaches a design-system-agnostic method: a form heuristic, a color formula with a runnable validator, mark specs, and interaction rules. A validated default palette is documented in `references/palette.md` — swap that file's values for your brand's. Triggers on: \"chart\", \"graph\", \"plot\", \"data viz\", \"visualization\", \"dashboard\", \"analytics\", \"visualize data\", \"categorical colors\", \"sequential / diverging palette\", \"stat tile\", \"sparkline\", \"heatmap\", \"legend\", \"axis\", \"tooltip\", \"chart colors\", \"color by series\".",
    fixed: true,
    location: "",
};

const UPDATE_CONFIG: BuiltinEntry = BuiltinEntry {
    name: "update-config",
    description: "Use this skill to configure the Claude Code harness via settings.json. Automated behaviors (\"from now on when X\", \"each time X\", \"whenever X\", \"before/after X\") require hooks configured in settings.json - the harness executes these, not Claude, so memory/preferences cannot fulfill them. Also use for: permissions (\"allow X\", \"add permission\", \"move permission to\"), env vars (\"set X=Y\"), hook troubleshooting, or any changes to settings.json/settings.local.json files. Examples: \"allow npm commands\", \"add bq permission to global settings\", \"move permission to user settings\", \"set DEBUG=true\", \"when claude stops show X\". For simple settings like theme/model, suggest the /config command.",
    fixed: true,
    location: "",
};

const KEYBINDINGS_HELP: BuiltinEntry = BuiltinEntry {
    name: "keybindings-help",
    description: "Use when the user wants to customize keyboard shortcuts, rebind keys, add chord bindings, or modify ~/.claude/keybindings.json. Examples: \"rebind ctrl+s\", \"add a chord shortcut\", \"change the submit key\", \"customize keybindings\".",
    fixed: true,
    location: "",
};

const CODE_REVIEW_1: BuiltinEntry = BuiltinEntry {
    name: "code-review",
    description: "Review the current diff, or a PR number/branch/path target, for correctness bugs (plus reuse/simplification/efficiency cleanups where the model's review recipe covers them) at the given effort level (low|medium|high|xhigh|max: from few high-confidence findings up to many, some of them uncertain); with no level given, it reuses the level you typed last. Pass --comment to post findings as inline PR comments, or --fix to apply the findings to the working tree after the review. Pass --max-findings <n> to report up to n findings, or --max-findings all for every finding. The choice stays until you pass --max-findings default.",
    fixed: true,
    location: "",
};

const SIMPLIFY: BuiltinEntry = BuiltinEntry {
    name: "simplify",
    description: "Review the changed code for reuse, simplification, efficiency, and altitude cleanups, then apply the fixes. Quality only — it does not hunt for bugs; use /code-review for that.",
    fixed: true,
    location: "",
};

const FEWER_PERMISSION_PROMPTS: BuiltinEntry = BuiltinEntry {
    name: "fewer-permission-prompts",
    description: "Scan your transcripts for common read-only Bash and MCP tool calls, then add a prioritized allowlist to project .claude/settings.json to reduce permission prompts.",
    fixed: true,
    location: "",
};

const LOOP_1: BuiltinEntry = BuiltinEntry {
    name: "loop",
    description: "Run a prompt or slash command on a recurring interval (e.g. /loop 5m /foo). Omit the interval to let the model self-pace. - When the user wants to set up a recurring task, poll for status, or run something repeatedly on an interval (e.g. \"check the deploy every 5 minutes\", \"keep running /babysit-prs\"). Do NOT invoke for one-off tasks.",
    fixed: true,
    location: "",
};

const CLAUDE_API: BuiltinEntry = BuiltinEntry {
    name: "claude-api",
    description: "Reference for the Claude API / Anthropic SDK — model ids, pricing, params, streaming, tool use, MCP, agents, caching, token counting, model migration.\nTRIGGER — read BEFORE opening the target file; don't skip because it \"looks like a one-liner\" — whenever: the prompt names Claude/Anthropic in any form (Claude, Anthropic, Fable, Opus, Sonnet, Haiku, `anthropic`, `@anthropic-ai`, `claude-*`, `us.anthropic.*`, `[1m]`); the user asks about an LLM (pricing/model choice/limits/caching) — never answer from memory; OR the task is LLM-shaped with provider unstated (agent/MCP/tool-definition/multi-agent/RAG/LLM-judge/computer-use; generate/summarize/extract/classify/rewrite/converse over NL; debugging refusals/cutoffs/streaming/tool-calls/tokens).\nSKIP only when another provider is being worked on (overrides all triggers): OpenAI/GPT/Gemini/Llama/Mistral/Cohere/Ollama named in the query; OR `grep -rE 'openai|langchain_openai|google.generativeai|genai|mistralai|cohere|ollama'` over the project hits (run this grep FIRST if no provider named — don't Read the file).",
    fixed: true,
    location: "",
};

const WORKFLOW_AUTHORING: BuiltinEntry = BuiltinEntry {
    name: "workflow-authoring",
    description: "Reference for writing a Workflow tool script (script API and gotchas, resume, quality patterns, worked examples). Load before authoring a script for a workflow the user already opted into; it does not itself authorize running one.",
    fixed: true,
    location: "",
};

const RUN: BuiltinEntry = BuiltinEntry {
    name: "run",
    description: "Launch and drive this project's app to see a change working. Use when asked to run, start, or screenshot the app, or to confirm a change works in the real app (not just tests). First looks for a project skill that already covers launching the app; otherwise falls back to built-in patterns per project type (CLI, server, TUI, Electron, browser-driven, library).",
    fixed: true,
    location: "",
};

const PLUGIN_AUTHORING_1: BuiltinEntry = BuiltinEntry {
    name: "plugin-authoring",
    description: "Make a mod: a change to Claude's own interface or behaviour, such as a live pane or panel, a band above the prompt, a status line, a toast, a slash command, or a hook on tool calls or prompts. Use to make, change or debug a mod or its hooks module.",
    fixed: true,
    location: "",
};

const INIT: BuiltinEntry = BuiltinEntry {
    name: "init",
    description: "Initialize a new CLAUDE.md file with codebase documentation",
    fixed: false,
    location: "",
};

const SECURITY_REVIEW: BuiltinEntry = BuiltinEntry {
    name: "security-review",
    description: "Complete a security review of the pending changes on the current branch",
    fixed: false,
    location: "",
};

const PLUGIN_AUTHORING_2: BuiltinEntry = BuiltinEntry {
    name: "plugin-authoring",
    description: "Make a mod: a live pane, band, status line, toast or hook inside Claude Code (terminal or desktop Code tab), written as a plugin of function hooks that hot-reloads in this session. Load before writing or debugging a hooks module.",
    fixed: true,
    location: "",
};

const CODE_REVIEW_2: BuiltinEntry = BuiltinEntry {
    name: "code-review",
    description: "Review the current diff, or a PR number/branch/path target, for correctness bugs and reuse/simplification/efficiency cleanups at the given effort level (low/medium: fewer, high-confidence findings; high→max: broader coverage, may include uncertain findings); with no level given, it reuses the level you typed last. Pass --comment to post findings as inline PR comments, or --fix to apply the findings to the working tree after the review.",
    fixed: true,
    location: "",
};

const DATAVIZ_2: BuiltinEntry = BuiltinEntry {
    name: "dataviz",
    description: "Use this skill whenever you are about to create ANY chart, graph, plot, dashboard, or data visualization, in ANY output medium — an HTML or React artifact, inline SVG, plotting code in any library (matplotlib, plotly, d3, Recharts, …), an image/PNG you will render and upload, or a chart shared into Slack. Read it BEFORE writing the first line of chart code, choosing chart colors, building a stat tile / meter / KPI row, or laying out a dashboard. Produces visualizations that read as one system — elegant, accessible, consistent in light and dark — using a brand-neutral placeholder palette you swap for your own. Teaches a design-system-agnostic method: a form heuristic, a color formula with a runnable validator, mark specs, and interaction rules. A validated default palette is documented in `references/palette.md` — swap that file's values for your brand's. Triggers on: \"chart\", \"graph\", \"plot\", \"data viz\", \"visualization\", \"dashboard\", \"analytics\", \"visualize data\", \"categorical colors\", \"sequential / diverging palette\", \"stat tile\", \"sparkline\", \"heatmap\", \"legend\", \"axis\", \"tooltip\", \"chart colors\", \"color by series\".",
    fixed: true,
    location: "",
};

const LOOP_2: BuiltinEntry = BuiltinEntry {
    name: "loop",
    description: "Run a prompt or slash command on a recurring interval (e.g. /loop 5m /foo, defaults to 10m) - When the user wants to set up a recurring task, poll for status, or run something repeatedly on an interval (e.g. \"check the deploy every 5 minutes\", \"keep running /babysit-prs\"). Do NOT invoke for one-off tasks.",
    fixed: true,
    location: "",
};

/// Claude Code 2.1.300's 13 built-in entries (`tests/fixtures/agents/claude-code@2.1.300/mixed/listing.txt`).
pub static BUILTINS_2_1_300: &[BuiltinEntry] = &[
    DATAVIZ_1,
    UPDATE_CONFIG,
    KEYBINDINGS_HELP,
    CODE_REVIEW_1,
    SIMPLIFY,
    FEWER_PERMISSION_PROMPTS,
    LOOP_1,
    CLAUDE_API,
    WORKFLOW_AUTHORING,
    RUN,
    PLUGIN_AUTHORING_1,
    INIT,
    SECURITY_REVIEW,
];

/// Claude Code 2.1.290's 13 built-in entries (`tests/fixtures/agents/claude-code@2.1.290/mixed/listing.txt`).
pub static BUILTINS_2_1_290: &[BuiltinEntry] = &[
    DATAVIZ_1,
    UPDATE_CONFIG,
    KEYBINDINGS_HELP,
    CODE_REVIEW_1,
    SIMPLIFY,
    FEWER_PERMISSION_PROMPTS,
    LOOP_1,
    CLAUDE_API,
    WORKFLOW_AUTHORING,
    RUN,
    PLUGIN_AUTHORING_2,
    INIT,
    SECURITY_REVIEW,
];

/// Claude Code 2.1.270's 12 built-in entries (`tests/fixtures/agents/claude-code@2.1.270/mixed/listing.txt`).
pub static BUILTINS_2_1_270: &[BuiltinEntry] = &[
    DATAVIZ_1,
    UPDATE_CONFIG,
    KEYBINDINGS_HELP,
    CODE_REVIEW_2,
    SIMPLIFY,
    FEWER_PERMISSION_PROMPTS,
    LOOP_1,
    CLAUDE_API,
    WORKFLOW_AUTHORING,
    RUN,
    INIT,
    SECURITY_REVIEW,
];

/// Claude Code 2.1.231's 10 built-in entries (`tests/fixtures/agents/claude-code@2.1.231/mixed/listing.txt`).
pub static BUILTINS_2_1_231: &[BuiltinEntry] = &[
    DATAVIZ_2,
    UPDATE_CONFIG,
    KEYBINDINGS_HELP,
    SIMPLIFY,
    FEWER_PERMISSION_PROMPTS,
    LOOP_2,
    CLAUDE_API,
    RUN,
    INIT,
    SECURITY_REVIEW,
];
