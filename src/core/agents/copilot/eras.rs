//! GitHub Copilot CLI's releases before 1.0.102 whose listings differ (`tests/fixtures/agents/
//! copilot@1.0.83/`, `copilot@1.0.92/`): each folder's skills in the byte order of their
//! SKILL.md's path, and the project's folders one after the other (1.0.102 orders by name, the
//! project's three folders of one level by name across them); before 1.0.92 another `skill` tool
//! text. The built-ins, the budget, the cap on descriptions and what loading a skill returns are
//! 1.0.102's. The release installed picks the era (`eras::choose`).

use crate::core::agents::client::{COPILOT_1_0_102, Client};
use crate::core::agents::eras::Era;
use crate::core::listing::Dialect;

/// A GitHub Copilot CLI release before 1.0.102: its version; the rest as 1.0.102's.
const fn copilot(version: &'static str) -> Client {
    Client {
        version,
        ..COPILOT_1_0_102
    }
}

/// GitHub Copilot CLI 1.0.83 (`tests/fixtures/agents/copilot@1.0.83/`).
pub static COPILOT_1_0_83: Client = copilot("1.0.83");
/// GitHub Copilot CLI 1.0.92 (`tests/fixtures/agents/copilot@1.0.92/`).
pub static COPILOT_1_0_92: Client = copilot("1.0.92");

/// Before 1.0.102: by path, folder by folder.
const PATH_ORDER: Dialect = Dialect {
    copilot_path_order: true,
    ..Dialect::CURRENT
};

/// GitHub Copilot CLI's eras, oldest first.
pub(crate) static ERAS: &[Era] = &[
    Era {
        client: &COPILOT_1_0_83,
        dialect: PATH_ORDER,
    },
    Era {
        client: &COPILOT_1_0_92,
        dialect: PATH_ORDER,
    },
    Era {
        client: &COPILOT_1_0_102,
        dialect: Dialect::CURRENT,
    },
];

/// Whether the release in use declares the `skill` tool of the releases before 1.0.92.
pub(crate) fn older_tool() -> bool {
    crate::core::agents::eras::in_use(crate::core::source::Agent::Copilot).is_some_and(|c| {
        crate::core::agents::installed::numbers(c.era.client.version)
            < crate::core::agents::installed::numbers("1.0.92")
    })
}
