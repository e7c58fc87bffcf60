// Made in each fresh sandbox before the script runs: the globals `tools`,
// `callTool`, `catalog` and `console` over the sandbox's native `host`
// functions, which the script never sees. Returns `drive` (runs the
// compiled script) and `finish` (its value as JSON).
(host) => {
  "use strict";

  const argumentsOf = (what, input) => {
    if (input === undefined || input === null) {
      return undefined;
    }
    if (typeof input !== "object" || Array.isArray(input)) {
      const kind = Array.isArray(input) ? "an array" : typeof input;
      throw new TypeError(`the input of ${what} must be an object of named arguments, not ${kind}`);
    }
    return JSON.stringify(input);
  };

  // A call of a tool, whose error (the tool's, thrown when its promise
  // settles) points at the script's line that made the call: the stack is
  // taken while the script's frame is still on it.
  const call = async (name, input, what, byIdentifier) => {
    const site = new Error();
    try {
      return await host.call(name, argumentsOf(what, input), byIdentifier);
    } catch (error) {
      if (error instanceof Error) {
        try {
          error.stack = site.stack;
        } catch {
          // A stack that cannot be replaced keeps its own.
        }
      }
      throw error;
    }
  };

  let identifiers;
  const listed = () => {
    if (identifiers === undefined) {
      identifiers = Object.freeze(JSON.parse(host.identifiers()));
    }
    return identifiers;
  };

  const tools = new Proxy(Object.create(null), {
    get(_, key) {
      if (typeof key !== "string" || key === "then") {
        return undefined;
      }
      return (input) => call(key, input, `tools.${key}`, true);
    },
    has: (_, key) => typeof key === "string" && listed().includes(key),
    ownKeys: () => [...listed()],
    getOwnPropertyDescriptor(target, key) {
      if (typeof key !== "string" || !listed().includes(key)) {
        return undefined;
      }
      return { value: this.get(target, key), writable: false, enumerable: true, configurable: true };
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });

  const callTool = async (name, input) => {
    if (typeof name !== "string") {
      throw new TypeError("callTool(name, input): `name` is a tool's name, as a string");
    }
    return call(name, input, `callTool("${name}")`, false);
  };

  const shown = (value) => {
    if (typeof value === "string") {
      return value;
    }
    if (value instanceof Error) {
      return `${value.name}: ${value.message}`;
    }
    try {
      const json = JSON.stringify(value);
      return json === undefined ? String(value) : json;
    } catch {
      return String(value);
    }
  };
  const writer = (level) => (...values) => host.log(level, values.map(shown).join(" "));
  const console = Object.freeze({
    log: writer("log"),
    info: writer("info"),
    debug: writer("debug"),
    warn: writer("warn"),
    error: writer("error"),
  });

  let catalog;
  const frozen = (entries) => {
    for (const entry of entries) {
      Object.freeze(entry.tags);
      Object.freeze(entry);
    }
    return Object.freeze(entries);
  };

  const constant = (value) => ({ value, writable: false, enumerable: false, configurable: false });
  Object.defineProperties(globalThis, {
    tools: constant(tools),
    callTool: constant(callTool),
    console: constant(console),
    catalog: {
      get: () => (catalog ??= frozen(JSON.parse(host.catalog()))),
      enumerable: false,
      configurable: false,
    },
  });

  const drive = async (compiled) => {
    let value = await compiled();
    if (typeof value === "function") {
      value = await value();
    }
    return value;
  };

  const finish = (value) => {
    if (value === undefined) {
      return undefined;
    }
    return JSON.stringify(value, (key, item) => {
      if (item instanceof Promise) {
        const where = key === "" ? "" : ` at "${key}"`;
        throw new TypeError(`it holds a Promise${where}: \`await\` it (Promise.all for an array of calls)`);
      }
      if (typeof item === "bigint") {
        return item.toString();
      }
      if (item instanceof Map) {
        return Object.fromEntries(item);
      }
      if (item instanceof Set) {
        return [...item];
      }
      return item;
    });
  };

  return { drive, finish };
}
