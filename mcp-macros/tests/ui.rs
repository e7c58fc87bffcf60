//! Compile-time diagnostics of `#[tool]` and `#[toolbox]` (trybuild): one
//! invocation per directory, so each directory is one cargo build.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
