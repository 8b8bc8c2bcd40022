/**
 * Where strict JSON first breaks in `text` (a character offset), or undefined when it does not:
 * the place V8 leaves out of some messages (a trailing comma, above all). Only for a config that
 * JSON.parse already refused, so it checks the grammar and builds nothing.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const expect = (char: string) => (text[at] === char ? at++ : fail());
  const string = () => {
    expect('"');
    while (text[at] !== '"') {
      if (at >= text.length || text.charCodeAt(at) < 0x20) fail();
      if (text[at] === "\\") {
        at++;
        if (text[at] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) at += 5;
        else if ('"\\/bfnrt'.includes(text[at] ?? "x")) at++;
        else fail();
      } else at++;
    }
    at++;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === "{" || char === "[") {
      const close = char === "{" ? "}" : "]";
      at++;
      space();
      if (text[at] === close) {
        at++;
        return;
      }
      for (;;) {
        if (close === "}") {
          space();
          string();
          space();
          expect(":");
        }
        value();
        space();
        if (text[at] !== ",") {
          expect(close);
          return;
        }
        at++;
        // A trailing comma: the next thing must be a member or an element.
        space();
        if (text[at] === close) fail();
      }
    }
    if (char === '"') {
      string();
      return;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 400));
    if (!literal) fail();
    at += literal![0].length;
  };
  try {
    value();
    space();
    if (at < text.length) fail();
    return undefined;
  } catch (offset) {
    if (typeof offset === "number") return offset;
    throw offset;
  }
}
