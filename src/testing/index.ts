// skills-kernel/testing: what a plugin package's tests need to run its plugin in process.
export { startTestKernel, type TestKernel, type TestKernelOptions } from "./start-test-kernel.js";
export { memorySource, skillMd } from "./memory-source.js";
