/**
 * Splits a script into statements the way sqlite3_complete() decides a statement is finished:
 * at a `;` outside quotes and comments, except inside CREATE [TEMP] TRIGGER, which ends only
 * at `END;`. Needed where a driver runs one statement per call inside an open transaction
 * (@libsql/client's executeMultiple() on a client rolls back any open transaction).
 */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let start = 0;
  let words: string[] = []; // the statement's first words, upper-cased, to spot a trigger
  let lastWord = "";
  let i = 0;
  const n = script.length;
  const push = (end: number) => {
    const stmt = script.slice(start, end).trim();
    if (stmt && stmt !== ";") out.push(stmt);
    start = end;
    words = [];
    lastWord = "";
  };
  while (i < n) {
    const c = script[i]!;
    if (c === "-" && script[i + 1] === "-") {
      const nl = script.indexOf("\n", i);
      i = nl < 0 ? n : nl + 1;
    } else if (c === "/" && script[i + 1] === "*") {
      const close = script.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const closeChar = c === "[" ? "]" : c;
      let j = i + 1;
      // A doubled quote inside a string is an escaped quote, not its end.
      while (j < n && !(script[j] === closeChar && script[j + 1] !== closeChar)) j += script[j] === closeChar ? 2 : 1;
      i = j + 1;
      lastWord = "";
    } else if (c === ";") {
      const trigger = isTrigger(words);
      i++;
      if (!trigger || lastWord === "END") push(i);
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(script[j]!)) j++;
      lastWord = script.slice(i, j).toUpperCase();
      if (words.length < 4) words.push(lastWord);
      i = j;
    } else {
      if (!/\s/.test(c)) lastWord = "";
      i++;
    }
  }
  push(n);
  return out;
}

function isTrigger(words: string[]): boolean {
  if (words[0] !== "CREATE") return false;
  const next = words[1] === "TEMP" || words[1] === "TEMPORARY" ? words[2] : words[1];
  return next === "TRIGGER";
}
