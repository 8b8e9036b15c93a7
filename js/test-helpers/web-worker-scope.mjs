/**
 * A browser's dedicated Web Worker, as far as the package can tell: a vm context whose
 * `self` is a WorkerGlobalScope (an EventTarget with postMessage and onmessage) and
 * that has no `process`. A user's worker script runs in it: it installs its own
 * handler, imports the package's entry (argv[2], a file path), and then the scope
 * receives three messages. Prints JSON: {kept: whether self.onmessage is still the
 * user's handler after the import, listeners: the other "message" listeners the import
 * added, answered: what the user's handler saw, posted: every message the worker
 * posted}.
 *
 * Run with `node --experimental-vm-modules` (vm.SourceTextModule).
 */
import vm from "node:vm";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const entry = pathToFileURL(process.argv[2]).href;
const posted = [];
const context = vm.createContext({
  URL, console, setTimeout, clearTimeout, queueMicrotask, EventTarget, Event, TextEncoder,
  TextDecoder, WebAssembly, Atomics, SharedArrayBuffer, performance, crypto,
  __post: (m) => posted.push(structuredClone(m)),
});
vm.runInContext(`
  globalThis.WorkerGlobalScope = class WorkerGlobalScope extends EventTarget {};
  globalThis.self = new WorkerGlobalScope();
  self.postMessage = (m) => __post(m);
  self.onmessage = null;
  const add = EventTarget.prototype.addEventListener;
  globalThis.__listeners = 0;
  self.addEventListener = function (type, ...rest) {
    if (type === "message") globalThis.__listeners++;
    return add.call(this, type, ...rest);
  };
`, context);

const modules = new Map();
async function load(url) {
  if (modules.has(url)) return modules.get(url);
  const source = readFileSync(new URL(url), "utf8");
  const m = new vm.SourceTextModule(source, {
    context, identifier: url,
    initializeImportMeta(meta) { meta.url = url; },
    importModuleDynamically: () => { throw new Error("no dynamic import in this scope"); },
  });
  modules.set(url, m);
  return m;
}
const link = (specifier, referrer) => load(new URL(specifier, referrer.identifier).href);

// the user's worker script: its own handler first, then the package
const answered = [];
context.__answered = (m) => answered.push(m);
vm.runInContext(`
  self.onmessage = (ev) => { __answered(ev.data); self.postMessage({ mine: ev.data }); };
  globalThis.__user = self.onmessage;
`, context);
const pkg = await load(entry);
await pkg.link(link);
await pkg.evaluate();
await new Promise((r) => setTimeout(r, 50));            // anything the import started
const kept = vm.runInContext("self.onmessage === __user", context);
const listeners = vm.runInContext("__listeners", context);
for (const k of [1, 2, 3]) {
  // a browser delivers a message to onmessage and to every "message" listener
  vm.runInContext(`{
    const ev = new Event("message"); ev.data = ${JSON.stringify({ ask: k })};
    if (typeof self.onmessage === "function") self.onmessage(ev);
    self.dispatchEvent(ev);
  }`, context);
}
await new Promise((r) => setTimeout(r, 200));           // any reply of the package's
console.log(JSON.stringify({ kept, listeners, answered, posted }));
