// The oldest Node.js that `npm start`, `npm test`, `npm run cli` and the rest are checked on.
// Node.js only installs (npm ci) and hands over to Bun; the gateway itself runs on Bun (pinned in
// package.json). Node 20 is the floor: npm 11 needs 20.17, Node 18 is end-of-life. Every dependency
// declares Node 20 too, so `npm ci` on it warns of no engine (EBADENGINE): nanoid stays on 5.x (6
// asks for Node 22 and gains nothing here), and the seller's client (packages/client) says >=20
// because its Node build is run under Node by test/client/package.test.ts.
export const NODE_FLOOR = 20;

/** Why `version` (e.g. process.versions.node) is too old, or null when it will do. */
export function nodeTooOld(version) {
  const major = Number(String(version).split(".")[0]);
  if (major >= NODE_FLOOR) return null;
  return `ndc-gateway needs Node.js ${NODE_FLOOR} or newer to install its dependencies and start Bun; this is Node.js ${version}. Install a current Node.js (https://nodejs.org) and run again.`;
}
