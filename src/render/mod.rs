//! Reporters: turn catalog query results (and scan findings) into output formats.
//! One file per format.

pub mod catalog;
pub mod scan;
pub mod text;
