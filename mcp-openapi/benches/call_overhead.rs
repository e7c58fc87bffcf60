//! Overhead of a generated tool call over a direct `reqwest` call to the
//! same local upstream (filled in with the HTTP handler).

fn main() {}
