//! Loads documents and reports operations, tools, skipped operations and the
//! load time as a ratio to a plain `serde_json::from_slice` of the same file.
//!
//! `cargo run --release -p mcp-openapi --example load_bench -- [--inline] [--stats] FILE...`

use std::time::{Duration, Instant};

use mcp_openapi::{OpenApi, SchemaProfile};

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let value = f();
        best = best.min(start.elapsed());
        last = Some(value);
    }
    (best, last.unwrap_or_else(f))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut profile = SchemaProfile::Standard;
    let mut stats = false;
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        if arg == "--stats" {
            stats = true;
        } else if arg == "--inline" {
            profile = SchemaProfile::Inline;
        } else {
            files.push(arg);
        }
    }
    for file in files {
        let bytes = std::fs::read(&file)?;
        let (plain, parsed) = best_of(5, || {
            serde_json::from_slice::<serde_json::Value>(&bytes).ok()
        });
        if parsed.is_none() {
            println!(
                "{file}: not JSON, no serde_json::from_slice baseline (ratio meaningless below)"
            );
        }
        let (load, generated) = best_of(5, || -> Result<_, mcp_openapi::SpecError> {
            let api = OpenApi::from_slice(&bytes)?;
            let generated = api.generator().profile(profile).generate()?;
            // Returned, so that dropping the document is not timed.
            Ok((api, generated))
        });
        let (api, generated) = generated?;
        let routes = api.routes().len();
        let (parse, value) = best_of(3, || mcp_openapi::parse_slice(&bytes));
        let value = value?;
        let (load_only, api) = best_of(3, || {
            OpenApi::load(value.clone(), None, &mcp_openapi::LoadOptions::new())
        });
        let api = api?;
        let (clone_only, _) = best_of(3, || value.clone());
        let load_only = load_only.saturating_sub(clone_only);
        let (generate_only, _) = best_of(3, || api.generator().profile(profile).generate());
        println!(
            "  parse {:.1} ms, load {:.1} ms, generate {:.1} ms",
            parse.as_secs_f64() * 1e3,
            load_only.as_secs_f64() * 1e3,
            generate_only.as_secs_f64() * 1e3
        );
        let skipped: Vec<_> = generated
            .warnings
            .iter()
            .filter(|w| w.message.starts_with("skipped"))
            .collect();
        let schema_bytes: usize = generated
            .tools
            .iter()
            .map(|t| serde_json::to_vec(&t.tool).map_or(0, |b| b.len()))
            .sum();
        println!(
            "{file}: {} operations, {} tools, {} skipped, tools JSON {} bytes; load+generate {:.1} ms, serde_json::from_slice {:.1} ms, ratio {:.2}",
            routes + skipped.len(),
            generated.tools.len(),
            skipped.len(),
            schema_bytes,
            load.as_secs_f64() * 1e3,
            plain.as_secs_f64() * 1e3,
            load.as_secs_f64() / plain.as_secs_f64()
        );
        if stats {
            let table = mcp_openapi::tool_stats(generated.tools.iter().map(|t| &t.tool));
            let text = table.to_string();
            let lines: Vec<&str> = text.lines().collect();
            for line in lines.iter().take(6).chain(lines.last()) {
                println!("    {line}");
            }
        }
        for warning in skipped {
            println!("    {warning}");
        }
    }
    Ok(())
}
