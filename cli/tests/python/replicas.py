"""The official Python SDK (mcp==2.3.0) against `mcp-server demo` replicas behind nginx.

Usage: replicas.py URL VICTIM_PID VICTIM_PORT [--sessions]

URL is nginx's endpoint; every request may reach any replica (round-robin,
no stickiness). With both protocol generations (mode "legacy": initialize,
2025-11-25; mode "auto": 2026-07-28) it initializes, lists the tools, calls
`add` and `countdown` (with progress), and creates pets through the
generated `createPets` tool, one at a time, with ids of its own. In the
legacy run it kills replica VICTIM_PID with SIGKILL half-way through and goes
on in the same session (between two calls: once its port refuses connections, so that
no call is in flight on it). With --sessions (replicas sharing state) the legacy
session also subscribes to `demo://petstore/pets` and is told of its update
after a `createPets` (which any replica may run; the session's stream may be
on another), and the 2026-07-28 run hears the same through a
`subscriptions/listen` stream.

Then it lists the pets: every pet it created is there exactly once (each
`createPets` ran once: a second run of the same id is refused by the API).
Prints one line per check; exits non-zero on the first failure.
"""

import asyncio
import os
import signal
import socket
import sys
import time
import warnings

from mcp import Client

from checks import check, list_all_tools

# resources/subscribe is 2025-11-25 only, which is what the legacy run speaks.
warnings.filterwarnings("ignore", message="resources/subscribe")

PETS_PER_RUN = 20
PETS_URI = "demo://petstore/pets"


async def basics(client, label):
    tools = {tool.name for tool in await list_all_tools(client)}
    check({"add", "countdown", "createPets", "listPets"} <= tools, f"{label}: tools are {sorted(tools)}")
    added = await client.call_tool("add", {"a": 2, "b": 3})
    check(added.structured_content == {"result": 5}, f"{label}: add gave {added}")
    updates = []

    async def on_progress(progress, total, message):
        updates.append(progress)

    counted = await client.call_tool("countdown", {"from": 3}, progress_callback=on_progress)
    check(counted.structured_content == {"steps": 3}, f"{label}: countdown gave {counted}")
    check(updates == [1, 2, 3], f"{label}: progress updates {updates}")
    print(f"ok {label}: initialize, list ({len(tools)} tools), call add and countdown", flush=True)


def kill(pid, port):
    """Kills replica `pid` and waits until its `port` refuses connections."""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            time.sleep(0.01)
        except OSError:
            return
    raise AssertionError(f"replica {pid} still accepts connections on port {port}")


async def create_pets(client, label, first_id, victim=None):
    """Creates PETS_PER_RUN pets; kills `victim` (pid, port) after half of them."""
    for offset in range(PETS_PER_RUN):
        if victim is not None and offset == PETS_PER_RUN // 2:
            kill(*victim)
            print(f"ok {label}: killed replica {victim[0]} after {offset} calls", flush=True)
        pet_id = first_id + offset
        created = await client.call_tool("createPets", {"id": pet_id, "name": f"pet-{pet_id}"})
        check(not created.is_error, f"{label}: createPets {pet_id} failed: {created}")
    print(f"ok {label}: {PETS_PER_RUN} createPets calls succeeded", flush=True)


async def told_of_new_pet(client, label, updated, pet_id):
    """Creates pet `pet_id` and waits for the update of PETS_URI."""
    created = await client.call_tool("createPets", {"id": pet_id, "name": f"pet-{pet_id}"})
    check(not created.is_error, f"{label}: createPets {pet_id} failed: {created}")
    try:
        uri = await asyncio.wait_for(updated.get(), timeout=10)
    except TimeoutError:
        raise AssertionError(f"{label}: no notifications/resources/updated within 10 s of pet {pet_id}")
    check(uri == PETS_URI, f"{label}: updated {uri}")
    read = await client.read_resource(PETS_URI)
    check(f'"pet-{pet_id}"' in read.contents[0].text, f"{label}: {PETS_URI} gave {read}")


async def listen_for_new_pets(client, label):
    """Listens to PETS_URI (2026-07-28 `subscriptions/listen`) and creates
    pets until the stream tells of an update; returns the ids created.

    The listen stream stays on one replica while any replica may run
    `createPets`. The stream follows other replicas once its Redis
    subscription stands, shortly after the acknowledgement, so an update
    made before that may go unheard: it creates pets until one is heard
    (10 s at most)."""
    ids = []
    async with client.listen(resource_subscriptions=[PETS_URI]) as subscription:
        events = subscription.__aiter__()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pet_id = 3000 + len(ids)
            created = await client.call_tool("createPets", {"id": pet_id, "name": f"pet-{pet_id}"})
            check(not created.is_error, f"{label}: createPets {pet_id} failed: {created}")
            ids.append(pet_id)
            try:
                event = await asyncio.wait_for(events.__anext__(), timeout=0.5)
            except TimeoutError:
                continue
            check(getattr(event, "uri", None) == PETS_URI, f"{label}: listen told of {event}")
            return ids
    raise AssertionError(f"{label}: the listen stream heard no update within 10 s ({len(ids)} pets created)")


async def listed_ids(client, label):
    pets = await client.call_tool("listPets", {"limit": 100})
    check(not pets.is_error, f"{label}: listPets failed: {pets}")
    return [pet["id"] for pet in pets.structured_content["result"]]


async def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: replicas.py URL VICTIM_PID VICTIM_PORT [--sessions]")
    url, victim = sys.argv[1], (int(sys.argv[2]), int(sys.argv[3]))
    sessions = sys.argv[4:] == ["--sessions"]
    created = []
    updated = asyncio.Queue()

    async def on_message(message):
        notification = getattr(message, "root", message)
        if getattr(notification, "method", None) == "notifications/resources/updated":
            await updated.put(str(notification.params.uri))

    async with Client(url, mode="legacy", message_handler=on_message) as client:
        label = "2025-11-25"
        check(client.protocol_version == "2025-11-25", f"{label}: negotiated {client.protocol_version}")
        await basics(client, label)
        if sessions:
            await client.subscribe_resource(PETS_URI)
            await told_of_new_pet(client, label, updated, 999)
            created.append(999)
            print(f"ok {label}: subscribed to {PETS_URI}, told of its update", flush=True)
        await create_pets(client, label, 1000, victim)
        created.extend(range(1000, 1000 + PETS_PER_RUN))
        # The same session after the kill: list and call again, and (with
        # shared state) still hear of updates, wherever its stream now is.
        await basics(client, f"{label} after the kill")
        if sessions:
            while not updated.empty():
                updated.get_nowait()
            await told_of_new_pet(client, label, updated, 997)
            created.append(997)
            print(f"ok {label} after the kill: still told of updates to {PETS_URI}", flush=True)

    async with Client(url, mode="auto") as client:
        label = "2026-07-28"
        check(client.protocol_version == "2026-07-28", f"{label}: negotiated {client.protocol_version}")
        await basics(client, label)
        await create_pets(client, label, 2000)
        created.extend(range(2000, 2000 + PETS_PER_RUN))
        if sessions:
            created.extend(await listen_for_new_pets(client, label))
            print(f"ok {label}: a listen stream for {PETS_URI} was told of its update", flush=True)
        ids = await listed_ids(client, label)

    for pet_id in created:
        check(ids.count(pet_id) == 1, f"pet {pet_id} is listed {ids.count(pet_id)} times in {ids}")
    print(f"ok every one of {len(created)} pets exists exactly once", flush=True)
    print("all checks passed", flush=True)


asyncio.run(main())
