//! The library behind the `strackgen` command: what its verbs build, apart from argument
//! parsing.

pub mod descriptors;
pub mod package;
pub mod timeline;
