/**
 * Reads the token request (RFC 6749 2.3.1, 3.2, 4.4.2): the form body and the client credentials
 * from HTTP Basic or from the form. Returns what was sent or why it cannot be read; no lookups.
 */
export type Form = Map<string, string>;

export type FormRead = { ok: true; form: Form } | { ok: false; description: string };

/** RFC 6749 3.2 / Appendix B: x-www-form-urlencoded, each parameter at most once. */
export function readForm(contentType: string | null, body: string): FormRead {
  const media = contentType?.split(";")[0]?.trim().toLowerCase();
  if (media !== "application/x-www-form-urlencoded") {
    return { ok: false, description: "The token request must be sent as application/x-www-form-urlencoded." };
  }
  const form: Form = new Map();
  for (const [k, v] of new URLSearchParams(body)) {
    if (form.has(k)) return { ok: false, description: `The parameter ${safeName(k)} is repeated.` };
    form.set(k, v);
  }
  return { ok: true, form };
}

export type Credentials =
  | { ok: true; via: "basic" | "form"; clientId: string; clientSecret: string }
  | { ok: false; via: "basic" | "form" | "none"; kind: "invalid_request" | "invalid_client"; description: string };

export function readCredentials(authorization: string | null, form: Form): Credentials {
  const inForm = form.has("client_id") || form.has("client_secret");
  if (authorization !== null) {
    if (inForm) {
      return { ok: false, via: "basic", kind: "invalid_request", description: "Send client credentials either with HTTP Basic or in the form, not both." };
    }
    return readBasic(authorization);
  }
  if (!inForm) return { ok: false, via: "none", kind: "invalid_client", description: "No client credentials were sent; use HTTP Basic." };
  const clientId = form.get("client_id");
  const clientSecret = form.get("client_secret");
  if (!clientId || !clientSecret) {
    return { ok: false, via: "form", kind: "invalid_client", description: "Both client_id and client_secret are needed." };
  }
  return { ok: true, via: "form", clientId, clientSecret };
}

/** Basic credentials are base64("urlencoded(id):urlencoded(secret)") (RFC 6749 2.3.1). */
function readBasic(header: string): Credentials {
  const m = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  const bad = (description: string): Credentials => ({ ok: false, via: "basic", kind: "invalid_client", description });
  if (!m) return bad("The Authorization header must be HTTP Basic with client_id:client_secret.");
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(m[1]!, "base64"));
  } catch {
    return bad("The Basic credentials are not valid base64 UTF-8.");
  }
  const i = decoded.indexOf(":");
  if (i <= 0) return bad("The Basic credentials must be client_id:client_secret.");
  try {
    const clientId = formDecode(decoded.slice(0, i));
    const clientSecret = formDecode(decoded.slice(i + 1));
    if (!clientSecret) return bad("The Basic credentials hold no client_secret.");
    return { ok: true, via: "basic", clientId, clientSecret };
  } catch {
    return bad("The Basic credentials are not form-urlencoded.");
  }
}

function formDecode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, " "));
}

/** Parameter names are echoed in errors: only the harmless ones, and short. */
function safeName(k: string): string {
  return /^[a-z_]{1,32}$/.test(k) ? k : "(a parameter)";
}
