"""End-to-end check of the `mcp-server` binary with the official Python SDK (mcp==2.3.0).

Usage: e2e.py SERVER_BIN PETSTORE_SPEC

Drives `mcp-server demo` (tools generated from the embedded Petstore document,
hand-written tools, resources) and `mcp-server serve --openapi PETSTORE_SPEC
--base-url API` against the Petstore API a demo process embeds.

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

from checks import check, list_all_tools

MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}


async def exercise(client, label, expected_version, demo):
    check(client.protocol_version == expected_version,
          f"{label}: negotiated {client.protocol_version}, expected {expected_version}")
    tools = {tool.name: tool for tool in await list_all_tools(client)}
    check({"listPets", "createPets", "showPetById"} <= set(tools), f"{label}: tools are {sorted(tools)}")

    pets = await client.call_tool("listPets", {"limit": 2})
    check(not pets.is_error, f"{label}: listPets failed: {pets}")
    check("Rex" in pets.content[0].text and "Nemo" not in pets.content[0].text,
          f"{label}: listPets gave {pets.content[0].text}")
    tom = await client.call_tool("showPetById", {"petId": "2"})
    check(not tom.is_error and "Tom" in tom.content[0].text, f"{label}: showPetById gave {tom}")
    missing = await client.call_tool("showPetById", {"petId": "999"})
    check(missing.is_error, f"{label}: showPetById of a missing pet did not fail: {missing}")
    bad = await client.call_tool("listPets", {"limit": "many"})
    check(bad.is_error and "limit" in bad.content[0].text, f"{label}: a string limit gave {bad}")

    try:
        await client.call_tool("no_such_tool", {})
        raise AssertionError(f"{label}: calling an unknown tool did not fail")
    except MCPError as error:
        check(error.code == -32602, f"{label}: unknown tool gave code {error.code}")

    if demo:
        check({"add", "countdown"} <= set(tools), f"{label}: tools are {sorted(tools)}")
        added = await client.call_tool("add", {"a": 2, "b": 3})
        check(added.structured_content == {"result": 5}, f"{label}: add gave {added}")
        bad = await client.call_tool("add", {"a": 2, "b": "three"})
        check(bad.is_error and "/b: " in bad.content[0].text, f"{label}: add with a string gave {bad}")
        updates = []

        async def on_progress(progress, total, message):
            updates.append((progress, total, message))

        counted = await client.call_tool("countdown", {"from": 3}, progress_callback=on_progress)
        check(counted.structured_content == {"steps": 3}, f"{label}: countdown gave {counted}")
        check([u[0] for u in updates] == [1, 2, 3], f"{label}: progress updates {updates}")

        check(client.server_capabilities.resources is not None, f"{label}: no resources capability")
        resources = (await client.list_resources()).resources
        uris = [resource.uri for resource in resources]
        check("demo://petstore/openapi.yaml" in uris, f"{label}: resources are {uris}")
        read = await client.read_resource("demo://petstore/openapi.yaml")
        check("Swagger Petstore" in read.contents[0].text, f"{label}: the document resource gave {read}")
    print(f"ok {label}: {len(tools)} tools", flush=True)


async def over_stdio(server_bin, serve_args, label):
    for mode, version in MODES.items():
        params = StdioServerParameters(command=server_bin, args=serve_args + ["--transport", "stdio"])
        async with Client(params, mode=mode) as client:
            await exercise(client, f"{label} stdio/{mode}", version, serve_args[0] == "demo")


def start_http(server_bin, serve_args, extra, wanted=lambda line: line.startswith("http://") and line.endswith("/mcp")):
    """Starts an HTTP server; returns it and the first output line `wanted` accepts."""
    process = subprocess.Popen(
        [server_bin, *serve_args, "--transport", "http", "--bind", "127.0.0.1:0", *extra],
        stdout=subprocess.PIPE, stderr=None, text=True)
    for line in process.stdout:
        line = line.strip()
        if wanted(line):
            return process, line
    process.kill()
    raise AssertionError(f"{serve_args[0]} exited without the expected line (see its log above)")


async def over_http(server_bin, serve_args, label):
    for extra in ([], ["--stateless"]):
        process, url = start_http(server_bin, serve_args, extra)
        try:
            for mode, version in MODES.items():
                async with Client(url, mode=mode) as client:
                    await exercise(client, f"{label} http{''.join(extra)}/{mode}", version, serve_args[0] == "demo")
        finally:
            process.terminate()
            process.wait(timeout=15)


async def main():
    if len(sys.argv) != 3:
        sys.exit("usage: e2e.py SERVER_BIN PETSTORE_SPEC")
    server_bin, spec = sys.argv[1], sys.argv[2]
    await over_stdio(server_bin, ["demo"], "demo")
    await over_http(server_bin, ["demo"], "demo")

    api_server, line = start_http(server_bin, ["demo"], [], lambda line: line.startswith("Petstore API (embedded): "))
    api = line.split(": ", 1)[1]
    try:
        serve_args = ["serve", "--openapi", spec, "--base-url", api]
        await over_stdio(server_bin, serve_args, "serve")
        await over_http(server_bin, serve_args, "serve")
    finally:
        api_server.terminate()
        api_server.wait(timeout=15)
    print("all checks passed")


asyncio.run(main())
