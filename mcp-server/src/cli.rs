//! The `mcp-server` command line: arguments, subcommands and the demo.

mod args;
mod demo;
mod error;
mod openapi;
mod overlay_args;
mod petstore_api;
mod run;
mod serve;
mod transform;

pub(crate) use args::Cli;
pub(crate) use run::run;
