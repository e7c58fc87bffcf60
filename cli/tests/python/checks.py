"""Helpers shared by the end-to-end scripts in this folder."""


def check(condition, message):
    if not condition:
        raise AssertionError(message)


async def list_all_tools(client):
    """Every tool of the server, following `tools/list` pages."""
    tools, cursor = [], None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools
