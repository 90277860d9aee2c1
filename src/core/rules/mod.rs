//! Validation rules.
