//! Command-line front end.
