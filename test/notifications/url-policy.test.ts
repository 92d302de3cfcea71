import { expect, test } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { checkDeliveryUrl, isRefusedAddress, type Resolver } from "@ndc/notifications";

const names: Record<string, string[]> = {
  "hooks.example": ["93.184.216.34"],
  "internal.example": ["10.1.2.3"],
  "mixed.example": ["93.184.216.34", "169.254.169.254"],
  "v6.example": ["2606:2800:220:1:248:1893:25c8:1946"],
  "ula.example": ["fd12:3456::1"],
};
const resolve: Resolver = async (h) => {
  if (!(h in names)) throw new Error("ENOTFOUND");
  return names[h]!;
};

async function verdict(url: string, mode: "local" | "sandbox" | "production"): Promise<string> {
  try {
    await checkDeliveryUrl(url, mode, resolve);
    return "ok";
  } catch (e) {
    return e instanceof GatewayError ? e.code : String(e);
  }
}

test("sandbox and production: https to public addresses only, every resolved address checked", async () => {
  for (const mode of ["sandbox", "production"] as const) {
    expect(await verdict("https://hooks.example/ndc", mode)).toBe("ok");
    expect(await verdict("https://v6.example", mode)).toBe("ok");
    for (const url of [
      "http://hooks.example", // https only
      "http://127.0.0.1:8080", // the local-mode exception is local mode's only
      "http://localhost:8080",
      "https://internal.example", // a name resolving to 10.x
      "https://mixed.example", // one public and one metadata address
      "https://ula.example",
      "https://169.254.169.254",
      "https://[fe80::1]",
      "https://[::1]",
      "https://0.0.0.0",
      "https://100.64.0.1",
      "https://nowhere.example",
    ])
      expect({ url, mode, v: await verdict(url, mode) }).toEqual({ url, mode, v: "subscription_url_refused" });
  }
});

test("the address rule: loopback, private, link-local, metadata, CGNAT and mapped forms are refused", () => {
  for (const a of ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.1.1", "::1", "fe80::1", "fd00:ec2::254", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "224.0.0.1"])
    expect({ a, refused: isRefusedAddress(a) }).toEqual({ a, refused: true });
  for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) expect({ a, refused: isRefusedAddress(a) }).toEqual({ a, refused: false });
});

// Issue 19 item 3: IPv6 forms that carry an IPv4 address are judged as that address, in every textual form.
const embedding: [string, boolean][] = [
  // IPv4-compatible ::/96
  ["::127.0.0.1", true],
  ["::7f00:1", true],
  ["0:0:0:0:0:0:a9fe:a9fe", true],
  ["::8.8.8.8", false],
  // IPv4-mapped ::ffff:0:0/96 and IPv4-translated ::ffff:0:0:0/96
  ["::ffff:7f00:1", true],
  ["0:0:0:0:0:FFFF:169.254.169.254", true],
  ["::ffff:0:10.0.0.1", true],
  ["::ffff:0:8.8.8.8", false],
  // NAT64: well-known 64:ff9b::/96 judged by its tail; local-use 64:ff9b:1::/48 refused whole
  ["64:ff9b::127.0.0.1", true],
  ["64:ff9b::a9fe:a9fe", true],
  ["64:ff9b:0:0:0:0:c0a8:101", true],
  ["64:ff9b::808:808", false],
  ["64:ff9b:1::808:808", true],
  ["64:ff9b:1:7f00:0:100::", true],
  // 6to4 2002::/16: bits 16-47
  ["2002:7f00:1::", true],
  ["2002:a9fe:a9fe::", true],
  ["2002:0a00:0001:1::1", true],
  ["2002:808:808::1", false],
  // Teredo 2001::/32: server at bits 32-63, client at the last 32 bits inverted
  ["2001:0:7f00:1::", true], // server 127.0.0.1
  ["2001:0:808:808:0:0:80ff:fefe", true], // client ~7f00:0101 = 127.0.1.1
  ["2001:0:808:808:0:0:5601:5efe", true], // client ~a9fe:a1a1... = 169.254.161.1
  ["2001:0:808:808:0:0:f7f7:f7f7", false], // server 8.8.8.8, client 8.8.8.8
  // every textual form: brackets, zone ids, upper case, dotted tails
  ["[::127.0.0.1]", true],
  ["[64:FF9B::7F00:1]", true],
  ["::127.0.0.1%eth0", true],
  ["fe80::1%25eth0", true],
  ["[2606:4700::1111]", false],
  // not an address at all
  ["::127.0.0.1::", true],
  ["localhost", true],
  // special-purpose ranges outside the embedding forms
  ["100::1", true],
  ["2001:db8::1", true],
];

test.each(embedding)("isRefusedAddress(%p) is %p", (address, refused) => {
  expect(isRefusedAddress(address)).toBe(refused);
});

test("production and sandbox refuse IPv6 literals and names that carry a refused IPv4 address", async () => {
  names["nat64.example"] = ["93.184.216.34", "64:ff9b::a9fe:a9fe"];
  names["teredo.example"] = ["2001:0:808:808::80ff:fefe"];
  for (const mode of ["sandbox", "production"] as const) {
    for (const url of ["https://[::127.0.0.1]/", "https://[64:ff9b::127.0.0.1]/", "https://[64:ff9b::a9fe:a9fe]/", "https://[2002:7f00:1::]/", "https://[2002:a9fe:a9fe::]/", "https://[::ffff:127.0.0.1]:8443/", "https://[2001:0:7f00:1::]/", "https://nat64.example/", "https://teredo.example/"])
      expect({ url, mode, v: await verdict(url, mode) }).toEqual({ url, mode, v: "subscription_url_refused" });
    for (const url of ["https://[64:ff9b::808:808]/", "https://[2002:808:808::1]/", "https://[2606:4700::1111]/"]) expect({ url, mode, v: await verdict(url, mode) }).toEqual({ url, mode, v: "ok" });
  }
});
