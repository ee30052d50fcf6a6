//! uplint: a deprecation-schedule linter and query engine for the GitLab platform.
//!
//! Layers, one way: [`catalog`] (data model, load, validate, query) knows nothing of
//! scanning; the scan engine produces findings and knows nothing of output formats; the
//! reporters in [`render`] turn either into formats; the binary wires them.

pub mod baseline;
pub mod catalog;
pub mod config;
pub mod fix;
pub mod fleet;
pub mod output;
pub mod patterns;
pub mod render;
pub mod scan;
pub mod server;
pub mod syntax;
pub mod version;
