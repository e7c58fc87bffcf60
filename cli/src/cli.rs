//! The `mcp-server` command line: arguments, subcommands and the demo.

mod args;
mod demo;
mod error;
mod openapi;
mod overlay_args;
mod pets_resource;
mod petstore_api;
mod reload;
mod run;
mod schema_budget;
mod serve;
mod serving_args;
mod shared_state;
pub(crate) mod telemetry;
mod transform;
mod watch;

pub(crate) use args::Cli;
pub(crate) use run::run;
