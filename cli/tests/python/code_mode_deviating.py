"""Code mode against an API whose bodies do not match its document, with the
official Python SDK (mcp==2.3.0).

Usage: code_mode_deviating.py SERVER_BIN GITHUB_SPEC

The mock GitHub API of `code_mode.py`, except that its pull requests deviate
from GitHub's schema: in a list, the first lacks `node_id` (a required field
missing) and the second has `"title": null` (a null where a string is
declared); a single pull request lacks `node_id`. `mcp-server serve --openapi
GITHUB_SPEC --code-mode --transform FILE` (the file turns
`pulls_get` into `pull_summary`, keeping three fields of its result) runs over
stdio and Streamable HTTP, and once more over stdio with `--result-fields`.
Checks that a script gets each value as the API sent it (`pulls_list` resolves
to the array, and `.map` works on it; the same through the transformed tool,
and with `fields`), that the run's logs name each deviation once per tool, and
that a direct `tools/call` still answers with the envelope, valid against the
tool's `outputSchema` (as `mcp-server tools` prints it, output schemas whole as
in code mode). Prints one line per check; exits non-zero on the first failure.
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

from checks import check
from code_mode import OWNER, REPO, GitHubMock, newest_open_pulls, start_http

PULLS = f"/repos/{OWNER}/{REPO}/pulls"


class DeviatingMock(GitHubMock):
    """The mock GitHub API, its pull requests off GitHub's schema."""

    def route(self, method, path, query, body):
        status, value, headers = super().route(method, path, query, body)
        if status == 200 and method == "GET" and path == PULLS and len(value) >= 2:
            value[0].pop("node_id")
            value[1]["title"] = None
        elif status == 200 and method == "GET" and path.startswith(f"{PULLS}/"):
            value.pop("node_id")
        return status, value, headers


TRANSFORM = {"tools": {"pulls_get": {"name": "pull_summary", "result": {"keep": ["number", "title", "node_id"]}}}}


async def execute(client, label, code):
    result = await client.call_tool("execute", {"code": code})
    check(not result.is_error, f"{label}: execute failed: {[getattr(b, 'text', b) for b in result.content]}")
    return result.structured_content


def warnings(logs, tool):
    return [line for line in logs if line.startswith(f"[warn] {tool}: ")]


async def check_list(client, label):
    code = """
const prs = await tools.pulls_list({ owner: "octo", repo: "app", state: "open" });
const again = await tools.pulls_list({ owner: "octo", repo: "app", state: "open", per_page: 2 });
return { numbers: prs.map((pr) => pr.number), titles: prs.slice(0, 2).map((pr) => pr.title), again: again.length, array: Array.isArray(prs) };
"""
    structured = await execute(client, label, code)
    result = structured["result"]
    numbers = sorted(newest_open_pulls(100), reverse=True)
    check(result["array"] is True and result["numbers"] == numbers, f"{label}: pulls_list gave {result}")
    check(result["titles"][1] is None and result["again"] == 2, f"{label}: the values as sent {result}")
    said = warnings(structured["logs"], "pulls_list")
    check(len(said) == 1, f"{label}: the logs say {structured['logs']}")
    line = said[0]
    check("the response does not match its schema at /0" in line and "node_id" in line and "(and " in line,
          f"{label}: the warning is {line!r}")
    print(f"ok {label}: pulls_list resolves to the array as sent; the logs say {line!r}", flush=True)


async def check_transformed(client, label):
    code = """
const summary = await tools.pull_summary({ owner: "octo", repo: "app", pull_number: 33 });
return summary;
"""
    structured = await execute(client, label, code)
    summary = structured["result"]
    check(summary["number"] == 33 and set(summary) == {"number", "title"}, f"{label}: the transformed tool gave {summary}")
    said = warnings(structured["logs"], "pull_summary")
    check(len(said) == 1 and "node_id" in said[0], f"{label}: the logs say {structured['logs']}")
    print(f"ok {label}: a transformed tool resolves to its kept fields; the logs say {said[0]!r}", flush=True)


async def check_fields(client, label):
    code = """
const slim = await tools.pulls_list({ owner: "octo", repo: "app", fields: ["number", "title"] });
return slim.map((pr) => pr);
"""
    structured = await execute(client, label, code)
    slim = structured["result"]
    check(all(set(item) == {"number", "title"} for item in slim) and slim[1]["title"] is None,
          f"{label}: fields gave {slim}")
    said = warnings(structured["logs"], "pulls_list")
    check(len(said) == 1 and "/1/title" in said[0], f"{label}: the logs say {structured['logs']}")
    print(f"ok {label}: `fields` resolves to the projected array; the logs say {said[0]!r}", flush=True)


async def check_direct_call(client, label, output_schema):
    direct = await client.call_tool("pulls_list", {"owner": OWNER, "repo": REPO, "state": "open"})
    check(not direct.is_error, f"{label}: a direct call failed: {direct}")
    structured = direct.structured_content
    check(set(structured) == {"unvalidatedResponse", "schemaViolations"}, f"{label}: direct structured content {list(structured)}")
    jsonschema.validate(structured, output_schema, cls=jsonschema.Draft202012Validator)
    print(f"ok {label}: a direct tools/call answers the envelope, valid against pulls_list's outputSchema "
          f"({len(structured['schemaViolations'])} violations)", flush=True)


async def exercise(client, label, output_schema):
    await check_list(client, label)
    await check_transformed(client, label)
    await check_direct_call(client, label, output_schema)


async def main():
    from mcp import Client, StdioServerParameters

    if len(sys.argv) != 3:
        sys.exit("usage: code_mode_deviating.py SERVER_BIN GITHUB_SPEC")
    server_bin, spec = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as scratch, DeviatingMock() as mock:
        transform = os.path.join(scratch, "transform.json")
        with open(transform, "w") as file:
            json.dump(TRANSFORM, file)
        # The tools as the code-mode server hosts them: output schemas whole.
        listed = subprocess.run([server_bin, "tools", "--openapi", spec, "--transform", transform,
                                 "--output-schema-budget", "full"], capture_output=True, check=True, text=True)
        tools = {tool["name"]: tool for tool in json.loads(listed.stdout)["tools"]}
        output_schema = tools["pulls_list"]["outputSchema"]
        args = ["serve", "--openapi", spec, "--base-url", mock.url, "--code-mode", "--transform", transform]
        env = {"RUST_LOG": os.environ.get("RUST_LOG", "warn")}
        async with Client(StdioServerParameters(command=server_bin, args=args + ["--transport", "stdio"], env=env)) as client:
            await exercise(client, "stdio", output_schema)
        # `fields` loosens the output schemas (a projection drops required
        # fields), so its run checks the null title only.
        fields_args = args + ["--result-fields", "--transport", "stdio"]
        async with Client(StdioServerParameters(command=server_bin, args=fields_args, env=env)) as client:
            await check_fields(client, "stdio --result-fields")
        process, url = start_http(server_bin, args)
        try:
            async with Client(url) as client:
                await exercise(client, "http", output_schema)
        finally:
            process.terminate()
            process.wait(timeout=15)
    print("all checks passed")


if __name__ == "__main__":
    asyncio.run(main())
