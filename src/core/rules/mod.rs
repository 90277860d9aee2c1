//! Validation rules.
pub mod overlap;
