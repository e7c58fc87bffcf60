"""Discovery mode as a model that reads only text sees it, with the official
Python SDK (mcp==2.3.0).

Usage: discovery_text.py SERVER_BIN GITHUB_SPEC

`mcp-server serve --openapi GITHUB_SPEC --discovery` over stdio. Reading only
each result's `content` (never `structured_content`), checks that the text of
a `search_tools` answer is JSON holding each hit's input schema: compact, the
5-hit answer's text within 6000 bytes, for several requests; in full with
`detail: true`, enough to tell two close tools apart by their arguments; and
that `call_tool` with arguments read from that text reaches the tool. Prints
one line per check; exits non-zero on the first failure.
"""

import asyncio
import json
import os
import sys

from checks import check

REQUESTS = [
    "list the issues of a repository",
    "compare two commits",
    "who starred this repository",
    "create a pull request review",
    "list workflow runs for a repository",
]


def text_of(result):
    """The answer as a text-only client hands it to a model: its text blocks."""
    texts = [block.text for block in result.content if getattr(block, "type", None) == "text"]
    check(len(texts) == 1, f"expected one text block, got {result.content}")
    return texts[0]


async def search(client, arguments):
    result = await client.call_tool("search_tools", arguments)
    check(not result.is_error, f"search_tools {arguments} failed: {result.content}")
    text = text_of(result)
    return text, json.loads(text)


async def check_compact(client):
    for request in REQUESTS:
        text, answer = await search(client, {"query": request})
        hits = answer["tools"]
        check(len(hits) == 5, f"{request!r}: {len(hits)} hits")
        size = len(text.encode())
        check(size <= 6000, f"{request!r}: the text is {size} bytes")
        for hit in hits:
            schema = hit.get("inputSchema")
            check(isinstance(schema, dict) and schema.get("type") == "object", f"{request!r}: {hit['name']} has {schema}")
        check(all(set(candidate) <= {"name", "title"} for candidate in answer.get("more", [])),
              f"{request!r}: more is {answer.get('more')}")
        print(f"ok: {request!r} answers 5 hits with their input schemas in {size} bytes of text", flush=True)


async def check_detail(client):
    names = ["repos_compare-commits", "repos_compare-commits-with-basehead"]
    arguments = {}
    for name in names:
        _, answer = await search(client, {"query": name, "limit": 1, "detail": True})
        hit = answer["tools"][0]
        check(hit["name"] == name, f"{name}: the first hit is {hit['name']}")
        arguments[name] = set(hit["inputSchema"]["properties"])
    check("basehead" in arguments[names[1]] and "basehead" not in arguments[names[0]],
          f"the full schemas do not tell the two apart: {arguments}")
    _, compact = await search(client, {"query": names[1], "limit": 1})
    _, full = await search(client, {"query": names[1], "limit": 1, "detail": True})
    check(len(json.dumps(full["tools"][0]["inputSchema"])) >= len(json.dumps(compact["tools"][0]["inputSchema"])),
          "the full schema is smaller than the compact one")
    print(f"ok: detail gives full input schemas in the text ({sorted(arguments[names[1]])})", flush=True)


async def check_call(client):
    _, answer = await search(client, {"query": "get a gist", "limit": 5})
    hit = next((hit for hit in answer["tools"] if hit["name"] == "gists_get"), None)
    check(hit is not None, f"no gists_get among {[hit['name'] for hit in answer['tools']]}")
    required = hit["inputSchema"].get("required", [])
    check(required == ["gist_id"], f"gists_get requires {required}")
    result = await client.call_tool("call_tool", {"name": "gists_get", "arguments": {"gist_id": "aa5a315d61ae9438b18d"}})
    # No upstream runs here: the call reaches the tool, which says so.
    check(result.is_error and "gist_id" not in text_of(result), f"call_tool gave {result.content}")
    print("ok: a call built from the text reaches the tool", flush=True)


async def main():
    from mcp import Client, StdioServerParameters

    if len(sys.argv) != 3:
        sys.exit("usage: discovery_text.py SERVER_BIN GITHUB_SPEC")
    server_bin, spec = sys.argv[1], sys.argv[2]
    args = ["serve", "--openapi", spec, "--base-url", "http://127.0.0.1:9", "--discovery", "--transport", "stdio"]
    params = StdioServerParameters(command=server_bin, args=args, env={"RUST_LOG": os.environ.get("RUST_LOG", "warn")})
    async with Client(params) as client:
        await check_compact(client)
        await check_detail(client)
        await check_call(client)
    print("all checks passed")


if __name__ == "__main__":
    asyncio.run(main())
