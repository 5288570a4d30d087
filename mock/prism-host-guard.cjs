// Preloaded into each Prism child (`node --require`), plain JavaScript as Prism runs on plain node.
// Prism's private port answers only requests whose Host names it (127.0.0.1 or localhost, with its
// port or none), as every server of the project does: a page at a name rebound to 127.0.0.1 (DNS
// rebinding) would otherwise reach Prism around the front's Host check. The parent gives the port
// and the refusal's body in PRISM_HOST_GUARD.
const http = require("node:http");

const { port, body } = JSON.parse(process.env.PRISM_HOST_GUARD ?? "{}");
const allowed = new Set(["127.0.0.1", "localhost"].flatMap((name) => [name, `${name}:${port}`]));
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function guarded(event, ...args) {
  const [request, response] = args;
  if (event === "request" && !allowed.has(String(request.headers.host).toLowerCase())) {
    const headers = {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    };
    response.writeHead(403, headers).end(body);
    return true;
  }
  return emit.call(this, event, ...args);
};
