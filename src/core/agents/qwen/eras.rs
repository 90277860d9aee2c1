//! Qwen Code's releases before 0.24.4 whose listings differ (`tests/fixtures/agents/
//! qwen-code@0.21.10/`, `qwen-code@0.23.0/`): the same listing of the library's skills, other
//! bundled skills (0.21.10: nine, `review` worded otherwise; 0.23.0: eleven; 0.24.4 adds
//! `browser-use`, `workflow-authoring` and `workflow-creator`), and before 0.24 another `skill`
//! tool text. The release installed picks the era (`eras::choose`).

use super::builtins::{
    BATCH, COMPUTER_USE, DATAVIZ, EXTENSION_CREATOR, GOAL_DRAFT, LOOP, NEW_APP, QC_HELPER, REVIEW,
    REVIEW_0_21, SIMPLIFY, STUCK,
};
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
    BATCH,
    DATAVIZ,
    EXTENSION_CREATOR,
    LOOP,
    NEW_APP,
    QC_HELPER,
    REVIEW_0_21,
    SIMPLIFY,
    STUCK,
];

/// The 11 bundled skills Qwen Code 0.23.0 lists (`tests/fixtures/agents/qwen-code@0.23.0/mixed/listing.txt`),
/// in the capture's order.
pub static QWEN_CODE_0_23_0_BUILTINS: &[BuiltinEntry] = &[
    BATCH,
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
];
