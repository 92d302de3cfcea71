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
