import { describe, expect, it } from "vitest";
import { ConfigError, PluginError, SkillFileError, ToolInputError, UserError } from "../../src/kernel/errors.js";

describe("error classes", () => {
  it("keep their hierarchy, names and exit codes", () => {
    const config = new ConfigError("bad");
    expect(config).toBeInstanceOf(ConfigError);
    expect(config).toBeInstanceOf(UserError);
    expect(config).toBeInstanceOf(Error);
    expect(config).not.toBeInstanceOf(PluginError);
    expect(config).not.toBeInstanceOf(ToolInputError);
    expect(config.name).toBe("ConfigError");
    expect(config.exitCode).toBe(2);
    expect(new PluginError("fs", "broke").message).toBe('plugin "fs": broke');
    const file = new SkillFileError("../x", "leaves the skill folder");
    expect(file).toBeInstanceOf(ToolInputError);
    expect(file).not.toBeInstanceOf(UserError);
    expect(file.message).toBe("../x: leaves the skill folder");
    expect(new ToolInputError("x")).not.toBeInstanceOf(SkillFileError);
  });

  it("are recognised when thrown by another copy of the package", () => {
    // What a plugin bundling its own skills-kernel throws: same brand, different classes.
    const foreign = Object.assign(new Error("query must not be blank"), {
      [Symbol.for("skills-kernel:error-kinds")]: ["ToolInputError"],
    });
    expect(foreign).toBeInstanceOf(ToolInputError);
    expect(foreign).not.toBeInstanceOf(UserError);
    expect(new Error("plain")).not.toBeInstanceOf(ToolInputError);
    expect(null).not.toBeInstanceOf(UserError);
  });
});
