#!/usr/bin/env bash
# Compile time of a crate with N `#[tool]` functions against the same crate
# with N builder-declared tools (same metadata, same argument structs).
#
# Usage: mcp-macros/scripts/compile_bench.sh            (N=100, RUNS=3)
#        N=50 RUNS=5 mcp-macros/scripts/compile_bench.sh
#        CRATES="macro_plain builder_plain" mcp-macros/scripts/compile_bench.sh
#
# It writes a throw-away workspace with five crates under
# target/compile-bench (inside the shared target dir):
#   macro_plain   / builder_plain   : `async fn add_i(a: i64, b: i64) -> i64`
#   macro_struct  / builder_struct  : `async fn get_i(req: GetI) -> Result<ItemI, Error>`
#   rmcp_struct                     : the same with rmcp's `#[tool]` in a `#[tool_router]` impl
# builds the dependencies once, then times `cargo build -p <crate>` after
# touching the crate (CARGO_INCREMENTAL=0, so each build is a full compile
# of that crate only) RUNS times and prints the medians (wall clock and CPU
# time, user + sys, which is steadier on a loaded machine) and the ratios.
set -euo pipefail

N=${N:-100}
RUNS=${RUNS:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/target/compile-bench}
mkdir -p "$OUT"
cp "$ROOT/Cargo.lock" "$OUT/Cargo.lock"

cat > "$OUT/Cargo.toml" <<TOML
[workspace]
resolver = "3"
members = ["macro_plain", "builder_plain", "macro_struct", "builder_struct", "rmcp_struct"]

[workspace.dependencies]
mcp-core = { path = "$ROOT/mcp-core" }
serde = { version = "1", features = ["derive"] }
schemars = "1.2"
rmcp = { version = "3.11", default-features = false, features = ["server", "macros"] }
TOML

manifest() {
    mkdir -p "$OUT/$1/src"
    cat > "$OUT/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
mcp-core.workspace = true
serde.workspace = true
schemars.workspace = true
TOML
}

gen_macro_plain() {
    echo 'use mcp_core::{ToolDef, ToolError};'
    for i in $(seq 0 $((N - 1))); do
        cat <<RS

/// Adds two numbers (tool $i).
#[mcp_core::tool(title = "Add $i", annotations(read, idempotent))]
pub async fn add_$i(a: i64, b: i64) -> i64 {
    a + b + $i
}
RS
    done
    echo
    echo 'pub fn all() -> Result<Vec<ToolDef>, ToolError> {'
    echo '    Ok(vec!['
    for i in $(seq 0 $((N - 1))); do echo "        add_${i}_tool()?,"; done
    echo '    ])'
    echo '}'
}

gen_builder_plain() {
    echo 'use mcp_core::{Hint, ToolDef, ToolError, tool};'
    for i in $(seq 0 $((N - 1))); do
        cat <<RS

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AddArgs$i {
    a: i64,
    b: i64,
}

/// Adds two numbers (tool $i).
pub async fn add_$i(a: i64, b: i64) -> i64 {
    a + b + $i
}

pub fn add_${i}_tool() -> Result<ToolDef, ToolError> {
    tool("add_$i")
        .description("Adds two numbers (tool $i).")
        .title("Add $i")
        .annotations([Hint::Read, Hint::Idempotent])
        .input::<AddArgs$i>()
        .output::<i64>()
        .run(|args: AddArgs$i| add_$i(args.a, args.b))
}
RS
    done
    echo
    echo 'pub fn all() -> Result<Vec<ToolDef>, ToolError> {'
    echo '    Ok(vec!['
    for i in $(seq 0 $((N - 1))); do echo "        add_${i}_tool()?,"; done
    echo '    ])'
    echo '}'
}

struct_types() {
    cat <<RS

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Get$1 {
    /// The id.
    pub id: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Item$1 {
    pub id: String,
    pub size: u64,
}
RS
}

# The error type both struct variants return.
missing_error() {
    echo 'pub struct Missing;'
    echo 'impl std::fmt::Display for Missing { fn fmt(&self, f: &mut std::fmt::Formatter<'"'"'_>) -> std::fmt::Result { f.write_str("missing") } }'
}

gen_macro_struct() {
    echo 'use mcp_core::{ToolDef, ToolError};'
    missing_error
    for i in $(seq 0 $((N - 1))); do
        struct_types "$i"
        cat <<RS

/// Gets an item (tool $i).
#[mcp_core::tool(title = "Get $i", annotations(read))]
pub async fn get_$i(req: Get$i) -> Result<Item$i, Missing> {
    if req.id.is_empty() { Err(Missing) } else { Ok(Item$i { id: req.id, size: $i }) }
}
RS
    done
    echo
    echo 'pub fn all() -> Result<Vec<ToolDef>, ToolError> {'
    echo '    Ok(vec!['
    for i in $(seq 0 $((N - 1))); do echo "        get_${i}_tool()?,"; done
    echo '    ])'
    echo '}'
}

gen_builder_struct() {
    echo 'use mcp_core::{Hint, ToolDef, ToolError, tool};'
    missing_error
    for i in $(seq 0 $((N - 1))); do
        struct_types "$i"
        cat <<RS

/// Gets an item (tool $i).
pub async fn get_$i(req: Get$i) -> Result<Item$i, Missing> {
    if req.id.is_empty() { Err(Missing) } else { Ok(Item$i { id: req.id, size: $i }) }
}

pub fn get_${i}_tool() -> Result<ToolDef, ToolError> {
    tool("get_$i")
        .description("Gets an item (tool $i).")
        .title("Get $i")
        .annotations([Hint::Read])
        .input::<Get$i>()
        .output::<Item$i>()
        .run(get_$i)
}
RS
    done
    echo
    echo 'pub fn all() -> Result<Vec<ToolDef>, ToolError> {'
    echo '    Ok(vec!['
    for i in $(seq 0 $((N - 1))); do echo "        get_${i}_tool()?,"; done
    echo '    ])'
    echo '}'
}

# The same struct tools with rmcp's own `#[tool]` macro (`#[tool_router]` impl).
gen_rmcp_struct() {
    echo 'use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};'
    echo 'use rmcp::{Json, tool, tool_router};'
    echo 'pub struct Tools { pub tool_router: ToolRouter<Self> }'
    for i in $(seq 0 $((N - 1))); do struct_types "$i"; done
    echo '#[tool_router]'
    echo 'impl Tools {'
    for i in $(seq 0 $((N - 1))); do
        cat <<RS
    /// Gets an item (tool $i).
    #[tool(title = "Get $i", annotations(read_only_hint = true))]
    pub async fn get_$i(&self, Parameters(req): Parameters<Get$i>) -> Result<Json<Item$i>, String> {
        if req.id.is_empty() { Err("missing".to_owned()) } else { Ok(Json(Item$i { id: req.id, size: $i })) }
    }
RS
    done
    echo '}'
    echo 'pub fn all() -> ToolRouter<Tools> { Tools::tool_router() }'
}

for crate in macro_plain builder_plain macro_struct builder_struct rmcp_struct; do
    manifest "$crate"
    "gen_$crate" > "$OUT/$crate/src/lib.rs"
done
echo 'rmcp.workspace = true' >> "$OUT/rmcp_struct/Cargo.toml"

cd "$OUT"
export CARGO_TARGET_DIR="$OUT/target" CARGO_INCREMENTAL=0
echo "warming up (dependencies, first builds)..." >&2
cargo build --quiet --workspace

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A wall cpu
TIMEFORMAT='%R %U %S'
for crate in ${CRATES:-macro_plain builder_plain macro_struct builder_struct rmcp_struct}; do
    walls=()
    cpus=()
    for _ in $(seq 1 "$RUNS"); do
        touch "$crate/src/lib.rs"
        read -r real user sys < <({ time cargo build --quiet -p "$crate" 2>/dev/null; } 2>&1)
        walls+=("$real")
        cpus+=("$(echo "$user + $sys" | bc)")
    done
    wall[$crate]=$(printf '%s\n' "${walls[@]}" | median)
    cpu[$crate]=$(printf '%s\n' "${cpus[@]}" | median)
    echo "$crate: wall ${walls[*]} s (median ${wall[$crate]}), cpu ${cpus[*]} s (median ${cpu[$crate]})"
done

ratio() { echo "scale=2; $1 / $2" | bc; }
[ -n "${CRATES:-}" ] && exit 0
echo "N=$N RUNS=$RUNS: cargo build -p <crate> after touch, dev profile, CARGO_INCREMENTAL=0; medians"
echo "plain args: macro wall ${wall[macro_plain]} s, cpu ${cpu[macro_plain]} s; builder wall ${wall[builder_plain]} s, cpu ${cpu[builder_plain]} s; ratio wall $(ratio "${wall[macro_plain]}" "${wall[builder_plain]}"), cpu $(ratio "${cpu[macro_plain]}" "${cpu[builder_plain]}")"
echo "struct arg: macro wall ${wall[macro_struct]} s, cpu ${cpu[macro_struct]} s; builder wall ${wall[builder_struct]} s, cpu ${cpu[builder_struct]} s; ratio wall $(ratio "${wall[macro_struct]}" "${wall[builder_struct]}"), cpu $(ratio "${cpu[macro_struct]}" "${cpu[builder_struct]}")"
echo "struct arg vs rmcp's #[tool]: ours wall ${wall[macro_struct]} s, cpu ${cpu[macro_struct]} s; rmcp wall ${wall[rmcp_struct]} s, cpu ${cpu[rmcp_struct]} s; ratio wall $(ratio "${wall[macro_struct]}" "${wall[rmcp_struct]}"), cpu $(ratio "${cpu[macro_struct]}" "${cpu[rmcp_struct]}")"
