//! Runs of real scripts against a scripted server.

use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::*;

fn limits() -> Limits {
    Limits {
        time: Duration::from_secs(2),
        memory_bytes: 16 << 20,
        calls: 20,
        result_bytes: 10_000,
        stack_bytes: 256 << 10,
        log_bytes: 200,
    }
}

/// The runtime the scripts' calls run inside.
static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
});

/// Runs `code` with `limits`, its calls made by `caller`.
fn run_calls(code: &str, limits: Limits, caller: Caller) -> Outcome {
    let job = Job {
        code: code.to_owned(),
        identifiers: Arc::from(vec!["echo".to_owned(), "fail".to_owned()]),
        catalog: Arc::from(r#"[{"name":"echo","identifier":"echo","tags":["misc"]}]"#),
        limits,
        started: Instant::now(),
    };
    let (_cancel, cancelled) = tokio::sync::oneshot::channel();
    let calls = Calls::new(
        caller,
        8,
        RUNTIME.handle().clone(),
        cancelled,
        Arc::new(AtomicUsize::new(0)),
    );
    run(job, calls, Arc::new(AtomicBool::new(false)))
}

/// Runs `code` with `limits`; every call is answered at once by `answer`
/// with the tool's name (or identifier) and its arguments.
fn run_with(
    code: &str,
    limits: Limits,
    answer: impl Fn(&ToolRef, &Value) -> Result<Value, String> + Send + Sync + 'static,
) -> Outcome {
    let caller: Caller = Arc::new(move |request: CallRequest| {
        let arguments = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let outcome = answer(&request.tool, &arguments).map(|value| value.to_string());
        let reply = CallReply {
            id: request.id,
            outcome,
            mismatch: None,
        };
        Box::pin(std::future::ready(reply))
    });
    run_calls(code, limits, caller)
}

fn echo(tool: &ToolRef, arguments: &Value) -> Result<Value, String> {
    match tool {
        ToolRef::Identifier(name) | ToolRef::Name(name) if name == "fail" => {
            Err("Not Found".to_owned())
        }
        ToolRef::Identifier(name) | ToolRef::Name(name) => {
            Ok(json!({"tool": name, "arguments": arguments}))
        }
    }
}

fn result(code: &str) -> Result<Value, ScriptError> {
    let outcome = run_with(code, limits(), echo);
    outcome
        .result
        .map(|json| json.map_or(Value::Null, |json| serde_json::from_str(&json).unwrap()))
}

fn error(code: &str) -> String {
    match run_with(code, limits(), echo).result {
        Ok(value) => panic!("{code} gave {value:?}"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn a_body_an_arrow_function_and_an_expression_all_return_their_value() {
    assert_eq!(result("return 1 + 1").unwrap(), json!(2));
    assert_eq!(
        result("async () => { return [1, 2] }").unwrap(),
        json!([1, 2])
    );
    assert_eq!(result("({a: 1});").unwrap(), json!({"a": 1}));
    assert_eq!(result("const x = 3;\nreturn x * 2;").unwrap(), json!(6));
    assert_eq!(result("let x = 1").unwrap(), Value::Null);
}

#[test]
fn tools_are_called_by_identifier_and_by_name() {
    let value = result(
        "const a = await tools.echo({q: 1});\nconst b = await callTool('echo', {q: 2});\nreturn [a, b];",
    )
    .unwrap();
    assert_eq!(
        value,
        json!([{"tool": "echo", "arguments": {"q": 1}}, {"tool": "echo", "arguments": {"q": 2}}])
    );
    let outcome = run_with(
        "return Promise.all([1, 2, 3].map(n => tools.echo({n})))",
        limits(),
        echo,
    );
    assert_eq!(outcome.calls, 3);
    assert_eq!(
        serde_json::from_str::<Value>(&outcome.result.unwrap().unwrap()).unwrap()[2]["arguments"],
        json!({"n": 3})
    );
}

#[test]
fn a_failed_call_throws_a_catchable_error_with_the_tools_text() {
    let caught = result("try { await tools.fail({}) } catch (e) { return e.message }").unwrap();
    assert_eq!(caught, json!("Not Found"));
    // The error points at the script's call.
    assert_eq!(
        error("await tools.fail({});"),
        "uncaught Error at line 1, column 13: Not Found (from `fail`)"
    );
    assert_eq!(
        error("const a = 1;\nawait callTool('fail', {});"),
        "uncaught Error at line 2, column 7: Not Found (from `fail`)"
    );
}

#[test]
fn syntax_and_runtime_errors_name_their_line_and_column() {
    assert_eq!(
        error("const a = 1;\nconst b = ;\nreturn a"),
        "SyntaxError at line 2, column 11: unexpected token in expression: ';'"
    );
    assert_eq!(
        error("const a = null;\n\nreturn a.b;"),
        "uncaught TypeError at line 3, column 8: cannot read property 'b' of null"
    );
    // One line: the error is on it, not on a line the script does not have.
    assert_eq!(
        error("return 1 +"),
        "SyntaxError at line 1, column 11: unexpected end of the script"
    );
    assert_eq!(
        error("x y"),
        "SyntaxError at line 1, column 3: expecting ';'"
    );
    assert_eq!(
        error("return (async () => { await 1; null.y })()"),
        "uncaught TypeError at line 1, column 32: cannot read property 'y' of null"
    );
    assert_eq!(
        error("throw {code: 7}"),
        "uncaught a thrown value: {\"code\":7}"
    );
    assert!(error("tools.echo([1])").contains("must be an object of named arguments"));
}

#[test]
fn console_output_is_captured_within_its_budget() {
    let outcome = run_with(
        "console.log('a', 1, {b: 2}); console.warn('careful'); for (let i = 0; i < 100; i++) console.log('x'.repeat(10)); return 0",
        limits(),
        echo,
    );
    assert_eq!(outcome.logs[0], "a 1 {\"b\":2}");
    assert_eq!(outcome.logs[1], "[warn] careful");
    assert_eq!(
        outcome.logs.last().unwrap(),
        "(console output cut at 200 B)"
    );
    assert!(outcome.logs.len() <= 22, "{}", outcome.logs.len());
}

#[test]
fn limits_end_hostile_scripts_with_a_clear_error() {
    let started = Instant::now();
    assert_eq!(
        error("for (;;) {}"),
        "time limit of 2 s exceeded after 0 calls"
    );
    assert!(started.elapsed() < Duration::from_secs(4));
    assert!(
        error("const a = []; for (;;) a.push('x'.repeat(1000) + a.length);")
            .starts_with("memory limit of 16 MiB exceeded")
    );
    assert!(error("const f = (n) => f(n + 1) + 1; return f(0);").contains("RangeError"));
    assert_eq!(
        error("for (;;) { try { await tools.echo({}) } catch {} }"),
        "call limit of 20 tool calls per run exceeded: fetch more per call (larger pages) or split the work over several runs"
    );
    assert!(
        error("return new Promise(() => {})").starts_with("the script's promise never settles")
    );
    assert!(
        error("return 'x'.repeat(20000)")
            .starts_with("the returned value is 20.0 KB as JSON, over the limit of 10.0 KB")
    );
    assert!(error("return {a: tools.echo({})}").contains("it holds a Promise at \"a\""));
}

#[test]
fn waiting_on_a_slow_tool_counts_toward_the_time_limit() {
    let mut short = limits();
    short.time = Duration::from_millis(300);
    let slow: Caller = Arc::new(|request: CallRequest| {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(600)).await;
            CallReply {
                id: request.id,
                outcome: Ok("1".to_owned()),
                mismatch: None,
            }
        })
    });
    let outcome = run_calls("await tools.echo({}); return 1", short, slow);
    assert_eq!(
        outcome.result.unwrap_err().to_string(),
        "time limit of 0.3 s exceeded after 1 call"
    );
}

#[test]
fn nothing_outside_the_tools_is_reachable() {
    let kinds = result(
        "return [typeof fetch, typeof require, typeof process, typeof std, typeof os, typeof setTimeout, typeof XMLHttpRequest]",
    )
    .unwrap();
    assert_eq!(kinds, json!(vec!["undefined"; 7]));
    assert!(error("return await import('os')").contains("uncaught"));
    assert_eq!(
        result("return Object.keys(tools)").unwrap(),
        json!(["echo", "fail"])
    );
    assert_eq!(result("return catalog[0].tags").unwrap(), json!(["misc"]));
    assert!(result("'use strict'; catalog[0].name = 'x'; return 1").is_err());
}

#[test]
fn nothing_persists_between_runs() {
    assert_eq!(
        result("globalThis.leak = 1; Array.prototype.evil = 2; return 0").unwrap(),
        json!(0)
    );
    assert_eq!(
        result("return [typeof leak, typeof [].evil]").unwrap(),
        json!(["undefined", "undefined"])
    );
}

#[test]
fn deep_values_are_refused_with_a_reason() {
    let outcome = run_with(
        "let deep = {}; for (let i = 0; i < 200; i++) deep = {deep}; return await tools.echo(deep)",
        limits(),
        echo,
    );
    let error = outcome.result.unwrap_err().to_string();
    assert!(
        error.contains("cannot be read as JSON: recursion limit"),
        "{error}"
    );
}
