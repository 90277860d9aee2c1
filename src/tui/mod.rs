//! Terminal app.
