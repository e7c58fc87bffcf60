//! Project automation. `cargo xtask ci` runs what CI runs.

fn main() {}
