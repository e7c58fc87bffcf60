"""End-to-end check of toolsets and the read-only view with the official Python SDK (mcp==2.3.0).

Usage: toolsets.py SERVER_BIN GITHUB_SPEC

Serves GitHub's document (each operation tag is a toolset) with `mcp-server
serve` over Streamable HTTP and stdio, and checks what a client is shown:

- toolsets chosen by the header `X-MCP-Toolsets`, by the URL
  `/mcp/x/{toolset},{toolset}`, and by `serve --toolsets` (a client then
  narrows within the server's toolsets);
- the read-only view chosen by the header `X-MCP-Readonly: true`, by a
  `/readonly` URL suffix and by `serve --read-only` (every tool has
  `readOnlyHint: true`);
- an unknown toolset is refused with a message naming the toolsets;
- a session keeps the view of its first request, a stateless request is
  read on its own;
- a tool outside the view is unknown to `tools/call`, to discovery mode's
  `call_tool` and to code mode's `execute`, and never reaches the upstream;
  a tool inside it is called (a tiny mock upstream answers and records).

Prints one line per check and "all checks passed"; exits non-zero on the
first failure.
"""

import asyncio
import json
import os
import subprocess
import sys
import threading
from contextlib import asynccontextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from checks import check, list_all_tools

MODES = ("legacy", "auto")
ISSUE = {"owner": "o", "repo": "r", "issue_number": 1}
NEW_ISSUE = {"owner": "o", "repo": "r", "title": "t"}


class Upstream:
    """A tiny GitHub: `GET /repos/o/r/issues/1` is an issue, anything else a
    404; every request is recorded."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                path = self.path.split("?", 1)[0]
                with upstream.lock:
                    upstream.requests.append((self.command, path))
                if self.command == "GET" and path == "/repos/o/r/issues/1":
                    status, value = 200, {"number": 1, "title": "Found", "state": "open"}
                else:
                    status, value = 404, {"message": "Not Found"}
                data = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def take(self):
        """The requests recorded since the last call."""
        with self.lock:
            taken, self.requests = self.requests, []
        return taken


def start_http(server_bin, args):
    """Starts `mcp-server` over Streamable HTTP on a free port; returns it and its `/mcp` URL."""
    process = subprocess.Popen(
        [server_bin, *args, "--transport", "http", "--bind", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=None, text=True)
    for line in process.stdout:
        line = line.strip()
        if line.startswith("http://") and line.endswith("/mcp"):
            return process, line
    process.kill()
    raise AssertionError(f"mcp-server {args} exited without printing its URL (see its log above)")


@asynccontextmanager
async def serving(server_bin, args):
    process, url = start_http(server_bin, args)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


@asynccontextmanager
async def connect(url, headers=None, mode="legacy"):
    """A client of `url` sending `headers` on every request; `http.headers`
    may be changed while it is connected."""
    timeout = httpx2.Timeout(30, read=300)
    async with httpx2.AsyncClient(headers=headers or {}, timeout=timeout) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode, cache=None) as client:
            yield client, http


async def tools_at(url, headers=None, mode="legacy"):
    """The tools a client of `url` sending `headers` is listed, by name."""
    async with connect(url, headers, mode) as (client, _):
        return {tool.name: tool for tool in await list_all_tools(client)}


def read_only(tool):
    return tool.annotations is not None and tool.annotations.read_only_hint is True


def text_of(result):
    return " ".join(getattr(block, "text", "") for block in result.content)


def mcp_error(error):
    """The `MCPError` in `error`, or in the exception groups a failed connection raises."""
    if isinstance(error, MCPError):
        return error
    for inner in getattr(error, "exceptions", ()):
        found = mcp_error(inner)
        if found is not None:
            return found
    cause = error.__cause__ or error.__context__
    return mcp_error(cause) if cause is not None else None


async def refused(label, attempt, *words):
    """`attempt()` fails with a JSON-RPC invalid-params error whose message holds `words`."""
    try:
        outcome = await attempt()
    except BaseException as raised:  # a failed connection raises an exception group
        error = mcp_error(raised)
        if error is None:
            raise
        message = error.message
        check(error.code == -32602, f"{label}: error code {error.code} ({message})")
        for word in words:
            check(word in message, f"{label}: no {word!r} in {message!r}")
        return message
    raise AssertionError(f"{label}: not refused, got {outcome}")


async def expect_unknown_tool(label, client, name, arguments):
    return await refused(label, lambda: client.call_tool(name, arguments), "unknown tool", name)


# --- the checks -----------------------------------------------------------


def tagged(spec):
    """The tags of each operation of the OpenAPI document at `spec`, by operationId."""
    with open(spec, encoding="utf-8") as file:
        document = json.load(file)
    tags = {}
    for item in document["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and "operationId" in operation:
                tags[operation["operationId"]] = {tag.lower() for tag in operation.get("tags", [])}
    return tags


def in_toolsets(everything, tags, *toolsets):
    """The names of the tools of `everything` whose operation has one of the tags `toolsets`."""
    def operation(tool):
        return ((tool.meta or {}).get("rs.mcp-toolkit/openapi") or {}).get("operationId")

    return {name for name, tool in everything.items() if tags.get(operation(tool), set()) & set(toolsets)}


async def check_header_and_url_toolsets(url, everything, tags):
    base = url.removesuffix("/mcp")
    issues = in_toolsets(everything, tags, "issues")
    both = in_toolsets(everything, tags, "issues", "pulls")
    check(all(name.startswith("issues_") for name in issues), f"issues tools {sorted(issues)}")
    check({"issues_create", "issues_get", "pulls_list"} <= both,
          f"the GitHub tools lack issues_create, issues_get or pulls_list: {sorted(both)}")
    for mode in MODES:
        tools = await tools_at(url, {"X-MCP-Toolsets": "issues"}, mode)
        check(all(name.startswith("issues_") for name in tools), f"header issues ({mode}): {sorted(tools)}")
        check(set(tools) == issues, f"header issues ({mode}): {sorted(set(tools) ^ issues)[:10]} differ")
        print(f"ok header X-MCP-Toolsets: issues ({mode}): {len(tools)} tools, each issues_*", flush=True)
    tools = await tools_at(url, {"X-MCP-Toolsets": "Issues, pulls"})
    check(set(tools) == both, f"header Issues, pulls: {sorted(set(tools) ^ both)[:10]} differ")
    for mode in MODES:
        tools = await tools_at(f"{base}/mcp/x/issues,pulls", mode=mode)
        check(set(tools) == both, f"URL /mcp/x/issues,pulls ({mode}): {sorted(set(tools) ^ both)[:10]} differ")
        print(f"ok URL /mcp/x/issues,pulls ({mode}): {len(tools)} tools, those of operations tagged issues or pulls",
              flush=True)
    tools = await tools_at(f"{base}/mcp/x/all")
    check(set(tools) == set(everything), f"URL /mcp/x/all: {len(tools)} of {len(everything)} tools")
    print("ok URL /mcp/x/all is every tool", flush=True)


async def check_read_only_views(url, everything, issues):
    base = url.removesuffix("/mcp")
    readable = {name for name, tool in everything.items() if read_only(tool)}
    check("issues_get" in readable and "issues_create" not in readable and len(readable) < len(everything),
          f"read-only tools: {len(readable)} of {len(everything)}")
    for how, at, headers in [
        ("header X-MCP-Readonly: true", url, {"X-MCP-Readonly": "true"}),
        ("URL /mcp/readonly", f"{base}/mcp/readonly", None),
    ]:
        for mode in MODES:
            tools = await tools_at(at, headers, mode)
            check(all(read_only(tool) for tool in tools.values()),
                  f"{how} ({mode}): not read-only: {[n for n, t in tools.items() if not read_only(t)][:10]}")
            check("issues_get" in tools and "issues_create" not in tools, f"{how} ({mode}): {len(tools)} tools")
            check(set(tools) == readable, f"{how} ({mode}): {sorted(set(tools) ^ readable)[:10]} differ")
            print(f"ok {how} ({mode}): {len(tools)} read-only tools of {len(everything)}", flush=True)
    issues_readable = issues & readable
    for how, at, headers in [
        ("URL /mcp/x/issues/readonly", f"{base}/mcp/x/issues/readonly", None),
        ("headers X-MCP-Toolsets: issues, X-MCP-Readonly: true", url,
         {"X-MCP-Toolsets": "issues", "X-MCP-Readonly": "true"}),
    ]:
        tools = await tools_at(at, headers)
        check(set(tools) == issues_readable, f"{how}: {sorted(set(tools) ^ issues_readable)[:10]} differ")
        print(f"ok {how}: {len(tools)} read-only issues tools", flush=True)


async def check_unknown_toolsets(url):
    base = url.removesuffix("/mcp")
    for how, at, headers in [
        ("header X-MCP-Toolsets: nope", url, {"X-MCP-Toolsets": "nope"}),
        ("header X-MCP-Toolsets: issues,nope", url, {"X-MCP-Toolsets": "issues,nope"}),
        ("URL /mcp/x/nope", f"{base}/mcp/x/nope", None),
    ]:
        for mode in MODES:
            async def attempt():
                async with connect(at, headers, mode) as (client, _):
                    return await client.list_tools()

            message = await refused(f"{how} ({mode})", attempt, "unknown toolset", "nope", "issues", "pulls", "repos")
        print(f"ok {how} is refused: {message[:80]}...", flush=True)


async def check_hidden_tools_are_unknown(url, upstream):
    headers = {"X-MCP-Toolsets": "issues", "X-MCP-Readonly": "true"}
    for mode in MODES:
        async with connect(url, headers, mode) as (client, _):
            upstream.take()
            await expect_unknown_tool(f"tools/call issues_create ({mode})", client, "issues_create", NEW_ISSUE)
            await expect_unknown_tool(f"tools/call pulls_list ({mode})", client, "pulls_list", {"owner": "o", "repo": "r"})
            check(upstream.take() == [], f"({mode}) a hidden tool reached the upstream")
            found = await client.call_tool("issues_get", ISSUE)
            check(not found.is_error and "Found" in json.dumps(found.structured_content),
                  f"tools/call issues_get ({mode}) gave {found}")
            check(upstream.take() == [("GET", "/repos/o/r/issues/1")], f"({mode}) issues_get's upstream requests")
        print(f"ok tools/call ({mode}): issues_create and pulls_list are unknown tools, issues_get is called", flush=True)


async def check_session_keeps_its_first_view(url, stateless_url, issues, pulls, readable):
    async with connect(url, {"X-MCP-Toolsets": "issues"}) as (client, http):
        first = {tool.name for tool in await list_all_tools(client)}
        http.headers["X-MCP-Toolsets"] = "pulls"
        http.headers["X-MCP-Readonly"] = "true"
        later = {tool.name for tool in await list_all_tools(client)}
    check(first == issues and later == issues, f"a session changed its view: {len(first)} then {len(later)} tools")
    print("ok a session (legacy) keeps the view of its first request", flush=True)
    for mode in MODES:
        async with connect(stateless_url, {"X-MCP-Toolsets": "issues"}, mode) as (client, http):
            first = {tool.name for tool in await list_all_tools(client)}
            http.headers["X-MCP-Toolsets"] = "pulls"
            later = {tool.name for tool in await list_all_tools(client)}
            http.headers["X-MCP-Readonly"] = "true"
            last = await list_all_tools(client)
        check(first == issues, f"stateless ({mode}): the issues header gave {len(first)} tools")
        check(later == pulls, f"stateless ({mode}): the pulls header gave {sorted(later ^ pulls)[:10]}")
        check({tool.name for tool in last} == pulls & readable and all(read_only(tool) for tool in last),
              f"stateless ({mode}): pulls read-only gave {[tool.name for tool in last][:10]}")
        print(f"ok stateless ({mode}): each request's headers choose its view ({len(first)}, {len(later)}, {len(last)} tools)",
              flush=True)


async def check_server_toolsets(url, issues):
    base = url.removesuffix("/mcp")
    tools = await tools_at(url)
    check(set(tools) == issues, f"serve --toolsets issues: {sorted(set(tools) ^ issues)[:10]} differ")
    print(f"ok serve --toolsets issues: {len(tools)} tools, each issues_*", flush=True)
    for mode in MODES:
        tools = await tools_at(url, {"X-MCP-Toolsets": "pulls"}, mode)
        check(tools == {}, f"serve --toolsets issues, header pulls ({mode}): {sorted(tools)[:10]}")
    tools = await tools_at(url, {"X-MCP-Toolsets": "pulls,issues"})
    check(set(tools) == issues, f"serve --toolsets issues, header pulls,issues: {len(tools)} tools")
    tools = await tools_at(f"{base}/mcp/x/pulls")
    check(tools == {}, f"serve --toolsets issues, URL /mcp/x/pulls: {sorted(tools)[:10]}")
    print("ok serve --toolsets issues: a client asking for pulls gets nothing, for pulls,issues the issues tools",
          flush=True)
    async with connect(url, {"X-MCP-Toolsets": "pulls,issues"}) as (client, _):
        await expect_unknown_tool("serve --toolsets issues: pulls_list", client, "pulls_list", {"owner": "o", "repo": "r"})
    print("ok serve --toolsets issues: pulls_list is an unknown tool", flush=True)


async def check_server_read_only(url, upstream, readable):
    tools = await tools_at(url)
    check(set(tools) == readable and all(read_only(tool) for tool in tools.values()),
          f"serve --read-only: {sorted(set(tools) ^ readable)[:10]} differ")
    tools = await tools_at(url, {"X-MCP-Readonly": "false"})
    check(set(tools) == readable, f"serve --read-only, X-MCP-Readonly: false: {len(tools)} tools")
    async with connect(url) as (client, _):
        upstream.take()
        await expect_unknown_tool("serve --read-only: issues_create", client, "issues_create", NEW_ISSUE)
        check(upstream.take() == [], "serve --read-only: issues_create reached the upstream")
    print(f"ok serve --read-only: {len(tools)} read-only tools, issues_create is an unknown tool", flush=True)


async def check_discovery(url, upstream):
    headers = {"X-MCP-Toolsets": "issues", "X-MCP-Readonly": "true"}
    for mode in MODES:
        async with connect(url, headers, mode) as (client, _):
            listed = [tool.name for tool in await list_all_tools(client)]
            check("call_tool" in listed and "search_tools" in listed, f"discovery ({mode}): tools/list {listed}")
            found = await client.call_tool("search_tools", {"query": "create an issue in a repository", "limit": 20})
            check(not found.is_error, f"discovery ({mode}): search_tools gave {found}")
            hits = text_of(found) + json.dumps(found.structured_content)
            check("issues_create" not in hits and "pulls_" not in hits,
                  f"discovery ({mode}): search_tools shows a hidden tool: {hits[:600]}")
            check("issues_" in hits, f"discovery ({mode}): search_tools found no issues tool: {hits[:600]}")
            upstream.take()
            hidden = await client.call_tool("call_tool", {"name": "issues_create", "arguments": NEW_ISSUE})
            check(hidden.is_error and "unknown tool" in text_of(hidden) and "issues_create" in text_of(hidden),
                  f"discovery ({mode}): call_tool issues_create gave {hidden}")
            await expect_unknown_tool(f"discovery ({mode}): tools/call issues_create", client, "issues_create", NEW_ISSUE)
            check(upstream.take() == [], f"discovery ({mode}): a hidden tool reached the upstream")
            shown = await client.call_tool("call_tool", {"name": "issues_get", "arguments": ISSUE})
            check(not shown.is_error and "Found" in text_of(shown) + json.dumps(shown.structured_content),
                  f"discovery ({mode}): call_tool issues_get gave {shown}")
            check(upstream.take() == [("GET", "/repos/o/r/issues/1")], f"discovery ({mode}): issues_get's requests")
        print(f"ok discovery ({mode}): search_tools and call_tool see only the read-only issues tools "
              f"({text_of(hidden)[:60]}...)", flush=True)


async def check_code_mode(url, upstream):
    headers = {"X-MCP-Toolsets": "issues", "X-MCP-Readonly": "true"}
    for mode in MODES:
        async with connect(url, headers, mode) as (client, _):
            upstream.take()
            caught = await client.call_tool("execute", {"code": (
                "try { await tools.issues_create({owner: 'o', repo: 'r', title: 't'}); return 'called' }"
                " catch (e) { return e.message }")})
            check(not caught.is_error, f"code mode ({mode}): execute gave {caught}")
            message = caught.structured_content["result"]
            check(isinstance(message, str) and "unknown tool" in message and "tools.issues_create" in message,
                  f"code mode ({mode}): the hidden call threw {message!r}")
            pulls = await client.call_tool("execute", {"code": (
                "try { await tools.pulls_list({owner: 'o', repo: 'r'}); return 'called' }"
                " catch (e) { return e.message }")})
            check("unknown tool" in str(pulls.structured_content["result"]),
                  f"code mode ({mode}): tools.pulls_list gave {pulls}")
            await expect_unknown_tool(f"code mode ({mode}): tools/call issues_create", client, "issues_create", NEW_ISSUE)
            check(upstream.take() == [], f"code mode ({mode}): a hidden tool reached the upstream")
            shown = await client.call_tool("execute", {"code": (
                "const issue = await tools.issues_get({owner: 'o', repo: 'r', issue_number: 1});"
                " return JSON.stringify(issue)")})
            check(not shown.is_error and "Found" in str(shown.structured_content["result"]),
                  f"code mode ({mode}): tools.issues_get gave {shown}")
            check(upstream.take() == [("GET", "/repos/o/r/issues/1")], f"code mode ({mode}): issues_get's requests")
        print(f"ok code mode ({mode}): execute finds only the read-only issues tools ({message[:60]}...)", flush=True)


async def check_stdio(server_bin, spec, upstream, issues_readable):
    args = ["serve", "--openapi", spec, "--base-url", upstream.url, "--toolsets", "issues", "--read-only",
            "--transport", "stdio"]
    for mode in MODES:
        params = StdioServerParameters(command=server_bin, args=args,
                                       env={"RUST_LOG": os.environ.get("RUST_LOG", "warn")})
        async with Client(params, mode=mode, cache=None) as client:
            tools = await list_all_tools(client)
            names = {tool.name for tool in tools}
            check(names == issues_readable, f"stdio ({mode}): {sorted(names ^ issues_readable)[:10]} differ")
            check(all(read_only(tool) for tool in tools), f"stdio ({mode}): a tool is not read-only")
            await expect_unknown_tool(f"stdio ({mode}): issues_create", client, "issues_create", NEW_ISSUE)
        print(f"ok stdio serve --toolsets issues --read-only ({mode}): {len(names)} read-only issues tools", flush=True)


async def main():
    if len(sys.argv) != 3:
        sys.exit("usage: toolsets.py SERVER_BIN GITHUB_SPEC")
    server_bin, spec = sys.argv[1], sys.argv[2]
    with Upstream() as upstream:
        serve = ["serve", "--openapi", spec, "--base-url", upstream.url]
        async with serving(server_bin, serve) as url:
            everything = await tools_at(url)
            check(len(everything) > 500, f"GitHub's document gave {len(everything)} tools")
            print(f"ok no header: {len(everything)} tools", flush=True)
            tags = tagged(spec)
            issues = in_toolsets(everything, tags, "issues")
            readable = {name for name, tool in everything.items() if read_only(tool)}
            await check_header_and_url_toolsets(url, everything, tags)
            await check_read_only_views(url, everything, issues)
            await check_unknown_toolsets(url)
            await check_hidden_tools_are_unknown(url, upstream)
            async with serving(server_bin, serve + ["--stateless"]) as stateless_url:
                await check_session_keeps_its_first_view(url, stateless_url, issues, in_toolsets(everything, tags, "pulls"),
                                                         readable)
        async with serving(server_bin, serve + ["--toolsets", "issues"]) as url:
            await check_server_toolsets(url, issues)
        async with serving(server_bin, serve + ["--read-only"]) as url:
            await check_server_read_only(url, upstream, readable)
        async with serving(server_bin, serve + ["--discovery"]) as url:
            await check_discovery(url, upstream)
        async with serving(server_bin, serve + ["--code-mode"]) as url:
            await check_code_mode(url, upstream)
        await check_stdio(server_bin, spec, upstream, issues & readable)
    print("all checks passed")


if __name__ == "__main__":
    asyncio.run(main())
