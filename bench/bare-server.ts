export {};
// The baseline: a bare Bun.serve answering fixed bytes with the same headers, no framework.
// usage: bun bench/bare-server.ts <bodyFile> <status>
const [bodyFile, status = "200"] = process.argv.slice(2);
const body = await Bun.file(bodyFile!).bytes();
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    await req.arrayBuffer();
    return new Response(body, { status: Number(status), headers: { "content-type": "application/xml; charset=utf-8", "x-simulated-supply": "true" } });
  },
});
console.log(`LISTENING ${server.url}`);
