"""End-to-end check of the `mcp-server` binary with the official Python SDK (mcp==2.3.0).

Usage: e2e.py SERVER_BIN [--openapi SPEC]

Without --openapi it drives `mcp-server demo` (hand-written tools and, when the
build has OpenAPI generation, the embedded Petstore tools). With --openapi it
drives `mcp-server serve --openapi SPEC --base-url ...` against the demo's
embedded Petstore API.

For stdio and for Streamable HTTP (stateful and stateless), and for both
protocol generations (mode "auto": server/discover, 2026-07-28; mode
"legacy": initialize, 2025-11-25), it lists the tools (following cursors),
calls tools, checks progress and errors, and reads a resource when the server
lists any. Prints one line per check; exits non-zero on the first failure.
"""

import asyncio
import subprocess
import sys

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}


def check(condition, message):
    if not condition:
        raise AssertionError(message)


async def list_all_tools(client):
    tools, cursor = [], None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools


async def exercise(client, label, expected_version):
    check(client.protocol_version == expected_version,
          f"{label}: negotiated {client.protocol_version}, expected {expected_version}")
    tools = {tool.name: tool for tool in await list_all_tools(client)}
    check({"add", "countdown"} <= set(tools), f"{label}: tools are {sorted(tools)}")

    added = await client.call_tool("add", {"a": 2, "b": 3})
    check(not added.is_error, f"{label}: add failed: {added}")
    check(added.structured_content == {"result": 5}, f"{label}: add gave {added.structured_content}")

    bad = await client.call_tool("add", {"a": 2, "b": "three"})
    check(bad.is_error, f"{label}: add with a string argument did not fail: {bad}")
    check("`b`" in bad.content[0].text, f"{label}: the argument error does not name `b`: {bad.content[0].text}")

    updates = []

    async def on_progress(progress, total, message):
        updates.append((progress, total, message))

    counted = await client.call_tool("countdown", {"from": 3}, progress_callback=on_progress)
    check(counted.structured_content == {"steps": 3}, f"{label}: countdown gave {counted}")
    check([u[0] for u in updates] == [1, 2, 3], f"{label}: progress updates {updates}")

    try:
        await client.call_tool("no_such_tool", {})
        raise AssertionError(f"{label}: calling an unknown tool did not fail")
    except MCPError as error:
        check(error.code == -32602, f"{label}: unknown tool gave code {error.code}")

    pet_tools = [name for name in tools if name.lower().endswith("listpets") or name == "listPets"]
    if pet_tools:
        pets = await client.call_tool(pet_tools[0], {"limit": 2})
        check(not pets.is_error, f"{label}: {pet_tools[0]} failed: {pets}")
        check("Rex" in pets.content[0].text, f"{label}: {pet_tools[0]} gave {pets.content[0].text}")
        print(f"ok {label}: OpenAPI tool {pet_tools[0]} called the Petstore API")

    if client.server_capabilities.resources is not None:
        resources = (await client.list_resources()).resources
        if resources:
            read = await client.read_resource(resources[0].uri)
            check(read.contents, f"{label}: reading {resources[0].uri} gave nothing")
            print(f"ok {label}: read resource {resources[0].uri}")
    print(f"ok {label}: {len(tools)} tools, add, argument error, progress, unknown tool")


async def over_stdio(server_bin, serve_args):
    for mode, version in MODES.items():
        params = StdioServerParameters(command=server_bin, args=serve_args + ["--transport", "stdio"])
        async with Client(params, mode=mode) as client:
            await exercise(client, f"stdio/{mode}", version)


def start_http(server_bin, serve_args, extra):
    process = subprocess.Popen(
        [server_bin, *serve_args, "--transport", "http", "--bind", "127.0.0.1:0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in process.stdout:
        line = line.strip()
        if line.startswith("http://") and line.endswith("/mcp"):
            return process, line
    process.kill()
    raise AssertionError(f"the server printed no endpoint URL: {process.stderr.read()}")


async def over_http(server_bin, serve_args):
    for extra in ([], ["--stateless"]):
        process, url = start_http(server_bin, serve_args, extra)
        try:
            for mode, version in MODES.items():
                async with Client(url, mode=mode) as client:
                    await exercise(client, f"http{''.join(extra)}/{mode} {url}", version)
        finally:
            process.terminate()
            process.wait(timeout=15)


async def main():
    if len(sys.argv) < 2:
        sys.exit("usage: e2e.py SERVER_BIN [--openapi SPEC]")
    server_bin = sys.argv[1]
    serve_args = ["demo"]
    if len(sys.argv) == 4 and sys.argv[2] == "--openapi":
        serve_args = ["demo", "--openapi", sys.argv[3]]
    await over_stdio(server_bin, serve_args)
    await over_http(server_bin, serve_args)
    print("all checks passed")


asyncio.run(main())
