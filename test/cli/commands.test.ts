import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import {
  COMMAND_ALIASES,
  COMMAND_SPECS,
  COMMON,
  LIFECYCLE_COMMANDS,
  NOT_FOR_LIFECYCLE,
  SOURCE_FLAGS,
} from "../../src/cli/commands.js";

/** The command table every part of the CLI reads: it must agree with itself and with the parser. */
describe("the command table", () => {
  it("names only commands that exist, and options every command takes", () => {
    for (const [alias, command] of Object.entries(COMMAND_ALIASES)) {
      expect(COMMAND_SPECS, alias).toHaveProperty(command);
      expect(COMMAND_SPECS).not.toHaveProperty(alias);
    }
    for (const command of LIFECYCLE_COMMANDS) expect(COMMAND_SPECS).toHaveProperty(command);
    for (const name of [...SOURCE_FLAGS, ...Object.keys(NOT_FOR_LIFECYCLE)]) expect(COMMON).toHaveProperty(name);
  });

  it("gives no command an option or a short form twice", () => {
    for (const [command, spec] of Object.entries(COMMAND_SPECS)) {
      for (const name of Object.keys(spec.options)) expect(COMMON, `${command} --${name}`).not.toHaveProperty(name);
      const shorts = Object.values({ ...COMMON, ...spec.options }).flatMap((option) =>
        "short" in option ? [option.short] : [],
      );
      expect(new Set(shorts).size, command).toBe(shorts.length);
    }
  });

  it("parses every option each command declares, with a value where it takes one", () => {
    for (const [command, spec] of Object.entries(COMMAND_SPECS)) {
      for (const [name, option] of Object.entries(spec.options)) {
        const argv = [command, `--${name}`, ...(option.type === "string" ? ["x"] : []), "--help"];
        // --help: the command's needed arguments are not needed, so each option is parsed alone.
        expect(() => parseCliArgs(argv), argv.join(" ")).not.toThrow(/unknown option|takes no/);
      }
    }
  });

  it("reads a command's positional count from the table", () => {
    for (const [command, spec] of Object.entries(COMMAND_SPECS)) {
      const [least, most] = spec.positionals;
      if (least > 0) expect(() => parseCliArgs([command]), command).toThrow(`${command} needs ${spec.usage}`);
      const extra = [command, ...Array.from({ length: most === Infinity ? 3 : most + 1 }, (_, i) => `arg${i}`)];
      if (most !== Infinity) expect(() => parseCliArgs(extra), command).toThrow(`unexpected argument "arg${most}"`);
    }
  });
});
