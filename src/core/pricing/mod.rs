//! What a library costs: totals per level and source, baselines and their diff, per-model
//! estimates, listing modes, cost when used by type.

pub(crate) mod baseline;
pub mod budget;
pub mod model;
pub mod modes;
pub(crate) mod usage;
