// The MCP Bundle's entry (mcpb/manifest.json). Claude Desktop passes the settings as arguments:
// --catalog=URL and --git=REPO, empty when unset, then each skills folder as an argument of its
// own. Drop the empty options, name each folder with --skills-dir, and run the CLI beside this file.
const options = process.argv.slice(2).flatMap((arg) => {
  const [, name, value] = /^--(catalog|git)=(.*)$/s.exec(arg) ?? [];
  if (name) return value ? [`--${name}`, value] : [];
  return ["--skills-dir", arg];
});
process.argv.splice(2, Infinity, ...options);
await import("./cli.js");
