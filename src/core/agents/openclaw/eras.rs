//! OpenClaw's release before 2026.9.6 whose listing differs (`tests/fixtures/agents/
//! openclaw@2026.7.35/`): each entry carries its `<version>` (`sha256:` and the first 16 hex
//! digits of its SKILL.md's SHA-256), the intro asks the model to re-read a skill whose version
//! changed, the compact form lists names only (no shortened descriptions), and its bundled and
//! plugin skills are others. The release installed picks the era (`eras::choose`).

use crate::core::agents::client::{Client, OPENCLAW_2026_9_6};
use crate::core::agents::eras::Era;
use crate::core::listing::{BuiltinEntry, Dialect};

/// OpenClaw 2026.7.35 (npm `openclaw`), as captured in `tests/fixtures/agents/openclaw@2026.7.35/`:
/// 150 skills and 18,000 characters, as 2026.9.6.
pub static OPENCLAW_2026_7_35: Client = Client {
    version: "2026.7.35",
    models: &[],
    builtins: BUILTINS_2026_7,
    budget_env: None,
    budget_setting: None,
    settings_files: (&[".openclaw/openclaw.json"], &[]),
    install: None,
    catalogue: None,
};

/// OpenClaw's eras, oldest first.
pub(crate) static ERAS: &[Era] = &[
    Era {
        client: &OPENCLAW_2026_7_35,
        dialect: Dialect {
            openclaw_versions: true,
            ..Dialect::CURRENT
        },
    },
    Era {
        client: &OPENCLAW_2026_9_6,
        dialect: Dialect::CURRENT,
    },
];

/// The eligible bundled and plugin skills of OpenClaw 2026.7.35 on the capture machine, in the
/// capture's (name) order: name, description (unescaped) and where each is (below the package,
/// or `~/…`).
pub static BUILTINS_2026_7: &[BuiltinEntry] = &[
    BuiltinEntry {
        name: "browser-automation",
        description: "Use when controlling web pages with the OpenClaw browser tool, especially multi-step flows, login checks, tab management, or recovery from stale refs/timeouts.",
        fixed: true,
        location: "~/.openclaw/plugin-skills/browser-automation/SKILL.md",
    },
    BuiltinEntry {
        name: "canvas",
        description: "Present HTML on connected OpenClaw node canvases, navigate/eval/snapshot, and debug canvas host URLs.",
        fixed: true,
        location: "~/.openclaw/plugin-skills/canvas/SKILL.md",
    },
    BuiltinEntry {
        name: "clawhub",
        description: "Search ClawHub for skills when a requested capability is not already available; install, verify, update, publish, or sync skills.",
        fixed: true,
        location: "skills/clawhub/SKILL.md",
    },
    BuiltinEntry {
        name: "diagram-maker",
        description: "Create SVG/HTML or Excalidraw diagrams for concepts, architecture, flows, and whiteboards.",
        fixed: true,
        location: "skills/diagram-maker/SKILL.md",
    },
    BuiltinEntry {
        name: "healthcheck",
        description: "Audit/harden OpenClaw hosts: SSH, firewall, updates, exposure, backups, disk encryption, gateway security.",
        fixed: true,
        location: "skills/healthcheck/SKILL.md",
    },
    BuiltinEntry {
        name: "meme-maker",
        description: "Search meme templates, suggest formats, and generate local or hosted image memes.",
        fixed: true,
        location: "skills/meme-maker/SKILL.md",
    },
    BuiltinEntry {
        name: "node-connect",
        description: "Diagnose OpenClaw Android, iOS, or macOS node pairing, QR/setup code, route, auth, and connection failures.",
        fixed: true,
        location: "skills/node-connect/SKILL.md",
    },
    BuiltinEntry {
        name: "node-inspect-debugger",
        description: "Debug Node.js with node inspect, --inspect, breakpoints, CDP, heap, and CPU profiles.",
        fixed: true,
        location: "skills/node-inspect-debugger/SKILL.md",
    },
    BuiltinEntry {
        name: "notion",
        description: "Notion CLI/API for pages, Markdown content, data sources, files, comments, search, Workers, and raw API calls.",
        fixed: true,
        location: "skills/notion/SKILL.md",
    },
    BuiltinEntry {
        name: "python-debugpy",
        description: "Debug Python with pdb, breakpoint(), post-mortem inspection, and debugpy remote attach.",
        fixed: true,
        location: "skills/python-debugpy/SKILL.md",
    },
    BuiltinEntry {
        name: "session-logs",
        description: "Search and analyze your own session logs (older/parent conversations) using jq.",
        fixed: true,
        location: "skills/session-logs/SKILL.md",
    },
    BuiltinEntry {
        name: "skill-creator",
        description: "Create, edit, audit, tidy, validate, or restructure AgentSkills and SKILL.md files.",
        fixed: true,
        location: "skills/skill-creator/SKILL.md",
    },
    BuiltinEntry {
        name: "spike",
        description: "Run throwaway prototypes to validate feasibility, compare approaches, and report a verdict.",
        fixed: true,
        location: "skills/spike/SKILL.md",
    },
    BuiltinEntry {
        name: "taskflow",
        description: "Coordinate multi-step detached tasks as one durable TaskFlow job with owner context, state, waits, and child tasks.",
        fixed: true,
        location: "skills/taskflow/SKILL.md",
    },
    BuiltinEntry {
        name: "taskflow-inbox-triage",
        description: "Example TaskFlow pattern for inbox triage, intent routing, waiting on replies, and later summaries.",
        fixed: true,
        location: "skills/taskflow-inbox-triage/SKILL.md",
    },
    BuiltinEntry {
        name: "tmux",
        description: "Control tmux sessions/panes for interactive CLIs: list, capture output, send keys, paste text, monitor prompts.",
        fixed: true,
        location: "skills/tmux/SKILL.md",
    },
    BuiltinEntry {
        name: "weather",
        description: "Current weather and forecasts with web_fetch, falling back to wttr.in curl for locations, rain, temperature, travel planning.",
        fixed: true,
        location: "skills/weather/SKILL.md",
    },
];
